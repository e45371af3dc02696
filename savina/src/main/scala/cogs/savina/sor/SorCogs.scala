package cogs.savina.sor

import cogs.runtime._
import cogs.savina.sor.Sor.Cell

/**
 * SOR on Cogs: each cell is an object in its own COG. Its `relax` process sends its value when
 * red, then loops: await the condition "a value from every neighbour is here" (the neighbours'
 * `value` calls run in between, in the same COG), relax, send (one-way calls `n.tell("value")(..)`); its future carries the final value. The runner creates its half, asks the peer to
 * create the other (`await peer ! boot(border)` gives back the peer's border column), starts
 * both halves and awaits their final values.
 */
object SorCogs {

  trait CellActor extends Active {
    /** A neighbour's value of the current round, from direction `from`. */
    def value(from: Int, v: Double): Proc[Unit]

    /** Run every round with these neighbours (by direction, null at the edge); the final value. */
    def relax(neighbours: Array[CellActor]): Proc[Double]
  }

  final class CellImpl(p: Params, pos: Int, start: Double) extends ActiveObject with CellActor {
    private[this] val s = new Cell(p, pos, start)
    private[this] var out: Array[CellActor] = _

    def value(from: Int, v: Double): Proc[Unit] = { s.store(from, v); Proc.unit }

    def relax(neighbours: Array[CellActor]): Proc[Double] = {
      out = neighbours
      if (s.red) send()
      Proc.loopWhile(!s.finished) {
        Proc.awaitUntil(s.ready).map(_ => if (s.step()) send())
      }.map(_ => s.value)
    }

    private def send(): Unit = {
      val v = s.value
      var i = 0
      while (i < s.directions.length) {
        val d = s.directions(i)
        val from = Sor.opposite(d)
        out(d).tell("value")(_.value(from, v))
        i += 1
      }
    }
  }

  /** One half of the grid: its cells and, once known, the other half's border column, by position. */
  private final class Half(p: Params, start: Array[Double], peer: Boolean) {
    val cells = new Array[CellActor](p.size * p.size)
    val own: Array[Int] = (0 until p.size * p.size).filter(Sor.ofPeer(p, _) == peer).toArray
    own.foreach(pos => cells(pos) = Cogs.spawn(new CellImpl(p, pos, start(pos))))

    private[this] val borderColumn = if (peer) p.part else p.part - 1
    private[this] val otherColumn = if (peer) p.part - 1 else p.part

    def border: Array[CellActor] = Array.tabulate(p.size)(x => cells(x * p.size + borderColumn))

    def adopt(other: Array[CellActor]): Unit = for (x <- 0 until p.size) cells(x * p.size + otherColumn) = other(x)

    /** Start every cell of this half; their positions and final values. */
    def relax(): Proc[List[(Int, Double)]] =
      Proc.awaitAll(own.toList.map { pos =>
        val neighbours = Array.tabulate(4)(d => { val q = Sor.neighbour(p, pos, d); if (q < 0) null else cells(q) })
        cells(pos).send("relax")(_.relax(neighbours))
      }).map(own.toList.zip(_))
  }

  trait Peer extends Active {
    /** Create the peer's cells next to the runner's border column; the peer's border column. */
    def boot(runnerBorder: Array[CellActor]): Proc[Array[CellActor]]

    /** Start the peer's cells; their positions and final values. */
    def relax(): Proc[List[(Int, Double)]]
  }

  final class PeerImpl(p: Params, start: Array[Double]) extends ActiveObject with Peer {
    private[this] var half: Half = _

    def boot(runnerBorder: Array[CellActor]): Proc[Array[CellActor]] = {
      half = new Half(p, start, peer = true)
      half.adopt(runnerBorder)
      Proc.done(half.border)
    }

    def relax(): Proc[List[(Int, Double)]] = half.relax()
  }

  trait Runner extends Active {
    def solve(): Proc[Array[Double]]
  }

  final class RunnerImpl(p: Params, start: Array[Double]) extends ActiveObject with Runner {
    def solve(): Proc[Array[Double]] = {
      val half = new Half(p, start, peer = false)
      val peer: Peer = Cogs.spawn(new PeerImpl(p, start))
      val myBorder = half.border
      Proc.await(peer.send("boot")(_.boot(myBorder))).flatMap { peerBorder =>
        half.adopt(peerBorder)
        val theirs = peer.send("relax")(_.relax())
        half.relax().flatMap { mine =>
          Proc.await(theirs).map { others =>
            val result = new Array[Double](p.size * p.size)
            (mine.iterator ++ others.iterator).foreach { case (pos, v) => result(pos) = v }
            result
          }
        }
      }
    }
  }

  def run(rt: CogRuntime, p: Params): Relaxed = {
    val start = Sor.initial(p)
    val values = rt.run {
      val runner: Runner = Cogs.spawn(new RunnerImpl(p, start))
      Proc.await(runner.send("solve")(_.solve()))
    }
    Sor.answer(values)
  }
}
