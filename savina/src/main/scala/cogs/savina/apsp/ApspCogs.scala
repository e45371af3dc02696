package cogs.savina.apsp

import cogs.runtime._
import cogs.savina.apsp.Apsp.BlockState

/**
 * APSP on Cogs: each block's `compute` process is a loop: send this iteration's block to the
 * neighbours (one-way calls `n.tell("data")(_.data(k, me, block))`), await the condition "every neighbour's
 * block of iteration k is here" (the `data` calls run in between, in the same COG), step.
 */
object ApspCogs {

  trait BlockActor extends Active {
    def data(k: Int, from: Int, block: Array[Array[Long]]): Proc[Unit]
    def compute(all: Array[BlockActor]): Proc[Array[Array[Long]]]
  }

  final class BlockImpl(p: Params, id: Int, graph: Array[Array[Long]]) extends ActiveObject with BlockActor {
    private[this] val s = new BlockState(p, id, graph)

    def data(k: Int, from: Int, block: Array[Array[Long]]): Proc[Unit] = { s.store(k, from, block); Proc.unit }

    def compute(all: Array[BlockActor]): Proc[Array[Array[Long]]] =
      Proc.loopWhile(!s.finished) {
        val k = s.k
        val block = s.data
        s.neighbours.foreach(n => all(n).tell("data")(_.data(k, id, block)))
        Proc.awaitUntil(s.ready).map(_ => s.step())
      }.map(_ => s.data)
  }

  def run(rt: CogRuntime, p: Params): Long = {
    val graph = Apsp.graph(p)
    val blocks = rt.run {
      val n = p.blocksPerSide * p.blocksPerSide
      val all: Array[BlockActor] = Array.tabulate(n)(i => Cogs.spawn(new BlockImpl(p, i, graph)))
      Proc.awaitAll(all.toList.map(_.send("compute")(_.compute(all))))
    }
    Apsp.assemble(p, blocks.zipWithIndex.map(_.swap))
  }
}
