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
}
