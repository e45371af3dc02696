package cogs.absc.driver

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Synchronous calls on `this` of methods that cannot suspend are compiled as plain Scala calls
 * (`this.m$now(..)`, see `EffectPhase`); everything else keeps the runtime's path. These runs
 * check that both kinds give the ABS results: direct calls (nested, in a loop, of a Unit
 * method), a call through an interface on the same COG and on another, a call that suspends
 * through its callee, a deep recursion on `this` (still on the heap stack), a failure of a
 * direct callee killing its object, and a failure's report naming its ABS position.
 */
class DirectCallTest {

  private val program =
    """module Direct;
      |exception Oops(Int);
      |interface Calc {
      |  Int total(Int n);
      |  Int viaOther(Calc other, Int n);
      |  Int waits(Int n);
      |  Int depth(Int n);
      |  Int risky(Int n);
      |  Int count();
      |}
      |class CalcImpl implements Calc {
      |  Int calls = 0;
      |  Int square(Int x) { calls = calls + 1; return x * x; }
      |  Int sumSquares(Int n) {
      |    Int s = 0;
      |    Int i = 1;
      |    while (i <= n) { Int q = this.square(i); s = s + q; i = i + 1; }
      |    return s;
      |  }
      |  Int total(Int n) { Int s = this.sumSquares(n); return s + calls; }
      |  Int viaOther(Calc other, Int n) { Int r = other.total(n); return r; }
      |  Int slow(Int n) { suspend; return n; }
      |  Int waits(Int n) { Int r = this.slow(n); return r + 1; }
      |  Int depth(Int n) { Int r = 0; if (n > 0) { r = this.depth(n - 1); r = r + 1; } return r; }
      |  Int check(Int n) { if (n < 0) { throw Oops(n); } return n; }
      |  Int risky(Int n) { Int r = this.check(n); return r; }
      |  Unit bump() { calls = calls + 100; }
      |  Int count() { this.bump(); return calls; }
      |}
      |{
      |  Calc c = new CalcImpl();
      |  Int t = await c!total(3);
      |  println(`total $t$`);
      |  Calc here = new local CalcImpl();
      |  Int l = here.total(2);
      |  println(`same COG through the interface $l$`);
      |  Int v = await c!viaOther(here, 1);
      |  println(`other COG through the interface $v$`);
      |  Int s = await c!viaOther(c, 2);
      |  println(`itself through the interface $s$`);
      |  Int w = await c!waits(41);
      |  println(`suspending callee $w$`);
      |  Int d = await c!depth(100000);
      |  println(`recursion $d$`);
      |  Int k = here.count();
      |  println(`unit callee $k$`);
      |  Fut<Int> f = c!risky(-5);
      |  try { Int x = f.get; println(`no failure $x$`); } catch { Oops(o) => println(`failed with Oops $o$`); }
      |  Fut<Int> g = c!count();
      |  try { Int y = g.get; println(`alive $y$`); } catch { _ => println(`the object is dead`); }
      |}
      |""".stripMargin

  @Test def directAndRuntimeCallsGiveTheAbsResults(): Unit = {
    val dir = tempDir("absc-direct")
    val f = absFile(dir, "direct", program)
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(0, r.status, r.err)
    assertEquals(
      // 1+4+9 + 3 calls; 1+4 + 2 calls; 1 + 3 calls of `here`; 1+4 + 5 calls of `c`
      "total 17\nsame COG through the interface 7\nother COG through the interface 4\n" +
        "itself through the interface 10\nsuspending callee 42\nrecursion 100000\nunit callee 103\n" +
        "failed with Oops -5\nthe object is dead\n",
      r.programOut)
  }

  @Test def onlyCallsOnThisOfPlainMethodsAreDirect(): Unit = {
    val dir = tempDir("absc-direct")
    val f = absFile(dir, "direct", program)
    val out = dir.resolve("out")
    val r = absc(AbsBackend, "compile", f, "-d", out.toString)
    assertEquals(0, r.status, r.err)
    val scala = Files.walk(out).iterator.asScala.filter(_.toString.endsWith("Direct.scala")).toList match {
      case List(p) => Files.readString(p)
      case other => fail(s"one Direct.scala expected under $out, found $other")
    }
    for (direct <- List("this.square$now(i)", "this.sumSquares$now(n)", "this.check$now(n)", "this.bump$now()"))
      assertTrue(scala.contains(direct), s"direct call $direct expected in:\n$scala")
    // the runtime's path: through the interface, a callee that suspends, recursion on `this`
    assertTrue(scala.contains("sync(other, \"") && "sync\\(other, \"[^\"]*direct.abs:\\d+:\\d+\"\\)\\(Calc.total\\(n\\)\\)".r.findFirstIn(scala).isDefined, scala)
    // a self-call of a continuation method outside a try: a plain JVM call of its frame form (no
    // per-method handler, no `Proc` node), or a pending call past the nesting limit
    assertTrue(scala.contains("this.slow$f(p$, n)"), scala)
    assertTrue(scala.contains("this.depth$f(p$, n - AbsInt(1))"), scala)
    assertTrue(scala.contains("p$.pendingCall(this, (p$, _) => depth$f(p$, n - AbsInt(1)))"), scala)
    assertFalse(scala.contains("Proc.defer(this."), scala)
    for (noForm <- List("slow$now", "depth$now", "total$now", "waits$now"))
      assertFalse(scala.contains(noForm), s"$noForm: no value-returning form expected in:\n$scala")
  }

  /**
   * A synchronous self-call of a method compiled as a continuation goes, outside a try, to the
   * callee's form without its own failure handler (`m$body`), leaving the failure to the caller's
   * handler on the same object. What a failure does must not change: the report names its ABS
   * line and the process's object and method; the object dies whether or not a try in the caller
   * catches the failure (the callee's method ended with it); and a `recover` block still runs once
   * for each method the failure leaves (such a class keeps a handler per method).
   */
  @Test def aFailureInASuspendingSelfCalleeKeepsItsMeaning(): Unit = {
    val dir = tempDir("absc-direct")
    val f = absFile(dir, "frames",
      """module Frames;
        |exception Oops(Int);
        |interface I { Int outer(Int n); Int caught(Int n); Int alive(); }
        |class C implements I {
        |  Int inner(Int n) { suspend; if (n < 0) { throw Oops(n); } return 10 % n; }
        |  Int middle(Int n) { Int r = this.inner(n); return r + 1; }
        |  Int outer(Int n) { Int r = this.middle(n); return r + 1; }
        |  Int caught(Int n) { Int r = 0; try { r = this.middle(n); } catch { Oops(o) => r = o; } return r; }
        |  Int alive() { return 1; }
        |}
        |interface R { Int outer(Int n); Int recovered(); }
        |class Rec implements R {
        |  Int seen = 0;
        |  Int inner(Int n) { suspend; if (n < 0) { throw Oops(n); } return n; }
        |  Int outer(Int n) { Int r = this.inner(n); return r; }
        |  Int recovered() { return seen; }
        |  recover { Oops(o) => seen = seen + 1; }
        |}
        |{
        |  I a = new C();
        |  Int ok = await a!outer(3);
        |  println(`ok $ok$`);
        |  Int c = await a!caught(-3);
        |  println(`caught $c$`);
        |  Fut<Int> d = a!alive();
        |  try { Int x = d.get; println(`alive $x$`); } catch { _ => println(`dead after a caught failure`); }
        |  R r = new Rec();
        |  Fut<Int> g = r!outer(-1);
        |  try { Int y = g.get; println(`no failure $y$`); } catch { Oops(o) => println(`Oops $o$`); }
        |  Int seen = await r!recovered();
        |  println(`recover ran $seen$ times`);
        |  I b = new C();
        |  Int z = await b!outer(0);
        |}
        |""".stripMargin)
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Failure, r.status, r.err)
    assertEquals("ok 3\ncaught -3\ndead after a caught failure\nOops -1\nrecover ran 2 times\n", r.programOut)
    // the uncaught failure, three frames down: the ABS line of the throw, the object and the method of the process
    assertTrue(r.err.contains("frames.abs:5:"), r.err)
    assertTrue(r.err.contains("division by zero"), r.err)
    assertTrue(r.err.contains("C.outer (object created at frames.abs:"), r.err)
    assertFalse(r.err.contains("\tat "), s"no stack trace:\n${r.err}")
  }

  @Test def aFailureInADirectCalleeNamesItsAbsPosition(): Unit = {
    val dir = tempDir("absc-direct")
    val f = absFile(dir, "fails",
      "module Fails;\ninterface I { Int outer(Int n); }\nclass C implements I {\n" +
        "  Int half(Int n) { return 10 % n; }\n  Int outer(Int n) { Int r = this.half(n); return r; }\n}\n" +
        "{\n  I o = new C();\n  Int x = await o!outer(0);\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Failure, r.status, r.err)
    assertTrue(r.err.contains("division by zero at "), r.err)
    assertTrue(r.err.contains("fails.abs:4:"), r.err)
    assertFalse(r.err.contains("\tat "), s"no stack trace:\n${r.err}")
  }
}
