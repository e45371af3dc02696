package cogs.savina.threadring

import cogs.runtime._
import cogs.savina.{Sink, SinkImpl}

/**
 * Thread Ring on Cogs: each member is an object in a COG of its own; a hop is a one-way
 * call `next.tell("ping")(_.ping(k - 1))` (no future). The last exit call delivers the answer to
 * a sink in the main block's COG, which the main block awaits.
 */
object ThreadRingCogs {

  trait Member extends Active {
    def link(next: Member): Proc[Unit]
    def ping(left: Int): Proc[Unit]
    /** The exit token: `left` members still to visit, the pings counted so far, who got the last ping. */
    def exit(left: Int, counted: Long, lastHolder: Int): Proc[Unit]
  }

  final class MemberImpl(id: Int, size: Int, sink: Sink[RingAnswer]) extends ActiveObject with Member {
    private[this] var next: Member = _
    private[this] var pings = 0L

    def link(next: Member): Proc[Unit] = { this.next = next; Proc.unit }

    def ping(left: Int): Proc[Unit] = {
      pings += 1
      if (left > 0) next.tell("ping")(_.ping(left - 1))
      else {
        val me = id
        next.tell("exit")(_.exit(size, 0L, me))
      }
      Proc.unit
    }

    def exit(left: Int, counted: Long, lastHolder: Int): Proc[Unit] = {
      val total = counted + pings
      if (left > 1) next.tell("exit")(_.exit(left - 1, total, lastHolder))
      else sink.tell("deliver")(_.deliver(RingAnswer(total, lastHolder)))
      Proc.unit
    }
  }

  def run(rt: CogRuntime, p: Params): RingAnswer =
    rt.run {
      val sink = Cogs.spawnLocal(new SinkImpl[RingAnswer])
      val ring: Array[Member] = Array.tabulate(p.actors)(i => Cogs.spawn(new MemberImpl(i, p.actors, sink)))
      // Every link call is in its member's inbox before the token starts, hence before the
      // token can reach that member (a COG runs its calls in arrival order).
      var i = 0
      while (i < ring.length) {
        val next = ring((i + 1) % ring.length)
        ring(i).tell("link")(_.link(next))
        i += 1
      }
      ring(0).tell("ping")(_.ping(p.pings))
      sink.result
    }
}
