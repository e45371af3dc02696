package cogs.absc.driver

import java.nio.file.Path

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * `absc test --timeout` runs two real models back to back in this JVM: the first spins in a loop
 * that reaches no scheduling point and prints now and then, the second prints one line. The first
 * must be stopped for real (no thread of this JVM runs its code afterwards: the CPU it used is
 * free) and nothing it prints may reach the second's output or the JVM's standard output.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimeoutIsolationTest {

  private var dir: Path = _
  private var cache: Path = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-timeout")
    cache = dir.resolve("cache")
  }

  // Module names that no other test uses: the threads running their code are found by them.
  private val spinner =
    """module SpinForeverModel;
      |{
      |  Bool testresult = False;
      |  println("spin starts");
      |  Int i = 0;
      |  while (True) {
      |    i = i + 1;
      |    if (i % 100000 == 0) { println(`spin $i$`); }
      |  }
      |}
      |""".stripMargin

  private val clean =
    """module CleanAfterSpinModel;
      |{
      |  Bool testresult = True;
      |  println("clean output");
      |}
      |""".stripMargin

  /** The threads of this JVM whose stack is in the spinning model's code now. */
  private def spinningThreads(): List[Thread] =
    Thread.getAllStackTraces.asScala.collect {
      case (t, stack) if t.isAlive && stack.exists(_.getClassName.startsWith("absmodel.SpinForeverModel")) => t
    }.toList

  @Test def aTimedOutModelIsStoppedAndTheNextOneIsClean(): Unit = {
    val spin = absFile(dir, "spin", spinner)
    val next = absFile(dir, "clean", clean)
    val r = absc(AbsBackend, "test", "-v", "--timeout", "3", "--cache-dir", cache.toString, spin, next)
    assertEquals(1, r.status, r.err)
    assertEquals(s"FAIL $spin: timed out after 3.0 s (stopped)\nPASS $next\n1 passed, 1 failed\n", r.out, r.err)
    // -v shows each model's output on stderr, in order: the spinner's, then the clean one's.
    val at = r.err.indexOf("clean output\n")
    assertTrue(at >= 0, r.err)
    assertTrue(r.err.substring(0, at).contains("spin starts\n"), r.err)
    assertFalse(r.err.substring(at).contains("spin"), s"the spinner's output reached the next model's:\n${r.err.substring(at)}")
    // Nothing of either went to the JVM's standard output.
    assertEquals("", r.programOut)
    // The stop waited for the workers to end (`(stopped)` above); no thread runs the model's code.
    // A bounded wait all the same (a thread may still be unwinding its stack).
    val deadline = System.nanoTime() + 30L * 1000000000L
    while (spinningThreads().nonEmpty && System.nanoTime() < deadline) Thread.sleep(50)
    val left = spinningThreads()
    assertEquals(Nil, left.map(t => s"${t.getName} (${t.getState})"), "threads still run the timed-out model")
  }
}
