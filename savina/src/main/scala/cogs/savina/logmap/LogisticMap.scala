package cogs.savina.logmap

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[LogisticMap]]. */
final case class Params(terms: Int, series: Int, startRate: Double, increment: Double) {
  require(terms >= 0 && series >= 1, s"bad parameters $this")
  override def toString = s"terms=$terms series=$series rate=$startRate+$increment"
}

/**
 * Savina's `logmap`: `series` series of the logistic map x' = r x (1 - x), series i starting at
 * x = i * increment with rate r = startRate + i * increment. A series worker keeps its current
 * term and asks its rate computer for the next one; it must not start a step before the previous
 * one's answer came back. The answer is the sum of the last terms, exactly as a sequential loop
 * computes it (the same operations in the same order per series).
 */
object LogisticMap extends SavinaBenchmark[Params, Double] {
  val name = "logmap"
  val title = "Logistic Map Series"
  val defaults: Params = Params(terms = 25000, series = 10, startRate = 3.46, increment = 0.0025)
  val quick: Params = Params(terms = 2000, series = 10, startRate = 3.46, increment = 0.0025)

  def nextTerm(x: Double, rate: Double): Double = rate * x * (1 - x)

  def startTerm(p: Params, i: Int): Double = i * p.increment
  def rate(p: Params, i: Int): Double = p.startRate + i * p.increment

  /** Sum of the series' last terms, added in series order. */
  def sum(lastTerms: Array[Double]): Double = lastTerms.foldLeft(0.0)(_ + _)

  def expected(p: Params): Double =
    sum(Array.tabulate(p.series) { i =>
      var x = startTerm(p, i)
      val r = rate(p, i)
      for (_ <- 0 until p.terms) x = nextTerm(x, r)
      x
    })

  def runCogs(rt: CogRuntime, p: Params): Double = LogisticMapCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Double = LogisticMapPekko.run(system, p)
}
