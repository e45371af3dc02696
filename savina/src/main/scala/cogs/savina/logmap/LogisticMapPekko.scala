package cogs.savina.logmap

import cogs.savina.{BenchActor, PekkoRun}
import java.util.ArrayDeque
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * Logistic map on Pekko with Savina's protocol (its "manual stash" version): a series worker
 * that asked its rate computer stashes every message until the answer came; the master collects
 * the workers' terms after sending all steps. Savina's worker re-sends stashed messages to
 * itself one at a time, which lets a "get term" overtake a re-sent step (a wrong answer, which
 * the check caught); here the stash is replayed in order, in place.
 */
object LogisticMapPekko {

  private case object Start
  private case object NextTerm
  private case object GetTerm
  private final class Compute(val x: Double)
  private final class Result(val x: Double)
  private final class Term(val id: Int, val x: Double)
  private case object Stop

  def run(system: ActorSystem, p: Params): Double = {
    val run = new PekkoRun[Double](system, LogisticMap.name)
    run.actorOf(Props(new Master(run, p))) ! Start
    run.await()
  }

  private final class Master(run: PekkoRun[Double], p: Params) extends BenchActor(run) {
    private[this] val computers = Array.tabulate(p.series)(i => run.actorOf(Props(new RateComputer(run, LogisticMap.rate(p, i)))))
    private[this] val workers =
      Array.tabulate(p.series)(i => run.actorOf(Props(new SeriesWorker(run, i, self, computers(i), LogisticMap.startTerm(p, i)))))
    private[this] val terms = new Array[Double](p.series)
    private[this] var received = 0

    def receive: Receive = {
      case Start =>
        var t = 0
        while (t < p.terms) { workers.foreach(_ ! NextTerm); t += 1 }
        workers.foreach(_ ! GetTerm)
      case t: Term =>
        terms(t.id) = t.x
        received += 1
        if (received == p.series) {
          computers.foreach(_ ! Stop)
          workers.foreach(_ ! Stop)
          run.answer(LogisticMap.sum(terms))
          exit()
        }
    }
  }

  private final class SeriesWorker(run: PekkoRun[Double], id: Int, master: ActorRef, computer: ActorRef, start: Double)
      extends BenchActor(run) {
    private[this] var x = start
    private[this] var waiting = false
    private[this] val stash = new ArrayDeque[Any]()

    def receive: Receive = { case msg => handle(msg) }

    private def handle(msg: Any): Unit = msg match {
      case r: Result if waiting =>
        waiting = false
        x = r.x
        // Run the stashed messages in order until one asks the computer again.
        while (!waiting && !stash.isEmpty) handle(stash.pollFirst())
      case other if waiting => stash.addLast(other)
      case NextTerm =>
        computer ! new Compute(x)
        waiting = true
      case GetTerm => master ! new Term(id, x)
      case Stop    => exit()
    }
  }

  private final class RateComputer(run: PekkoRun[Double], rate: Double) extends BenchActor(run) {
    def receive: Receive = {
      case c: Compute => context.sender() ! new Result(LogisticMap.nextTerm(c.x, rate))
      case Stop       => exit()
    }
  }
}
