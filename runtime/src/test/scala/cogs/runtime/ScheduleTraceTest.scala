package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.collection.mutable.ArrayBuffer

/** Record and replay of scheduling decisions (ScheduleTrace). */
class ScheduleTraceTest {

  trait Logger extends Active {
    def add(x: Int): Proc[Unit]
    def all(): Proc[List[Int]]
  }
  final class LoggerImpl extends ActiveObject with Logger {
    private val xs = ArrayBuffer.empty[Int]
    def add(x: Int): Proc[Unit] = Proc.delay { xs += x; () }
    def all(): Proc[List[Int]] = Proc.delay(xs.toList)
  }
  trait Sender extends Active { def go(base: Int, n: Int, to: Logger): Proc[Unit] }
  final class SenderImpl extends ActiveObject with Sender {
    // Suspends between sends, so that the senders' calls interleave at the logger.
    def go(base: Int, n: Int, to: Logger): Proc[Unit] =
      Proc.repeat(n)(i => { to ! (_.add(base + i)); Proc.suspend })
  }

  /** Four COGs send to one logger at once: the logger's order depends on the threads' timing. */
  private def racy(rt: CogRuntime): List[Int] = rt.run {
    Proc.defer {
      val log = Cogs.spawn(new LoggerImpl)
      val senders = (1 to 4).map(_ => Cogs.spawn(new SenderImpl))
      Proc.awaitAll(senders.zipWithIndex.map { case (s, k) => s.send("go")(_.go(1000 * k, 300, log)) }).flatMap { _ =>
        Proc.await(log.send("all")(_.all()))
      }
    }
  }

  private def runWith(schedule: ScheduleTrace): List[Int] = {
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 2")
    try { rt.useSchedule(schedule); racy(rt) } finally rt.close()
  }

  @Test def aReplayReproducesTheRecordedOrder(): Unit = {
    val recording = ScheduleTrace.record()
    val recorded = runWith(recording)
    assertEquals(1200, recorded.size)
    val decisions = recording.decisions
    assertTrue(decisions.contains("x1"), decisions.keys.toString) // the main block's COG
    assertEquals(1 + 1 + 4, decisions.size, decisions.keys.toString) // main, logger, senders
    // The logger ran the main block's `all` and 1,200 `add`s, each one slice.
    assertEquals(1201, decisions("x1.1").size)
    for (_ <- 1 to 3) assertEquals(recorded, runWith(ScheduleTrace.replay(decisions)))
  }

  @Test def aReplayThatDivergesEndsWithAReportSayingSo(): Unit = {
    val recording = ScheduleTrace.record()
    runWith(recording)
    val d = recording.decisions
    val tampered = d.updated("x1.1", "x1.9#1" :: d("x1.1")) // a call that no run makes
    val e = assertThrows(classOf[DeadlockException], () => { runWith(ScheduleTrace.replay(tampered)); () })
    assertTrue(e.getMessage.contains("runs call x1.9#1 here next, but it never arrived"), e.getMessage)
  }

  @Test def theScheduleIsChosenBeforeTheFirstObject(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
    try {
      rt.spawn(new LoggerImpl)
      assertThrows(classOf[IllegalStateException], () => rt.useSchedule(ScheduleTrace.record()))
    } finally rt.close()
  }

  @Test def namesDoNotDependOnTiming(): Unit = {
    // Two recordings of one deterministic program name the same COGs and calls.
    def once(): Map[String, List[String]] = {
      val rec = ScheduleTrace.record()
      val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 2")
      try {
        rt.useSchedule(rec)
        rt.run { Proc.defer { val l = Cogs.spawn(new LoggerImpl); Proc.await(l.send("add")(_.add(1))) } }
      } finally rt.close()
      rec.decisions
    }
    val a = once()
    assertEquals(a, once())
    assertEquals(List("x1#1"), a("x1.1")) // the first call the main block (x1) sent
  }
}
