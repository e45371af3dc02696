package cogs.savina.chameneos

import cogs.runtime._
import cogs.savina.{Sink, SinkImpl}
import cogs.savina.chameneos.Chameneos.{complement, Faded}

/**
 * Chameneos on Cogs with Savina's protocol, every message a one-way call (no future), as the
 * Pekko version sends them: a creature calls `mall.meet(colour, me)`; the mall keeps the first
 * request and forwards the second to the first creature, which changes colour, tells the second
 * its new colour and asks for its next meeting; after the last meeting the mall answers `exit`,
 * and each creature reports its count to the mall, which delivers the sum to the main block.
 *
 * Per meeting the mall (the one object every meeting goes through, so the benchmark's critical
 * path) runs two short calls and makes one. An earlier version had the mall answer each `meet`
 * call's future, keeping the first caller's process suspended in the mall on the condition "a
 * partner came": the mall then ran three slices, parked a process and resolved two futures per
 * meeting, twice Pekko's mall's messages, and took about four times Pekko's time
 * (`docs/benchmarks.md`, section 1, eighth session).
 */
object ChameneosCogs {

  trait Mall extends Active {
    def meet(colour: Int, from: Creature): Proc[Unit]
    def count(meetings: Long): Proc[Unit]
  }

  trait Creature extends Active {
    def start(): Proc[Unit]
    /** The mall paired this creature with `other`, whose colour is `colour`. */
    def meet(colour: Int, other: Creature): Proc[Unit]
    /** The creature met took colour `colour`; so does this one. */
    def change(colour: Int): Proc[Unit]
    def exit(): Proc[Unit]
  }

  final class MallImpl(meetings: Int, creatures: Int, sink: Sink[Long]) extends ActiveObject with Mall {
    private[this] var left = meetings
    private[this] var waiting: Creature = _
    private[this] var waitingColour = 0
    private[this] var faded = 0
    private[this] var sum = 0L

    def meet(colour: Int, from: Creature): Proc[Unit] = {
      if (left == 0) from.tell("exit")(_.exit())
      else if (waiting eq null) { waiting = from; waitingColour = colour }
      else {
        left -= 1
        waiting.tell("meet")(_.meet(colour, from))
        waiting = null
      }
      Proc.unit
    }

    def count(meetings: Long): Proc[Unit] = {
      faded += 1
      sum += meetings
      if (faded == creatures) { val s = sum; sink.tell("deliver")(_.deliver(s)) }
      Proc.unit
    }
  }

  final class CreatureImpl(initial: Int, mall: Mall) extends ActiveObject with Creature {
    private[this] var colour = initial
    private[this] var meetings = 0L

    private def next(): Unit = {
      val c = colour
      val me: Creature = this
      mall.tell("meet")(_.meet(c, me))
    }

    def start(): Proc[Unit] = { next(); Proc.unit }

    def meet(colour: Int, other: Creature): Proc[Unit] = {
      this.colour = complement(this.colour, colour)
      meetings += 1
      val c = this.colour
      other.tell("change")(_.change(c))
      next()
      Proc.unit
    }

    def change(colour: Int): Proc[Unit] = {
      this.colour = colour
      meetings += 1
      next()
      Proc.unit
    }

    def exit(): Proc[Unit] = {
      colour = Faded
      val n = meetings
      mall.tell("count")(_.count(n))
      Proc.unit
    }
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val sink = Cogs.spawnLocal(new SinkImpl[Long])
      val mall: Mall = Cogs.spawn(new MallImpl(p.meetings, p.chameneos, sink))
      var i = 0
      while (i < p.chameneos) {
        val c: Creature = Cogs.spawn(new CreatureImpl(i % 3, mall))
        c.tell("start")(_.start())
        i += 1
      }
      sink.result
    }
}
