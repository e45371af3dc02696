package cogs.savina.fjthrput

import cogs.runtime._
import cogs.savina.Work

/**
 * Fork Join throughput on Cogs: the main block calls `work()` on every actor `messages` times
 * (one-way calls, `tell`: no futures), then asks each for its count; a COG runs the calls of one sender in order,
 * so each count is final.
 */
object ForkJoinThroughputCogs {

  trait Worker extends Active {
    def work(): Proc[Unit]
    def processed(): Proc[Long]
  }

  final class WorkerImpl extends ActiveObject with Worker {
    private[this] var count = 0L
    def work(): Proc[Unit] = {
      count += 1
      Work.sinSquared(37.2)
      Proc.unit
    }
    def processed(): Proc[Long] = Proc.done(count)
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val workers: Array[Worker] = Array.fill(p.actors)(Cogs.spawn(new WorkerImpl))
      var m = 0
      while (m < p.messages) {
        var a = 0
        while (a < workers.length) { workers(a).tell("work")(_.work()); a += 1 }
        m += 1
      }
      Proc.awaitAll(workers.toList.map(_.send("processed")(_.processed()))).map(_.sum)
    }
}
