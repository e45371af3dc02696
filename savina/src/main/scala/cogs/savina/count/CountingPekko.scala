package cogs.savina.count

import cogs.savina.{BenchActor, PekkoRun}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Counting on Pekko with Savina's protocol: increments, a retrieve message, the result back to the producer. */
object CountingPekko {

  private case object Start
  private case object Increment
  private final class Retrieve(val sender: ActorRef)
  private final class Total(val count: Long)

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, Counting.name)
    val counter = run.actorOf(Props(new CounterActor(run)))
    val producer = run.actorOf(Props(new ProducerActor(run, counter, p.messages)))
    producer ! Start
    run.await()
  }

  private final class ProducerActor(run: PekkoRun[Long], counter: ActorRef, n: Int) extends BenchActor(run) {
    def receive: Receive = {
      case Start =>
        var i = 0
        while (i < n) { counter ! Increment; i += 1 }
        counter ! new Retrieve(self)
      case t: Total =>
        run.answer(t.count)
        exit()
    }
  }

  private final class CounterActor(run: PekkoRun[Long]) extends BenchActor(run) {
    private[this] var count = 0L
    def receive: Receive = {
      case Increment => count += 1
      case r: Retrieve =>
        r.sender ! new Total(count)
        exit()
    }
  }
}
