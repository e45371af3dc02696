package cogs.savina.big

import cogs.savina.{BenchActor, PekkoRun, Rand}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Big on Pekko with Savina's protocol: ping, pong, the next ping on each pong; a sink counts the actors that finished and then stops them all. */
object BigPekko {

  private final class Neighbours(val actors: Array[ActorRef])
  private final class Ping(val sender: Int)
  private final class Pong(val sender: Int)
  private final class Finished(val pongs: Long)
  private case object Exit

  def run(system: ActorSystem, p: Params): Long = {
    val run = new PekkoRun[Long](system, Big.name)
    val sink = run.actorOf(Props(new SinkActor(run, p.actors)))
    val actors = Array.tabulate(p.actors)(i => run.actorOf(Props(new BigActor(run, i, p.pings, sink))))
    val neighbours = new Neighbours(actors)
    sink ! neighbours
    actors.foreach(_ ! neighbours)
    actors.foreach(_ ! new Pong(-1))
    run.await()
  }

  private final class BigActor(run: PekkoRun[Long], id: Int, pings: Int, sink: ActorRef) extends BenchActor(run) {
    private[this] val random = new Rand(id)
    private[this] var neighbours: Array[ActorRef] = _
    private[this] var sent = 0
    private[this] var expected = -1
    private[this] var pongs = 0L
    private[this] val myPing = new Ping(id)
    private[this] val myPong = new Pong(id)

    def receive: Receive = {
      case p: Ping => neighbours(p.sender) ! myPong
      case p: Pong =>
        if (p.sender != expected) throw new IllegalStateException(s"actor $id expected a pong from $expected, got one from ${p.sender}")
        if (expected >= 0) pongs += 1
        if (sent == pings) sink ! new Finished(pongs)
        else {
          val target = random.nextInt(neighbours.length)
          expected = target
          neighbours(target) ! myPing
          sent += 1
        }
      case Exit => exit()
      case n: Neighbours => neighbours = n.actors
    }
  }

  private final class SinkActor(run: PekkoRun[Long], actors: Int) extends BenchActor(run) {
    private[this] var neighbours: Array[ActorRef] = _
    private[this] var finished = 0
    private[this] var pongs = 0L

    def receive: Receive = {
      case f: Finished =>
        finished += 1
        pongs += f.pongs
        if (finished == actors) {
          neighbours.foreach(_ ! Exit)
          run.answer(pongs)
          exit()
        }
      case n: Neighbours => neighbours = n.actors
    }
  }
}
