package cogs.absc.driver

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Every run-time failure names the ABS call site (issue 16 point 3, issue 9 point 4): a call on
 * `null` names the method and its `file:line:col`, a failure while an object is created names the
 * class and the `new` (for a user's `throw` as for the library's exceptions), and the partial
 * functions of the standard library, selectors of user types, `/` and `%` (Int and Float), and a
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

  @Test def aOneWayCallOnNull(): Unit = {
    val err = failure("nulltell", Iface, "I o = null;\no!m();")
    assertTrue(err.contains("NullPointerException: call of 'm' on null at "), err)
    assertTrue(err.contains("nulltell.abs:6:3"), err)
  }

  // A call site checks its target after the arguments where no argument can fail (the name comes
  // from the message) and before them where one can: a null target is reported first either way.
  private val Iface1 = "interface I { Int m(Int x); }\nclass C implements I { Int m(Int x) { return x; } }"

  @Test def aNullTargetIsReportedBeforeAnArgumentThatFails(): Unit = {
    for ((call, col) <- List("Fut<Int> f = o!m(1 % z);" -> 16, "Int x = o.m(1 % z);" -> 11, "o!m(head(Nil));" -> 3)) {
      val err = failure("nullfirst", Iface1, s"I o = null;\nInt z = 0;\n$call")
      assertTrue(err.contains("NullPointerException: call of 'm' on null at "), err)
      assertTrue(err.contains(s"nullfirst.abs:7:$col"), err)
      assertFalse(err.contains("DivisionByZero") || err.contains("head(Nil)"), err)
    }
  }

  @Test def aNullTargetWithPlainArguments(): Unit = {
    val err = failure("nullplain", Iface1, "I o = null;\nInt z = 2;\nInt x = o.m(z + 1);")
    assertTrue(err.contains("NullPointerException: call of 'm' on null at "), err)
    assertTrue(err.contains("nullplain.abs:7:11"), err)
  }

  @Test def aNullTargetOfACallWithADeadline(): Unit = {
    // the deadline a constructor (checked last), then one that fails (checked first)
    for ((d, col) <- List("Duration(5)" -> 40, "Duration(1 % z)" -> 44)) {
      val err = failure("nulldeadline", Iface1, s"I o = null;\nInt z = 0;\n[Deadline: $d] Fut<Int> f = o!m(z);")
      assertTrue(err.contains("NullPointerException: call of 'm' on null at "), err)
      assertTrue(err.contains(s"nulldeadline.abs:7:$col"), err)
    }
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

  @Test def aSelectorOnAConstructorWithoutTheFieldNamesTheCall(): Unit = {
    val err = failure("sel", "data D = A(Int x) | B;\ndef Int pick(D d) = x(d);", "D b = B;\nInt v = pick(b);")
    assertTrue(err.contains("PatternMatchFailException: x(B): no such field at "), err)
    assertTrue(err.contains("sel.abs:3:21"), err)
  }

  @Test def aSelectorPassedByNameNamesWhereItIsNamed(): Unit = {
    val err = failure("selmap",
      "data D = A(Int x) | B;\ndef List<Int> xs(List<D> l) = map(x)(l);",
      "List<Int> v = xs(list[A(1), B]);")
    assertTrue(err.contains("PatternMatchFailException: x(B): no such field at "), err)
    assertTrue(err.contains("selmap.abs:3:35"), err)
  }

  @Test def aPartialLibraryFunctionPassedByNameNamesWhereItIsNamed(): Unit = {
    val err = failure("headmap",
      "def List<Int> firsts(List<List<Int>> l) = map(head)(l);",
      "List<Int> v = firsts(list[list[1], Nil]);")
    assertTrue(err.contains("PatternMatchFailException: head(Nil) at "), err)
    assertTrue(err.contains("headmap.abs:2:47"), err)
  }

  @Test def aSelectorOfAnExceptionAppliedToAnotherException(): Unit = {
    val err = failure("selexc", "exception E(Int code);",
      "Exception e = DivisionByZeroException;\nInt c = code(e);")
    assertTrue(err.contains("PatternMatchFailException: code(DivisionByZeroException): no such field at "), err)
    assertTrue(err.contains("selexc.abs:5:9"), err)
  }

  @Test def aSelectorEveryConstructorHasWorks(): Unit = {
    val dir = tempDir("absc-loc")
    val f = absFile(dir, "seltotal",
      "module Loc;\ndata D = A(Int x) | C(Int x, Int y);\n{\nD d = C(4, 5);\nprintln(toString(x(d) + y(d)));\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("9", r.programOut.trim)
  }

  // The manual's DivisionByZeroException is "raised in arithmetic expressions when the divisor is
  // equal to 0"; Float is no exception to it here (Inf and NaN are unspecified by the manual).
  @Test def floatDivisionByZero(): Unit = {
    val err = failure("fdiv", "def Float ratio(Float a, Float b) = a / b;", "Float r = ratio(1.0, 0.0);")
    assertTrue(err.contains("DivisionByZeroException: Float division by zero at "), err)
    assertTrue(err.contains("fdiv.abs:2:39"), err)
  }

  @Test def floatRemainderByZero(): Unit = {
    val err = failure("fmod", "", "Float z = 0.0;\nFloat r = 7.5 % z;")
    assertTrue(err.contains("DivisionByZeroException: Float remainder by zero at "), err)
    assertTrue(err.contains("fmod.abs:5:15"), err)
  }

  // ABS allows no `throw` in an init block itself; a method it calls synchronously may throw.
  @Test def aUserExceptionThrownInAnInitBlockNamesTheClassAndTheCreator(): Unit = {
    val err = failure("uinit",
      "exception Refused(String why);\nclass D {\n{ this.check(); }\nUnit check() { throw Refused(\"no\"); } }",
      "Int x = 1;\nnew D();")
    assertTrue(err.contains("uncaught exception Refused(\"no\"), thrown at "), err)
    assertTrue(err.contains("uinit.abs:5:16, while creating an object of class D at "), err)
    assertTrue(err.contains("uinit.abs:8:1"), err)
  }

  @Test def aUserExceptionInANestedCreationNamesEveryCreator(): Unit = {
    val err = failure("unest",
      "exception Refused;\nclass D { { this.check(); } Unit check() { throw Refused; } }\nclass K { { new local D(); } }",
      "new K();")
    assertTrue(err.contains("uncaught exception Refused, thrown at "), err)
    assertTrue(err.contains("unest.abs:3:44, while creating an object of class D at "), err)
    assertTrue(err.contains("unest.abs:4:13, while creating an object of class K at "), err)
    assertTrue(err.contains("unest.abs:6:1"), err)
  }

  // A user's exception is a value (E(1) equals every other E(1)), so its place travels beside it.
  @Test def anUncaughtUserExceptionNamesTheThrowStatement(): Unit = {
    val err = failure("uthrow",
      "exception Refused(Int n);\ninterface I { Int m(Int x); }\nclass C implements I {\n  Int m(Int x) {\n    if (x > 1) { throw Refused(x); }\n    return x;\n  }\n}",
      "I o = new C();\nInt y = await o!m(1);\nInt z = await o!m(2);")
    assertTrue(err.contains("uncaught exception Refused(2) (thrown at "), err)
    assertTrue(err.contains("uthrow.abs:6:18)"), err)
  }

  @Test def anExceptionNoCatchBranchMatchedKeepsThePlaceOfItsThrow(): Unit = {
    val err = failure("rethrow", "exception Refused(Int n);\nexception Other;",
      "try { throw Refused(4); } catch { Other => println(\"other\"); }")
    assertTrue(err.contains("uncaught exception Refused(4) (thrown at "), err)
    assertTrue(err.contains("rethrow.abs:5:7)"), err)
  }

  @Test def aLibraryExceptionThrownByTheModelNamesTheThrowStatement(): Unit = {
    val err = failure("lthrow", "", "Int x = 1;\nthrow DivisionByZeroException;")
    assertTrue(err.contains("uncaught exception DivisionByZeroException: thrown at "), err)
    assertTrue(err.contains("lthrow.abs:5:1"), err)
  }

  @Test def aThrownUserExceptionIsCaughtByItsPatternLocallyAndFromAFuture(): Unit = {
    val dir = tempDir("absc-loc")
    val f = absFile(dir, "tcatch",
      "module Loc;\nexception Refused(Int n);\ninterface I { Unit m(Int x); }\nclass C implements I { Unit m(Int x) { throw Refused(x); } }\n" +
      "{\ntry { throw Refused(1); } catch { Refused(n) => println(\"local \" + toString(n)); }\n" +
      "I o = new C();\ntry { Fut<Unit> f = o!m(2); f.get; } catch { Refused(n) => println(\"future \" + toString(n)); }\n" +
      "Fut<Unit> g = o!m(3);\nawait g?;\ntry { g.get; } catch { e => println(\"any \" + toString(e)); }\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("local 1\nfuture 2\nany ObjectDeadException", r.programOut.trim)
  }

  @Test def aUserExceptionFromACreationIsStillCaughtByItsPattern(): Unit = {
    val dir = tempDir("absc-loc")
    val f = absFile(dir, "ucatch",
      "module Loc;\nexception Refused(Int n);\nclass D { { this.check(); } Unit check() { throw Refused(3); } }\n" +
      "{\ntry { new local D(); } catch { Refused(n) => println(\"caught \" + toString(n)); }\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("caught 3", r.programOut.trim)
  }
}
