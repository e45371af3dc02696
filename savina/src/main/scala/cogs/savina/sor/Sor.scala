package cogs.savina.sor

import cogs.runtime.CogRuntime
import cogs.savina.{Digest, Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Sor]]. */
final case class Params(size: Int, iterations: Int, omega: Double, seed: Long) {
  require(size >= 2 && iterations >= 1 && omega > 0 && omega < 2, s"bad parameters $this")
  override def toString = s"size=$size iterations=$iterations omega=$omega seed=$seed"

  /** The first column of the peer's half; the runner owns the columns before it. */
  def part: Int = size / 2
}

/** The answer of [[Sor]]: the sum of the final matrix (row by row) and a digest of its exact values. */
final case class Relaxed(total: Double, digest: Long) {
  override def toString = s"sum $total, digest ${java.lang.Long.toHexString(digest)}"
}

/**
 * Savina's `sor`: successive over-relaxation on a `size` x `size` grid of random values, one
 * actor per cell, split into two halves by column (a runner and a peer, each creating and
 * collecting its own cells; they swap the cells of their border columns before starting them).
 * The cells are coloured like a chessboard. A red cell (x + y even) first sends its value to its
 * (up to four) neighbours; then every cell repeatedly waits for one value from each neighbour and
 * relaxes: `v = omega / 4 * (sum of the neighbours' values) + (1 - omega) * v` (a missing
 * neighbour counts as 0), and sends the new value on. Black cells relax `iterations` times, red
 * ones `iterations - 1` times, so this is red-black SOR: black cells from the red values, then
 * red cells from the new black ones. A cell cannot get a neighbour's next value before the
 * neighbour had its own, so the values of a round never mix.
 *
 * Savina adds the values in whatever order they arrive and compares the final sum with a
 * reference to 1e-12; here each value is kept in its neighbour's slot and added in a fixed order,
 * so the computation is bit for bit that of a sequential red-black SOR, and the answer (the sum
 * and a digest of every final value) is checked exactly against one. Savina's black cells also
 * send their last values to red cells that have stopped; these cells do not.
 */
object Sor extends SavinaBenchmark[Params, Relaxed] {
  val name = "sor"
  val title = "Successive Over-Relaxation"
  // Savina's data size 0 (20 x 20, its default), its 100 iterations, omega and seed.
  val defaults: Params = Params(size = 20, iterations = 100, omega = 1.25, seed = 10101010L)
  val quick: Params = Params(size = 12, iterations = 40, omega = 1.25, seed = 10101010L)

  /** The grid's starting values, row by row (position x * size + y). */
  def initial(p: Params): Array[Double] = {
    val random = new Rand(p.seed)
    Array.fill(p.size * p.size)(random.nextDouble() * 1e-6)
  }

  /** Red cells send their starting value first. */
  def isRed(p: Params, pos: Int): Boolean = (pos / p.size + pos % p.size) % 2 == 0

  // Directions: up, down, left, right; a value sent in direction d arrives from direction d ^ 1.
  private val dx = Array(-1, 1, 0, 0)
  private val dy = Array(0, 0, -1, 1)

  /** The position of the neighbour of `pos` in direction `d`, or -1 at the edge. */
  def neighbour(p: Params, pos: Int, d: Int): Int = {
    val x = pos / p.size + dx(d)
    val y = pos % p.size + dy(d)
    if (x < 0 || x >= p.size || y < 0 || y >= p.size) -1 else x * p.size + y
  }

  /** The direction a value sent in direction `d` comes from, as its receiver sees it. */
  def opposite(d: Int): Int = d ^ 1

  /** One relaxation: the same expression, evaluated the same way, everywhere. */
  def relax(p: Params, value: Double, sum: Double): Double = 0.25 * p.omega * sum + (1.0 - p.omega) * value

  /** The cell's owner: the runner (false) or the peer (true). */
  def ofPeer(p: Params, pos: Int): Boolean = pos % p.size >= p.part

  def expected(p: Params): Relaxed = {
    val n = p.size * p.size
    val v = initial(p)
    def sweep(red: Boolean): Unit = {
      var pos = 0
      while (pos < n) {
        // A colour's cells have neighbours of the other colour only, so updating in place is a sweep.
        if (isRed(p, pos) == red) {
          var sum = 0.0
          var d = 0
          while (d < 4) { val q = neighbour(p, pos, d); if (q >= 0) sum += v(q); d += 1 }
          v(pos) = relax(p, v(pos), sum)
        }
        pos += 1
      }
    }
    for (k <- 1 to p.iterations) {
      sweep(red = false)
      if (k < p.iterations) sweep(red = true)
    }
    answer(v)
  }

  def answer(values: Array[Double]): Relaxed = Relaxed(values.sum, Digest.of(values))

  /**
   * One cell's protocol state, shared by both implementations: the neighbours' values of the
   * current round by direction, and how many relaxations are left.
   */
  final class Cell(p: Params, val pos: Int, start: Double) {
    val red: Boolean = isRed(p, pos)
    /** The directions in which this cell has a neighbour, in the order their values are added. */
    val directions: Array[Int] = (0 until 4).filter(d => neighbour(p, pos, d) >= 0).toArray
    var value: Double = start
    private[this] val inbox = new Array[Double](4)
    private[this] var received = 0
    private[this] var remaining = if (red) p.iterations - 1 else p.iterations

    /** A neighbour's value of this round, from direction `from`. */
    def store(from: Int, v: Double): Unit = { inbox(from) = v; received += 1 }

    /** Every neighbour's value of this round is here. */
    def ready: Boolean = received == directions.length

    def finished: Boolean = remaining == 0

    /** Relax from this round's values; true when the new value must be sent (someone will use it). */
    def step(): Boolean = {
      var sum = 0.0
      var i = 0
      while (i < directions.length) { sum += inbox(directions(i)); i += 1 }
      value = relax(p, value, sum)
      received = 0
      remaining -= 1
      // A black cell's last value would reach red cells that have finished.
      red || remaining > 0
    }
  }

  def runCogs(rt: CogRuntime, p: Params): Relaxed = SorCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Relaxed = SorPekko.run(system, p)
}
