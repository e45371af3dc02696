package cogs.savina.quicksort

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark, Sorted}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[QuickSort]]. */
final case class Params(values: Int, maxValue: Long, threshold: Int, seed: Long) {
  require(values >= 0 && maxValue >= 1 && threshold >= 2, s"bad parameters $this")
  override def toString = {
    val max = if (java.lang.Long.bitCount(maxValue) == 1) s"2^${java.lang.Long.numberOfTrailingZeros(maxValue)}" else maxValue.toString
    s"values=$values max=$max threshold=$threshold seed=$seed"
  }
}

/**
 * Savina's `quicksort`: sorting by a tree of actors. An actor given fewer than `threshold`
 * values sorts them itself; otherwise it splits them around the middle element's value, gives
 * the smaller and the larger ones to two new actors, and concatenates their answers with the
 * equal ones. Values are primitive arrays here (Savina uses lists of boxed longs, in both of
 * its versions alike). The answer is checked against the sorted input.
 */
object QuickSort extends SavinaBenchmark[Params, Sorted] {
  val name = "quicksort"
  val title = "Quicksort"
  val defaults: Params = Params(values = 1000000, maxValue = 1L << 60, threshold = 2048, seed = 1024)
  val quick: Params = Params(values = 100000, maxValue = 1L << 60, threshold = 2048, seed = 1024)

  def input(p: Params): Array[Long] = {
    val random = new Rand(p.seed)
    Array.fill(p.values)((random.nextLong() >>> 1) % p.maxValue)
  }

  def expected(p: Params): Sorted = Sorted.of(input(p).sorted)

  def less(xs: Array[Long], pivot: Long): Array[Long] = xs.filter(_ < pivot)
  def equal(xs: Array[Long], pivot: Long): Array[Long] = xs.filter(_ == pivot)
  def greater(xs: Array[Long], pivot: Long): Array[Long] = xs.filter(_ > pivot)

  /** Savina's sequential kernel: the same split, recursively, on one thread. */
  def sortSequentially(xs: Array[Long]): Array[Long] =
    if (xs.length < 2) xs
    else {
      val pivot = xs(xs.length / 2)
      Array.concat(sortSequentially(less(xs, pivot)), equal(xs, pivot), sortSequentially(greater(xs, pivot)))
    }

  def runCogs(rt: CogRuntime, p: Params): Sorted = QuickSortCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Sorted = QuickSortPekko.run(system, p)
}
