package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** [[ControlledRun]]: the caller takes every decision, and a normal runtime replays its decisions. */
class ControlledRunTest {
  final class Cell extends ActiveObject {
    private var log = List.empty[String]
    def add(s: String): Proc[Unit] = Proc.delay { log = s :: log }
    def all: Proc[List[String]] = Proc.delay(log.reverse)
  }

  // Two calls to one cell, then the log: the main block's first slice, the two adds (a choice),
  // the main block again, the read, the main block's end.
  private def program: Proc[List[String]] = {
    val c = Cogs.spawn(new Cell)
    val a = c ! (_.add("a"))
    val b = c ! (_.add("b"))
    Proc.await(a & b).flatMap(_ => Proc.await(c ! (_.all)))
  }

  private def runTaking(first: Int): (List[String], List[Int], Map[String, List[String]]) = {
    val run = new ControlledRun
    val fut = run.start(program)
    var sizes = List.empty[Int]
    var enabled = run.enabled()
    var choice = first
    while (!enabled.isEmpty) {
      sizes ::= enabled.size
      val i = if (enabled.size > 1) { val c = choice; choice = 0; c } else 0
      run.step(enabled.get(i))
      enabled = run.enabled()
    }
    val result = fut.poll.get.get
    val decisions = run.decisions
    run.close()
    (result, sizes.reverse, decisions)
  }

  @Test def eachEnabledProcessCanBeTakenFirst(): Unit = {
    val (ab, sizes, _) = runTaking(0)
    val (ba, _, _) = runTaking(1)
    assertEquals(List(1, 2, 1, 1, 1, 1), sizes)
    assertEquals(Set(List("a", "b"), List("b", "a")), Set(ab, ba))
  }

  @Test def aNormalRuntimeReplaysTheDecisions(): Unit =
    for (first <- 0 to 1) {
      val (result, _, decisions) = runTaking(first)
      for (_ <- 1 to 5) {
        val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 2")
        try {
          rt.useSchedule(ScheduleTrace.replay(decisions.map { case (k, v) => k -> v.toSeq }))
          assertEquals(result, rt.run(program))
        } finally rt.close()
      }
    }

  @Test def quiescentWithAPendingMainBlockIsADeadlock(): Unit = {
    val run = new ControlledRun
    val fut = run.start {
      val c = Cogs.spawn(new Cell)
      Proc.await(c ! (_ => Proc.awaitUntil(false)))
    }
    var enabled = run.enabled()
    while (!enabled.isEmpty) { run.step(enabled.get(0)); enabled = run.enabled() }
    assertTrue(fut.poll.isEmpty)
    assertTrue(run.waiting.exists(_.contains("main.main awaits")), run.waiting.toString)
    run.close()
  }

  // Every step of `program` taking the first enabled step, with what it touched.
  private def footprints(): List[ControlledRun.Footprint] = {
    val run = new ControlledRun
    run.start(program)
    val b = List.newBuilder[ControlledRun.Footprint]
    var enabled = run.enabled()
    while (!enabled.isEmpty) { b += run.step(enabled.get(0)); enabled = run.enabled() }
    run.close()
    b.result()
  }

  @Test def eachStepReportsTheCallsItSentAndTheFuturesItRead(): Unit = {
    val fps = footprints()
    val byCall = fps.groupBy(_.call)
    val main = fps.head
    // The main block (COG x1, call x#1... its own name) sends both adds to the cell's COG.
    assertEquals(2, main.created.size, main.toString)
    assertEquals(1, main.sentTo.size, main.toString)
    assertFalse(main.sentTo.contains(main.cog))
    // It awaits a & b: both futures are read in its first slice.
    assertEquals(main.created.keySet, main.read, main.toString)
    assertEquals(main.sentTo, main.created.values.toSet)
    assertFalse(main.ended)
    // Each add runs on the cell's COG, reads nothing, sends nothing, and ends (resolving its future).
    main.created.keys.foreach { add =>
      val f = byCall(add).head
      assertEquals(main.sentTo.head, f.cog)
      assertTrue(f.ended && f.read.isEmpty && f.sentTo.isEmpty && f.created.isEmpty, f.toString)
    }
    // The main block resumes after `await a & b`: it read both futures again (its guard), then
    // sends `all` and awaits it.
    val resumed = fps.filter(_.call == main.call)
    assertEquals(3, resumed.size, resumed.toString)
    assertTrue(main.created.keySet.subsetOf(resumed(1).read), resumed(1).toString)
    assertEquals(1, resumed(1).created.size)
    assertTrue(resumed(1).created.keySet.subsetOf(resumed(1).read))
    // Its last slice reads the future of `all` (resolved by then) and ends.
    assertEquals(resumed(1).created.keySet, resumed(2).read)
    assertTrue(resumed(2).ended)
    assertFalse(fps.exists(_.orderSensitive))
  }
}
