package cogs.savina.philosopher

import cogs.savina.{BenchActor, PekkoRun}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Dining Philosophers on Pekko with Savina's protocol: start, hungry, denied or eat, done, exit. */
object PhilosophersPekko {

  private case object Start
  private final class Hungry(val philosopher: ActorRef, val id: Int)
  private final class Done(val id: Int)
  private case object Eat
  private case object Denied
  private case object Exit

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, Philosophers.name)
    val arbitrator = run.actorOf(Props(new ArbitratorActor(run, p.philosophers)))
    val philosophers = Array.tabulate(p.philosophers)(i => run.actorOf(Props(new PhilosopherActor(run, i, p.rounds, arbitrator))))
    philosophers.foreach(_ ! Start)
    run.await()
  }

  private final class PhilosopherActor(run: PekkoRun[Long], id: Int, rounds: Int, arbitrator: ActorRef) extends BenchActor(run) {
    private[this] var denied = 0L
    private[this] var eaten = 0
    private[this] val hungry = new Hungry(self, id)
    private[this] val done = new Done(id)

    def receive: Receive = {
      case Denied =>
        denied += 1
        arbitrator ! hungry
      case Eat =>
        eaten += 1
        arbitrator ! done
        if (eaten < rounds) self ! Start
        else { arbitrator ! Exit; exit() }
      case Start => arbitrator ! hungry
    }
  }

  private final class ArbitratorActor(run: PekkoRun[Long], n: Int) extends BenchActor(run) {
    private[this] val forks = new Array[Boolean](n)
    private[this] var exited = 0
    private[this] var meals = 0L

    def receive: Receive = {
      case h: Hungry =>
        val left = h.id
        val right = (h.id + 1) % n
        if (forks(left) || forks(right)) h.philosopher ! Denied
        else { forks(left) = true; forks(right) = true; h.philosopher ! Eat }
      case d: Done =>
        forks(d.id) = false
        forks((d.id + 1) % n) = false
        meals += 1
      case Exit =>
        exited += 1
        if (exited == n) { run.answer(meals); exit() }
    }
  }
}
