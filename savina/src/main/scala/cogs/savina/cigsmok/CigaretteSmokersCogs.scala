package cogs.savina.cigsmok

import cogs.runtime._
import cogs.savina.{Digest, Rand, Work}

/**
 * Cigarette Smokers on Cogs: each round the arbiter awaits `smoker ! take(period)`, which
 * resolves as soon as the smoker took the ingredients; the smoking itself is a separate process
 * the smoker starts on itself (`this ! smoke(period)`), so the next round overlaps with it.
 */
object CigaretteSmokersCogs {

  trait Smoker extends Active {
    def take(period: Int): Proc[Unit]
    def smoke(period: Int): Proc[Unit]
    def smoked(): Proc[Long]
  }

  trait Arbiter extends Active {
    def serve(smokers: Array[Smoker], p: Params): Proc[Smoked]
  }

  final class SmokerImpl(id: Int) extends ActiveObject with Smoker {
    private[this] val random = new Rand(id)
    private[this] var count = 0L
    def take(period: Int): Proc[Unit] = { this.tell("smoke")(_.smoke(period)); Proc.unit }
    def smoke(period: Int): Proc[Unit] = { count += 1; Work.busyWait(random, period); Proc.unit }
    def smoked(): Proc[Long] = Proc.done(count)
  }

  final class ArbiterImpl extends ActiveObject with Arbiter {
    def serve(smokers: Array[Smoker], p: Params): Proc[Smoked] = {
      val choices = new CigaretteSmokers.Choices(p)
      Proc.repeat(p.rounds) { _ =>
        val (s, period) = choices.next()
        Proc.await(smokers(s).send("take")(_.take(period)))
      } >> Proc.awaitAll(smokers.toList.map(_.send("smoked")(_.smoked()))).map { counts =>
        // Each smoke call is in its smoker's inbox before the take call resolves, hence before `smoked`.
        val cs = counts.toArray
        Smoked(cs.sum, Digest.of(cs))
      }
    }
  }

  def run(rt: CogRuntime, p: Params): Smoked =
    rt.run {
      val smokers: Array[Smoker] = Array.tabulate(p.smokers)(i => Cogs.spawn(new SmokerImpl(i)))
      val arbiter: Arbiter = Cogs.spawn(new ArbiterImpl)
      Proc.await(arbiter.send("serve")(_.serve(smokers, p)))
    }
}
