package cogs.savina.logmap

import cogs.runtime._

/**
 * Logistic map on Cogs: the master sends every series worker `terms` calls `next()` at once. A
 * step must see the previous step's result, so `next` blocks its worker's COG with `get` on the
 * rate computer's future (ABS `f.get`: no other call of that worker runs meanwhile, but no thread
 * is held) where Savina's Akka version stashes messages by hand. With `await` instead, the
 * queued `next` calls would interleave and read stale terms.
 */
object LogisticMapCogs {

  trait RateComputer extends Active {
    def compute(x: Double): Proc[Double]
  }

  trait SeriesWorker extends Active {
    def next(): Proc[Unit]
    def term(): Proc[Double]
  }

  final class RateComputerImpl(rate: Double) extends ActiveObject with RateComputer {
    def compute(x: Double): Proc[Double] = Proc.done(LogisticMap.nextTerm(x, rate))
  }

  final class SeriesWorkerImpl(start: Double, computer: RateComputer) extends ActiveObject with SeriesWorker {
    private[this] var x = start

    def next(): Proc[Unit] = {
      val current = x
      Proc.get(computer.send("compute")(_.compute(current))).map(t => x = t)
    }

    def term(): Proc[Double] = Proc.done(x)
  }

  def run(rt: CogRuntime, p: Params): Double =
    rt.run {
      val workers: Array[SeriesWorker] = Array.tabulate(p.series) { i =>
        val computer: RateComputer = Cogs.spawn(new RateComputerImpl(LogisticMap.rate(p, i)))
        Cogs.spawn(new SeriesWorkerImpl(LogisticMap.startTerm(p, i), computer))
      }
      var t = 0
      while (t < p.terms) {
        var i = 0
        while (i < workers.length) { workers(i).tell("next")(_.next()); i += 1 }
        t += 1
      }
      // A COG runs one sender's calls in order: each `term` call runs after that worker's `next` calls.
      Proc.awaitAll(workers.toList.map(_.send("term")(_.term()))).map(ts => LogisticMap.sum(ts.toArray))
    }
}
