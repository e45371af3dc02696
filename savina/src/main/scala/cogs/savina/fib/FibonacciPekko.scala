package cogs.savina.fib

import cogs.savina.{BenchActor, PekkoRun}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Fibonacci on Pekko with Savina's protocol: a request creates two child actors; a node answers its parent when both children answered, then stops. */
object FibonacciPekko {

  private final class Request(val n: Int)
  private final class Response(val value: Long)

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, Fibonacci.name)
    run.actorOf(Props(new FibActor(run, null))) ! new Request(p.n)
    run.await()
  }

  private final class FibActor(run: PekkoRun[Long], parent: ActorRef) extends BenchActor(run) {
    private[this] var result = 0L
    private[this] var responses = 0

    def receive: Receive = {
      case r: Request =>
        if (r.n <= 2) respond(1L)
        else {
          run.actorOf(Props(new FibActor(run, self))) ! new Request(r.n - 1)
          run.actorOf(Props(new FibActor(run, self))) ! new Request(r.n - 2)
        }
      case r: Response =>
        result += r.value
        responses += 1
        if (responses == 2) respond(result)
    }

    private def respond(value: Long): Unit = {
      if (parent eq null) run.answer(value) else parent ! new Response(value)
      exit()
    }
  }
}
