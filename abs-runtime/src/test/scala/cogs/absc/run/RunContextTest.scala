package cogs.absc.run

import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{CountDownLatch, TimeUnit}

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.lib.{Identity, Output}
import cogs.runtime.{CogRuntime, Cogs, Proc}

/**
 * Two runs of the program runner in one JVM, as `absc test` makes them: the first spins without
 * reaching a scheduling point and is stopped from another thread; the second finds nothing of it:
 * not its output, not its object numbers, and no thread runs the first one's code any more.
 */
object RunContextTest {
  /** A loop as absc emits it for `while (True) { .. }`: the check point first. */
  def spinForever(): Unit = {
    var n = 0L
    while (true) {
      Cogs.stopPoint()
      n += 1
      if (n % 1000000 == 0) cogs.absc.lib.println(s"first $n")
    }
  }

  def threadsInSpinForever(): List[Thread] =
    Thread.getAllStackTraces.asScala.collect {
      case (t, stack) if t.isAlive && stack.exists(f => f.getClassName.startsWith(classOf[RunContextTest].getName) && f.getMethodName == "spinForever") => t
    }.toList
}

class RunContextTest {
  import RunContextTest._

  private def session(bytes: ByteArrayOutputStream): ProgramRunner.Session =
    new ProgramRunner.Session(verbose = false, new PrintStream(new ByteArrayOutputStream, true, UTF_8),
      new Output(bytes, autoFlush = false, intervalNanos = 0L))

  @Test def aStoppedRunLeavesNothingToTheNext(): Unit = {
    val firstBytes = new ByteArrayOutputStream
    val first = session(firstBytes)
    val spinning = new CountDownLatch(1)
    val firstThread = new Thread(() => ProgramRunner.withSession(first) {
      ProgramRunner.runTest(Array.empty, (_: CogRuntime) => Proc.delay {
        cogs.absc.lib.println("first starts")
        Identity.id(new Object)
        Identity.id(new Object)
        spinning.countDown()
        spinForever()
        true
      })
    }, "run-context-test-first")
    firstThread.start()
    assertTrue(spinning.await(60, TimeUnit.SECONDS), "the first run did not start")
    assertTrue(first.stop(), "the first run's workers did not end")
    firstThread.join(60000)
    assertFalse(firstThread.isAlive, "the first run's runner did not return")
    assertEquals(ProgramRunner.ExitFailure, first.outcome.status)
    assertEquals(Nil, threadsInSpinForever().map(_.getName))
    val firstText = firstBytes.toString(UTF_8)
    assertTrue(firstText.startsWith("first starts\n"), firstText)

    val secondBytes = new ByteArrayOutputStream
    val second = session(secondBytes)
    @volatile var idInSecond = 0L
    ProgramRunner.withSession(second) {
      ProgramRunner.runTest(Array.empty, (_: CogRuntime) => Proc.delay {
        cogs.absc.lib.println("second")
        idInSecond = Identity.id(new Object)
        true
      })
    }
    assertEquals(ProgramRunner.Outcome(ProgramRunner.ExitOk, Some(true), None), second.outcome)
    assertEquals("second\n", secondBytes.toString(UTF_8))
    assertEquals(1L, idInSecond, "each run numbers its objects from 1")
    // The first run's output was closed when it was stopped: it took nothing since.
    assertEquals(firstText, firstBytes.toString(UTF_8))
  }
}
