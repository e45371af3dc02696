package cogs.savina.pingpong

import cogs.savina.{BenchActor, PekkoRun}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Ping Pong on Pekko with Savina's protocol: ping sends a ping, pong replies, ping sends itself a message to start the next round. */
object PingPongPekko {

  private case object Start
  private case object Next
  private final class SendPing(val sender: ActorRef)
  private case object Pong
  private case object Stop

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, PingPong.name)
    val pong = run.actorOf(Props(new PongActor(run)))
    val ping = run.actorOf(Props(new PingActor(run, p.pings, pong)))
    ping ! Start
    run.await()
  }

  private final class PingActor(run: PekkoRun[Long], count: Int, pong: ActorRef) extends BenchActor(run) {
    private[this] var left = count
    private[this] val sendPing = new SendPing(self)

    def receive: Receive = {
      case Start | Next =>
        pong ! sendPing
        left -= 1
      case Pong =>
        if (left > 0) self ! Next
        else { pong ! Stop; exit() }
    }
  }

  private final class PongActor(run: PekkoRun[Long]) extends BenchActor(run) {
    private[this] var count = 0L

    def receive: Receive = {
      case m: SendPing =>
        m.sender ! Pong
        count += 1
      case Stop =>
        run.answer(count)
        exit()
    }
  }
}
