package cogs.runtime

import java.util.concurrent.{TimeUnit, TimeoutException}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test, Timeout}

/** Futures resolved from outside every COG, counted as outstanding work until they are. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PromiseTest {
  private val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 2")
  @AfterEach def close(): Unit = rt.close()

  private def later(ms: Long)(body: => Unit): Thread = {
    val t = new Thread(() => { Thread.sleep(ms); body })
    t.setDaemon(true)
    t.start()
    t
  }

  @Test def aProcessAwaitsAPromiseThatAnotherThreadCompletes(): Unit = {
    val p = Promise[Int](rt, "the reply of Remote.m")
    assertFalse(rt.isQuiescent, "a pending promise is outstanding work")
    later(50)(p.success(41))
    // The main block's process is the only one and it is parked: only the promise keeps `run` waiting.
    assertEquals(42, rt.run(Proc.await(p.future).map(_ + 1)))
    assertTrue(rt.isQuiescent)
    assertFalse(p.success(0), "a promise completes once")
    assertFalse(p.failure(new RuntimeException))
  }

  @Test def joinWaitsForThePromiseAndNamesItWhenItTimesOut(): Unit = {
    val p = Promise[Int](rt, "the reply of Remote.m from node X")
    val e = assertThrows(classOf[TimeoutException], () => p.future.join(100, TimeUnit.MILLISECONDS))
    assertTrue(e.getMessage.contains("the reply of Remote.m from node X"), e.getMessage)
    p.success(1)
    assertEquals(1, p.future.join())
  }

  @Test def aFailedPromiseRaisesItsErrorInTheProcessAndNamesItselfInJoin(): Unit = {
    val p = Promise[Int](rt, "the reply of Remote.m")
    p.failure(new IllegalStateException("node lost"))
    val r = rt.run(Proc.await(p.future).recover { case e: IllegalStateException => e.getMessage.length })
    assertEquals("node lost".length, r)
    val e = assertThrows(classOf[CallFailedException], () => p.future.join())
    assertEquals("the reply of Remote.m", e.origin)
    assertTrue(rt.isQuiescent)
  }

  @Test def theDeadlockReportNamesWhatAWaitingProcessWaitsFor(): Unit = {
    val p = Promise[Int](rt, "the reply of Remote.m from node X")
    final class Waiter extends ActiveObject {
      override def toString = "W"
      def waitIt(): Proc[Int] = Proc.await(p.future)
      def getIt(): Proc[Int] = Proc.get(p.future)
    }
    val w1 = rt.spawn(new Waiter)
    val w2 = rt.spawn(new Waiter)
    val f1 = Cogs.send(w1, "waitIt", (w: Waiter) => w.waitIt())
    val f2 = Cogs.send(w2, "getIt", (w: Waiter) => w.getIt())
    var r = rt.deadlockReport()
    while (r.size < 2) { Thread.sleep(5); r = rt.deadlockReport() }
    assertTrue(r.exists(_.endsWith("W.waitIt awaits the reply of Remote.m from node X")), r.mkString("\n"))
    assertTrue(r.exists(_.endsWith("W.getIt blocks its COG in get, waiting for the reply of Remote.m from node X")), r.mkString("\n"))
    assertFalse(rt.isQuiescent)
    p.success(5)
    assertEquals(5, f1.join())
    assertEquals(5, f2.join())
    assertTrue(rt.awaitQuiescence(10, TimeUnit.SECONDS))
  }

  /**
   * The hand-off "foreign thread completes, parked process wakes": if the promise's count were
   * given back before its waiter was scheduled, a waiter for quiescence could see zero with the
   * main block still pending, and `run` would throw a DeadlockException. 3000 races, both `await`
   * and `get`, with the completing thread started at the same time as the main block.
   */
  @Test def stressCompletionRacesQuiescence(): Unit = {
    for (i <- 1 to 3000) {
      val p = Promise[Int](rt, s"promise $i")
      val t = new Thread(() => p.success(i))
      t.start()
      val r = rt.run(if (i % 2 == 0) Proc.await(p.future) else Proc.get(p.future))
      assertEquals(i, r)
      t.join()
    }
    assertTrue(rt.isQuiescent)
  }
}
