package cogs.savina.quicksort

import cogs.savina.{BenchActor, PekkoRun, Sorted}
import cogs.savina.quicksort.QuickSort.{equal, greater, less, sortSequentially}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Quicksort on Pekko with Savina's protocol: sort request, two child actors, results tagged left or right. */
object QuickSortPekko {

  private final class SortMsg(val xs: Array[Long])
  private final class ResultMsg(val xs: Array[Long], val left: Boolean)

  def run(system: ActorSystem, p: Params): Sorted = {
    val xs = QuickSort.input(p)
    val run = new PekkoRun[Array[Long]](system, QuickSort.name)
    run.actorOf(Props(new SorterActor(run, p.threshold, null, left = false))) ! new SortMsg(xs)
    Sorted.of(run.await())
  }

  private final class SorterActor(run: PekkoRun[Array[Long]], threshold: Int, parent: ActorRef, left: Boolean) extends BenchActor(run) {
    private[this] var lower: Array[Long] = _
    private[this] var middle: Array[Long] = _
    private[this] var higher: Array[Long] = _
    private[this] var fragments = 0

    def receive: Receive = {
      case s: SortMsg =>
        val xs = s.xs
        if (xs.length < threshold) done(sortSequentially(xs))
        else {
          val pivot = xs(xs.length / 2)
          run.actorOf(Props(new SorterActor(run, threshold, self, left = true))) ! new SortMsg(less(xs, pivot))
          run.actorOf(Props(new SorterActor(run, threshold, self, left = false))) ! new SortMsg(greater(xs, pivot))
          middle = equal(xs, pivot)
          fragments += 1
        }
      case r: ResultMsg =>
        if (r.left) lower = r.xs else higher = r.xs
        fragments += 1
        if (fragments == 3) done(Array.concat(lower, middle, higher))
    }

    private def done(sorted: Array[Long]): Unit = {
      if (parent eq null) run.answer(sorted) else parent ! new ResultMsg(sorted, left)
      exit()
    }
  }
}
