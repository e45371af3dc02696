package cogs.savina.piprecision

import cogs.runtime._
import java.math.BigDecimal

/**
 * Pi precision on Cogs: the master runs one process per term in flight ("lane"), each a loop of
 * `await worker ! term(k)` with the next unrequested k, adding the result, until a term falls
 * below the tolerance. All lanes share the master's state; its COG switches between them at
 * every await. The main block awaits every lane, then reads the sum.
 */
object PiPrecisionCogs {

  trait Worker extends Active {
    def term(scale: Int, k: Int): Proc[BigDecimal]
  }

  trait Master extends Active {
    def lane(worker: Worker): Proc[Unit]
    def result(): Proc[BigDecimal]
  }

  final class WorkerImpl extends ActiveObject with Worker {
    def term(scale: Int, k: Int): Proc[BigDecimal] = Proc.done(PiPrecision.term(scale, k))
  }

  final class MasterImpl(p: Params) extends ActiveObject with Master {
    private[this] val tolerance = PiPrecision.tolerance(p)
    private[this] var sum = BigDecimal.ZERO
    private[this] var nextTerm = 0
    private[this] var stop = false

    def lane(worker: Worker): Proc[Unit] =
      Proc.loopWhile(!stop) {
        val k = nextTerm
        nextTerm += 1
        val scale = p.precision
        Proc.await(worker.send("term")(_.term(scale, k))).map { t =>
          sum = sum.add(t)
          if (t.compareTo(tolerance) <= 0) stop = true
        }
      }

    def result(): Proc[BigDecimal] = Proc.done(sum)
  }

  def run(rt: CogRuntime, p: Params): BigDecimal =
    rt.run {
      val workers: Array[Worker] = Array.fill(p.workers)(Cogs.spawn(new WorkerImpl))
      val master: Master = Cogs.spawn(new MasterImpl(p))
      val lanes = List.tabulate(PiPrecision.inFlight(p)) { i =>
        val w = workers(i % workers.length)
        master.send("lane")(_.lane(w))
      }
      Proc.awaitAll(lanes) >> Proc.await(master.send("result")(_.result()))
    }
}
