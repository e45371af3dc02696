package cogs.savina.trapezoid

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Trapezoidal]]. */
final case class Params(pieces: Int, workers: Int, left: Double, right: Double) {
  require(pieces >= 1 && workers >= 1 && right > left, s"bad parameters $this")
  override def toString = s"pieces=$pieces workers=$workers interval=[$left, $right]"
}

/**
 * Savina's `trapezoid`: the integral of f(x) = sin(x^3 - 1) / (x + 1) * sqrt(1 + e^sqrt(2x))
 * over [left, right] by the trapezoidal rule with `pieces` pieces, the interval split evenly
 * among `workers` workers. The master adds the workers' areas in worker order, so the answer is
 * exactly that of the same computation done sequentially.
 */
object Trapezoidal extends SavinaBenchmark[Params, Double] {
  val name = "trapezoid"
  val title = "Trapezoidal Approximation"
  val defaults: Params = Params(pieces = 10000000, workers = 100, left = 1, right = 5)
  val quick: Params = Params(pieces = 500000, workers = 20, left = 1, right = 5)

  def fx(x: Double): Double = {
    val a = math.sin(math.pow(x, 3) - 1)
    val b = x + 1
    val d = math.sqrt(1 + math.exp(math.sqrt(2 * x)))
    a / b * d
  }

  /** Worker `i`'s share: the area over its sub-interval with pieces of width h. */
  def area(p: Params, i: Int): Double = {
    val h = (p.right - p.left) / p.pieces
    val range = (p.right - p.left) / p.workers
    val l = range * i + p.left
    val r = l + range
    val n = ((r - l) / h).toInt
    var acc = 0.0
    var k = 0
    while (k < n) {
      val lx = k * h + l
      val rx = lx + h
      acc += 0.5 * (fx(lx) + fx(rx)) * h
      k += 1
    }
    acc
  }

  def sum(areas: Array[Double]): Double = areas.foldLeft(0.0)(_ + _)

  def expected(p: Params): Double = sum(Array.tabulate(p.workers)(i => area(p, i)))

  def runCogs(rt: CogRuntime, p: Params): Double = TrapezoidalCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Double = TrapezoidalPekko.run(system, p)
}
