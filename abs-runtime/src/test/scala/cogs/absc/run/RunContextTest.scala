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

  /** The n numbers of `random(1000000)` a run with `options` draws, what `[HTTPName]` names it sees, and its output. */
  private def drawing(options: RunOptions, name: String, n: Int): (List[Long], List[String], String) = {
    val bytes = new ByteArrayOutputStream
    val s = new ProgramRunner.Session(verbose = false, new PrintStream(new ByteArrayOutputStream, true, UTF_8),
      new Output(bytes, autoFlush = false, intervalNanos = 0L), options)
    @volatile var drawn: List[Long] = Nil
    @volatile var names: List[String] = Nil
    ProgramRunner.withSession(s) {
      ProgramRunner.runTest(Array.empty, (_: CogRuntime) => Proc.delay {
        // A second registration of another object under a taken name would fail the run.
        cogs.absc.modelapi.HttpObjects.register(name, new Object)
        names = RunContext.current.httpObjects.names
        drawn = List.fill(n)(cogs.absc.lib.random(cogs.absc.lib.AbsInt(1000000)).toString.toLong)
        cogs.absc.lib.println(s"run of $name, clock limit ${RunContext.current.options.clockLimit.getOrElse("none")}")
        true
      })
    }
    assertEquals(ProgramRunner.Outcome(ProgramRunner.ExitOk, Some(true), None), s.outcome)
    (drawn, names, bytes.toString(UTF_8))
  }

  @Test def twoRunsWithDifferentOptionsShareNothing(): Unit = {
    // Back to back in one JVM, as absc test runs models: seed, [HTTPName] table, output, clock limit.
    val first = drawing(RunOptions(seed = Some(1L), clockLimit = Some("5")), "shared", 8)
    val second = drawing(RunOptions(seed = Some(2L)), "shared", 8)
    val firstAgain = drawing(RunOptions(seed = Some(1L), clockLimit = Some("5")), "shared", 8)
    assertEquals(List("shared"), first._2)
    assertEquals(List("shared"), second._2, "the second run's table has its own object only")
    assertEquals("run of shared, clock limit 5\n", first._3)
    assertEquals("run of shared, clock limit none\n", second._3, "the first run's options do not reach the second")
    assertEquals(first._1, firstAgain._1, "a seed gives the same numbers again")
    assertNotEquals(first._1, second._1, "another seed, other numbers")
    // And nothing of them is left in this JVM's properties for a run outside absc.
    assertNull(System.getProperty("cogs.absc.clock-limit"))
    assertNull(System.getProperty("cogs.absc.seed"))
  }
}
