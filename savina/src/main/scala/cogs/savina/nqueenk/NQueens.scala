package cogs.savina.nqueenk

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[NQueens]]. */
final case class Params(workers: Int, size: Int, threshold: Int) {
  require(workers >= 1 && size >= 1 && size <= NQueens.Solutions.length && threshold >= 0, s"bad parameters $this")
  override def toString = s"workers=$workers size=$size threshold=$threshold"
}

/**
 * Savina's `nqueenk`: count the placements of `size` queens on a `size` x `size` board with a
 * master and `workers` workers. A worker given a board of `depth` queens either extends it by one
 * queen in every safe way and hands the new boards back to the master, which assigns each to the
 * next worker (depth below `threshold`), or searches all its completions itself (from
 * `threshold` on), reporting each solution to the master.
 *
 * Savina stops after `SOLUTIONS_LIMIT = 1,500,000` solutions; no size up to 14 reaches it, so
 * here the search is always exhaustive and the count is checked exactly against the known number
 * of solutions (OEIS A000170).
 */
object NQueens extends SavinaBenchmark[Params, Long] {

  /** Solutions of the n-queens problem for n = 1, 2, ... (OEIS A000170). */
  // Before the parameters, which check against it.
  val Solutions: Array[Long] =
    Array(1L, 0L, 0L, 2L, 10L, 4L, 40L, 92L, 352L, 724L, 2680L, 14200L, 73712L, 365596L, 2279184L, 14772512L)

  val name = "nqueenk"
  val title = "N-Queens"
  val defaults: Params = Params(workers = 20, size = 12, threshold = 4)
  val quick: Params = Params(workers = 4, size = 8, threshold = 3)

  def expected(p: Params): Long = Solutions(p.size - 1)

  def runCogs(rt: CogRuntime, p: Params): Long = NQueensCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = NQueensPekko.run(system, p)

  /**
   * True when no two of the first `n` queens of `board` (queen i in row i, column board(i))
   * attack each other. Like Savina's kernel it checks every pair, not just the newest queen: the
   * amount of computation per message is part of the benchmark.
   */
  def safe(board: Array[Int], n: Int): Boolean = {
    var i = 0
    while (i < n) {
      val p = board(i)
      var j = i + 1
      while (j < n) {
        val q = board(j)
        val d = j - i
        if (q == p || q == p - d || q == p + d) return false
        j += 1
      }
      i += 1
    }
    true
  }

  /** The search a worker runs; `solution()` is how it reports one (a message to the master). */
  abstract class Kernel(size: Int) {
    protected def solution(): Unit

    /** Every safe way to complete the first `depth` queens of `board`, depth first. */
    final def complete(board: Array[Int], depth: Int): Unit =
      if (depth == size) solution()
      else {
        val next = java.util.Arrays.copyOf(board, depth + 1)
        var col = 0
        while (col < size) {
          next(depth) = col
          if (safe(next, depth + 1)) complete(next, depth + 1)
          col += 1
        }
      }

    /** The safe boards with one more queen than the first `depth` of `board`. */
    final def extensions(board: Array[Int], depth: Int): Array[Array[Int]] = {
      val out = new Array[Array[Int]](size)
      var n = 0
      var col = 0
      while (col < size) {
        val next = java.util.Arrays.copyOf(board, depth + 1)
        next(depth) = col
        if (safe(next, depth + 1)) { out(n) = next; n += 1 }
        col += 1
      }
      java.util.Arrays.copyOf(out, n)
    }
  }
}
