package cogs.savina.quicksort

import cogs.runtime._
import cogs.savina.Sorted
import cogs.savina.quicksort.QuickSort.{equal, greater, less, sortSequentially}

/** Quicksort on Cogs: `sort` splits, creates two sorters (each in a new COG), calls both, and awaits both futures. */
object QuickSortCogs {

  trait Sorter extends Active {
    def sort(xs: Array[Long]): Proc[Array[Long]]
  }

  final class SorterImpl(threshold: Int) extends ActiveObject with Sorter {
    def sort(xs: Array[Long]): Proc[Array[Long]] =
      if (xs.length < threshold) Proc.done(sortSequentially(xs))
      else {
        val pivot = xs(xs.length / 2)
        val left: Sorter = Cogs.spawn(new SorterImpl(threshold))
        val lower = less(xs, pivot)
        val fl = left.send("sort")(_.sort(lower))
        val right: Sorter = Cogs.spawn(new SorterImpl(threshold))
        val higher = greater(xs, pivot)
        val fr = right.send("sort")(_.sort(higher))
        val middle = equal(xs, pivot)
        Proc.await(fl).flatMap(l => Proc.await(fr).map(r => Array.concat(l, middle, r)))
      }
  }

  def run(rt: CogRuntime, p: Params): Sorted = {
    val xs = QuickSort.input(p)
    Sorted.of(rt.run {
      val root: Sorter = Cogs.spawn(new SorterImpl(p.threshold))
      Proc.await(root.send("sort")(_.sort(xs)))
    })
  }
}
