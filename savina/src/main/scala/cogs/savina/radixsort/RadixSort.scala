package cogs.savina.radixsort

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark, Sorted}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[RadixSort]]. */
final case class Params(values: Int, maxValue: Long, seed: Long) {
  require(values >= 1 && maxValue >= 2 && java.lang.Long.bitCount(maxValue) == 1, s"bad parameters $this (maxValue must be a power of two)")
  override def toString = s"values=$values max=2^${java.lang.Long.numberOfTrailingZeros(maxValue)} seed=$seed"
}

/**
 * Savina's `radixsort`: a source sends `values` random numbers below `maxValue` through a
 * pipeline of one sorting stage per bit, lowest bit first: a stage passes on at once the values
 * whose bit is 0 and holds the others until it has seen every value, then sends them on. The
 * last stage feeds a validator. The stages rely on receiving one sender's values in order. The
 * answer is checked against the sorted numbers.
 */
object RadixSort extends SavinaBenchmark[Params, Sorted] {
  val name = "radixsort"
  val title = "Radix Sort"
  val defaults: Params = Params(values = 100000, maxValue = 1L << 60, seed = 2048)
  val quick: Params = Params(values = 10000, maxValue = 1L << 30, seed = 2048)

  def input(p: Params): Array[Long] = {
    val random = new Rand(p.seed)
    Array.fill(p.values)((random.nextLong() >>> 1) % p.maxValue)
  }

  /** The radixes of the stages, in pipeline order: 1, 2, 4, ..., maxValue / 2. */
  def radixes(p: Params): List[Long] = List.iterate(1L, java.lang.Long.numberOfTrailingZeros(p.maxValue))(_ * 2)

  def expected(p: Params): Sorted = {
    val xs = input(p).sorted
    Sorted.of(xs)
  }

  def runCogs(rt: CogRuntime, p: Params): Sorted = RadixSortCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Sorted = RadixSortPekko.run(system, p)
}
