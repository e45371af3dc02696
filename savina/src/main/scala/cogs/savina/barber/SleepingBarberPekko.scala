package cogs.savina.barber

import cogs.savina.{BenchActor, PekkoRun, Rand, Work}
import java.util.ArrayDeque
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Sleeping Barber on Pekko with Savina's protocol (enter, full, wait, next, start, done, returned, exit). */
object SleepingBarberPekko {

  private case object Start
  private final class Enter(val customer: ActorRef, val room: ActorRef)
  private final class Returned(val customer: ActorRef)
  private case object Full
  private case object Wait
  private case object Next
  private case object Done
  private case object Exit

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, SleepingBarber.name)
    val barber = run.actorOf(Props(new BarberActor(run, p)))
    val room = run.actorOf(Props(new RoomActor(run, p.waitingRoom, barber)))
    val factory = run.actorOf(Props(new FactoryActor(run, p, room)))
    factory ! Start
    run.await()
  }

  private final class RoomActor(run: PekkoRun[Long], chairs: Int, barber: ActorRef) extends BenchActor(run) {
    private[this] val waiting = new ArrayDeque[ActorRef](chairs)
    private[this] var barberAsleep = true

    def receive: Receive = {
      case e: Enter =>
        if (waiting.size == chairs) e.customer ! Full
        else {
          waiting.addLast(e.customer)
          if (barberAsleep) { barberAsleep = false; self ! Next }
          else e.customer ! Wait
        }
      case Next =>
        if (!waiting.isEmpty) barber ! new Enter(waiting.pollFirst(), self)
        else { barber ! Wait; barberAsleep = true }
      case Exit =>
        barber ! Exit
        exit()
    }
  }

  private final class BarberActor(run: PekkoRun[Long], p: Params) extends BenchActor(run) {
    private[this] val random = new Rand(7)

    def receive: Receive = {
      case e: Enter =>
        e.customer ! Start
        Work.busyWait(random, random.nextInt(p.haircutRate) + 10)
        e.customer ! Done
        e.room ! Next
      case Wait => ()
      case Exit => exit()
    }
  }

  private final class FactoryActor(run: PekkoRun[Long], p: Params, room: ActorRef) extends BenchActor(run) {
    private[this] val random = new Rand(11)
    private[this] var served = 0L
    private[this] var attempts = 0L

    def receive: Receive = {
      case Start =>
        var i = 0
        while (i < p.haircuts) {
          val c = run.actorOf(Props(new CustomerActor(run, self)))
          attempts += 1
          room ! new Enter(c, room)
          Work.busyWait(random, random.nextInt(p.productionRate) + 10)
          i += 1
        }
      case r: Returned =>
        attempts += 1
        room ! new Enter(r.customer, room)
      case Done =>
        served += 1
        if (served == p.haircuts) {
          room ! Exit
          run.answer(served)
          exit()
        }
    }
  }

  private final class CustomerActor(run: PekkoRun[Long], factory: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case Full  => factory ! new Returned(self)
      case Wait  => ()
      case Start => ()
      case Done =>
        factory ! Done
        exit()
    }
  }
}
