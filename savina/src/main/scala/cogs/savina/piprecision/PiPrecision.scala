package cogs.savina.piprecision

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import java.math.{BigDecimal, RoundingMode}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[PiPrecision]]. */
final case class Params(workers: Int, precision: Int) {
  require(workers >= 1 && precision >= 60, s"bad parameters $this")
  override def toString = s"workers=$workers precision=$precision"
}

/**
 * Savina's `piprecision`: pi to `precision` decimal digits by the Bailey-Borwein-Plouffe
 * series, a master handing out terms to `workers` workers (up to ten terms per worker in
 * flight) until a term falls below 10^-precision. Which terms beyond that point were already
 * requested depends on timing, so the answer is checked to within 10^-(precision - 6) of a
 * sequential sum (every term is rounded to `precision` digits), and its first 60 digits against
 * the known ones.
 */
object PiPrecision extends SavinaBenchmark[Params, BigDecimal] {
  val name = "piprecision"
  val title = "Precise Pi Computation"
  val defaults: Params = Params(workers = 20, precision = 5000)
  val quick: Params = Params(workers = 10, precision = 800)

  private val One = BigDecimal.ONE
  private val Two = BigDecimal.valueOf(2)
  private val Four = BigDecimal.valueOf(4)
  private val Sixteen = BigDecimal.valueOf(16)

  /** Term k of the BBP series, rounded to `scale` digits. */
  def term(scale: Int, k: Int): BigDecimal = {
    val mode = RoundingMode.HALF_EVEN
    val e = 8 * k
    var t = Four.divide(BigDecimal.valueOf(e + 1L), scale, mode)
    t = t.subtract(Two.divide(BigDecimal.valueOf(e + 4L), scale, mode))
    t = t.subtract(One.divide(BigDecimal.valueOf(e + 5L), scale, mode))
    t = t.subtract(One.divide(BigDecimal.valueOf(e + 6L), scale, mode))
    t.divide(Sixteen.pow(k), scale, mode)
  }

  def tolerance(p: Params): BigDecimal = One.movePointLeft(p.precision)

  /** How many terms to keep in flight at the start (Savina: min(precision, 10 x workers)). */
  def inFlight(p: Params): Int = math.min(p.precision, 10 * p.workers)

  def expected(p: Params): BigDecimal = {
    val tol = tolerance(p)
    var sum = BigDecimal.ZERO
    var k = 0
    var more = true
    while (more) {
      val t = term(p.precision, k)
      sum = sum.add(t)
      more = t.compareTo(tol) > 0
      k += 1
    }
    sum
  }

  val KnownDigits = "3.14159265358979323846264338327950288419716939937510582097494"

  override def check(p: Params, expected: BigDecimal, actual: BigDecimal): Option[String] = {
    val diff = actual.subtract(expected).abs
    if (!actual.toPlainString.startsWith(KnownDigits)) Some(s"pi starts ${actual.toPlainString.take(KnownDigits.length)}, not $KnownDigits")
    else if (diff.compareTo(One.movePointLeft(p.precision - 6)) > 0)
      Some(s"differs from the sequential sum by ${diff.round(new java.math.MathContext(3))}, more than 1e-${p.precision - 6}")
    else None
  }

  override def show(a: BigDecimal): String = {
    val s = a.toPlainString
    s"${s.take(22)}... (${s.length - 2} digits)"
  }

  def runCogs(rt: CogRuntime, p: Params): BigDecimal = PiPrecisionCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): BigDecimal = PiPrecisionPekko.run(system, p)
}
