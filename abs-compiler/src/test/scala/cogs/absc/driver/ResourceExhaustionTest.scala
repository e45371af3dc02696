package cogs.absc.driver

import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}

import DriverTestSupport.tempDir

/**
 * Running out of memory or stack is a failure of the model with a report (issue 16 point 2): the
 * report names the object and method or the main block, the ABS line, and the setting to raise;
 * the status is 1; no stack trace, no deadlock report; and the JVM ends by itself, or on SIGTERM.
 *
 * Each model is compiled here (absc's own JVM, normal heap) and run as a user's cached run is, in a
 * JVM of its own with a small heap: `java -Xmx64m -cp CLASSES:... absmodel_main.Main`. Each run is
 * bounded; a JVM still alive at the bound is killed and the test fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResourceExhaustionTest {

  private var dir: Path = _

  @BeforeAll def setUp(): Unit = dir = tempDir("absc-exhaust")

  @AfterAll def tearDown(): Unit =
    Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.deleteIfExists(p))

  private lazy val models = new ForkedModels(dir)
  import models.{compile, run, start}
  import ForkedModels.assertClean

  @Test def anEndlessSynchronousRecursionRunsOutOfMemoryAtItsLine(): Unit = {
    // Synchronous calls keep their frames on the heap, so this exhausts memory, not the stack. This
    // model left a JVM that ignored SIGTERM: the worker's handler itself ran out of memory.
    val e = run("selfcall",
      """module SelfCall;
        |interface I { Int f(Int n); }
        |class C implements I {
        |  Int f(Int n) {
        |    Int r = this.f(n + 1);
        |    return r + 1;
        |  }
        |}
        |{
        |  I o = new C();
        |  Int x = o.f(0);
        |  println(toString(x));
        |}
        |""".stripMargin, "-Xmx64m")
    assertClean(e)
    // The line comes from the error's stack trace, so it is there only when the allocation that
    // failed was made by the model's code: here it may as well be the interpreter growing the
    // process's stack, which no ABS line stands for. Where a line is given, it must be this one.
    assertTrue(e.err.matches("(?s).*absc: C\\.f \\(object created at selfcall\\.abs:[0-9]+:[0-9]+\\) ran out of memory( at \\S*selfcall\\.abs:5)? \\(java.lang.OutOfMemoryError.*"), e.err)
    assertTrue(e.err.contains("JAVA_OPTS=-Xmx"), e.err)
  }

  /** An object that keeps everything it allocates; placed after the module line, it allocates at line 8. */
  private val Hog =
    """interface Hog { Unit eat(); }
      |class HogImpl implements Hog {
      |  List<Int> kept = Nil;
      |  Unit eat() {
      |    Int i = 0;
      |    while (True) {
      |      kept = Cons(i, kept);
      |      i = i + 1;
      |    }
      |  }
      |}""".stripMargin

  @Test def memoryKeptInAFieldIsReportedAtTheLineThatAllocated(): Unit = {
    val e = run("field",
      s"""module Field;
        |$Hog
        |{
        |  Hog h = new HogImpl();
        |  h!eat();
        |  await duration(1000000, 1000000);
        |}
        |""".stripMargin, "-Xmx64m")
    assertClean(e)
    assertTrue(e.err.matches("(?s).*absc: HogImpl\\.eat \\(object created at field\\.abs:[0-9]+:[0-9]+\\) ran out of memory at \\S*field\\.abs:(8|9) .*"), e.err)
  }

  @Test def aDeepFunctionRecursionOverflowsTheStackAtTheFunction(): Unit = {
    val e = run("deep",
      """module Deep;
        |def Int down(Int n) =
        |  if n == 0 then 0
        |  else 1 + down(n - 1);
        |{
        |  Int x = down(100000000);
        |  println(toString(x));
        |}
        |""".stripMargin, "-Xss1m")
    assertClean(e)
    assertTrue(e.err.contains("absc: the main block failed at ") && e.err.contains("deep.abs:2: uncaught exception StackOverflowException"), e.err)
    assertTrue(e.err.contains("JAVA_OPTS=-Xss"), e.err)
  }

  @Test def aJvmWithExhaustedMemoryStillEndsOnSigterm(): Unit =
    exhaustThenSignal("TERM", 143) // 128 + SIGTERM

  @Test def aJvmWithExhaustedMemoryStillEndsOnSigint(): Unit = {
    // A JVM keeps a signal ignored that was ignored when it started, as a shell's background
    // jobs ignore SIGINT; the model's JVM inherits this JVM's disposition (Linux: /proc).
    val ignored = Files.readAllLines(Paths.get("/proc/self/status")).toArray.collectFirst {
      case l: String if l.startsWith("SigIgn:") => (java.lang.Long.parseUnsignedLong(l.substring(7).trim, 16) & (1L << 1)) != 0
    }.getOrElse(false)
    org.junit.jupiter.api.Assumptions.assumeFalse(ignored,
      "SIGINT is ignored by this JVM (started as a background job), so also by the model's JVM")
    exhaustThenSignal("INT", 130) // 128 + SIGINT, as Ctrl-C in a terminal
  }

  private def exhaustThenSignal(signal: String, status: Int): Unit = {
    // cogs.on-fatal-error = continue: the run goes on after the hog ran out of memory, with its
    // list still in the heap; the main block waits for ever. The signal must still end the JVM.
    val classes = compile("sig" + signal.toLowerCase,
      s"""module Sigterm;
        |$Hog
        |{
        |  Hog h = new HogImpl();
        |  Fut<Unit> f = h!eat();
        |  await f?;
        |  while (True) { suspend; }
        |}
        |""".stripMargin)
    // -Dcogs.absc.verbose=true: the runtime logs the fatal error (the program's own output is
    // buffered until it ends), which says when memory has run out.
    val (p, _, err) = start(classes, "sig" + signal.toLowerCase, "-Xmx64m", "-Dcogs.on-fatal-error=continue", "-Dcogs.absc.verbose=true")
    try {
      val bound = System.nanoTime() + TimeUnit.MINUTES.toNanos(3)
      while (!Files.readString(err).contains("OutOfMemoryError") && p.isAlive && System.nanoTime() < bound) Thread.sleep(100)
      assertTrue(Files.readString(err).contains("OutOfMemoryError"), Files.readString(err))
      assertTrue(p.isAlive, s"the run goes on after the fatal error (cogs.on-fatal-error = continue):\n${Files.readString(err)}")
      val kill = new ProcessBuilder("kill", s"-$signal", p.pid.toString).inheritIO().start()
      assertEquals(0, kill.waitFor(), s"kill -$signal failed")
      assertTrue(p.waitFor(1, TimeUnit.MINUTES), s"the JVM ignored SIG$signal:\n${Files.readString(err)}")
      assertEquals(status, p.exitValue, Files.readString(err))
    } finally p.destroyForcibly() // whatever failed above, no JVM is left behind
  }
}
