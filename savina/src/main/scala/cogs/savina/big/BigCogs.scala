package cogs.savina.big

import cogs.runtime._
import cogs.savina.Rand

/**
 * Big on Cogs: each actor's `play` loop is `await target ! ping(me)` `pings` times; the ping
 * returns the pinged actor's id (the pong). While an actor awaits its pong, its COG answers the
 * pings of others (a `get` instead of `await` would deadlock two actors pinging each other).
 * The main block, in the role of Savina's sink, awaits every `play` future.
 */
object BigCogs {

  trait BigActor extends Active {
    /** A ping from actor `from`; returns this actor's id. */
    def ping(from: Int): Proc[Int]
    /** Ping random neighbours `n` times; the number of pongs from the right actor. */
    def play(neighbours: Array[BigActor], n: Int): Proc[Long]
  }

  final class BigActorImpl(id: Int) extends ActiveObject with BigActor {
    private[this] val random = new Rand(id)
    private[this] var pongs = 0L

    def ping(from: Int): Proc[Int] = Proc.done(id)

    def play(neighbours: Array[BigActor], n: Int): Proc[Long] =
      Proc.repeat(n) { _ =>
        val target = random.nextInt(neighbours.length)
        Proc.await(neighbours(target).send("ping")(_.ping(id))).map { from =>
          if (from != target) throw new IllegalStateException(s"actor $id expected a pong from $target, got one from $from")
          pongs += 1
        }
      }.map(_ => pongs)
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val actors: Array[BigActor] = Array.tabulate(p.actors)(i => Cogs.spawn(new BigActorImpl(i)))
      Proc.awaitAll(actors.toList.map(_.send("play")(_.play(actors, p.pings)))).map(_.sum)
    }
}
