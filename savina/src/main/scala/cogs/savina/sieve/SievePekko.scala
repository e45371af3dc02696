package cogs.savina.sieve

import cogs.savina.{BenchActor, PekkoRun}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Sieve on Pekko with Savina's protocol: a producer actor sends the candidates, then an exit marker. */
object SievePekko {

  private final class Candidate(val n: Long)
  private case object Exit
  private final class Produce(val first: ActorRef)

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, Sieve.name)
    val producer = run.actorOf(Props(new Producer(run, p.limit)))
    val first = run.actorOf(Props(new FilterActor(run, 0, 2, p.primesPerFilter)))
    producer ! new Produce(first)
    run.await()
  }

  private final class Producer(run: PekkoRun[Long], limit: Long) extends BenchActor(run) {
    def receive: Receive = {
      case p: Produce =>
        var n = 3L
        while (n < limit) { p.first ! new Candidate(n); n += 2 }
        p.first ! Exit
        exit()
    }
  }

  private final class FilterActor(run: PekkoRun[Long], index: Int, first: Long, capacity: Int) extends BenchActor(run) {
    private[this] val primes = new Array[Long](capacity)
    private[this] var count = 1
    private[this] var next: ActorRef = _
    primes(0) = first

    def receive: Receive = {
      case c: Candidate =>
        if (Sieve.locallyPrime(c.n, primes, count)) {
          if (next ne null) next ! c
          else if (count < capacity) { primes(count) = c.n; count += 1 }
          else next = run.actorOf(Props(new FilterActor(run, index + 1, c.n, capacity)))
        }
      case Exit =>
        if (next ne null) next ! Exit
        else run.answer(index.toLong * capacity + count)
        exit()
    }
  }
}
