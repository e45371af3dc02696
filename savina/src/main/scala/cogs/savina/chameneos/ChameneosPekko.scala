package cogs.savina.chameneos

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.chameneos.Chameneos.{complement, Faded}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * Chameneos on Pekko with Savina's protocol: a creature sends "meet" to the mall; the mall keeps
 * the first, forwards the second's request to the first, which changes colour, tells the second
 * its colour and asks for the next meeting; after the last meeting the mall answers "exit", and
 * each creature reports its count to the mall before it stops.
 */
object ChameneosPekko {

  private final class Meet(val colour: Int, val sender: ActorRef)
  private final class Change(val colour: Int)
  private final class Exit(val mall: ActorRef)
  private final class MeetingCount(val count: Long)

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, Chameneos.name)
    run.actorOf(Props(new MallActor(run, p)))
    run.await()
  }

  private final class MallActor(run: PekkoRun[Long], p: Params) extends BenchActor(run) {
    private[this] var left = p.meetings
    private[this] var waiting: ActorRef = _
    private[this] var faded = 0
    private[this] var sum = 0L

    for (i <- 0 until p.chameneos) run.actorOf(Props(new CreatureActor(run, self, i % 3)))

    def receive: Receive = {
      case m: Meet =>
        if (left > 0) {
          if (waiting eq null) waiting = m.sender
          else {
            left -= 1
            waiting ! m
            waiting = null
          }
        } else m.sender ! new Exit(self)
      case c: MeetingCount =>
        faded += 1
        sum += c.count
        if (faded == p.chameneos) { run.answer(sum); exit() }
    }
  }

  private final class CreatureActor(run: PekkoRun[Long], mall: ActorRef, initial: Int) extends BenchActor(run) {
    private[this] var colour = initial
    private[this] var meetings = 0L

    mall ! new Meet(colour, self)

    def receive: Receive = {
      case m: Meet =>
        colour = complement(colour, m.colour)
        meetings += 1
        m.sender ! new Change(colour)
        mall ! new Meet(colour, self)
      case c: Change =>
        colour = c.colour
        meetings += 1
        mall ! new Meet(colour, self)
      case e: Exit =>
        colour = Faded
        e.mall ! new MeetingCount(meetings)
        exit()
    }
  }
}
