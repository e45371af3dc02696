package cogs.savina.recmatmul

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[MatMul]]. */
final case class Params(workers: Int, size: Int, blockThreshold: Int) {
  require(workers >= 1 && size >= 1 && Integer.bitCount(size) == 1 && blockThreshold >= 1, s"bad parameters $this (size must be a power of two)")
  override def toString = s"workers=$workers size=$size threshold=$blockThreshold"
}

/**
 * Savina's `recmatmul`: C = A x B for `size` x `size` matrices with A(i)(j) = i and B(i)(j) = j,
 * by recursive decomposition. A work item is a square block product; one with more than
 * `blockThreshold` cells is split into its eight half-size products, handed back to the master,
 * which passes each to the worker that owns its block of C (so no two workers ever add to the
 * same cells); smaller ones are multiplied in place. The answer is the number of cells of C
 * equal to size * i * j (all of them, exactly: the products are whole numbers).
 */
object MatMul extends SavinaBenchmark[Params, Long] {
  val name = "recmatmul"
  val title = "Recursive Matrix Multiplication"
  val defaults: Params = Params(workers = 20, size = 1024, blockThreshold = 16384)
  val quick: Params = Params(workers = 10, size = 256, blockThreshold = 4096)

  def expected(p: Params): Long = p.size.toLong * p.size

  /** The matrices of one run: C starts at zero. */
  final class Matrices(n: Int) {
    val a: Array[Array[Double]] = Array.tabulate(n, n)((i, _) => i.toDouble)
    val b: Array[Array[Double]] = Array.tabulate(n, n)((_, j) => j.toDouble)
    val c: Array[Array[Double]] = Array.ofDim[Double](n, n)

    /** Cells of C with the right value. */
    def correctCells: Long = {
      var ok = 0L
      for (i <- 0 until n; j <- 0 until n) if (c(i)(j) == n.toDouble * i * j) ok += 1
      ok
    }
  }

  /** C(rc.., cc..) += A(ra.., ca..) x B(rb.., cb..), blocks of `dim` x `dim` (`cells` = dim * dim). */
  final case class Block(ra: Int, ca: Int, rb: Int, cb: Int, rc: Int, cc: Int, cells: Int, dim: Int) {
    /** The worker that owns this block of C. */
    def owner(workers: Int): Int = (rc + cc) % workers

    /** The eight half-size products that make up this one. */
    def split: Array[Block] = {
      val h = dim / 2
      val q = cells / 4
      Array(
        Block(ra, ca, rb, cb, rc, cc, q, h),
        Block(ra, ca + h, rb + h, cb, rc, cc, q, h),
        Block(ra, ca, rb, cb + h, rc, cc + h, q, h),
        Block(ra, ca + h, rb + h, cb + h, rc, cc + h, q, h),
        Block(ra + h, ca, rb, cb, rc + h, cc, q, h),
        Block(ra + h, ca + h, rb + h, cb, rc + h, cc, q, h),
        Block(ra + h, ca, rb, cb + h, rc + h, cc + h, q, h),
        Block(ra + h, ca + h, rb + h, cb + h, rc + h, cc + h, q, h)
      )
    }

    def multiply(m: Matrices): Unit = {
      var i = rc
      while (i < rc + dim) {
        val ci = m.c(i)
        val ai = m.a(i)
        var j = cc
        while (j < cc + dim) {
          var sum = ci(j)
          var k = 0
          while (k < dim) { sum += ai(ca + k) * m.b(rb + k)(j); k += 1 }
          ci(j) = sum
          j += 1
        }
        i += 1
      }
    }
  }

  def whole(p: Params): Block = Block(0, 0, 0, 0, 0, 0, p.size * p.size, p.size)

  def runCogs(rt: CogRuntime, p: Params): Long = MatMulCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = MatMulPekko.run(system, p)
}
