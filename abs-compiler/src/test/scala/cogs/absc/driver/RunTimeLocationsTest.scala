package cogs.absc.driver

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Every run-time failure names the ABS call site (issue 16 point 3, issue 9 point 4): a call on
 * `null` names the method and its `file:line:col`, a failure while an object is created names the
 * class and the `new`, and the partial functions of the standard library, `/` and `%`, and a
 * `case` without a matching branch name where they are in the model. Each through `absc run`.
 */
class RunTimeLocationsTest {

  /** Runs `main` (the main block's statements) with `decls` before it; the failure report. */
  private def failure(name: String, decls: String, main: String): String = {
    val dir = tempDir("absc-loc")
    val f = absFile(dir, name, s"module Loc;\n$decls\n{\n$main\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Failure, r.status, r.err)
    assertFalse(r.err.contains("\tat "), s"no stack trace:\n${r.err}")
    r.err
  }

  private val Iface = "interface I { Int m(); }\nclass C implements I { Int m() { return 1; } }"

  @Test def anAsynchronousCallOnNull(): Unit = {
    val err = failure("nullasync", Iface, "I o = null;\nFut<Int> f = o!m();")
    assertTrue(err.contains("NullPointerException: call of 'm' on null at "), err)
    assertTrue(err.contains("nullasync.abs:6:16"), err)
  }

  @Test def aSynchronousCallOnNull(): Unit = {
    val err = failure("nullsync", Iface, "I o = null;\nInt x = o.m();")
    assertTrue(err.contains("NullPointerException: call of 'm' on null at "), err)
    assertTrue(err.contains("nullsync.abs:6:11"), err)
  }

  @Test def aFailureInAnInitBlockNamesTheClassAndTheCreator(): Unit = {
    val err = failure("init",
      "class D { Int f = 0; { Int z = 0; f = 10 % z; } }",
      "Int x = 1;\nnew D();")
    assertTrue(err.contains("DivisionByZeroException: division by zero at "), err)
    assertTrue(err.contains("init.abs:2:42, while creating an object of class D at "), err)
    assertTrue(err.contains("init.abs:5:1"), err)
  }

  @Test def aFailureInAFieldInitialiserNamesTheClassAndTheCreator(): Unit = {
    val err = failure("field", "class D(List<Int> l) { Int f = head(l); }", "List<Int> e = Nil;\nnew local D(e);")
    assertTrue(err.contains("PatternMatchFailException: head(Nil) at "), err)
    assertTrue(err.contains("field.abs:2:32, while creating an object of class D at "), err)
    assertTrue(err.contains("field.abs:5:1"), err)
  }

  @Test def headOfNilInAFunctionNamesTheCall(): Unit = {
    val err = failure("head", "def Int first(List<Int> l) = head(l);", "Int x = first(Nil);")
    assertTrue(err.contains("PatternMatchFailException: head(Nil) at "), err)
    assertTrue(err.contains("head.abs:2:30"), err)
  }

  @Test def tailOfNil(): Unit = {
    val err = failure("tail", "", "List<Int> e = Nil;\nList<Int> t = tail(e);")
    assertTrue(err.contains("PatternMatchFailException: tail(Nil) at "), err)
    assertTrue(err.contains("tail.abs:5:15"), err)
  }

  @Test def fromJustOfNothing(): Unit = {
    val err = failure("fromjust", "def A value<A>(Maybe<A> m) = fromJust(m);", "Maybe<Int> n = Nothing;\nInt x = value(n);")
    assertTrue(err.contains("PatternMatchFailException: fromJust(Nothing) at "), err)
    assertTrue(err.contains("fromjust.abs:2:30"), err)
  }

  @Test def nthOutOfRange(): Unit = {
    val err = failure("nth", "", "List<Int> l = list[1, 2];\nInt x = nth(l, 5);")
    assertTrue(err.contains("PatternMatchFailException: nth(list of length 2, 5): no such element at "), err)
    assertTrue(err.contains("nth.abs:5:9"), err)
  }

  @Test def lookupUnsafeOfAMissingKey(): Unit = {
    val err = failure("lookup", "", "Map<Int, Int> m = map[Pair(1, 2)];\nInt x = lookupUnsafe(m, 3);")
    assertTrue(err.contains("PatternMatchFailException: lookupUnsafe(_, 3): no such key at "), err)
    assertTrue(err.contains("lookup.abs:5:9"), err)
  }

  @Test def divisionByZeroInAFunction(): Unit = {
    val err = failure("div", "def Rat ratio(Int a, Int b) = a / b;", "Rat r = ratio(1, 0);")
    assertTrue(err.contains("DivisionByZeroException: division by zero at "), err)
    assertTrue(err.contains("div.abs:2:33"), err)
  }

  @Test def aCaseWithoutAMatchingBranchInAFunction(): Unit = {
    val err = failure("case", "def Int kind(Int x) = case x { 1 => 10; 2 => 20; };", "Int k = kind(3);")
    assertTrue(err.contains("PatternMatchFailException: no pattern matches 3 at "), err)
    assertTrue(err.contains("case.abs:2:23"), err)
  }
}
