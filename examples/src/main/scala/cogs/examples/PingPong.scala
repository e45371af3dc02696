package cogs.examples

import cogs.runtime._

/**
 * Two objects in two COGs play `n` rounds: ping calls `pong ! hit(i)` and awaits the future
 * before the next round, so at most one call (and one future) is in flight at any time and the
 * loop runs in constant memory however large `n` is. In ABS:
 *
 * {{{
 * class Pong() implements Pong {
 *   Int hits = 0;
 *   Int hit(Int ball) { hits = hits + 1; return ball; }
 * }
 * class Ping() implements Ping {
 *   Int play(Pong pong, Int n) {
 *     Int returned = 0; Int i = 0;
 *     while (i < n) {
 *       Fut<Int> f = pong ! hit(i);
 *       Int ball = await f?;               // Ping's COG is free while the ball is away
 *       if (ball == i) returned = returned + 1;
 *       i = i + 1;
 *     }
 *     return returned;
 *   }
 * }
 * { Ping ping = new Ping(); Pong pong = new Pong(); Int r = await ping ! play(pong, n); }
 * }}}
 *
 * Every round is two messages: the call to Pong's COG and the resolution of its future, which
 * wakes Ping's process in Ping's COG.
 */
object PingPong {

  trait Pong extends Active {
    def hit(ball: Int): Proc[Int]
    def hits(): Proc[Long]
  }

  final class PongImpl extends ActiveObject with Pong {
    private var count = 0L
    def hit(ball: Int): Proc[Int] = Proc.delay { count += 1; ball }
    def hits(): Proc[Long] = Proc.delay(count)
    override def toString = "pong"
  }

  trait Ping extends Active {
    def play(pong: Pong, n: Int): Proc[Long]
  }

  final class PingImpl extends ActiveObject with Ping {
    private var returned = 0L

    def play(pong: Pong, n: Int): Proc[Long] =
      Proc.repeat(n) { i =>
        val f = pong.send("hit")(_.hit(i)) // Fut<Int> f = pong ! hit(i)
        Proc.await(f).map { ball => // Int ball = await f?
          if (ball == i) returned += 1
        }
      }.map(_ => returned)

    override def toString = "ping"
  }

  final case class Result(rounds: Int, returned: Long, hits: Long, elapsedNanos: Long) extends Outcome {
    def problems: List[String] =
      List(
        if (returned != rounds) Some(s"ping got $returned balls back, expected $rounds") else None,
        if (hits != rounds) Some(s"pong was hit $hits times, expected $rounds") else None
      ).flatten

    def report: String = {
      val perRound = if (rounds == 0) 0.0 else elapsedNanos.toDouble / rounds
      f"pingpong: $rounds%d rounds (${2L * rounds}%d messages), ping got $returned%d balls back, pong was hit $hits%d times, " +
        s"time ${ExampleMain.millis(elapsedNanos)}" + f" ($perRound%.0f ns per round)"
    }
  }

  def run(rt: CogRuntime, n: Int): Result = {
    val start = System.nanoTime()
    val (returned, hits) = rt.run {
      val ping: Ping = Cogs.spawn(new PingImpl) // each in a COG of its own
      val pong: Pong = Cogs.spawn(new PongImpl)
      for {
        returned <- Proc.await(ping.send("play")(_.play(pong, n)))
        hits <- Proc.await(pong.send("hits")(_.hits()))
      } yield (returned, hits)
    }
    Result(n, returned, hits, System.nanoTime() - start)
  }

  def main(args: Array[String]): Unit =
    ExampleMain.main("pingpong", "examples/run pingpong [ROUNDS=10000000]", args) { (rt, args) =>
      run(rt, ExampleMain.intArg(args, 0, "ROUNDS", 10000000))
    }
}
