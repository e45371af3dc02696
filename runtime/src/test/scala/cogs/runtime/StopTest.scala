package cogs.runtime

import java.util.concurrent.{CancellationException, CountDownLatch, TimeUnit}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import scala.jdk.CollectionConverters._

/**
 * `CogRuntime.stop` (absc test's timeout): processes spinning without a scheduling point end at
 * their next `Cogs.stopPoint`, loops with scheduling points end with the executor, the workers
 * end, and a thread waiting in `run` is woken.
 */
object StopTest {
  trait Spinner extends Active {
    def spin(started: CountDownLatch): Proc[Int]
    def spinInProc(started: CountDownLatch): Proc[Unit]
    def yielding(): Proc[Unit]
  }

  final class SpinnerImpl extends ActiveObject with Spinner {
    // What absc emits for `while (True) { n = n + 1; }`: the check point first in the body.
    def spin(started: CountDownLatch): Proc[Int] = Proc.delay {
      started.countDown()
      var n = 0
      while (true) { Cogs.stopPoint(); n += 1 }
      n
    }
    // A Proc loop whose body never reaches its scheduling point: Proc.loopWhile checks.
    def spinInProc(started: CountDownLatch): Proc[Unit] = {
      started.countDown()
      var n = 0
      Proc.loopWhile(true)(Proc.delay { n += 1 })
    }
    // A loop that suspends at each round: ends with the executor.
    def yielding(): Proc[Unit] = Proc.loopWhile(true)(Proc.suspend)
  }

  /** The live threads of `rt` (its workers are named after its prefix). */
  def workers(prefix: String): List[Thread] =
    Thread.getAllStackTraces.keySet.asScala.toList.filter(t => t.isAlive && t.getName.startsWith(prefix + "-"))
}

class StopTest {
  import StopTest._

  @Test def spinningProcessesEndAndRunIsWoken(): Unit = {
    val prefix = s"stop-test-${System.nanoTime()}"
    val rt = CogRuntime.withOverrides(
      s"cogs.executor.parallelism = 3\ncogs.shutdown-timeout = 30s\ncogs.executor.thread-name-prefix = \"$prefix\"")
    val started = new CountDownLatch(2)
    @volatile var ran: Either[Throwable, Any] = null
    val main = new Thread(() => {
      ran = try Right(rt.run {
        val a = Cogs.spawn(new SpinnerImpl)
        val b = Cogs.spawn(new SpinnerImpl)
        val c = Cogs.spawn(new SpinnerImpl)
        val f = a ! (_.spin(started))
        b ! (_.spinInProc(started))
        c ! (_.yielding())
        Proc.await(f)
      }) catch { case e: Throwable => Left(e) }
    }, "stop-test-main")
    main.start()
    assertTrue(started.await(30, TimeUnit.SECONDS), "the spinners did not start")
    assertFalse(workers(prefix).isEmpty)
    assertTrue(rt.stop(), "every worker ended within cogs.shutdown-timeout")
    main.join(30000)
    assertFalse(main.isAlive, "run was not woken")
    ran match {
      case Left(e: IllegalStateException) =>
        assertTrue(e.getMessage.contains("stopped"), e.getMessage)
        assertTrue(e.getCause.isInstanceOf[CancellationException], String.valueOf(e.getCause))
      case other => fail(s"run ended with $other")
    }
    // The pool counts as terminated when its workers have deregistered, a moment before their
    // threads have returned: wait (bounded) for the threads themselves.
    workers(prefix).foreach(_.join(10000))
    assertEquals(Nil, workers(prefix).map(_.getName))
    // Stopped once: again, and close, do nothing.
    assertTrue(rt.stop())
    rt.close()
  }

  @Test def anInterruptFromElsewhereIsNoStop(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
    try {
      val r = rt.run {
        Thread.currentThread().interrupt()
        try { Cogs.stopPoint(); Proc.done(1) }
        finally Thread.interrupted(): Unit
      }
      assertEquals(1, r)
    } finally rt.close()
  }
}
