package cogs.savina.recmatmul

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.recmatmul.MatMul.{Block, Matrices}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Recursive matrix multiplication on Pekko with Savina's protocol: work to the master, forwarded to the owner, done, stop. */
object MatMulPekko {

  private case object Done
  private case object Stop

  def run(system: ActorSystem, p: Params): Long = {
    val m = new Matrices(p.size)
    val run = new PekkoRun[Long](system, MatMul.name)
    run.actorOf(Props(new Master(run, p, m)))
    run.awaitStopped()
    m.correctCells
  }

  private final class Master(run: PekkoRun[Long], p: Params, m: Matrices) extends BenchActor(run) {
    private[this] val workers = Array.fill(p.workers)(run.actorOf(Props(new Worker(run, p, m, self))))
    private[this] var sent = 0
    private[this] var completed = 0
    private[this] var stopped = 0

    send(MatMul.whole(p))

    private def send(b: Block): Unit = { workers(b.owner(workers.length)) ! b; sent += 1 }

    def receive: Receive = {
      case b: Block => send(b)
      case Done =>
        completed += 1
        if (completed == sent) workers.foreach(_ ! Stop)
      case Stop =>
        stopped += 1
        if (stopped == workers.length) exit()
    }
  }

  private final class Worker(run: PekkoRun[Long], p: Params, m: Matrices, master: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case b: Block =>
        if (b.cells > p.blockThreshold) b.split.foreach(master ! _)
        else b.multiply(m)
        master ! Done
      case Stop =>
        master ! Stop
        exit()
    }
  }
}
