package cogs.savina.fjcreate

import cogs.savina.{BenchActor, PekkoRun, Work}
import java.util.concurrent.atomic.AtomicLong
import org.apache.pekko.actor.{ActorSystem, Props}

/** Fork Join creation on Pekko as in Savina: create, send one message, compute, stop. Each worker also counts itself in a shared counter (the check). */
object ForkJoinCreatePekko {

  private case object Go

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, ForkJoinCreate.name)
    val done = new AtomicLong
    var i = 0
    while (i < p.workers) {
      run.actorOf(Props(new Worker(run, done))) ! Go
      i += 1
    }
    run.awaitStopped()
    done.get
  }

  private final class Worker(run: PekkoRun[Long], done: AtomicLong) extends BenchActor(run) {
    def receive: Receive = {
      case Go =>
        Work.sinSquared(37.2)
        done.incrementAndGet()
        exit()
    }
  }
}
