package cogs.savina.piprecision

import cogs.savina.{BenchActor, PekkoRun}
import java.math.BigDecimal
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Pi precision on Pekko with Savina's protocol: work and result messages; each result triggers the next term for the same worker until a term is small enough. */
object PiPrecisionPekko {

  private case object Start
  private final class Work(val scale: Int, val k: Int)
  private final class Result(val term: BigDecimal, val worker: Int)
  private case object Stop

  def run(system: ActorSystem, p: Params): BigDecimal = {
    val run = new PekkoRun[BigDecimal](system, PiPrecision.name)
    run.actorOf(Props(new Master(run, p))) ! Start
    run.await()
  }

  private final class Master(run: PekkoRun[BigDecimal], p: Params) extends BenchActor(run) {
    private[this] val workers = Array.tabulate(p.workers)(i => run.actorOf(Props(new Worker(run, i, self))))
    private[this] val tolerance = PiPrecision.tolerance(p)
    private[this] var sum = BigDecimal.ZERO
    private[this] var requested = 0
    private[this] var received = 0
    private[this] var stopRequests = false
    private[this] var stopped = 0

    private def generate(w: Int): Unit = {
      workers(w) ! new Work(p.precision, requested)
      requested += 1
    }

    def receive: Receive = {
      case Start => for (t <- 0 until PiPrecision.inFlight(p)) generate(t % p.workers)
      case r: Result =>
        received += 1
        sum = sum.add(r.term)
        if (r.term.compareTo(tolerance) <= 0) stopRequests = true
        if (!stopRequests) generate(r.worker)
        if (received == requested) workers.foreach(_ ! Stop)
      case Stop =>
        stopped += 1
        if (stopped == p.workers) { run.answer(sum); exit() }
    }
  }

  private final class Worker(run: PekkoRun[BigDecimal], id: Int, master: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case w: Work => master ! new Result(PiPrecision.term(w.scale, w.k), id)
      case Stop =>
        master ! Stop
        exit()
    }
  }
}
