package cogs.savina.radixsort

import cogs.savina.{BenchActor, PekkoRun, Sorted}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Radix sort on Pekko with Savina's protocol: a source actor, one actor per bit, a validator. */
object RadixSortPekko {

  private final class Value(val v: Long)
  private final class Start(val first: ActorRef)

  def run(system: ActorSystem, p: Params): Sorted = {
    val run = new PekkoRun[Sorted](system, RadixSort.name)
    var next = run.actorOf(Props(new Validator(run, p.values)))
    for (radix <- RadixSort.radixes(p).reverse) {
      val after = next
      next = run.actorOf(Props(new SortStage(run, p.values, radix, after)))
    }
    run.actorOf(Props(new Source(run, p))) ! new Start(next)
    run.await()
  }

  private final class Source(run: PekkoRun[Sorted], p: Params) extends BenchActor(run) {
    def receive: Receive = {
      case s: Start =>
        val xs = RadixSort.input(p)
        var i = 0
        while (i < xs.length) { s.first ! new Value(xs(i)); i += 1 }
        exit()
    }
  }

  private final class SortStage(run: PekkoRun[Sorted], n: Int, radix: Long, next: ActorRef) extends BenchActor(run) {
    private[this] val held = new Array[Value](n)
    private[this] var heldCount = 0
    private[this] var seen = 0

    def receive: Receive = {
      case v: Value =>
        seen += 1
        if ((v.v & radix) == 0) next ! v
        else { held(heldCount) = v; heldCount += 1 }
        if (seen == n) {
          var i = 0
          while (i < heldCount) { next ! held(i); i += 1 }
          exit()
        }
    }
  }

  private final class Validator(run: PekkoRun[Sorted], n: Int) extends BenchActor(run) {
    private[this] val validation = new Sorted.Validation

    def receive: Receive = {
      case v: Value =>
        if (validation.add(v.v) == n) { run.answer(validation.result); exit() }
    }
  }
}
