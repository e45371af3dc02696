package cogs.absc.driver

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.driver.DriverTestSupport._
import cogs.absc.lower._
import cogs.absc.typecheck.TypedProgram

/**
 * Object death as an IR decision (`lower.ObjectDeath`): a class whose methods cannot fail has no
 * dead-object check and no `recover$` handler; in a class whose objects can die, every method
 * checks `dead$` and only the methods that may fail hand their failure to `recover$`. The IR
 * says so (`LClass.mortal`, `LMethod.deadCheck`, `LMethod.handler`), the printer follows it, and
 * a killed object's later calls still fail, handler or not.
 */
class ObjectDeathTest {

  private val model =
    """module Death;
      |interface Counter { Unit inc(); Int total(); Bool waitFor(Int k); }
      |class CounterImpl implements Counter {
      |  Int n = 0;
      |  Unit inc() { n = n + 1; }
      |  Int total() { Int r = n; if (r < 0) { r = 0 - r; } return r; }
      |  Bool waitFor(Int k) { await n >= k; return True; }
      |}
      |interface Fragile { Int ping(); Int crash(Int x); Int guarded(Int x); Int viaSelf(); }
      |class FragileImpl implements Fragile {
      |  Int pings = 0;
      |  Int ping() { pings = pings + 1; return pings; }
      |  Int crash(Int x) { return 10 % x; }
      |  Int guarded(Int x) { Int r = 0; try { r = this.crash(x); } catch { DivisionByZeroException => r = -1; } return r; }
      |  Int viaSelf() { Int p = this.ping(); return p; }
      |}
      |exception Bye;
      |interface Quitter { Int one(); Unit quit(); }
      |class QuitterImpl implements Quitter {
      |  Int one() { return 1; }
      |  Unit quit() { die Bye; }
      |}
      |interface Waiter { Unit w(Fut<Int> f); }
      |class WaiterImpl implements Waiter {
      |  Unit w(Fut<Int> f) { await f?; }
      |}
      |{
      |  Counter c = new CounterImpl();
      |  c!inc();
      |  c!inc();
      |  Bool w = await c!waitFor(2);
      |  Int v = await c!total();
      |  println(`counter $v$ $w$`);
      |  Fragile f = new FragileImpl();
      |  Int p1 = await f!ping();
      |  Int p2 = await f!viaSelf();
      |  Int g = await f!guarded(0);
      |  println(`fragile $p1$ $p2$ $g$`);
      |  try { Int p3 = await f!ping(); println(`alive $p3$`); } catch { ObjectDeadException => println(`dead`); }
      |  Fragile f2 = new FragileImpl();
      |  try { Int z = await f2!crash(0); println(`no crash $z$`); } catch { DivisionByZeroException => println(`crashed`); }
      |  try { Int p4 = await f2!ping(); println(`alive $p4$`); } catch { ObjectDeadException => println(`dead again`); }
      |  Quitter q = new QuitterImpl();
      |  Fut<Unit> qf = q!quit();
      |  try { qf.get; } catch { Bye => println(`quit`); }
      |  try { Int o = await q!one(); println(`alive $o$`); } catch { ObjectDeadException => println(`dead by die`); }
      |}
      |""".stripMargin

  private val pipeline = new Pipeline(AbsBackend, ProgramOptions())
  private def ok[A](r: Either[Stop, A]): A = r.fold(s => fail(s"stopped: $s"), identity)

  private lazy val checked: CheckedProgram[TypedProgram] = {
    val units = ok(pipeline.parse.run(List(SourceFile("death.abs", model))))
    val c = ok(pipeline.check.run(units)).asInstanceOf[CheckedProgram[pipeline.backend.Checked]]
    ok(pipeline.entry.run(c)).asInstanceOf[CheckedProgram[TypedProgram]]
  }
  private lazy val lowered: LProgram = ok(AbsBackend.lower.run(checked))

  private def cls(name: String): LClass =
    lowered.modules.flatMap(_.decls).collectFirst { case c: LClass if c.absName == name => c }.get
  private def method(c: String, m: String): LMethod = cls(c).methods.find(_.sig.absName == m).get

  @Test def theIrSaysWhichClassesCanDieAndWhichMethodsMayFail(): Unit = {
    // No method of CounterImpl can raise anything: no check, no handler anywhere.
    assertFalse(cls("CounterImpl").mortal)
    for (m <- List("inc", "total", "waitFor")) {
      assertFalse(method("CounterImpl", m).deadCheck, m)
      assertFalse(method("CounterImpl", m).handler, m)
    }
    // FragileImpl can die (a remainder by zero): every method checks, only those that may fail have the handler.
    assertTrue(cls("FragileImpl").mortal)
    assertTrue(cls("FragileImpl").methods.forall(_.deadCheck))
    assertFalse(method("FragileImpl", "ping").handler)
    for (m <- List("crash", "guarded", "viaSelf")) assertTrue(method("FragileImpl", m).handler, m)
    // `die` kills; awaiting a future may raise (a null future, or the future's own failure).
    assertTrue(cls("QuitterImpl").mortal)
    assertTrue(method("QuitterImpl", "quit").handler)
    assertFalse(method("QuitterImpl", "one").handler)
    assertTrue(cls("WaiterImpl").mortal)
    assertTrue(method("WaiterImpl", "w").handler)
  }

  @Test def thePrinterPrintsWhatTheIrSays(): Unit = {
    val scala = Pipeline.showEmitted(Pipeline.translate(checked.program))
    def between(in: String, from: String, to: String): String = {
      val i = in.indexOf(from)
      assertTrue(i >= 0, s"$from in:\n$in")
      in.substring(i, in.indexOf(to, i))
    }
    val counter = between(scala, "final class CounterImpl", "object CounterImpl {")
    assertFalse(counter.contains("dead$"), counter)
    assertFalse(counter.contains("recover$"), counter)
    val fragile = between(scala, "final class FragileImpl", "object FragileImpl {")
    // `viaSelf` calls `ping` directly: its body is `ping$now`, which `ping` wraps.
    val ping = between(fragile, "def ping$now()", "def crash(")
    assertTrue(ping.contains("if (dead$ != null) throw ObjectDeadException"), ping)
    assertFalse(ping.contains("recover$"), ping)
    val crash = between(fragile, "def crash(", "def guarded(")
    assertTrue(crash.contains("if (dead$ != null) throw ObjectDeadException"), crash)
    assertTrue(crash.contains("recover$"), crash)
    // The same program with every method forced to keep both prints them as before the analysis.
    val all = lowered.copy(modules = lowered.modules.map(m => m.copy(decls = m.decls.map {
      case c: LClass => c.copy(mortal = true, methods = c.methods.map(_.copy(deadCheck = true, handler = true)))
      case d => d
    })))
    val forced = Pipeline.showEmitted(ok(AbsBackend.print.run(ok(AbsBackend.optimise.run(ok(AbsBackend.limits.run(
      ok(AbsBackend.instrument.run(all)))))))))
    val counterForced = forced.substring(forced.indexOf("final class CounterImpl"), forced.indexOf("object CounterImpl {"))
    assertEquals(3, "if \\(dead\\$ != null\\)".r.findAllIn(counterForced).size, counterForced)
    assertEquals(3, "recover\\$".r.findAllIn(counterForced).size, counterForced)
  }

  @Test def aKilledObjectsLaterCallsStillFail(): Unit = {
    val dir = tempDir("absc-death")
    val f = absFile(dir, "death", model)
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(0, r.status, r.err)
    // `guarded` catches the division's failure in its caller, but `crash` ended with it: the object
    // is dead, and `ping` (no handler of its own) still refuses the next call; so after `die`.
    assertEquals("counter 2 True\nfragile 1 2 -1\ndead\ncrashed\ndead again\nquit\ndead by die\n", r.programOut)
  }
}
