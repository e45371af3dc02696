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
      Proc.repeat(n)(i => { to.send("add")(_.add(base + i)); Proc.suspend })
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

  @Test def aCheckedReplayFollowsTheRecordingAndStopsWhereItDiverges(): Unit = {
    val recording = ScheduleTrace.record()
    val recorded = runWith(recording)
    val steps = recording.steps
    assertEquals(recording.decisions, steps.map { case (k, v) => k -> v.map(_.call) })
    val methods = steps.map { case (k, v) => k -> v.map(_.method) }
    assertEquals(1200, methods("x1.1").count(_ == "LoggerImpl.add"), methods("x1.1").distinct.toString)
    // Checked, on two workers: the same result each time, and no divergence.
    for (_ <- 1 to 3) {
      val replay = ScheduleTrace.replay(recording.decisions, methods)
      assertEquals(recorded, runWith(replay))
      assertEquals(None, replay.divergence)
    }
    // The logger's fifth step recorded as another method: the replay stops there and says so. The
    // run then cannot finish (the main block waits for the logger): the deadlock names the divergence.
    val renamed = methods.updated("x1.1", methods("x1.1").updated(4, "LoggerImpl.remove"))
    val other = ScheduleTrace.replay(recording.decisions, renamed)
    val e = assertThrows(classOf[DeadlockException], () => { runWith(other); () })
    val call = recording.decisions("x1.1")(4)
    assertEquals(Some(s"COG x1.1, slice 5 of its recording: the recording runs call $call as LoggerImpl.remove, but here that call is LoggerImpl.add"),
      other.divergence)
    assertTrue(e.getMessage.contains("the replay diverged here from its recording"), e.getMessage)
    // The logger's recording without its last step (the main block's `all`): the run goes past its end.
    val cut = recording.decisions.updated("x1.1", recording.decisions("x1.1").init)
    val short = ScheduleTrace.replay(cut, methods.updated("x1.1", methods("x1.1").init))
    assertThrows(classOf[DeadlockException], () => { runWith(short); () })
    assertEquals(Some(s"COG x1.1 ran the 1200 slices its recording names, but the run goes on with call " +
      s"${recording.decisions("x1.1").last} (LoggerImpl.all): the recorded run ended there"), short.divergence)
    // Unchecked (no methods), the same cut recording goes on in the default order after its end.
    assertEquals(recorded, runWith(ScheduleTrace.replay(cut)))
  }

  @Test def aCallThatEndsInFewerSlicesThanRecordedDoesNotStopTheReplay(): Unit = {
    val recording = ScheduleTrace.record()
    val recorded = runWith(recording)
    val d = recording.decisions
    val methods = recording.steps.map { case (k, v) => k -> v.map(_.method) }
    // The logger's third call recorded as taking two slices (as an `await` on a future that was
    // not yet resolved when recorded would): each `add` here takes one. Before, the COG waited
    // for ever for the second slice, and the run ended in a deadlock report.
    def twice[A](xs: List[A]): List[A] = xs.take(3) ++ xs.drop(2)
    val longer = d.updated("x1.1", twice(d("x1.1")))
    assertEquals(recorded, runWith(ScheduleTrace.replay(longer)))
    val checked = ScheduleTrace.replay(longer, methods.updated("x1.1", twice(methods("x1.1"))))
    assertEquals(recorded, runWith(checked))
    assertEquals(None, checked.divergence)
  }

  @Test def aCogWithAPolicyIsRecordedAndReplayedInThePolicysOrder(): Unit = {
    // The recording notes the policy's picks (last first), a replay follows them, and past the
    // end of a (shortened) recording the replay picks by the policy again, not in arrival order.
    val lifo: LoggerImpl => SchedulingPolicy = _ => new SchedulingPolicy {
      def choose(queue: java.util.List[Scheduled]): Scheduled = queue.get(queue.size - 1)
    }
    def once(schedule: ScheduleTrace): List[Int] = {
      val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
      try {
        rt.useSchedule(schedule)
        val log = rt.spawnScheduled(lifo)(new LoggerImpl)
        // Sent from one process of another COG: all ten are in the logger's inbox before it runs (one worker).
        rt.run { Proc.delay { for (i <- 1 to 10) log ! (_.add(i)) } }
        rt.awaitQuiescence()
        rt.run { Proc.await(log.send("all")(_.all())) }
      } finally rt.close()
    }
    val recording = ScheduleTrace.record()
    assertEquals((1 to 10).reverse.toList, once(recording))
    val decisions = recording.decisions
    val (logger, steps) = decisions.maxBy(_._2.size)
    assertEquals(11, steps.size, decisions.toString) // ten adds and the `all`
    assertEquals((1 to 10).reverse.toList, once(ScheduleTrace.replay(decisions)))
    assertEquals((1 to 10).reverse.toList, once(ScheduleTrace.replay(decisions.updated(logger, steps.take(4)))))
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
