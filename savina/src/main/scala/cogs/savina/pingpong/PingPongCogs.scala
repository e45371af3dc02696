package cogs.savina.pingpong

import cogs.runtime._

/**
 * Ping Pong on Cogs: ping calls `pong ! ping()` and awaits the future before the next round. Two
 * messages per round: the call, and the resolution of its future that wakes ping (Savina's Akka
 * version sends three: the ping, the pong, and ping's message to itself).
 */
object PingPongCogs {

  trait Pong extends Active {
    def ping(): Proc[Unit]
    def pings(): Proc[Long]
  }

  trait Ping extends Active {
    /** Play `n` rounds against `pong`; the number of replies received. */
    def play(pong: Pong, n: Int): Proc[Long]
  }

  final class PongImpl extends ActiveObject with Pong {
    private[this] var count = 0L
    def ping(): Proc[Unit] = { count += 1; Proc.unit }
    def pings(): Proc[Long] = Proc.done(count)
  }

  final class PingImpl extends ActiveObject with Ping {
    private[this] var replies = 0L
    def play(pong: Pong, n: Int): Proc[Long] =
      Proc.repeat(n) { _ =>
        Proc.await(pong.send("ping")(_.ping())).map(_ => replies += 1)
      }.map(_ => replies)
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val ping: Ping = Cogs.spawn(new PingImpl)
      val pong: Pong = Cogs.spawn(new PongImpl)
      for {
        replies <- Proc.await(ping.send("play")(_.play(pong, p.pings)))
        pings <- Proc.await(pong.send("pings")(_.pings()))
      } yield {
        if (replies != pings) throw new IllegalStateException(s"ping got $replies replies but pong answered $pings pings")
        pings
      }
    }
}
