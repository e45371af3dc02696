package cogs.savina.nqueenk

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.nqueenk.NQueens.Kernel
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * NQueens on Pekko with Savina's protocol: the master forwards every board it receives to the
 * next worker (round robin); a worker sends each new board back to the master, one message per
 * solution, and "done" when it finished a board; when every board sent is done the master stops
 * the workers.
 */
object NQueensPekko {

  private final class Board(val queens: Array[Int], val depth: Int)
  private case object Done
  private case object Solution
  private case object Stop

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, NQueens.name)
    run.actorOf(Props(new Master(run, p)))
    run.await()
  }

  private final class Master(run: PekkoRun[Long], p: Params) extends BenchActor(run) {
    private[this] val workers: Array[ActorRef] = Array.fill(p.workers)(run.actorOf(Props(new Worker(run, self, p))))
    private[this] var nextWorker = 0
    private[this] var sent = 0
    private[this] var completed = 0
    private[this] var stopped = 0
    private[this] var solutions = 0L

    send(new Board(new Array[Int](0), 0))

    private def send(b: Board): Unit = {
      workers(nextWorker) ! b
      nextWorker = (nextWorker + 1) % workers.length
      sent += 1
    }

    def receive: Receive = {
      case b: Board => send(b)
      case Solution => solutions += 1
      case Done =>
        completed += 1
        if (completed == sent) workers.foreach(_ ! Stop)
      case Stop =>
        stopped += 1
        if (stopped == workers.length) { run.answer(solutions); exit() }
    }
  }

  private final class Worker(run: PekkoRun[Long], master: ActorRef, p: Params) extends BenchActor(run) {
    private[this] val kernel = new Kernel(p.size) {
      protected def solution(): Unit = master ! Solution
    }

    def receive: Receive = {
      case b: Board =>
        if (b.depth == p.size) master ! Solution
        else if (b.depth >= p.threshold) kernel.complete(b.queens, b.depth)
        else kernel.extensions(b.queens, b.depth).foreach(q => master ! new Board(q, b.depth + 1))
        master ! Done
      case Stop =>
        master ! Stop
        exit()
    }
  }
}
