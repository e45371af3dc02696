package cogs.runtime

import java.util.logging.{Handler, LogRecord, Logger}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.collection.mutable.ArrayBuffer

/**
 * Issue 28, item 1: a failure nobody read does not vanish. A one-way call to a method that throws,
 * and a future nobody reads, are listed by `unobservedFailures` and logged by `close` (unless
 * `cogs.report-unobserved-failures = off`); a failure that was read is not. A deadlock report names
 * the unread failures first; objects with a creation site are named by it; a `get` at a known
 * place says where the COG blocks.
 */
class UnobservedFailureTest {
  import UnobservedFailureTest._

  private def runtime(extra: String = ""): CogRuntime =
    CogRuntime.withOverrides(s"cogs.executor.parallelism = 2\n$extra")

  private def captured(body: => Unit): List[LogRecord] = {
    val records = ArrayBuffer.empty[LogRecord]
    val h = new Handler {
      def publish(r: LogRecord): Unit = records.synchronized { records += r; () }
      def flush(): Unit = ()
      def close(): Unit = ()
    }
    val jul = Logger.getLogger("cogs.runtime")
    jul.addHandler(h)
    try body
    finally jul.removeHandler(h)
    records.synchronized(records.toList)
  }

  @Test def aOneWayCallThatThrowsIsListedAndLoggedAtClose(): Unit = {
    val rt = runtime()
    val logged = captured {
      val w = rt.spawn(new WorkerImpl)
      Cogs.tell(w, "boom", (x: Worker) => x.boom(7))
      rt.awaitQuiescence()
      assertEquals(1L, rt.failedProcesses)
      assertEquals(List("Worker.boom failed: java.lang.IllegalStateException: boom 7 (a one-way call)"), rt.unobservedFailures)
      rt.close()
    }
    val warnings = logged.filter(_.getMessage.contains("nobody read"))
    assertEquals(1, warnings.size, logged.map(_.getMessage).toString)
    assertTrue(warnings.head.getMessage.contains("Worker.boom failed: java.lang.IllegalStateException: boom 7"), warnings.head.getMessage)
  }

  @Test def theOffSwitchSilencesTheLogButNotTheList(): Unit = {
    val rt = runtime("cogs.report-unobserved-failures = off")
    val logged = captured {
      val w = rt.spawn(new WorkerImpl)
      Cogs.tell(w, "boom", (x: Worker) => x.boom(1))
      rt.awaitQuiescence()
      assertEquals(1, rt.unobservedFailures.size)
      rt.close()
    }
    assertEquals(Nil, logged.map(_.getMessage).filter(_.contains("nobody read")))
  }

  @Test def aFailureThatWasReadIsNotListed(): Unit = {
    val rt = runtime()
    try {
      val w = rt.spawn(new WorkerImpl)
      // Read by join, by poll, by onComplete, and by a process's await: four ways of observing.
      val joined = w.send("boom")(_.boom(1))
      assertThrows(classOf[CallFailedException], () => joined.join(): Unit)
      val polled = w.send("boom")(_.boom(2))
      rt.awaitQuiescence()
      assertTrue(polled.poll.exists(_.isFailure))
      val called = w.send("boom")(_.boom(3))
      called.onComplete(_ => ())
      val caught = rt.run {
        val f = w.send("boom")(_.boom(4))
        Proc.await(f).map(_ => "no").recover { case e: IllegalStateException => e.getMessage }
      }
      assertEquals("boom 4", caught)
      // Only waited for, never read: still unobserved (ABS `await f?`).
      rt.run {
        val f = w.send("boom")(_.boom(5))
        Proc.awaitResolved(f)
      }
      // toString is not reading.
      rt.awaitQuiescence()
      assertEquals(List("Worker.boom failed: java.lang.IllegalStateException: boom 5"), rt.unobservedFailures)
      assertEquals(5L, rt.failedProcesses)
    } finally rt.close()
  }

  @Test def aFailureReRaisedByItsReaderIsReportedOnceWithItsOrigin(): Unit = {
    val rt = runtime()
    try {
      val w = rt.spawn(new WorkerImpl)
      val relay = rt.spawn(new WorkerImpl)
      // relay.pass awaits w.boom's future and fails with its exception: w.boom's failure was read,
      // relay.pass's was not.
      Cogs.tell(relay, "pass", (x: Worker) => x.pass(w))
      rt.awaitQuiescence()
      val lines = rt.unobservedFailures
      assertEquals(1, lines.size, lines.toString)
      assertTrue(lines.head.startsWith("Worker.boom (via Worker.pass) failed: java.lang.IllegalStateException: boom 9"), lines.head)
    } finally rt.close()
  }

  @Test def aDeadlockReportListsTheFailuresItMayDependOnFirst(): Unit = {
    // A bounded buffer of 2 places: the producer blocks in `put` once its one consumer died.
    val rt = runtime()
    try {
      val e = assertThrows(classOf[DeadlockException], () => rt.run {
        val buf: Buffer = Cogs.spawn(new BufferImpl(2))
        val consumer: Consumer = Cogs.spawn(new ConsumerImpl(buf, failAt = 3))
        consumer.tell("consume")(_.consume())
        Proc.repeat(10)(i => Proc.await(buf.send("put")(_.put(i))))
      }: Unit)
      assertEquals(List("Consumer.consume failed: java.lang.IllegalStateException: boom at item 3 (a one-way call)"), e.failed)
      val m = e.getMessage
      val failedAt = m.indexOf("Consumer.consume failed: java.lang.IllegalStateException: boom at item 3")
      val waitingAt = m.indexOf("Buffer.put awaits")
      assertTrue(failedAt > 0 && waitingAt > failedAt, m)
      assertTrue(m.startsWith("deadlock: 2 process(es) wait and nothing can wake them:\n  first, 1 process(es) that failed"), m)
    } finally rt.close()
  }

  @Test def aDeadlockWithoutFailuresIsReportedAsBefore(): Unit = {
    val rt = runtime()
    try {
      val e = assertThrows(classOf[DeadlockException], () => rt.run(Proc.awaitUntil(false)): Unit)
      assertEquals(Nil, e.failed)
      assertEquals("deadlock: 1 process(es) wait and nothing can wake them:\n  COG of main: main.main awaits a condition", e.getMessage)
    } finally rt.close()
  }

  @Test def objectsWithACreationSiteAndGetsWithAPlaceAreNamedByThem(): Unit = {
    val rt = runtime()
    try {
      val e = assertThrows(classOf[DeadlockException], () => rt.run {
        val s: Stuck = Cogs.spawn(new StuckImpl)
        s.send("never")(_.never()).getAt("model.abs:12:5")
      }: Unit)
      val m = e.getMessage
      assertTrue(m.contains("main.main blocks its COG in get at model.abs:12:5, waiting for the future of Stuck.never (object created at model.abs:3:9)"), m)
      assertTrue(m.contains("COG of Stuck created at model.abs:3:9: Stuck.never (object created at model.abs:3:9) awaits a condition"), m)
    } finally rt.close()
  }

  @Test def objectsOfOneCreationSiteAreToldApartAndKeepTheirNumber(): Unit = {
    val rt = runtime("cogs.report-unobserved-failures = off")
    try {
      rt.run {
        for (_ <- 1 to 3) { // one `new` in a loop: three objects, one site
          val s: Stuck = Cogs.spawn(new StuckImpl)
          s.tell("never")(_.never())
          s.tell("never")(_.never())
        }
        Proc.unit
      }
      val waiting = rt.endReport().filter(_.contains("Stuck.never"))
      assertEquals(6, waiting.size, waiting.toString)
      def label(line: String) = line.substring(line.indexOf("Stuck.never ("), line.indexOf(") awaits") + 1)
      val labels = waiting.map(label)
      assertEquals(Set("Stuck.never (object created at model.abs:3:9)", "Stuck.never (object #2 created at model.abs:3:9)",
        "Stuck.never (object #3 created at model.abs:3:9)"), labels.toSet, waiting.toString)
      assertTrue(labels.groupBy(identity).values.forall(_.size == 2), s"each object's two processes share its name: $waiting")
      // A later message names the same objects the same way.
      assertEquals(labels.sorted, rt.endReport().filter(_.contains("Stuck.never")).map(label).sorted)
    } finally rt.close()
  }

  @Test def endReportListsFailuresThenWaitingProcesses(): Unit = {
    val rt = runtime("cogs.report-unobserved-failures = off")
    try {
      rt.run {
        val w: Worker = Cogs.spawn(new WorkerImpl)
        w.tell("boom")(_.boom(2))
        val s: Stuck = Cogs.spawn(new StuckImpl)
        s.tell("never")(_.never())
        Proc.unit
      }
      assertEquals(List(
        "1 process(es) failed and nobody read the failure:",
        "  Worker.boom failed: java.lang.IllegalStateException: boom 2 (a one-way call)",
        "1 process(es) still wait:",
        "  COG of Stuck created at model.abs:3:9: Stuck.never (object created at model.abs:3:9) awaits a condition"), rt.endReport())
    } finally rt.close()
  }

  @Test def aProgramThatKeepsFailingKeepsABoundedLog(): Unit = {
    val rt = runtime("cogs.report-unobserved-failures = off")
    try {
      val w = rt.spawn(new WorkerImpl)
      // 3,000 read failures, then 1,500 unread ones: the read ones make room (swept when the log
      // is full), 1,000 unread ones are kept and the other 500 counted.
      for (i <- 1 to 3000) assertThrows(classOf[CallFailedException], () => w.send("boom")(_.boom(i)).join(): Unit)
      for (i <- 1 to 1500) Cogs.tell(w, "boom", (x: Worker) => x.boom(i))
      rt.awaitQuiescence()
      val lines = rt.unobservedFailures
      assertEquals(1001, lines.size)
      assertEquals("(500 more failed processes were not kept: their failures may or may not have been read)", lines.last)
      assertEquals(4500L, rt.failedProcesses)
    } finally rt.close()
  }
}

object UnobservedFailureTest {
  trait Worker extends Active {
    def boom(i: Int): Proc[Unit]
    def pass(other: Worker): Proc[Unit]
  }
  final class WorkerImpl extends ActiveObject with Worker {
    def boom(i: Int): Proc[Unit] = Proc.delay(throw new IllegalStateException(s"boom $i"))
    def pass(other: Worker): Proc[Unit] = Proc.await(other.send("boom")(_.boom(9)))
    override def toString = "Worker"
  }

  trait Buffer extends Active {
    def put(i: Int): Proc[Unit]
    def take(): Proc[Int]
  }
  final class BufferImpl(size: Int) extends ActiveObject with Buffer {
    private var items = Vector.empty[Int]
    def put(i: Int): Proc[Unit] = Proc.awaitUntil(items.size < size).map(_ => items :+= i)
    def take(): Proc[Int] = Proc.awaitUntil(items.nonEmpty).map { _ => val h = items.head; items = items.tail; h }
    override def toString = "Buffer"
  }

  trait Consumer extends Active { def consume(): Proc[Unit] }
  final class ConsumerImpl(buf: Buffer, failAt: Int) extends ActiveObject with Consumer {
    private var n = 0
    def consume(): Proc[Unit] =
      Proc.loopWhile(true) {
        Proc.await(buf.send("take")(_.take())).map { _ =>
          n += 1
          if (n == failAt) throw new IllegalStateException(s"boom at item $n")
        }
      }
    override def toString = "Consumer"
  }

  trait Stuck extends Active { def never(): Proc[Unit] }
  final class StuckImpl extends ActiveObject with Stuck {
    def never(): Proc[Unit] = Proc.awaitUntil(false)
    override def creationSite: String = "model.abs:3:9"
    override def traceName: String = "Stuck"
    override def toString = s"Stuck created at $creationSite"
  }
}
