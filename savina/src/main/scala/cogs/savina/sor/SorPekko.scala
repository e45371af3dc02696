package cogs.savina.sor

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.sor.Sor.Cell
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}
import scala.collection.mutable.ArrayBuffer

/**
 * SOR on Pekko with Savina's protocol: the runner creates its cells and the peer; the peer
 * creates its cells, sends its border column back and starts them; the runner then starts its
 * own. Cells report their final value to their half; the peer sends its half's values to the
 * runner. Values carry the direction they come from (Savina's do not: it adds them as they come).
 * A cell keeps the values that arrive before its start message and takes them, in order, once
 * started (Savina re-sends them to itself).
 */
object SorPekko {

  private case object Boot
  private final class Border(val column: Array[ActorRef])
  private final class Start(val cells: Array[ActorRef])
  private final class Value(val from: Int, val v: Double)
  private final class Result(val pos: Int, val v: Double)
  private final class PeerResults(val positions: Array[Int], val values: Array[Double])

  def run(system: ActorSystem, p: Params): Relaxed = {
    val run = new PekkoRun[Relaxed](system, Sor.name)
    val start = Sor.initial(p)
    run.actorOf(Props(new Runner(run, p, start))) ! Boot
    run.await()
  }

  /** The cells of one half, by position; the other half's border column is added when known. */
  private def createHalf(run: PekkoRun[Relaxed], p: Params, start: Array[Double], peer: Boolean, owner: ActorRef): (Array[ActorRef], Array[Int]) = {
    val cells = new Array[ActorRef](p.size * p.size)
    val own = (0 until p.size * p.size).filter(Sor.ofPeer(p, _) == peer).toArray
    own.foreach(pos => cells(pos) = run.actorOf(Props(new CellActor(run, p, pos, start(pos), owner))))
    (cells, own)
  }

  private def column(p: Params, cells: Array[ActorRef], y: Int): Array[ActorRef] = Array.tabulate(p.size)(x => cells(x * p.size + y))

  private def adopt(p: Params, cells: Array[ActorRef], y: Int, column: Array[ActorRef]): Unit =
    for (x <- 0 until p.size) cells(x * p.size + y) = column(x)

  private final class Runner(run: PekkoRun[Relaxed], p: Params, start: Array[Double]) extends BenchActor(run) {
    private[this] var cells: Array[ActorRef] = _
    private[this] var own: Array[Int] = _
    private[this] val result = new Array[Double](p.size * p.size)
    private[this] var returned = 0

    def receive: Receive = {
      case Boot =>
        val (c, o) = createHalf(run, p, start, peer = false, self)
        cells = c
        own = o
        val border = column(p, cells, p.part - 1)
        run.actorOf(Props(new PeerActor(run, p, start, border, self))) ! Boot
      case b: Border =>
        adopt(p, cells, p.part, b.column)
        val msg = new Start(cells)
        own.foreach(cells(_) ! msg)
      case r: Result =>
        result(r.pos) = r.v
        returned += 1
        finishIfDone()
      case r: PeerResults =>
        var i = 0
        while (i < r.positions.length) { result(r.positions(i)) = r.values(i); i += 1 }
        returned += 1
        finishIfDone()
    }

    private def finishIfDone(): Unit =
      if (returned == own.length + 1) { run.answer(Sor.answer(result)); exit() }
  }

  private final class PeerActor(run: PekkoRun[Relaxed], p: Params, start: Array[Double], runnerBorder: Array[ActorRef], runner: ActorRef)
      extends BenchActor(run) {
    private[this] var own: Array[Int] = _
    private[this] val values = new Array[Double](p.size * p.size)
    private[this] var returned = 0

    def receive: Receive = {
      case Boot =>
        val (cells, o) = createHalf(run, p, start, peer = true, self)
        own = o
        adopt(p, cells, p.part - 1, runnerBorder)
        runner ! new Border(column(p, cells, p.part))
        val msg = new Start(cells)
        own.foreach(cells(_) ! msg)
      case r: Result =>
        values(r.pos) = r.v
        returned += 1
        if (returned == own.length) {
          runner ! new PeerResults(own, own.map(values(_)))
          exit()
        }
    }
  }

  private final class CellActor(run: PekkoRun[Relaxed], p: Params, pos: Int, start: Double, owner: ActorRef) extends BenchActor(run) {
    private[this] val s = new Cell(p, pos, start)
    private[this] var out: Array[ActorRef] = _
    private[this] val early = new ArrayBuffer[Value]()

    def receive: Receive = {
      case st: Start =>
        out = Array.tabulate(4)(d => { val q = Sor.neighbour(p, pos, d); if (q < 0) null else st.cells(q) })
        if (s.red) send()
        if (s.finished) finish()
        else { early.foreach(take); early.clear() }
      case v: Value =>
        if (out eq null) early += v else take(v)
    }

    private def take(v: Value): Unit = {
      s.store(v.from, v.v)
      if (s.ready) {
        if (s.step()) send()
        if (s.finished) finish()
      }
    }

    private def finish(): Unit = { owner ! new Result(pos, s.value); exit() }

    private def send(): Unit = {
      var i = 0
      while (i < s.directions.length) {
        val d = s.directions(i)
        out(d) ! new Value(Sor.opposite(d), s.value)
        i += 1
      }
    }
  }
}
