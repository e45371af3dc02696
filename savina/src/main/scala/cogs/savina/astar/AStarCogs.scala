package cogs.savina.astar

import cogs.runtime._
import cogs.savina.Rand
import cogs.savina.astar.AStar.Search
import scala.collection.immutable.ArraySeq

/**
 * A* on Cogs, in the cooperative style of NQueens and MatMul: the master runs one process per
 * work item; it calls the next worker round-robin, awaits the future (the nodes the worker left
 * queued), starts a process per node (`this ! explore(n)`) and awaits them all. The main block's
 * future therefore resolves when no work is left anywhere.
 */
object AStarCogs {

  trait Master extends Active {
    def explore(node: Int): Proc[Unit]
  }

  trait Worker extends Active {
    /** Search from `node`; the nodes still to explore. */
    def search(node: Int): Proc[Array[Int]]
  }

  final class MasterImpl(p: Params, s: Search) extends ActiveObject with Master {
    private[this] val workers: Array[Worker] = Array.tabulate(p.workers)(i => Cogs.spawn(new WorkerImpl(p, s, i)))
    private[this] var sent = 0

    def explore(node: Int): Proc[Unit] = {
      val worker = workers(sent % workers.length)
      sent += 1
      Proc.await(worker.send("search")(_.search(node))).flatMap { rest =>
        if (rest.length == 0) Proc.unit
        else Proc.foreach(ArraySeq.unsafeWrapArray(rest).map(n => this.send("explore")(_.explore(n))))(f => Proc.await(f))
      }
    }
  }

  final class WorkerImpl(p: Params, s: Search, index: Int) extends ActiveObject with Worker {
    private[this] val random = new Rand(p.seed + index)

    def search(node: Int): Proc[Array[Int]] = Proc.done(s.explore(node, p.threshold, random))
  }

  def run(rt: CogRuntime, p: Params): Route = {
    val s = new Search(AStar.graph(p))
    rt.run {
      val master: Master = Cogs.spawn(new MasterImpl(p, s))
      Proc.await(master.send("explore")(_.explore(s.g.origin)))
    }
    s.route() // quiescent: every search has finished
  }
}
