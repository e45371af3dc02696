package cogs.absc.lib

import java.math.BigInteger

import scala.language.implicitConversions

/**
 * ABS `Rat`: exact rational numbers. ABS `Int` is a subtype of `Rat`, and so is [[AbsInt]] of
 * [[AbsRat]] here: a `List[AbsInt]` is a `List[AbsRat]` without any conversion.
 *
 * Every value is normalised when it is made: a rational whose denominator is 1 is always an
 * [[AbsInt]], any other is an [[AbsFrac]] with a positive denominator and numerator and
 * denominator coprime. So equality is structural (`2/1 == 2`, `4/6 == 2/3`), hashing is consistent
 * with it, and `toString` never has to normalise.
 *
 * Arithmetic follows ABS: `+ - *` of two Ints is an Int (static overloads on [[AbsInt]]), `/` is
 * always a `Rat` (`7/2` is `7/2`, `6/3` is the Int 2 at run time), `%` is the truncated remainder
 * (sign of the dividend, as Erlang `rem` and Java `%`), division or remainder by zero throws
 * [[DivisionByZeroException]]. Mixed Int/Rat arithmetic needs no conversion: an `AbsInt` is an
 * `AbsRat`, and the result's static type is `AbsRat`.
 */
sealed abstract class AbsRat extends Serializable {

  /** Numerator of the normalised form (carries the sign). */
  def numerator: AbsInt

  /** Denominator of the normalised form (positive; 1 for an Int). */
  def denominator: AbsInt

  /** True if this is an integer (then it is an [[AbsInt]]). */
  def isInt: Boolean

  /** -1, 0 or 1. */
  def signum: scala.Int

  def unary_- : AbsRat

  def abs: AbsRat

  /** Truncation towards zero (ABS `truncate`). */
  def truncate: AbsInt

  /** The nearest `Double` (correctly rounded). */
  def toDouble: Double

  final def +(that: AbsRat): AbsRat = {
    if (this.isInstanceOf[AbsInt] && that.isInstanceOf[AbsInt]) this.asInstanceOf[AbsInt] + that.asInstanceOf[AbsInt]
    else AbsRat.make(numerator * that.denominator + that.numerator * denominator, denominator * that.denominator)
  }

  final def -(that: AbsRat): AbsRat = {
    if (this.isInstanceOf[AbsInt] && that.isInstanceOf[AbsInt]) this.asInstanceOf[AbsInt] - that.asInstanceOf[AbsInt]
    else AbsRat.make(numerator * that.denominator - that.numerator * denominator, denominator * that.denominator)
  }

  final def *(that: AbsRat): AbsRat = {
    if (this.isInstanceOf[AbsInt] && that.isInstanceOf[AbsInt]) this.asInstanceOf[AbsInt] * that.asInstanceOf[AbsInt]
    else AbsRat.make(numerator * that.numerator, denominator * that.denominator)
  }

  /** Exact division; an integral result is an [[AbsInt]]. Throws [[DivisionByZeroException]]. */
  final def /(that: AbsRat): AbsRat = {
    if (this.isInstanceOf[AbsInt] && that.isInstanceOf[AbsInt]) this.asInstanceOf[AbsInt].divide(that.asInstanceOf[AbsInt])
    else {
      if (that.signum == 0) throw DivisionByZeroException
      AbsRat.make(numerator * that.denominator, denominator * that.numerator)
    }
  }

  /**
   * Truncated remainder: `a - b * truncate(a / b)`, with the sign of `a` (ABS `%`, as the
   * reference backends compute it). Throws [[DivisionByZeroException]].
   */
  final def %(that: AbsRat): AbsRat = {
    if (this.isInstanceOf[AbsInt] && that.isInstanceOf[AbsInt]) this.asInstanceOf[AbsInt] % that.asInstanceOf[AbsInt]
    else {
      if (that.signum == 0) throw DivisionByZeroException
      AbsRat.make((numerator * that.denominator) % (that.numerator * denominator), denominator * that.denominator)
    }
  }

  /** The ABS ordering of numbers (the usual one). */
  final def compare(that: AbsRat): scala.Int = {
    if (this.isInstanceOf[AbsInt] && that.isInstanceOf[AbsInt]) this.asInstanceOf[AbsInt].compareInt(that.asInstanceOf[AbsInt])
    else (numerator * that.denominator).compareInt(that.numerator * denominator)
  }

  final def <(that: AbsRat): Boolean = compare(that) < 0
  final def <=(that: AbsRat): Boolean = compare(that) <= 0
  final def >(that: AbsRat): Boolean = compare(that) > 0
  final def >=(that: AbsRat): Boolean = compare(that) >= 0

  /** `this` to the power `n` (ABS `pow`; a negative `n` gives `1 / this^-n`). */
  final def pow(n: AbsInt): AbsRat = AbsRat.pow(this, n)
}

object AbsRat {

  /** Scala `Int` literals where an ABS number is expected: `x + 1`, `val r: AbsRat = 3`. */
  implicit def fromInt(i: scala.Int): AbsInt = AbsInt(i.toLong)

  /** Scala `Long` values where an ABS number is expected. */
  implicit def fromLong(l: Long): AbsInt = AbsInt(l)

  /** Scala `BigInt` values where an ABS number is expected. */
  implicit def fromBigInt(b: BigInt): AbsInt = AbsInt(b)

  /** `n / d`, normalised. Throws [[DivisionByZeroException]] if `d` is 0. */
  def apply(n: AbsInt, d: AbsInt): AbsRat = make(n, d)

  /** Parse `"n"` or `"n/d"` (tests and tools). */
  def parse(s: String): AbsRat = s.indexOf('/') match {
    case -1 => AbsInt(s.trim)
    case i  => make(AbsInt(s.substring(0, i).trim), AbsInt(s.substring(i + 1).trim))
  }

  private[lib] def make(n: AbsInt, d: AbsInt): AbsRat = {
    if (d.signum == 0) throw DivisionByZeroException
    if ((n.bv eq null) && (d.bv eq null) && n.lv != Long.MinValue && d.lv != Long.MinValue) {
      var a = n.lv
      var b = d.lv
      val g = AbsInt.gcdLong(java.lang.Math.abs(a), java.lang.Math.abs(b))
      a /= g
      b /= g
      if (b < 0) { a = -a; b = -b }
      if (b == 1L) AbsInt(a) else new AbsFrac(AbsInt(a), AbsInt(b))
    } else {
      var a = n.big
      var b = d.big
      val g = a.gcd(b)
      if (g.signum != 0 && !(g == BigInteger.ONE)) { a = a.divide(g); b = b.divide(g) }
      if (b.signum < 0) { a = a.negate(); b = b.negate() }
      if (b == BigInteger.ONE) AbsInt(a) else new AbsFrac(AbsInt(a), AbsInt(b))
    }
  }

  private[lib] def pow(b: AbsRat, n: AbsInt): AbsRat = {
    if (n.signum < 0) {
      if (b.signum == 0) throw DivisionByZeroException
      AbsRat.make(b.denominator, b.numerator).pow(-n)
    } else b match {
      case i: AbsInt => i.powInt(n)
      case _         => AbsRat.make(b.numerator.powInt(n), b.denominator.powInt(n))
    }
  }
}

/**
 * ABS `Int`: arbitrary precision, with a `Long` fast path. A value that fits a `Long` is held in
 * `lv` (with `bv == null`); only a value outside the `Long` range has a `BigInteger` (`bv`). The
 * representation is therefore unique, and equality, hashing and comparison of small values are
 * plain `Long` operations. Values from -1024 to 1024 are cached.
 *
 * Make values with `AbsInt(42)`, `AbsInt("123456789012345678901234567890")`, `AbsInt(bigInt)`, or
 * let the implicit conversion in [[AbsRat]]'s companion turn a Scala `Int` literal into one.
 */
final class AbsInt private (private[lib] val lv: Long, private[lib] val bv: BigInteger) extends AbsRat {

  // ---- representation ----

  /** True if the value fits a `Long`. */
  def isLong: Boolean = bv eq null

  /** The value as a `Long`; throws `ArithmeticException` if it does not fit. */
  def toLong: Long = if (bv eq null) lv else throw new ArithmeticException(s"$this does not fit a Long")

  /** The value as a Scala `Int`; throws `ArithmeticException` if it does not fit. */
  def toInt: scala.Int = java.lang.Math.toIntExact(toLong)

  /** The value as a `BigInteger`. */
  def big: BigInteger = if (bv eq null) BigInteger.valueOf(lv) else bv

  /** The value as a Scala `BigInt`. */
  def toBigInt: BigInt = BigInt(big)

  def numerator: AbsInt = this
  def denominator: AbsInt = AbsInt.One
  def isInt: Boolean = true
  def signum: scala.Int = if (bv eq null) java.lang.Long.signum(lv) else bv.signum
  def truncate: AbsInt = this
  def toDouble: Double = if (bv eq null) lv.toDouble else bv.doubleValue

  // ---- Int arithmetic (statically Int results) ----

  def +(that: AbsInt): AbsInt = {
    if ((bv eq null) && (that.bv eq null)) {
      val a = lv
      val b = that.lv
      val r = a + b
      if (((a ^ r) & (b ^ r)) >= 0) return AbsInt(r)
    }
    AbsInt(big.add(that.big))
  }

  def -(that: AbsInt): AbsInt = {
    if ((bv eq null) && (that.bv eq null)) {
      val a = lv
      val b = that.lv
      val r = a - b
      if (((a ^ b) & (a ^ r)) >= 0) return AbsInt(r)
    }
    AbsInt(big.subtract(that.big))
  }

  def *(that: AbsInt): AbsInt = {
    if ((bv eq null) && (that.bv eq null)) {
      val a = lv
      val b = that.lv
      val r = a * b
      val hi = java.lang.Math.multiplyHigh(a, b)
      if ((hi == 0L && r >= 0L) || (hi == -1L && r < 0L)) return AbsInt(r)
    }
    AbsInt(big.multiply(that.big))
  }

  /** Truncated remainder (sign of `this`); throws [[DivisionByZeroException]]. */
  def %(that: AbsInt): AbsInt = {
    if (that.signum == 0) throw DivisionByZeroException
    if ((bv eq null) && (that.bv eq null)) AbsInt(lv % that.lv)
    else AbsInt(big.remainder(that.big))
  }

  /**
   * Integer division truncating towards zero: `truncate(a / b)` without the rational in between.
   * Throws [[DivisionByZeroException]].
   */
  def quot(that: AbsInt): AbsInt = {
    if (that.signum == 0) throw DivisionByZeroException
    if ((bv eq null) && (that.bv eq null) && !(lv == Long.MinValue && that.lv == -1L)) AbsInt(lv / that.lv)
    else AbsInt(big.divide(that.big))
  }

  /** Exact division, an Int if `that` divides `this` (the `Int / Int` of ABS). */
  private[lib] def divide(that: AbsInt): AbsRat = {
    if (that.signum == 0) throw DivisionByZeroException
    if ((bv eq null) && (that.bv eq null) && lv != Long.MinValue && that.lv != Long.MinValue) {
      if (lv % that.lv == 0L) AbsInt(lv / that.lv) else AbsRat.make(this, that)
    } else AbsRat.make(this, that)
  }

  def unary_- : AbsInt =
    if ((bv eq null) && lv != Long.MinValue) AbsInt(-lv) else AbsInt(big.negate())

  def abs: AbsInt = if (signum < 0) -this else this

  /** Greatest common divisor (non-negative). */
  def gcd(that: AbsInt): AbsInt =
    if ((bv eq null) && (that.bv eq null) && lv != Long.MinValue && that.lv != Long.MinValue)
      AbsInt(AbsInt.gcdLong(java.lang.Math.abs(lv), java.lang.Math.abs(that.lv)))
    else AbsInt(big.gcd(that.big))

  /** `this` to the power `n >= 0`, as an Int. */
  def powInt(n: AbsInt): AbsInt = {
    if (n.signum < 0) throw new IllegalArgumentException("negative exponent")
    if ((bv eq null) && (lv == 0L || lv == 1L)) return if (n.signum == 0) AbsInt.One else this
    if ((bv eq null) && lv == -1L) return if (!n.big.testBit(0)) AbsInt.One else this
    if (!n.isLong || n.lv > Integer.MAX_VALUE)
      throw new ArithmeticException(s"pow: exponent $n is too large")
    val e = n.lv.toInt
    if (bv eq null) {
      // Square-and-multiply on Longs while it fits, BigInteger when it does not.
      var result = 1L
      var base = lv
      var k = e
      var ok = true
      while (ok && k > 0) {
        if ((k & 1) == 1) {
          val hi = java.lang.Math.multiplyHigh(result, base)
          val r = result * base
          if ((hi == 0L && r >= 0L) || (hi == -1L && r < 0L)) result = r else ok = false
        }
        k >>>= 1
        if (ok && k > 0) {
          val hi = java.lang.Math.multiplyHigh(base, base)
          val r = base * base
          if (hi == 0L && r >= 0L) base = r else ok = false
        }
      }
      if (ok) return AbsInt(result)
    }
    AbsInt(big.pow(e))
  }

  // ---- comparisons (statically Int) ----

  private[lib] def compareInt(that: AbsInt): scala.Int =
    if ((bv eq null) && (that.bv eq null)) java.lang.Long.compare(lv, that.lv)
    else big.compareTo(that.big)

  def <(that: AbsInt): Boolean = compareInt(that) < 0
  def <=(that: AbsInt): Boolean = compareInt(that) <= 0
  def >(that: AbsInt): Boolean = compareInt(that) > 0
  def >=(that: AbsInt): Boolean = compareInt(that) >= 0

  // ---- identity ----

  override def equals(that: Any): Boolean = that match {
    case i: AbsInt => if (bv eq null) (i.bv eq null) && lv == i.lv else bv == i.bv
    case _         => false
  }

  override def hashCode: scala.Int = if (bv eq null) java.lang.Long.hashCode(lv) else bv.hashCode

  /** ABS `toString`: decimal digits with a leading `-` if negative. */
  override def toString: String = if (bv eq null) java.lang.Long.toString(lv) else bv.toString
}

object AbsInt {
  private final val CacheLow = -1024
  private final val CacheHigh = 1024
  private val cache: Array[AbsInt] = Array.tabulate(CacheHigh - CacheLow + 1)(i => new AbsInt((i + CacheLow).toLong, null))

  // A method that returns a cached value (`return 1;`, a counter below 1024) resolves its call's
  // future with a shared outcome, not one of 16 bytes per call (docs/runtime-design.md, twentieth session).
  cogs.runtime.internal.CanonicalValues.register(new cogs.runtime.internal.CanonicalValues {
    def valueClass: Class[_] = classOf[AbsInt]
    def count: scala.Int = cache.length
    def value(i: scala.Int): AnyRef = cache(i)
    def indexOf(v: AnyRef): scala.Int = {
      val a = v.asInstanceOf[AbsInt]
      if ((a.bv eq null) && a.lv >= CacheLow && a.lv <= CacheHigh) {
        val i = (a.lv - CacheLow).toInt
        if (cache(i) eq a) i else -1
      } else -1
    }
  })

  val Zero: AbsInt = apply(0L)
  val One: AbsInt = apply(1L)
  val Two: AbsInt = apply(2L)
  val MinusOne: AbsInt = apply(-1L)

  private val LongMin = BigInteger.valueOf(Long.MinValue)
  private val LongMax = BigInteger.valueOf(Long.MaxValue)

  def apply(l: Long): AbsInt =
    if (l >= CacheLow && l <= CacheHigh) cache((l - CacheLow).toInt) else new AbsInt(l, null)

  def apply(i: scala.Int): AbsInt = apply(i.toLong)

  def apply(b: BigInteger): AbsInt =
    if (b.bitLength < 64) apply(b.longValue) else new AbsInt(0L, b)

  def apply(b: BigInt): AbsInt = if (b.isValidLong) apply(b.longValue) else apply(b.bigInteger)

  /** Parse a decimal integer literal (optional leading `-`). */
  def apply(s: String): AbsInt = {
    val t = s.trim
    if (t.length <= 18) apply(java.lang.Long.parseLong(t)) else apply(parseDecimal(t))
  }

  /**
   * A decimal integer of any length (optional leading `-`). `new BigInteger(s)` is quadratic in
   * the number of digits (16 s for a million digits); splitting in halves, `hi * 10^k + lo`,
   * lets BigInteger's sub-quadratic multiplication do the work (a fraction of a second). The
   * compiler parses integer literals with it too.
   */
  def parseDecimal(s: String): BigInteger =
    if (s.startsWith("-")) parseDigits(s, 1, s.length).negate() else parseDigits(s, 0, s.length)

  private def parseDigits(s: String, from: scala.Int, to: scala.Int): BigInteger =
    if (to - from <= 1000) new BigInteger(s.substring(from, to))
    else {
      val mid = from + (to - from) / 2
      parseDigits(s, from, mid).multiply(BigInteger.TEN.pow(to - mid)).add(parseDigits(s, mid, to))
    }

  /** gcd of two non-negative longs (binary algorithm). */
  private[lib] def gcdLong(x: Long, y: Long): Long = {
    if (x == 0L) return y
    if (y == 0L) return x
    var a = x
    var b = y
    val shift = java.lang.Long.numberOfTrailingZeros(a | b)
    a >>= java.lang.Long.numberOfTrailingZeros(a)
    while (b != 0L) {
      b >>= java.lang.Long.numberOfTrailingZeros(b)
      if (a > b) { val t = a; a = b; b = t }
      b -= a
    }
    a << shift
  }

  private[lib] def fitsLong(b: BigInteger): Boolean = b.compareTo(LongMin) >= 0 && b.compareTo(LongMax) <= 0
}

/**
 * A rational that is not an integer: `num / den`, coprime, `den > 1`. Made only by [[AbsRat]]'s
 * operations (`AbsInt(1) / AbsInt(3)`) or `AbsRat(n, d)`.
 */
final class AbsFrac private[lib] (val num: AbsInt, val den: AbsInt) extends AbsRat {
  def numerator: AbsInt = num
  def denominator: AbsInt = den
  def isInt: Boolean = false
  def signum: scala.Int = num.signum
  def unary_- : AbsRat = new AbsFrac(-num, den)
  def abs: AbsRat = if (num.signum < 0) new AbsFrac(-num, den) else this
  def truncate: AbsInt = num.quot(den)

  def toDouble: Double = AbsFrac.toDouble(num, den)

  override def equals(that: Any): Boolean = that match {
    case f: AbsFrac => num == f.num && den == f.den
    case _          => false
  }
  override def hashCode: scala.Int = num.hashCode * 31 + den.hashCode

  /** ABS `toString`: `n/d`, e.g. `-1/3`. */
  override def toString: String = num.toString + "/" + den.toString
}

private object AbsFrac {
  /** Correctly rounded `n / d` (d > 1). */
  def toDouble(n: AbsInt, d: AbsInt): Double = {
    if (n.isLong && d.isLong && java.lang.Math.abs(n.lv) < (1L << 53) && d.lv < (1L << 53))
      return n.lv.toDouble / d.lv.toDouble // both exact, one IEEE division: correctly rounded
    val neg = n.signum < 0
    val a = n.big.abs
    val b = d.big
    // Scale so that the integer quotient has at least 55 significant bits, keep a sticky bit for
    // the remainder, and let BigInteger.doubleValue round it (to nearest, ties to even).
    val shift = java.lang.Math.max(0, 55 - (a.bitLength - b.bitLength))
    val qr = a.shiftLeft(shift).divideAndRemainder(b)
    var q = qr(0)
    if (qr(1).signum != 0) q = q.shiftLeft(1).or(BigInteger.ONE) else q = q.shiftLeft(1)
    val r = java.lang.Math.scalb(q.doubleValue, -(shift + 1))
    if (neg) -r else r
  }
}
