package cogs.savina.fjcreate

import cogs.runtime._
import cogs.savina.Work

/** Fork Join creation on Cogs: the main block creates every worker (each in a new COG), calls it, and awaits the futures; each call returns 1. */
object ForkJoinCreateCogs {

  trait Worker extends Active {
    def work(): Proc[Int]
  }

  final class WorkerImpl extends ActiveObject with Worker {
    def work(): Proc[Int] = {
      Work.sinSquared(37.2)
      Proc.done(1)
    }
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val futs = new Array[Fut[Int]](p.workers)
      var i = 0
      while (i < p.workers) {
        val w: Worker = Cogs.spawn(new WorkerImpl)
        futs(i) = w.send("work")(_.work())
        i += 1
      }
      var done = 0L
      Proc.repeat(futs.length)(j => Proc.await(futs(j)).map(n => done += n)).map(_ => done)
    }
}
