package cogs.savina.nqueenk

import cogs.runtime._
import cogs.savina.nqueenk.NQueens.Kernel
import scala.collection.immutable.ArraySeq

/**
 * NQueens on Cogs, in the cooperative style of the seed paper (section 5.2): the master's COG
 * runs one process per board. The process sends the board to the next worker, awaits the
 * worker's future (the master's COG serves other boards meanwhile), then starts one process per
 * new board (`this ! explore(..)`) and awaits them all. Workers report each complete solution with
 * a one-way call `master.tell("found")(_.found())` (no future), as Savina's workers send one
 * result message each.
 *
 * Message count per board: the call to the worker and its future, the master's call to itself
 * and its future (Savina: the board to the master, the board to a worker, the worker's "done").
 */
object NQueensCogs {

  trait Master extends Active {
    /** Find every completion of the first `depth` queens of `board`; resolves when all were found. */
    def explore(board: Array[Int], depth: Int): Proc[Unit]
    def found(): Proc[Unit]
    def solutions(): Proc[Long]
  }

  trait Worker extends Active {
    /** Below the threshold: the safe extensions of `board` by one queen. From it on: complete `board`, report every solution, give no boards back. */
    def work(board: Array[Int], depth: Int): Proc[Array[Array[Int]]]
  }

  private val NoBoards = new Array[Array[Int]](0)

  final class MasterImpl(p: Params) extends ActiveObject with Master {
    // ABS `new Worker(this)`: each worker in a COG of its own.
    private[this] val workers: Array[Worker] = Array.fill(p.workers)(Cogs.spawn(new WorkerImpl(this, p)))
    private[this] var nextWorker = 0
    private[this] var count = 0L

    def explore(board: Array[Int], depth: Int): Proc[Unit] = {
      val w = workers(nextWorker)
      nextWorker = (nextWorker + 1) % workers.length
      val f = w.send("work")(_.work(board, depth))
      Proc.await(f).flatMap { boards =>
        if (boards.length == 0) Proc.unit
        else {
          val d = depth + 1
          val futs = ArraySeq.unsafeWrapArray(boards).map(b => this.send("explore")(_.explore(b, d)))
          Proc.foreach(futs)(f => Proc.await(f))
        }
      }
    }

    def found(): Proc[Unit] = { count += 1; Proc.unit }

    def solutions(): Proc[Long] = Proc.done(count)
  }

  final class WorkerImpl(master: Master, p: Params) extends ActiveObject with Worker {
    private[this] val kernel = new Kernel(p.size) {
      protected def solution(): Unit = master.tell("found")(_.found())
    }

    def work(board: Array[Int], depth: Int): Proc[Array[Array[Int]]] =
      if (depth == p.size) { master.tell("found")(_.found()); Proc.done(NoBoards) }
      else if (depth >= p.threshold) { kernel.complete(board, depth); Proc.done(NoBoards) }
      else Proc.done(kernel.extensions(board, depth))
  }

  def run(rt: CogRuntime, p: Params): Long = {
    var master: Master = null
    rt.run {
      val m: Master = Cogs.spawn(new MasterImpl(p))
      master = m
      Proc.await(m.send("explore")(_.explore(new Array[Int](0), 0)))
    }
    // Quiescent: every `found` call has run.
    master.send("solutions")(_.solutions()).join()
  }
}
