package cogs.runtime

import java.math.BigInteger

/**
 * A point or a span of simulated time: an exact rational number (Timed ABS's time is dense and
 * rational, so `1/3` units is exact and three of them are exactly one). Immutable; always in
 * lowest terms with a positive denominator, so `equals` is numeric equality.
 *
 * Whole numbers are by far the common case (`await duration(1, 1)`): they keep a denominator of
 * one, and comparing or adding two of them never computes a gcd.
 */
final class SimTime private (val numerator: BigInteger, val denominator: BigInteger) extends Ordered[SimTime] {

  def isWhole: Boolean = denominator == BigInteger.ONE

  def +(o: SimTime): SimTime =
    if (isWhole && o.isWhole) new SimTime(numerator.add(o.numerator), BigInteger.ONE)
    else SimTime.of(numerator.multiply(o.denominator).add(o.numerator.multiply(denominator)), denominator.multiply(o.denominator))

  def -(o: SimTime): SimTime =
    if (isWhole && o.isWhole) new SimTime(numerator.subtract(o.numerator), BigInteger.ONE)
    else SimTime.of(numerator.multiply(o.denominator).subtract(o.numerator.multiply(denominator)), denominator.multiply(o.denominator))

  def *(o: SimTime): SimTime = SimTime.of(numerator.multiply(o.numerator), denominator.multiply(o.denominator))

  def compare(o: SimTime): Int =
    if (isWhole && o.isWhole) numerator.compareTo(o.numerator)
    else numerator.multiply(o.denominator).compareTo(o.numerator.multiply(denominator))

  def min(o: SimTime): SimTime = if (compare(o) <= 0) this else o
  def max(o: SimTime): SimTime = if (compare(o) >= 0) this else o

  def signum: Int = numerator.signum

  /** The greatest whole time not after this one. */
  def floor: SimTime =
    if (isWhole) this
    else {
      val q = numerator.divide(denominator) // truncates toward zero
      new SimTime(if (numerator.signum < 0) q.subtract(BigInteger.ONE) else q, BigInteger.ONE)
    }

  /** The least whole time not before this one. */
  def ceil: SimTime = if (isWhole) this else floor + SimTime.One

  def toDouble: Double = new java.math.BigDecimal(numerator).divide(new java.math.BigDecimal(denominator), java.math.MathContext.DECIMAL64).doubleValue

  /** A whole time as a long (for per-unit bookkeeping); throws if not whole or too large. */
  def toLongExact: Long = { require(isWhole, s"$this is not a whole time"); numerator.longValueExact() }

  override def equals(o: Any): Boolean = o match {
    case t: SimTime => numerator == t.numerator && denominator == t.denominator
    case _          => false
  }
  override def hashCode: Int = numerator.hashCode * 31 + denominator.hashCode

  /** `5`, `1/2`, `-3/4`: the way ABS prints a `Rat`. */
  override def toString: String = if (isWhole) numerator.toString else s"$numerator/$denominator"
}

object SimTime {
  val Zero: SimTime = new SimTime(BigInteger.ZERO, BigInteger.ONE)
  val One: SimTime = new SimTime(BigInteger.ONE, BigInteger.ONE)

  def of(units: Long): SimTime = if (units == 0) Zero else new SimTime(BigInteger.valueOf(units), BigInteger.ONE)

  def of(numerator: Long, denominator: Long): SimTime = of(BigInteger.valueOf(numerator), BigInteger.valueOf(denominator))

  def of(numerator: BigInteger, denominator: BigInteger): SimTime = {
    if (denominator.signum == 0) throw new ArithmeticException("a time with denominator 0")
    val g = numerator.gcd(denominator)
    var n = if (g.equals(BigInteger.ONE) || g.signum == 0) numerator else numerator.divide(g)
    var d = if (g.equals(BigInteger.ONE) || g.signum == 0) denominator else denominator.divide(g)
    if (d.signum < 0) { n = n.negate; d = d.negate }
    if (n.signum == 0) Zero else new SimTime(n, d)
  }

  def apply(units: Long): SimTime = of(units)
  def apply(numerator: Long, denominator: Long): SimTime = of(numerator, denominator)
}
