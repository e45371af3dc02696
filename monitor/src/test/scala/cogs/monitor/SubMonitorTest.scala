package cogs.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.collection.mutable.ArrayBuffer
import Traces.run

/** Monitors with sub-monitors: forwarding, aggregated verdicts, end of trace, listeners. */
class SubMonitorTest {
  private class NoNegative extends Monitor[Ev]("no-negative") { always { case A(x) if x < 0 => error(s"A($x)") } }
  private class Answered extends Monitor[Ev]("answered") { always { case A(x) => hot { case B(`x`) => ok }.label(x) } }

  @Test def eventsAreForwardedAndVerdictsAggregated(): Unit = {
    val neg = new NoNegative
    val ans = new Answered
    val all = new Monitor[Ev]("all") {
      always { case C(_) => error("no C") }
      monitor(neg, ans)
    }
    run(all, A(1), A(-2), B(1), C(0))
    assertEquals(4L, neg.eventCount)
    assertEquals(4L, ans.eventCount)
    assertEquals(1, all.ownErrorCount)
    assertEquals(3, all.errorCount) // own C, child's A(-2), child's open hot(-2) at the end
    assertEquals(
      Seq(("no-negative", 2L), ("all", 4L), ("answered", 4L)),
      all.violations.map(v => (v.monitor, v.eventNumber)))
    assertTrue(ans.isEnded, "end() ends the sub-monitors")
    assertEquals(Seq(neg, ans), all.subMonitors)
  }

  @Test def combineGroupsProperties(): Unit = {
    val group = Monitor.combine("group", new NoNegative, new Answered)
    run(group, A(-1), B(-1))
    assertEquals(1, group.errorCount)
    assertEquals(0, group.ownErrorCount)
    assertEquals("no-negative", group.violations.head.monitor)
    assertEquals(
      """group: 2 events, 1 error (0 own)
        |  no-negative: 2 events, 1 error
        |  answered: 2 events, 0 errors""".stripMargin,
      group.summary)
  }

  @Test def listenersOfTheParentHearTheChildren(): Unit = {
    val heard = ArrayBuffer[String]()
    val child = new NoNegative
    val parent = Monitor.combine("parent", child)
    parent.onViolation(v => heard += s"parent:${v.monitor}@${v.eventNumber}")
    child.onViolation(v => heard += s"child:${v.monitor}@${v.eventNumber}")
    run(parent, A(1), A(-1))
    assertEquals(Seq("child:no-negative@2", "parent:no-negative@2"), heard.toSeq)
  }

  @Test def aMonitorHasAtMostOneParent(): Unit = {
    val child = new NoNegative
    Monitor.combine("first", child)
    assertThrows(classOf[IllegalArgumentException], () => { Monitor.combine("second", child); () })
  }

  @Test def settingsReachTheSubMonitors(): Unit = {
    val child = new Answered
    val parent = Monitor.combine("p", child).withViolationLimit(1)
    run(parent, A(1), A(2), A(3))
    assertEquals(3, parent.errorCount)
    assertEquals(1, parent.violations.size)
  }
}
