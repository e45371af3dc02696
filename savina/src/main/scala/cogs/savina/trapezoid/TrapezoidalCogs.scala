package cogs.savina.trapezoid

import cogs.runtime._

/** Trapezoidal approximation on Cogs: the main block calls every worker (each in its COG) and awaits their areas. */
object TrapezoidalCogs {

  trait Worker extends Active {
    def area(p: Params, i: Int): Proc[Double]
  }

  final class WorkerImpl extends ActiveObject with Worker {
    def area(p: Params, i: Int): Proc[Double] = Proc.done(Trapezoidal.area(p, i))
  }

  def run(rt: CogRuntime, p: Params): Double =
    rt.run {
      val futs = List.tabulate(p.workers) { i =>
        val w: Worker = Cogs.spawn(new WorkerImpl)
        w.send("area")(_.area(p, i))
      }
      Proc.awaitAll(futs).map(as => Trapezoidal.sum(as.toArray))
    }
}
