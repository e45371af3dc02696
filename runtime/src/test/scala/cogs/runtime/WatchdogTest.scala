package cogs.runtime

import java.util.concurrent.{ConcurrentLinkedQueue, TimeUnit}
import java.util.logging.{Handler, LogRecord, Logger}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import scala.jdk.CollectionConverters._

/**
 * Issue 28, item 2: a process that runs without reaching a scheduling point is reported once, with
 * its object, method and stack; one that reaches scheduling points is never reported; close()
 * names the processes still running when it gives up.
 */
object WatchdogTest {
  trait Spinner extends Active {
    def spin(): Proc[Int]
    def yielding(rounds: Int): Proc[Int]
    def ping(): Proc[Int]
  }

  final class SpinnerImpl(stop: java.util.concurrent.atomic.AtomicBoolean) extends ActiveObject with Spinner {
    // A loop without a scheduling point; `stop` only lets the test end it.
    def spin(): Proc[Int] = Proc.delay { var n = 0; while (!stop.get()) n += 1; n }
    // Many slices, each short, for longer in all than the watchdog's period: a suspend per round.
    def yielding(rounds: Int): Proc[Int] =
      Proc.repeat(rounds)(_ => Proc.delay(Thread.sleep(1)).flatMap(_ => Proc.suspend)).as(rounds)
    def ping(): Proc[Int] = Proc.done(1)
  }
}

class WatchdogTest {
  import WatchdogTest._

  /** `body` with the records the runtime's logger publishes meanwhile. */
  private def logged(body: ConcurrentLinkedQueue[LogRecord] => Unit): Unit = {
    val records = new ConcurrentLinkedQueue[LogRecord]
    val handler = new Handler {
      def publish(r: LogRecord): Unit = { records.add(r); () }
      def flush(): Unit = ()
      def close(): Unit = ()
    }
    val jul = Logger.getLogger("cogs.runtime")
    jul.addHandler(handler)
    try body(records)
    finally jul.removeHandler(handler)
  }

  private def runtime(workers: Int, stuckAfter: String): CogRuntime =
    CogRuntime.withOverrides(s"cogs.executor.parallelism = $workers\ncogs.watchdog.stuck-after = $stuckAfter\ncogs.shutdown-timeout = 1s")

  @Test def asManySpinnersAsWorkersAreEachReportedOnceWithMethodAndStack(): Unit = {
    val rt = runtime(2, "200ms")
    val reports = new ConcurrentLinkedQueue[StuckProcess]
    rt.stuckReporter = s => { reports.add(s); () }
    val stop = new java.util.concurrent.atomic.AtomicBoolean
    try {
      val a = rt.spawn(new SpinnerImpl(stop))
      val b = rt.spawn(new SpinnerImpl(stop))
      val fa = Cogs.send(a, "spin", (x: Spinner) => x.spin())
      val fb = Cogs.send(b, "spin", (x: Spinner) => x.spin())
      // Nothing else runs now: a call to a third object stays unanswered.
      val c = rt.spawn(new SpinnerImpl(stop))
      val fc = Cogs.send(c, "ping", (x: Spinner) => x.ping())
      // A bounded wait for liveness: both spinners are reported (at about 200 ms).
      val bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
      while (reports.size < 2 && System.nanoTime() < bound) Thread.sleep(20)
      assertEquals(2, reports.size, reports.asScala.map(_.message).mkString("\n"))
      assertFalse(fc.isDone, "with both workers taken, the third object's call has not run")
      // Reported once: more periods pass without a second report.
      Thread.sleep(600)
      assertEquals(2, reports.size)
      val all = reports.asScala.toList
      assertEquals(Set(a.toString, b.toString), all.map(_.target.toString).toSet)
      all.foreach { r =>
        assertEquals("spin", r.method)
        assertTrue(r.describe.endsWith(".spin"), r.describe)
        assertTrue(r.ranForMillis >= 200, r.ranForMillis.toString)
        assertTrue(r.worker.startsWith("cogs-worker-"), r.worker)
        // The stack is the spinner's own: its loop is in it.
        assertTrue(r.stack.exists(f => f.getClassName.contains("SpinnerImpl") && f.getClassName.contains("spin")),
          r.stack.mkString("\n"))
        assertTrue(r.message.contains(s"${r.describe} has run for ") && r.message.contains("\tat "), r.message)
      }
      stop.set(true)
      assertTrue(fa.join() > 0 && fb.join() > 0)
      assertEquals(1, fc.join())
    } finally { stop.set(true); rt.close() }
  }

  @Test def aProcessThatReachesSchedulingPointsIsNeverReported(): Unit = {
    val rt = runtime(1, "50ms")
    val reports = new ConcurrentLinkedQueue[StuckProcess]
    rt.stuckReporter = s => { reports.add(s); () }
    try {
      val a = rt.spawn(new SpinnerImpl(new java.util.concurrent.atomic.AtomicBoolean))
      val b = rt.spawn(new SpinnerImpl(new java.util.concurrent.atomic.AtomicBoolean))
      // Two COGs on one worker, each suspending every millisecond or so, for some 600 rounds: many
      // watchdog periods (12.5 ms) in all, none of them one slice.
      val fa = Cogs.send(a, "yielding", (x: Spinner) => x.yielding(300))
      val fb = Cogs.send(b, "yielding", (x: Spinner) => x.yielding(300))
      assertEquals(300, fa.join())
      assertEquals(300, fb.join())
      assertTrue(reports.isEmpty, reports.asScala.map(_.message).mkString("\n"))
    } finally rt.close()
  }

  @Test def withoutAReporterTheStuckProcessIsLoggedAsAWarning(): Unit = logged { records =>
    val rt = runtime(1, "100ms")
    val stop = new java.util.concurrent.atomic.AtomicBoolean
    try {
      val a = rt.spawn(new SpinnerImpl(stop))
      val f = Cogs.send(a, "spin", (x: Spinner) => x.spin())
      val bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
      while (!records.asScala.exists(_.getMessage.contains(".spin has run for")) && System.nanoTime() < bound) Thread.sleep(20)
      val r = records.asScala.find(_.getMessage.contains(".spin has run for"))
      assertTrue(r.isDefined, records.asScala.map(_.getMessage).mkString("\n"))
      assertEquals(java.util.logging.Level.WARNING, r.get.getLevel)
      stop.set(true)
      f.join()
    } finally { stop.set(true); rt.close() }
  }

  @Test def closeNamesTheProcessesStillRunningWhenItGivesUp(): Unit = logged { records =>
    val rt = runtime(1, "0s") // the watchdog off: close() still knows its workers
    val stop = new java.util.concurrent.atomic.AtomicBoolean
    try {
      val a = rt.spawn(new SpinnerImpl(stop))
      Cogs.send(a, "spin", (x: Spinner) => x.spin())
      // Wait until it runs (bounded), so that close() finds it running.
      val bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
      while (rt.watchdog.runningNow().isEmpty && System.nanoTime() < bound) Thread.sleep(10)
      rt.close() // waits cogs.shutdown-timeout (1 s), then warns
      val w = records.asScala.find(_.getMessage.contains("workers still running"))
      assertTrue(w.isDefined, records.asScala.map(_.getMessage).mkString("\n"))
      assertTrue(w.get.getMessage.contains(s"running $a.spin (on cogs-worker-"), w.get.getMessage)
    } finally stop.set(true)
  }
}
