package cogs.savina.cigsmok

import cogs.savina.{BenchActor, Digest, PekkoRun, Rand, Work}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Cigarette Smokers on Pekko with Savina's protocol: start smoking, started smoking, exit. Smokers record their counts when they stop (the check). */
object CigaretteSmokersPekko {

  private case object Start
  private final class StartSmoking(val period: Int)
  private case object StartedSmoking
  private case object Exit

  def run(system: ActorSystem, p: Params): Smoked = {
    val run = new PekkoRun[Smoked](system, CigaretteSmokers.name)
    val counts = new Array[Long](p.smokers)
    run.actorOf(Props(new ArbiterActor(run, p, counts))) ! Start
    run.awaitStopped() // every smoker wrote its count before it stopped
    Smoked(counts.sum, Digest.of(counts))
  }

  private final class ArbiterActor(run: PekkoRun[Smoked], p: Params, counts: Array[Long]) extends BenchActor(run) {
    private[this] val smokers = Array.tabulate(p.smokers)(i => run.actorOf(Props(new SmokerActor(run, i, self, counts))))
    private[this] val choices = new CigaretteSmokers.Choices(p)
    private[this] var rounds = 0

    def receive: Receive = {
      case Start => notifySmoker()
      case StartedSmoking =>
        rounds += 1
        if (rounds >= p.rounds) { smokers.foreach(_ ! Exit); exit() }
        else notifySmoker()
    }

    private def notifySmoker(): Unit = {
      val (s, period) = choices.next()
      smokers(s) ! new StartSmoking(period)
    }
  }

  private final class SmokerActor(run: PekkoRun[Smoked], id: Int, arbiter: ActorRef, counts: Array[Long]) extends BenchActor(run) {
    private[this] val random = new Rand(id)
    private[this] var count = 0L

    def receive: Receive = {
      case s: StartSmoking =>
        arbiter ! StartedSmoking
        count += 1
        Work.busyWait(random, s.period)
      case Exit =>
        counts(id) = count
        exit()
    }
  }
}
