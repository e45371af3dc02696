package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class DataAndExceptionsTest {

  @Test def maybe(): Unit = {
    assertFalse(isJust(Nothing))
    assertTrue(isJust(Just(i(1))))
    eqv(i(1), fromJust(Just(i(1))))
    eqv("fromJust(Nothing)", fails[PatternMatchFailException](fromJust(Nothing)).detail)
    eqv(false, fromJustDefault(Nothing, false))
    eqv(i(3), fromJustDefault(Just(i(3)), i(0)))
    eqv(Just(i(1)), Just(i(1)))
    assertNotEquals(Just(i(1)), Nothing)
  }

  @Test def either(): Unit = {
    eqv(i(1), left(Left(i(1))))
    eqv("b", right(Right("b")))
    fails[PatternMatchFailException](left(Right(i(1))))
    fails[PatternMatchFailException](right(Left(i(1))))
    assertTrue(isLeft(Left(i(1))))
    assertFalse(isLeft(Right(i(1))))
    assertTrue(isRight(Right(i(1))))
    assertFalse(isRight(Left(i(1))))
  }

  @Test def pairsAndTriples(): Unit = {
    eqv(i(1), fst(Pair(i(1), "Two")))
    eqv("Two", snd(Pair(i(1), "Two")))
    val t = Triple(i(1), "Two", 3.0)
    eqv(i(1), fstT(t))
    eqv("Two", sndT(t))
    eqv(3.0, trdT(t))
    eqv(3.0, trd(t))
    eqv(Pair(i(2), "x"), Pair(i(4) / i(2), "x"))
    eqv(Pair(i(2), "x").hashCode, Pair(i(4) / i(2), "x").hashCode)
  }

  @Test def boolFunctions(): Unit = {
    assertTrue(and(true, true))
    assertFalse(and(true, false))
    assertTrue(not(false))
    assertTrue(True && !False)
    eqv(i(7), watch(i(7)))
    eqv("v", watchEx("v", i(0)))
  }

  @Test def timeAndDuration(): Unit = {
    assertTrue(durationLessThan(Duration.Duration(i(5)), InfDuration))
    assertFalse(durationLessThan(InfDuration, InfDuration))
    assertTrue(durationLessThan(Duration.Duration(i(1)), Duration.Duration(i(2))))
    eqv(Time(i(3)), addDuration(Time(i(1)), Duration.Duration(i(2))))
    eqv(Time(q("-1")), subtractDuration(Time(i(1)), Duration.Duration(i(2))))
    eqv(q("5/2"), timeDifference(Time(i(3)), Time(q("1/2"))))
    assertTrue(timeLessThan(Time(i(1)), Time(i(2))))
    assertTrue(isDurationInfinite(InfDuration))
    eqv(Duration.Duration(i(3)), subtractFromDuration(Duration.Duration(i(5)), i(2)))
    eqv(InfDuration, subtractFromDuration(InfDuration, i(2)))
    fails[PatternMatchFailException](durationValue(InfDuration))
    eqv(Time(i(2)), Time(i(2) / i(1)))
    eqv(q("1/2"), timeValue(Time(q("1/2"))))
  }

  @Test def builtinExceptionsAreSingletonsWithOptionalDetail(): Unit = {
    val detailed = PatternMatchFailException("head(Nil)")
    assertTrue(detailed == PatternMatchFailException)
    assertTrue(PatternMatchFailException == detailed)
    eqv(PatternMatchFailException.hashCode, detailed.hashCode)
    assertFalse(DivisionByZeroException == PatternMatchFailException)
    assertNull(PatternMatchFailException.detail)
    eqv(0, detailed.getStackTrace.length) // no stack trace is recorded
    val how = (detailed: Throwable) match {
      case DivisionByZeroException   => "dbz"
      case PatternMatchFailException => "pmf"
      case _                         => "other"
    }
    eqv("pmf", how)
    assertTrue(StackOverflowEcxeption == StackOverflowException)
    eqv(set[AbsException](DivisionByZeroException, DivisionByZeroException("x")), set[AbsException](DivisionByZeroException))
  }

  @Test def catchingLikeTheEmitterWill(): Unit = {
    def attempt(body: => Any): String =
      try { body; "ok" }
      catch {
        case DivisionByZeroException => "division"
        case MyError(code, why)      => s"my $code $why"
        case Oops                    => "oops"
        case e: AbsException         => "abs " + absToString(e)
      }
    eqv("division", attempt(i(1) / i(0)))
    eqv("my 7 bad", attempt(throw MyError(i(7), "bad")))
    eqv("oops", attempt(throw Oops))
    eqv("abs PatternMatchFailException", attempt(head(Nil)))
    eqv("ok", attempt(i(1) / i(1)))
  }

  @Test def userExceptionsAreData(): Unit = {
    eqv(MyError(i(1), "x"), MyError(i(1), "x"))
    assertNotEquals(MyError(i(1), "x"), MyError(i(2), "x"))
    eqv(MyError(i(1), "x").hashCode, MyError(i(1), "x").hashCode)
    eqv("MyError(1,\"x\")", MyError(i(1), "x").getMessage)
    eqv(Just(Oops), Just(Oops))
  }

  @Test def liftMapsJvmFailures(): Unit = {
    eqv(StackOverflowException, AbsException.lift(new StackOverflowError))
    eqv(HeapOverflowException, AbsException.lift(new OutOfMemoryError("x")))
    eqv(NullPointerException, AbsException.lift(new java.lang.NullPointerException))
    eqv(PatternMatchFailException, AbsException.lift(new MatchError(i(3))))
    eqv(DivisionByZeroException, AbsException.lift(new ArithmeticException("/ by zero")))
    val other = new IllegalStateException("x")
    assertSame(other, AbsException.lift(other))
    assertSame(Oops, AbsException.lift(Oops))
    val deep = try { def f(n: Int): Int = f(n + 1) + 1; f(0); null } catch { case t: Throwable => AbsException.lift(t) }
    eqv(StackOverflowException, deep)
  }

  @Test def emitterHelpers(): Unit = {
    absAssert(true)
    val a = fails[AssertionFailException](absAssert(false, "m.abs:3"))
    eqv("m.abs:3", a.detail)
    assertTrue(a == AssertionFailException)
    fails[AssertionFailException](absAssert(false))
    val m = fails[PatternMatchFailException](matchFail(Just(i(5)), "m.abs:9"))
    eqv("no pattern matches Just(5) at m.abs:9", m.detail)
    fails[NullPointerException](nullCheck(null: AnyRef, "call on null"))
    val o = new Account
    assertSame(o, nullCheck(o))
    // A call site's target, checked after its message: the name comes from the message.
    val msg = AbsCall.message[cogs.runtime.Active, Unit]("put") { (_, _) => () }
    assertEquals("put", AbsCall.methodOf(msg))
    val none: cogs.runtime.Active = null
    eqv("call of 'put' on null at m.abs:3:5", fails[NullPointerException](send(none, "m.abs:3:5")(msg)).detail)
    eqv("call of 'put' on null at m.abs:4:5", fails[NullPointerException](tell(none, "m.abs:4:5")(msg)).detail)
    eqv("call of 'put' on null at m.abs:5:5", fails[NullPointerException](sync(none, "m.abs:5:5")(msg)).detail)
    assertEquals(null, AbsCall.methodOf((_: cogs.runtime.Active) => cogs.runtime.Proc.unit))
  }

  @Test def objectsAndPatternsOnTheStandardTypes(): Unit = {
    val res = (Pair(Just(i(1)), ints(2, 3)): Any) match {
      case Pair(Just(a: AbsInt), Cons(b: AbsInt, Nil)) => a + b
      case Pair(Just(a: AbsInt), Cons(b: AbsInt, Cons(c: AbsInt, Nil))) => a + b + c
      case _ => i(0)
    }
    eqv(i(6), res)
  }
}
