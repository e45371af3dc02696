package cogs.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.collection.mutable.ArrayBuffer
import Traces.run

/** What violations say: fields, traces (bounded), rendering, counts and numbering. */
class ReportTest {

  /** A counter moved by every A; the 100th A is an error. */
  private class Counter extends Monitor[Ev]("counter") {
    case class Count(n: Int) extends State {
      watch {
        case A(_) => if (n == 99) error(s"too many") else Count(n + 1)
      }
    }
    Count(0)
  }

  @Test def aViolationNamesMonitorStateEventAndTrace(): Unit = {
    val m = new Monitor[Ev]("req-resp") {
      case class Pending(id: Int) extends State {
        hot { case B(`id`) => Answered(id); case C(`id`) => error(s"request $id cancelled") }
      }
      case class Answered(id: Int) extends State { watch { case B(`id`) => error("answered twice") } }
      always { case A(id) => Pending(id) }
    }
    run(m, A(1), A(2), B(2), C(9), B(2), C(1))
    val Seq(twice, cancelled) = m.violations
    assertEquals(Violation("req-resp", Violation.ErrorReached, "Answered(2)", 5L, Some(B(2)), "B(2)", Some("answered twice"),
      Vector(
        Violation.Step(2L, A(2), "A(2)", "always", 0L),
        Violation.Step(3L, B(2), "B(2)", "Pending(2)", 0L),
        Violation.Step(5L, B(2), "B(2)", "Answered(2)", 0L))), twice)
    assertEquals(("Pending(1)", 6L, Vector(1L, 6L)), (cancelled.state, cancelled.eventNumber, cancelled.traceNumbers))
  }

  @Test def renderReadsWell(): Unit = {
    val m = new Monitor[Ev]("req-resp") {
      case class Pending(id: Int) extends State { hot { case B(`id`) => ok; case C(`id`) => error(s"request $id cancelled") } }
      always { case A(id) => Pending(id) }
    }
    run(m, A(1), A(2), C(1))
    val Seq(cancelled, open) = m.violations
    assertEquals(
      """[req-resp] error at event 3
        |  state:   Pending(1)
        |  event:   3: C(1)
        |  message: request 1 cancelled
        |  trace (2 events):
        |    1  A(1)   [in always]
        |    3  C(1)   [in Pending(1)]""".stripMargin,
      cancelled.render)
    assertEquals(
      """[req-resp] hot state still active (end of trace, after event 3)
        |  state:   Pending(2)
        |  trace (1 event):
        |    2  A(2)   [in always]""".stripMargin,
      open.render)
    assertTrue(m.report.startsWith("req-resp: 3 events, 2 errors\n\n[req-resp] error at event 3"), m.report)
  }

  @Test def longTracesKeepTheFirstAndTheNewestEvents(): Unit = {
    val m = new Counter().withTraceLimit(5)
    run(m, (1 to 100).map(A(_)): _*)
    val v = m.violations.head
    assertEquals(100L, v.eventNumber)
    assertEquals(Vector(1L, 97L, 98L, 99L, 100L), v.traceNumbers)
    assertEquals(Vector(0L, 95L, 0L, 0L, 0L), v.trace.map(_.elidedBefore))
    assertEquals("Count(96)", v.trace(1).state)
    assertTrue(v.render.contains("trace (5 events, 95 elided):"), v.render)
    assertTrue(v.render.contains("... 95 events elided ..."), v.render)
  }

  @Test def theHistoryAStateKeepsIsBounded(): Unit = {
    val m = new Counter().withTraceLimit(4)
    (1 to 50).foreach(i => m.verify(A(i)))
    val s = m.activeStates.head
    assertEquals("Count(50)", s.toString)
    assertTrue(s.steps.length <= 8, s"history of ${s.steps.length} nodes")
    assertEquals(50L, s.steps.total)
  }

  @Test def traceLimitZeroKeepsNoHistory(): Unit = {
    val m = new Counter().withTraceLimit(0)
    run(m, (1 to 100).map(A(_)): _*)
    assertEquals(Vector.empty, m.violations.head.trace)
    assertEquals(Some(A(100)), m.violations.head.event)
    assertTrue(m.violations.head.render.contains("event:   100: A(100)"))
  }

  @Test def eventsCanBeNumberedByTheCaller(): Unit = {
    val m = new Monitor[Ev] { always { case A(x) if x < 0 => error } }
    m.verify(A(1), 10L)
    m.verify(A(-1), 42L)
    m.verify(A(-1)) // continues from the last number
    assertEquals(Seq(42L, 43L), m.violations.map(_.eventNumber))
    assertEquals(3L, m.eventCount)
    assertEquals(43L, m.lastEventNumber)
  }

  @Test def violationsBeyondTheLimitAreCountedNotKept(): Unit = {
    val heard = ArrayBuffer[Long]()
    val m = new Monitor[Ev]("every") { always { case A(_) => error } }.withViolationLimit(10)
    m.onViolation(v => heard += v.eventNumber)
    run(m, (1 to 100).map(A(_)): _*)
    assertEquals(100, m.errorCount)
    assertEquals((1L to 10L).toSeq, m.violations.map(_.eventNumber))
    assertEquals((1L to 100L).toSeq, heard.toSeq)
  }

  @Test def defaultNameIsTheClassName(): Unit = {
    assertEquals("Plain", new ReportTest.Plain().name)
    assertEquals("counter", new Counter().name)
  }

  @Test def endIsIdempotentAndCountsStay(): Unit = {
    val m = new Monitor[Ev] { hot { case A(_) => ok } }
    m.end()
    m.end()
    assertEquals(1, m.errorCount)
    assertTrue(m.isEnded)
    assertFalse(m.passed)
  }
}

object ReportTest {
  class Plain extends Monitor[Ev]
}
