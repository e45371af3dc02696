package cogs.savina.philosopher

import cogs.runtime._

/**
 * Dining Philosophers on Cogs: a philosopher's life is `rounds` times "`await arbitrator !
 * hungry(me)` until granted, then `arbitrator ! done(me)`". The arbitrator keeps the forks and
 * denies a request whose forks are taken, as in Savina (an ABS modeller would rather await the
 * condition "both forks free" in the arbitrator, which needs no retries).
 */
object PhilosophersCogs {

  trait Arbitrator extends Active {
    /** Both forks of philosopher `id` if free: true and they are taken; false otherwise. */
    def hungry(id: Int): Proc[Boolean]
    def done(id: Int): Proc[Unit]
    def meals(): Proc[Long]
  }

  trait Philosopher extends Active {
    /** Eat `rounds` times; the number of denied requests. */
    def dine(arbitrator: Arbitrator, rounds: Int): Proc[Long]
  }

  final class ArbitratorImpl(n: Int) extends ActiveObject with Arbitrator {
    private[this] val forks = new Array[Boolean](n)
    private[this] var eaten = 0L

    def hungry(id: Int): Proc[Boolean] = {
      val left = id
      val right = (id + 1) % n
      if (forks(left) || forks(right)) Proc.done(false)
      else { forks(left) = true; forks(right) = true; Proc.done(true) }
    }

    def done(id: Int): Proc[Unit] = {
      forks(id) = false
      forks((id + 1) % n) = false
      eaten += 1
      Proc.unit
    }

    def meals(): Proc[Long] = Proc.done(eaten)
  }

  final class PhilosopherImpl(id: Int) extends ActiveObject with Philosopher {
    private[this] var denied = 0L

    def dine(arbitrator: Arbitrator, rounds: Int): Proc[Long] =
      Proc.repeat(rounds) { _ =>
        var fed = false
        Proc.loopWhile(!fed) {
          Proc.await(arbitrator.send("hungry")(_.hungry(id))).map { granted =>
            if (granted) fed = true else denied += 1
          }
        }.map { _ =>
          arbitrator.tell("done")(_.done(id))
          ()
        }
      }.map(_ => denied)
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val arbitrator: Arbitrator = Cogs.spawn(new ArbitratorImpl(p.philosophers))
      val lives = List.tabulate(p.philosophers) { i =>
        val ph: Philosopher = Cogs.spawn(new PhilosopherImpl(i))
        ph.send("dine")(_.dine(arbitrator, p.rounds))
      }
      // Every `done` call of a philosopher is in the arbitrator's inbox before its `dine`
      // future resolves, hence before this `meals` call.
      Proc.awaitAll(lives) >> Proc.await(arbitrator.send("meals")(_.meals()))
    }
}
