package cogs.savina.astar

import cogs.savina.{BenchActor, PekkoRun, Rand}
import cogs.savina.astar.AStar.Search
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * A* on Pekko with Savina's protocol: work to a worker (round-robin), the nodes it left queued
 * back to the master one message each, then "received"; when every piece of work sent was
 * received, stop to every worker, which answers stop and ends. Savina's "done" (a worker reached
 * the target, so everyone stops) is not sent: the search goes on until no work is left.
 */
object AStarPekko {

  private final class WorkItem(val node: Int)
  private case object Received
  private case object Stop

  def run(system: ActorSystem, p: Params): Route = {
    val s = new Search(AStar.graph(p))
    val run = new PekkoRun[Route](system, AStar.name)
    run.actorOf(Props(new Master(run, p, s)))
    run.awaitStopped()
    s.route()
  }

  private final class Master(run: PekkoRun[Route], p: Params, s: Search) extends BenchActor(run) {
    private[this] val workers = Array.tabulate(p.workers)(i => run.actorOf(Props(new Worker(run, p, s, i, self))))
    private[this] var sent = 0
    private[this] var completed = 0
    private[this] var stopped = 0

    send(new WorkItem(s.g.origin))

    private def send(w: WorkItem): Unit = { workers(sent % workers.length) ! w; sent += 1 }

    def receive: Receive = {
      case w: WorkItem => send(w)
      case Received =>
        completed += 1
        if (completed == sent) workers.foreach(_ ! Stop)
      case Stop =>
        stopped += 1
        if (stopped == workers.length) exit()
    }
  }

  private final class Worker(run: PekkoRun[Route], p: Params, s: Search, index: Int, master: ActorRef) extends BenchActor(run) {
    private[this] val random = new Rand(p.seed + index)

    def receive: Receive = {
      case w: WorkItem =>
        val rest = s.explore(w.node, p.threshold, random)
        var i = 0
        while (i < rest.length) { master ! new WorkItem(rest(i)); i += 1 }
        master ! Received
      case Stop =>
        master ! Stop
        exit()
    }
  }
}
