package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/**
 * Issue 14, point 1: whatever user code throws ends its process (the future fails, a one-way
 * call is counted and named) and the COG goes on; a fatal error then goes to the runtime's policy
 * (`cogs.on-fatal-error`): go on, or halt with a report.
 */
object ThrowableKindsTest {
  trait T extends Active {
    def overflow(): Proc[Int]
    def overflowCaught(): Proc[Int]
    def oom(): Proc[Int]
    def oomCaught(): Proc[Int]
    def oomInGuard(): Proc[Int]
    def linkage(): Proc[Int]
    def interrupted(): Proc[Int]
    def nonLocal(): Proc[Int]
    def ok(): Proc[Int]
    def sleepAndCheck(): Proc[Boolean]
  }

  final class TImpl extends ActiveObject with T {
    private def recurse(n: Int): Int = if (n < 0) 0 else recurse(n + 1) + 1
    def overflow() = Proc.delay(recurse(0))
    def overflowCaught() = Proc.delay(recurse(0)).recover { case _: StackOverflowError => -1 }
    def oom() = Proc.delay[Int](throw new OutOfMemoryError("thrown by user code"))
    // A fatal error skips the process's own handlers: this does not return -1.
    def oomCaught() = Proc.delay[Int](throw new OutOfMemoryError("thrown by user code")).recover { case _: Throwable => -1 }
    def oomInGuard() = Proc.awaitUntil(throw new OutOfMemoryError("thrown by a guard")).as(1)
    def linkage() = Proc.delay[Int](throw new NoClassDefFoundError("cogs/NotThere"))
    def interrupted() = Proc.delay[Int](throw new InterruptedException("interrupted in user code"))
    // The closure runs after nonLocal() returned: the `return` has no frame left to return from.
    def nonLocal(): Proc[Int] = Proc.delay { if (System.nanoTime() != 0L) return Proc.done(7); 8 }
    def ok() = Proc.delay(1)
    def sleepAndCheck() = Proc.delay { Thread.sleep(1); !Thread.currentThread().isInterrupted }
    override def toString = "T"
  }
}

class ThrowableKindsTest {
  import ThrowableKindsTest._

  private val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1\ncogs.on-fatal-error = continue")
  @AfterEach def close(): Unit = rt.close()

  private def failure(f: Fut[_]): CallFailedException = assertThrows(classOf[CallFailedException], () => f.join(): Unit)

  @Test def stackOverflowFailsTheMethodNamingObjectAndMethod(): Unit = {
    val t = rt.spawn(new TImpl)
    val e = failure(t.send("overflow")(_.overflow()))
    assertTrue(e.getMessage.startsWith("T.overflow failed"), e.getMessage)
    assertTrue(e.getCause.isInstanceOf[StackOverflowError], e.toString)
    assertEquals(-1, t.send("overflowCaught")(_.overflowCaught()).join(), "an ABS-level failure: catchable")
    assertEquals(1, t.send("ok")(_.ok()).join())
    assertEquals(1L, rt.failedProcesses)
  }

  @Test def nonLocalReturnInsideDelayFailsItsProcessInsteadOfStrandingIt(): Unit = {
    val t = rt.spawn(new TImpl)
    val e = failure(t.send("nonLocal")(_.nonLocal()))
    assertTrue(e.getMessage.startsWith("T.nonLocal failed"), e.getMessage)
    assertTrue(e.getCause.isInstanceOf[IllegalStateException], e.toString)
    assertTrue(e.getCause.getMessage.contains("non-local return"), e.getCause.getMessage)
    assertEquals(1L, rt.failedProcesses)
    assertTrue(rt.firstFailure.exists(_.startsWith("T.nonLocal failed")), rt.firstFailure.toString)
    // As a main block: a failure the caller can catch, not a DeadlockException with an empty report.
    assertEquals(-1, rt.run(Proc.await(t.send("nonLocal")(_.nonLocal())).recover { case _: IllegalStateException => -1 }))
  }

  @Test def interruptedExceptionIsAnOrdinaryFailureAndTheWorkerIsNotLeftInterrupted(): Unit = {
    val t = rt.spawn(new TImpl)
    val e = failure(t.send("interrupted")(_.interrupted()))
    assertTrue(e.getMessage.startsWith("T.interrupted failed"), e.getMessage)
    assertTrue(e.getCause.isInstanceOf[InterruptedException])
    assertEquals(-2, rt.run(Proc.await(t.send("interrupted")(_.interrupted())).recover { case _: InterruptedException => -2 }))
    // One worker: the next process runs on the same thread, and its blocking call is not interrupted.
    assertTrue(t.send("sleepAndCheck")(_.sleepAndCheck()).join())
  }

  @Test def outOfMemoryErrorFailsItsProcessSkipsItsHandlersAndTheCogGoesOn(): Unit = {
    val t = rt.spawn(new TImpl)
    // Queued together: the second runs in the COG after the first failed fatally.
    val bad = t.send("oomCaught")(_.oomCaught())
    val good = t.send("ok")(_.ok())
    val e = failure(bad)
    assertTrue(e.getMessage.startsWith("T.oomCaught failed"), e.getMessage)
    assertTrue(e.getCause.isInstanceOf[OutOfMemoryError], e.toString)
    assertEquals(1, good.join())
    assertEquals(1L, rt.failedProcesses)
    assertEquals(None, rt.haltReport, "on-fatal-error = continue: the runtime stays usable")
    assertEquals(1, t.send("ok")(_.ok()).join())
  }

  @Test def aOneWayCallThatFailsFatallyIsCountedAndNamed(): Unit = {
    val t = rt.spawn(new TImpl)
    t.tell("oom")(_.oom())
    rt.awaitQuiescence()
    assertEquals(1L, rt.failedProcesses)
    assertTrue(rt.firstFailure.exists(s => s.startsWith("T.oom failed") && s.contains("OutOfMemoryError")), rt.firstFailure.toString)
  }

  @Test def aGuardThatThrowsAFatalErrorFailsItsProcess(): Unit = {
    val t = rt.spawn(new TImpl)
    val e = failure(t.send("oomInGuard")(_.oomInGuard()))
    assertTrue(e.getCause.isInstanceOf[OutOfMemoryError], e.toString)
    assertEquals(1, t.send("ok")(_.ok()).join())
  }
}

/** The default policy, `cogs.on-fatal-error = shutdown`: halt with a report instead of hanging. */
class FatalErrorHaltTest {
  import ThrowableKindsTest._

  private val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 2")
  @AfterEach def close(): Unit = rt.close()

  @Test def anOutOfMemoryErrorHaltsTheRuntimeAndWaitersGetTheReport(): Unit = {
    val latch = rt.spawn(new LatchImpl)
    val waiting = latch.send("waitOpen")(_.waitOpen()) // never opened
    val t = rt.spawn(new TImpl)
    val e = assertThrows(classOf[CallFailedException], () => t.send("oom")(_.oom()).join(): Unit)
    assertTrue(e.getCause.isInstanceOf[OutOfMemoryError])
    val h = assertThrows(classOf[IllegalStateException], () => waiting.join(): Unit)
    assertTrue(h.getMessage.contains("halted after a fatal error"), h.getMessage)
    assertTrue(h.getMessage.contains("waitOpen"), "the report names the process left waiting: " + h.getMessage)
    assertTrue(h.getCause.isInstanceOf[OutOfMemoryError])
    assertTrue(rt.haltReport.isDefined)
    assertThrows(classOf[IllegalStateException], () => rt.awaitQuiescence())
  }

  @Test def aHeapFoundExhaustedHaltsTheRuntimeAsAnOutOfMemoryErrorWould(): Unit = {
    // What the watchdog calls when its HeapJudge gives a verdict (HeapJudgeTest judges).
    val latch = rt.spawn(new LatchImpl)
    val waiting = latch.send("waitOpen")(_.waitOpen())
    rt.heapExhausted("the heap stayed over 90% full (a test)")
    val h = assertThrows(classOf[IllegalStateException], () => waiting.join(): Unit)
    assertTrue(h.getMessage.contains("halted after a fatal error"), h.getMessage)
    assertTrue(h.getCause.isInstanceOf[OutOfMemoryError], h.toString)
    assertEquals("the heap stayed over 90% full (a test)", h.getCause.getMessage)
  }

  @Test def aLinkageErrorHaltsTheRuntimeAndRunSaysSo(): Unit = {
    val t = rt.spawn(new TImpl)
    val h = assertThrows(classOf[IllegalStateException], () => rt.run(t.send("linkage")(_.linkage()).get): Unit)
    assertTrue(h.getMessage.contains("halted after a fatal error"), h.getMessage)
    assertTrue(h.getCause.isInstanceOf[LinkageError], h.toString)
    assertTrue(rt.firstFailure.exists(_.startsWith("T.linkage failed")), rt.firstFailure.toString)
  }
}
