package cogs.savina.trapezoid

import cogs.savina.{BenchActor, PekkoRun}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Trapezoidal approximation on Pekko as in Savina: the master sends each worker its sub-interval; each answers its area and stops. */
object TrapezoidalPekko {

  private case object Start
  private final class Work(val i: Int)
  private final class Area(val i: Int, val area: Double)

  def run(system: ActorSystem, p: Params): Double = {
    val run = new PekkoRun[Double](system, Trapezoidal.name)
    run.actorOf(Props(new Master(run, p))) ! Start
    run.await()
  }

  private final class Master(run: PekkoRun[Double], p: Params) extends BenchActor(run) {
    private[this] val workers = Array.fill(p.workers)(run.actorOf(Props(new Worker(run, p, self))))
    private[this] val areas = new Array[Double](p.workers)
    private[this] var received = 0

    def receive: Receive = {
      case Start => for (i <- workers.indices) workers(i) ! new Work(i)
      case a: Area =>
        areas(a.i) = a.area
        received += 1
        if (received == p.workers) { run.answer(Trapezoidal.sum(areas)); exit() }
    }
  }

  private final class Worker(run: PekkoRun[Double], p: Params, master: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case w: Work =>
        master ! new Area(w.i, Trapezoidal.area(p, w.i))
        exit()
    }
  }
}
