package cogs.savina.bndbuffer

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[ProducerConsumer]]. */
final case class Params(bufferSize: Int, producers: Int, consumers: Int, itemsPerProducer: Int, produceCost: Int, consumeCost: Int) {
  require(bufferSize >= 1 && producers >= 1 && consumers >= 1 && itemsPerProducer >= 0 && produceCost >= 0 && consumeCost >= 0,
    s"bad parameters $this")
  override def toString =
    s"buffer=$bufferSize producers=$producers consumers=$consumers items=$itemsPerProducer costs=$produceCost/$consumeCost"

  /** Savina's manager holds at most `bufferSize - producers` items (the rest are with the producers), at least one. */
  def capacity: Int = math.max(1, bufferSize - producers)
}

/** What the consumers saw: how many items, and a digest of which (producer, sequence number, value) they were. */
final case class Consumed(items: Long, digest: Long) {
  override def toString = s"$items items, digest ${java.lang.Long.toHexString(digest)}"
}

/**
 * Savina's `bndbuffer` (producer-consumer with a bounded buffer): `producers` producers each
 * make `itemsPerProducer` items, each costing `produceCost` units of work, and put them in a
 * buffer; `consumers` consumers take them, each costing `consumeCost` units. The answer is the
 * number of items consumed and a digest of their identities and values, which must be those of
 * every item produced, each exactly once.
 */
object ProducerConsumer extends SavinaBenchmark[Params, Consumed] {
  val name = "bndbuffer"
  val title = "Producer-Consumer with Bounded Buffer"
  val defaults: Params = Params(bufferSize = 50, producers = 40, consumers = 40, itemsPerProducer = 1000, produceCost = 25, consumeCost = 25)
  val quick: Params = Params(bufferSize = 20, producers = 10, consumers = 10, itemsPerProducer = 100, produceCost = 25, consumeCost = 25)

  /** Savina's unit of work: `cost` x 100 logarithms of pseudo-random numbers, added to `current`. */
  def processItem(current: Double, cost: Int): Double = {
    var res = current
    val random = new Rand(cost)
    if (cost > 0) {
      var i = 0
      while (i < cost * 100) { res += math.log(math.abs(random.nextDouble()) + 0.01); i += 1 }
    } else res += math.log(math.abs(random.nextDouble()) + 0.01)
    res
  }

  /** An item: who made it, its sequence number there, and its value. */
  final class Item(val producer: Int, val seq: Int, val value: Double)

  /** An item's contribution to the digest (a sum, so the order of consumption does not matter). */
  def mix(producer: Int, seq: Int, value: Double): Long = {
    var h = (producer.toLong << 32) ^ seq.toLong ^ java.lang.Double.doubleToLongBits(value) * 0x9e3779b97f4a7c15L
    h ^= h >>> 29
    h *= 0xbf58476d1ce4e5b9L
    h ^ (h >>> 32)
  }

  def expected(p: Params): Consumed = {
    // Every producer's sequence of values is the same (it starts from 0.0 with the same cost).
    val values = new Array[Double](p.itemsPerProducer)
    var v = 0.0
    for (k <- 0 until p.itemsPerProducer) { v = processItem(v, p.produceCost); values(k) = v }
    var digest = 0L
    for (pr <- 0 until p.producers; k <- 0 until p.itemsPerProducer) digest += mix(pr, k, values(k))
    Consumed(p.producers.toLong * p.itemsPerProducer, digest)
  }

  def runCogs(rt: CogRuntime, p: Params): Consumed = ProducerConsumerCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Consumed = ProducerConsumerPekko.run(system, p)
}
