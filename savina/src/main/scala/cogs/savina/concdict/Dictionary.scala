package cogs.savina.concdict

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Dictionary]]. */
final case class Params(workers: Int, messagesPerWorker: Int, writePercent: Int, dataLimit: Int) {
  require(workers >= 1 && messagesPerWorker >= 0 && writePercent >= 0 && writePercent <= 100 && dataLimit >= 1 && dataLimit <= Int.MaxValue / 4, s"bad parameters $this")
  override def toString = s"workers=$workers messages=$messagesPerWorker writes=$writePercent% initial=$dataLimit"
}

/** What the workers and the dictionary saw: replies, the dictionary's final size, the sum of the values read for initial keys. */
final case class DictAnswer(replies: Long, finalSize: Int, initialReads: Long) {
  override def toString = s"$replies replies, final size $finalSize, initial reads sum $initialReads"
}

/**
 * Savina's `concdict`: `workers` workers send a dictionary actor `messagesPerWorker` requests
 * each, one at a time, `writePercent`% writes and the rest reads of random keys. The dictionary
 * starts with keys 0 until `dataLimit` (key i holds i), copied from a shared map in each run.
 * Writes here use keys from `dataLimit` up (Savina's use any key), so what a read of an initial
 * key returns does not depend on the interleaving, and reads use keys below `2 * dataLimit`
 * (Savina's use any key, so almost all miss), so that half of them hit an initial key: the sum of
 * the values read for initial keys is checked exactly.
 */
object Dictionary extends SavinaBenchmark[Params, DictAnswer] {
  val name = "concdict"
  val title = "Concurrent Dictionary"
  val defaults: Params = Params(workers = 20, messagesPerWorker = 10000, writePercent = 10, dataLimit = Int.MaxValue / 4096)
  val quick: Params = Params(workers = 10, messagesPerWorker = 2000, writePercent = 10, dataLimit = 10000)

  sealed trait Request
  final case class Write(key: Int, value: Int) extends Request
  final case class Read(key: Int) extends Request

  /** Worker `id`'s requests, in order. */
  final class Requests(p: Params, id: Int) {
    private[this] val random = new Rand(id + p.messagesPerWorker + p.writePercent)
    def next(): Request =
      if (random.nextInt(100) < p.writePercent)
        Write(p.dataLimit + random.nextInt(Int.MaxValue - p.dataLimit), random.nextInt(Int.MaxValue))
      else Read(random.nextInt(2 * p.dataLimit))
  }

  private[this] val initialMaps = new java.util.concurrent.ConcurrentHashMap[Integer, java.util.HashMap[Integer, Integer]]()

  /** The shared initial map (built once per JVM and size); each run copies it, as Savina's dictionary does. */
  def initial(limit: Int): java.util.HashMap[Integer, Integer] =
    initialMaps.computeIfAbsent(limit, _ => {
      val m = new java.util.HashMap[Integer, Integer](limit * 2)
      for (k <- 0 until limit) m.put(k, k)
      m
    })

  def expected(p: Params): DictAnswer = {
    val written = new java.util.HashSet[Integer]()
    var reads = 0L
    for (w <- 0 until p.workers) {
      val rs = new Requests(p, w)
      for (_ <- 0 until p.messagesPerWorker) rs.next() match {
        case Write(k, _)                  => written.add(k)
        case Read(k) if k < p.dataLimit   => reads += k
        case Read(_)                      => ()
      }
    }
    DictAnswer(p.workers.toLong * p.messagesPerWorker, p.dataLimit + written.size, reads)
  }

  /** A read's contribution to `initialReads`. */
  def initialRead(p: Params, key: Int, value: Integer): Long = if (key < p.dataLimit && (value ne null)) value.longValue else 0L

  def runCogs(rt: CogRuntime, p: Params): DictAnswer = DictionaryCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): DictAnswer = DictionaryPekko.run(system, p)
}
