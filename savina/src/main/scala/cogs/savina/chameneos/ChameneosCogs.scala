package cogs.savina.chameneos

import cogs.runtime._
import cogs.savina.chameneos.Chameneos.{complement, Faded}

/**
 * Chameneos on Cogs, with the mall as a cooperative rendezvous: `meet(colour)` either finds a
 * creature waiting and returns its colour at once, or leaves a meeting record and awaits the
 * condition "a partner came" (the mall's COG serves other calls meanwhile), then returns the
 * partner's colour. A creature's life is a loop of `await mall ! meet(colour)`. Per meeting: two
 * calls and two futures (Savina's Akka version: two requests, the forward, the change message).
 */
object ChameneosCogs {

  trait Mall extends Active {
    /** The colour of the creature met, or Faded when the mall has held all its meetings. */
    def meet(colour: Int): Proc[Int]
  }

  trait Creature extends Active {
    /** Meet until told to fade; the number of meetings held. */
    def live(mall: Mall): Proc[Long]
  }

  private final class Meeting(val colour: Int) {
    var partner: Int = -1
  }

  final class MallImpl(meetings: Int) extends ActiveObject with Mall {
    private[this] var left = meetings
    private[this] var waiting: Meeting = _

    def meet(colour: Int): Proc[Int] =
      if (left == 0) Proc.done(Faded)
      else if (waiting eq null) {
        val m = new Meeting(colour)
        waiting = m
        Proc.awaitUntil(m.partner >= 0).map(_ => m.partner)
      } else {
        val m = waiting
        waiting = null
        left -= 1
        m.partner = colour
        Proc.done(m.colour)
      }
  }

  final class CreatureImpl(initial: Int) extends ActiveObject with Creature {
    private[this] var colour = initial
    private[this] var meetings = 0L

    def live(mall: Mall): Proc[Long] =
      Proc.loopWhile(colour != Faded) {
        val c = colour
        Proc.await(mall.send("meet")(_.meet(c))).map { other =>
          if (other == Faded) colour = Faded
          else { colour = complement(colour, other); meetings += 1 }
        }
      }.map(_ => meetings)
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val mall: Mall = Cogs.spawn(new MallImpl(p.meetings))
      val lives = List.tabulate(p.chameneos) { i =>
        val c: Creature = Cogs.spawn(new CreatureImpl(i % 3))
        c.send("live")(_.live(mall))
      }
      Proc.awaitAll(lives).map(_.sum)
    }
}
