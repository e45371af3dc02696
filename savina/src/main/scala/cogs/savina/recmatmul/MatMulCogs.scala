package cogs.savina.recmatmul

import cogs.runtime._
import cogs.savina.recmatmul.MatMul.{Block, Matrices}
import scala.collection.immutable.ArraySeq

/**
 * Recursive matrix multiplication on Cogs, in the same cooperative style as NQueens: the
 * master runs one process per block product; it sends the block to its owner, awaits the
 * future (the sub-products, or none once multiplied), then starts a process per sub-product
 * (`this ! multiply(b)`) and awaits them all.
 */
object MatMulCogs {

  trait Master extends Active {
    def multiply(b: Block): Proc[Unit]
  }

  trait Worker extends Active {
    /** Multiply `b` into C, or split it: the sub-products still to do. */
    def work(b: Block): Proc[Array[Block]]
  }

  private val NoBlocks = new Array[Block](0)

  final class MasterImpl(p: Params, m: Matrices) extends ActiveObject with Master {
    private[this] val workers: Array[Worker] = Array.fill(p.workers)(Cogs.spawn(new WorkerImpl(p, m)))

    def multiply(b: Block): Proc[Unit] =
      Proc.await(workers(b.owner(workers.length)).send("work")(_.work(b))).flatMap { subs =>
        if (subs.length == 0) Proc.unit
        else Proc.foreach(ArraySeq.unsafeWrapArray(subs).map(s => this.send("multiply")(_.multiply(s))))(f => Proc.await(f))
      }
  }

  final class WorkerImpl(p: Params, m: Matrices) extends ActiveObject with Worker {
    def work(b: Block): Proc[Array[Block]] =
      if (b.cells > p.blockThreshold) Proc.done(b.split)
      else { b.multiply(m); Proc.done(NoBlocks) }
  }

  def run(rt: CogRuntime, p: Params): Long = {
    val m = new Matrices(p.size)
    rt.run {
      val master: Master = Cogs.spawn(new MasterImpl(p, m))
      Proc.await(master.send("multiply")(_.multiply(MatMul.whole(p))))
    }
    m.correctCells // quiescent: every product was added
  }
}
