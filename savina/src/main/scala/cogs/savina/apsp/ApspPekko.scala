package cogs.savina.apsp

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.apsp.Apsp.BlockState
import java.util.concurrent.ConcurrentHashMap
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}
import scala.jdk.CollectionConverters._

/**
 * APSP on Pekko with Savina's protocol (neighbours, initial, result messages), data kept per
 * iteration. A block's neighbours may send their first blocks before its own "initial" message
 * arrives; Savina's actor would then step without ever sending its own first block, and the run
 * hangs (it did here, once in a few hundred runs); this one waits for "initial". Each block
 * records its final data when it stops.
 */
object ApspPekko {

  private final class Neighbours(val actors: Array[ActorRef])
  private case object Initial
  private final class Data(val k: Int, val from: Int, val block: Array[Array[Long]])

  def run(system: ActorSystem, p: Params): Long = {
    val graph = Apsp.graph(p)
    val run = new PekkoRun[Long](system, Apsp.name)
    val results = new ConcurrentHashMap[Int, Array[Array[Long]]]()
    val n = p.blocksPerSide * p.blocksPerSide
    val actors = Array.tabulate(n)(i => run.actorOf(Props(new BlockActor(run, p, i, graph, results))))
    actors.foreach(_ ! new Neighbours(actors))
    actors.foreach(_ ! Initial)
    run.awaitStopped()
    Apsp.assemble(p, results.asScala)
  }

  private final class BlockActor(run: PekkoRun[Long], p: Params, id: Int, graph: Array[Array[Long]],
      results: ConcurrentHashMap[Int, Array[Array[Long]]]) extends BenchActor(run) {
    private[this] val s = new BlockState(p, id, graph)
    private[this] var neighbours: Array[ActorRef] = _
    private[this] var started = false

    def receive: Receive = {
      case n: Neighbours => neighbours = s.neighbours.map(n.actors(_))
      case Initial =>
        // Neighbours may have sent their first blocks before this message came: step if ready.
        started = true
        notifyNeighbours()
        advance()
      case d: Data =>
        s.store(d.k, d.from, d.block)
        advance()
    }

    /** Step while every neighbour's block of the current iteration is here (never before this block sent its first). */
    private def advance(): Unit =
      while (started && !s.finished && s.ready) {
        s.step()
        if (s.finished) { results.put(id, s.data); exit() }
        else notifyNeighbours()
      }

    private def notifyNeighbours(): Unit = {
      val msg = new Data(s.k, id, s.data)
      neighbours.foreach(_ ! msg)
    }
  }
}
