package cogs.savina.threadring

import cogs.savina.{BenchActor, PekkoRun}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Thread Ring on Pekko with Savina's protocol (a data message links each member to the next). */
object ThreadRingPekko {

  private final class Link(val next: ActorRef)
  private final class Ping(val left: Int)
  private final class Exit(val left: Int, val counted: Long, val lastHolder: Int)

  def run(system: ActorSystem, p: Params): RingAnswer = {
    val run = new PekkoRun[RingAnswer](system, ThreadRing.name)
    val ring = Array.tabulate(p.actors)(i => run.actorOf(Props(new Member(run, i, p.actors))))
    for (i <- ring.indices) ring(i) ! new Link(ring((i + 1) % ring.length))
    ring(0) ! new Ping(p.pings)
    run.await()
  }

  private final class Member(run: PekkoRun[RingAnswer], id: Int, size: Int) extends BenchActor(run) {
    private[this] var next: ActorRef = _
    private[this] var pings = 0L

    def receive: Receive = {
      case l: Link => next = l.next
      case p: Ping =>
        pings += 1
        if (p.left > 0) next ! new Ping(p.left - 1)
        else next ! new Exit(size, 0L, id)
      case e: Exit =>
        val total = e.counted + pings
        if (e.left > 1) next ! new Exit(e.left - 1, total, e.lastHolder)
        else run.answer(RingAnswer(total, e.lastHolder))
        exit()
    }
  }
}
