package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class NumbersTest {

  @Test def smallIntArithmetic(): Unit = {
    eqv(i(10), i(5) + i(5))
    eqv(i(5), i(10) - i(5))
    eqv(i(10), i(2) * i(5))
    eqv(i(1), -i(-1))
    eqv(i(2), -(i(0) - i(1)) + i(1)) // -(0 - 1) + 1
    eqv(i(93), i(100) - (i(5) + i(2)))
  }

  @Test def overflowOfLongBecomesBig(): Unit = {
    eqv(big("9223372036854775808"), i(Long.MaxValue) + i(1))
    eqv(big("-9223372036854775809"), i(Long.MinValue) - i(1))
    eqv(big("9223372036854775808"), -i(Long.MinValue))
    eqv(big("18446744073709551614"), i(Long.MaxValue) * i(2))
    eqv(big("85070591730234615847396907784232501249"), i(Long.MaxValue) * i(Long.MaxValue))
    eqv(big("9223372036854775808"), i(Long.MinValue).abs)
    assertFalse((i(Long.MaxValue) + i(1)).isLong)
  }

  @Test def bigNumbersOfTheReferenceTests(): Unit = {
    eqv(big("101457092405402533877"), big("92233720368547758070") + big("9223372036854775807"))
    eqv(big("83010348331692982263"), big("92233720368547758070") - big("9223372036854775807"))
    eqv(big("850705917302346158473969077842325012490"), big("92233720368547758070") * big("9223372036854775807"))
    assertTrue(i(5) < big("9223372036854775808"))
    assertTrue(big("-9223372036854775809") < i(Long.MinValue))
  }

  @Test def bigResultsInLongRangeAreNormalised(): Unit = {
    val x = big("18446744073709551616") - big("18446744073709551611")
    eqv(i(5), x)
    assertTrue(x.isLong)
    eqv(i(5).hashCode, x.hashCode)
    assertTrue((i(Long.MaxValue) + i(1) - i(1)).isLong)
  }

  @Test def remainderIsTruncated(): Unit = {
    eqv(i(1), i(10) % i(3))
    eqv(i(-1), i(-7) % i(3))
    eqv(i(1), i(7) % i(-3))
    eqv(i(-1), i(-7) % i(-3))
    eqv(i(-3), i(-7).quot(i(2)))
    eqv(big("2"), big("100000000000000000002") % big("100000000000000000000"))
  }

  @Test def intDivisionIsRational(): Unit = {
    eqv("7/2", (i(7) / i(2)).toString)
    assertTrue((i(6) / i(3)).isInstanceOf[AbsInt])
    eqv(i(2), i(6) / i(3))
    eqv(q("-2/3"), i(-4) / i(6))
    eqv(q("-2/3"), i(4) / i(-6))
    eqv(i(0), i(0) / i(5))
    eqv(i(2), truncate(i(10) / i(4)))
    eqv(q("1/3"), big("100000000000000000000") / big("300000000000000000000"))
  }

  @Test def divisionByZeroRaisesTheAbsException(): Unit = {
    fails[DivisionByZeroException](i(1) / i(0))
    fails[DivisionByZeroException](i(1) % i(0))
    fails[DivisionByZeroException](i(1).quot(i(0)))
    fails[DivisionByZeroException](q("1/2") / i(0))
    fails[DivisionByZeroException](q("1/2") % q("0"))
    fails[DivisionByZeroException](AbsRat(i(3), i(0)))
    fails[DivisionByZeroException](fdiv(1.0, 0.0, "f.abs:1:1"))
    fails[DivisionByZeroException](fmod(1.0, 0.0, "f.abs:1:1"))
    val e = fails[DivisionByZeroException](i(1) / i(0))
    assertTrue(e == DivisionByZeroException)
  }

  @Test def ratArithmeticOfTheReferenceTests(): Unit = {
    eqv(i(5), q("5/2") + q("5/2"))
    assertTrue((q("5/2") + q("5/2")).isInstanceOf[AbsInt])
    eqv(i(3), q("10/3") - q("1/3"))
    eqv(i(1), q("2/5") * q("5/2"))
    eqv(q("1/3"), q("5/3") % i(1) / i(2)) // 5/3 % 1/2, left-associative
    eqv(q("2/6"), q("8/24"))
    assertTrue(q("5/3") > q("4/3"))
    assertTrue(q("4/3") <= q("5/3"))
    assertTrue(q("5/2") <= q("5/2"))
    assertTrue(q("101/100") > i(1))
    assertTrue(q("9999999/10000000") < i(1))
    eqv(i(1), i(10000000) / i(10000000))
    eqv(q("1/2"), -q("-1/2"))
    eqv(q("-5/6"), q("1/3") - q("7/6"))
  }

  @Test def mixedIntRatArithmeticTypesAsRat(): Unit = {
    val r: AbsRat = i(1) + q("1/2")
    eqv(q("3/2"), r)
    val asRat: AbsRat = i(4)
    eqv(i(2), asRat / i(2))
    val ints: List[AbsRat] = list[AbsInt](1, 2) // Int <: Rat, covariantly
    eqv(q("3"), ints.foldLeft(AbsInt.Zero: AbsRat)(_ + _))
  }

  @Test def ratNormalisationAndPrinting(): Unit = {
    shows("1/3", i(1) / i(3))
    shows("-1/3", i(1) / i(-3))
    shows("2", i(4) / i(2))
    shows("5/2", i(5) / i(2))
    shows("0", i(0) / i(-7))
    eqv(i(-2), numerator(i(-2) / i(3)))
    eqv(i(3), denominator(i(-2) / i(3)))
    eqv(i(-5), numerator(i(-5)))
    eqv(i(1), denominator(i(-5)))
    eqv((i(1) / i(3)).hashCode, (i(2) / i(6)).hashCode)
  }

  @Test def truncate_(): Unit = {
    eqv(i(5), truncate(i(11) / i(2)))
    eqv(i(-5), truncate(i(-11) / i(2)))
    eqv(i(5), truncate(i(5)))
    eqv(i(1), truncate(i(7) / i(5)))
  }

  @Test def floatConversions(): Unit = {
    eqv(2.5, float(i(5) / i(2)))
    eqv(-2.5, float(i(-5) / i(2)))
    eqv(0.0, float(i(0)))
    eqv(1.0, float(i(1)))
    eqv(0.5, float(i(1) / i(2)))
    eqv(1.0 / 3, float(i(1) / i(3)))
    eqv(1e30, float(big("1000000000000000000000000000000")))
    eqv(10.0 / 3, float(AbsRat(i(10).powInt(i(400)), i(3) * i(10).powInt(i(399)))))
  }

  @Test def ratOfFloat(): Unit = {
    eqv(q("5/2"), rat(2.5))
    eqv(q("-5/2"), rat(-2.5))
    eqv(i(0), rat(0.0))
    eqv(i(1), rat(1.0))
    eqv(q("27/2"), rat(13.5))
    eqv(q("1/10"), rat(0.1))
    eqv(q("1353/100"), rat(13.53))
    eqv(big("100000000000000000000"), rat(1e20))
    eqv(q("3/20000000"), rat(1.5e-7))
    fails[PatternMatchFailException](rat(Double.NaN))
  }

  @Test def floorAndCeil(): Unit = {
    eqv(i(5), floor(5.3))
    eqv(i(6), ceil(5.3))
    eqv(i(2), floor(2.5))
    eqv(i(-3), floor(-2.5))
    eqv(i(3), ceil(2.5))
    eqv(i(-2), ceil(-2.5))
    eqv(big("100000000000000000000"), floor(1e20))
    eqv(big("-100000000000000000000"), ceil(-1e20))
    fails[PatternMatchFailException](floor(Double.PositiveInfinity))
  }

  @Test def minMaxAbs(): Unit = {
    eqv(i(5), max(i(5), i(3)))
    eqv(i(3), max(i(-2), i(3)))
    eqv(i(-2), min(i(-2), i(3)))
    eqv(q("3/5"), max(q("-2/5"), q("3/5")))
    eqv(q("-2/5"), min(q("-2/5"), q("3/5")))
    eqv(3.0, max(-2.0, 3.0))
    eqv(1.5, min(2.5, 1.5))
    eqv("b", max("a", "b"))
    eqv(Nothing, max(Just(i(1)), Nothing))
    eqv(i(2), abs(i(-2)))
    eqv(i(5), abs(i(5)))
    eqv(q("5/2"), abs(q("-5/2")))
    eqv(5.2, abs(-5.2))
  }

  @Test def pow_(): Unit = {
    eqv(q("1/16"), pow(q("1/2"), i(4)))
    eqv(i(1024), pow(i(2), i(10)))
    eqv(big("1267650600228229401496703205376"), pow(i(2), i(100)))
    eqv(q("1/4"), pow(i(2), i(-2)))
    eqv(i(-27), pow(i(-3), i(3)))
    eqv(i(1), pow(i(0), i(0)))
    eqv(i(1), pow(i(-1), big("100000000000000000000")))
    eqv(big("-9223372036854775808"), pow(i(-2), i(63)))
    eqv(big("9223372036854775808"), pow(i(2), i(63)))
    fails[DivisionByZeroException](pow(i(0), i(-1)))
  }

  @Test def newtonApproximations(): Unit = {
    eqv(i(2), sqrt_newton(i(4), i(2), q("1/100")))
    eqv(q("17/12"), sqrt_newton(i(2), i(1), q("1/100")))
    eqv(q("163/60"), exp_newton(i(1), q("1/100")))
    eqv(q("60/163"), exp_newton(i(-1), q("1/100")))
  }

  @Test def floatFunctions(): Unit = {
    eqv(2.0, sqrt(4.0))
    eqv(0.0, log(1.0))
    eqv("2.7182818284590455", Show.show(exp(1.0)))
    eqv(1.0, log(exp(1.0)))
    eqv(1.0, fmod(10.0, 3.0, "f.abs:1:1"))
    eqv(2.5, fdiv(10.0, 4.0, "f.abs:1:1"))
  }

  @Test def randomStaysInRange(): Unit = {
    for (_ <- 1 to 1000) {
      val r = random(i(5))
      assertTrue(r >= i(0) && r < i(5), r.toString)
    }
    eqv(i(0), random(i(1)))
    val b = big("100000000000000000000000")
    for (_ <- 1 to 100) {
      val r = random(b)
      assertTrue(r >= i(0) && r < b)
    }
    fails[PatternMatchFailException](random(i(0)))
    fails[PatternMatchFailException](random(i(-3)))
  }

  @Test def seededRandomIsReproducible(): Unit = {
    try {
      AbsRandom.setSeed(42L)
      val a = List.fill(20)(random(i(1000)))
      AbsRandom.setSeed(42L)
      val b = List.fill(20)(random(i(1000)))
      eqv(a, b)
    } finally AbsRandom.unseed()
  }

  @Test def equalityHashingAndImplicitLiterals(): Unit = {
    val five: AbsInt = 5
    eqv(i(5), five)
    eqv(i(5).hashCode, five.hashCode)
    eqv(big("123456789012345678901234567890"), big("123456789012345678901234567890"))
    assertNotEquals(i(2), q("5/2"))
    assertTrue(i(3) + 1 == i(4))
    assertTrue(i(3) < 4)
    eqv(i(-42), AbsInt("-42"))
    eqv(BigInt("123456789012345678901234567890"), big("123456789012345678901234567890").toBigInt)
  }
}
