package cogs.savina.fjthrput

import cogs.savina.{BenchActor, PekkoRun, Work}
import java.util.concurrent.atomic.AtomicLong
import org.apache.pekko.actor.{ActorSystem, Props}

/** Fork Join throughput on Pekko as in Savina: each actor stops after its `messages` messages, adding its count to a shared total (the check). */
object ForkJoinThroughputPekko {

  private case object Go

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, ForkJoinThroughput.name)
    val total = new AtomicLong
    val actors = Array.fill(p.actors)(run.actorOf(Props(new Worker(run, p.messages, total))))
    var m = 0
    while (m < p.messages) {
      var a = 0
      while (a < actors.length) { actors(a) ! Go; a += 1 }
      m += 1
    }
    run.awaitStopped()
    total.get
  }

  private final class Worker(run: PekkoRun[Long], messages: Int, total: AtomicLong) extends BenchActor(run) {
    private[this] var count = 0L
    def receive: Receive = {
      case Go =>
        count += 1
        Work.sinSquared(37.2)
        if (count == messages) { total.addAndGet(count); exit() }
    }
  }
}
