package cogs.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import Traces.run

/** The semantics of each temporal operator on small traces, including at the end of the trace. */
class OperatorsTest {
  private def kinds(m: Monitor[_]): Seq[(Violation.Kind, Long)] = m.violations.map(v => (v.kind, v.eventNumber))

  // ---- always

  @Test def alwaysFiresOnEveryMatchingEvent(): Unit = {
    val m = run(new Monitor[Ev]("positive") { always { case A(x) if x < 0 => error } }, A(1), A(-1), A(2), A(-3))
    assertEquals(Seq((Violation.ErrorReached, 2L), (Violation.ErrorReached, 4L)), kinds(m))
    assertEquals(Seq("always", "always"), m.violations.map(_.state))
    assertEquals(4L, m.eventCount)
  }

  @Test def alwaysIsNotAnObligation(): Unit = {
    val m = run(new Monitor[Ev] { always { case A(_) => ok } })
    assertTrue(m.passed)
  }

  // ---- watch

  @Test def watchFiresOnceThenIsReplaced(): Unit = {
    val m = run(new Monitor[Ev] { watch { case A(x) => x > 0 } }, B(0), A(-1), A(-2))
    assertEquals(Seq((Violation.ErrorReached, 2L)), kinds(m))
    assertTrue(m.activeStates.isEmpty)
  }

  @Test def watchStillWaitingAtTheEndIsFine(): Unit = {
    val m = run(new Monitor[Ev] { watch { case A(_) => error } }, B(1), C(1))
    assertTrue(m.passed)
    assertEquals(1, m.activeStates.size)
  }

  // ---- hot

  private class Answered extends Monitor[Ev]("answered") {
    always { case A(x) => hot { case B(`x`) => ok }.label(x) }
  }

  @Test def hotLeftBeforeTheEndPasses(): Unit = {
    val m = run(new Answered, A(1), A(2), B(2), C(0), B(1))
    assertTrue(m.passed)
  }

  @Test def hotStillActiveAtTheEndIsAViolation(): Unit = {
    val m = run(new Answered, A(1), A(2), B(1))
    assertEquals(1, m.errorCount)
    val v = m.violations.head
    assertEquals(Violation.HotAtEnd, v.kind)
    assertEquals("hot(2)", v.state)
    assertEquals(3L, v.eventNumber) // the end comes after the last event
    assertEquals(None, v.event)
    assertEquals(Vector(2L), v.traceNumbers) // the event that created the obligation
  }

  @Test def hotOnAnEmptyTraceIsStillAnObligation(): Unit = {
    val m = run(new Monitor[Ev] { hot { case A(_) => ok } })
    assertEquals(Seq((Violation.HotAtEnd, 0L)), kinds(m))
  }

  // ---- next and wnext

  private class NextMonitor(strong: Boolean) extends Monitor[Ev] {
    always {
      case A(x) => if (strong) next { case B(`x`) => ok } else wnext { case B(`x`) => ok }
    }
  }

  @Test def nextMatchedByTheNextEventPasses(): Unit = {
    assertTrue(run(new NextMonitor(true), A(1), B(1), C(9), A(2), B(2)).passed)
    assertTrue(run(new NextMonitor(false), A(1), B(1), C(9), A(2), B(2)).passed)
  }

  @Test def nextNotMatchedByTheNextEventIsAViolation(): Unit = {
    for (strong <- Seq(true, false)) {
      val m = run(new NextMonitor(strong), A(1), C(1), B(1))
      assertEquals(Seq((Violation.NextMismatch, 2L)), kinds(m), s"strong=$strong")
      assertEquals(if (strong) "next" else "wnext", m.violations.head.state)
      assertEquals(Some(C(1)), m.violations.head.event)
      assertEquals(Vector(1L, 2L), m.violations.head.traceNumbers)
    }
  }

  @Test def strongNextAtTheEndIsAViolationWeakNextIsNot(): Unit = {
    val strong = run(new NextMonitor(true), A(1), B(1), A(2))
    assertEquals(Seq((Violation.HotAtEnd, 3L)), kinds(strong))
    val weak = run(new NextMonitor(false), A(1), B(1), A(2))
    assertTrue(weak.passed)
  }

  // ---- until and wuntil

  private class UntilMonitor(strong: Boolean) extends Monitor[Ev] {
    case class Saw(x: Int) extends Fact
    always {
      case A(x) =>
        if (strong) until { case C(`x`) => ok } watch { case B(`x`) if x < 0 => error("negative"); case B(`x`) => Saw(x) }
        else wuntil { case C(`x`) => ok } watch { case B(`x`) if x < 0 => error("negative"); case B(`x`) => Saw(x) }
    }
    def saw: Seq[Int] = activeStates.collect { case Saw(x) => x }
  }

  @Test def untilWatchesItsBodyUntilTheStopEvent(): Unit = {
    for (strong <- Seq(true, false)) {
      val m = new UntilMonitor(strong)
      Seq(A(1), B(1), B(2)).foreach(m.verify)
      assertEquals(Seq(1), m.saw) // the body fired and the until-state stayed
      assertEquals(Seq("always", if (strong) "until" else "wuntil", "Saw(1)"), m.activeStates.map(_.toString))
      m.verify(C(1))
      m.verify(B(1)) // after the stop event the body no longer fires
      m.end()
      assertTrue(m.passed, s"strong=$strong: ${m.report}")
    }
  }

  @Test def untilBodyCanFail(): Unit = {
    for (strong <- Seq(true, false)) {
      val m = run(new UntilMonitor(strong), A(-1), B(-1), C(-1))
      assertEquals(Seq((Violation.ErrorReached, 2L)), kinds(m))
      assertEquals(Some("negative"), m.violations.head.message)
      assertEquals(if (strong) "until" else "wuntil", m.violations.head.state)
    }
  }

  @Test def untilWithoutTheStopEventIsAViolationAtTheEndWuntilIsNot(): Unit = {
    val strong = run(new UntilMonitor(true), A(1), B(1))
    assertEquals(Seq((Violation.HotAtEnd, 2L)), kinds(strong))
    assertEquals(Vector(1L, 2L), strong.violations.head.traceNumbers) // created by A(1), moved by B(1)
    assertTrue(run(new UntilMonitor(false), A(1), B(1)).passed)
  }

  // ---- ok, error, stay, targets

  @Test def stayKeepsTheStateAndOkRemovesIt(): Unit = {
    val m = new Monitor[Ev] { watch { case A(_) => stay; case B(_) => ok } }
    m.verify(A(1))
    assertEquals(Seq("watch"), m.activeStates.map(_.toString))
    m.verify(B(1))
    assertTrue(m.activeStates.isEmpty)
  }

  @Test def errorWithAMessageAndWithout(): Unit = {
    val m = run(new Monitor[Ev] { always { case A(_) => error; case B(_) => error("b is bad") } }, A(1), B(2))
    assertEquals(Seq(None, Some("b is bad")), m.violations.map(_.message))
  }

  @Test def booleanAndUnitTargets(): Unit = {
    var sum = 0
    val m = run(new Monitor[Ev] { always { case A(x) => x > 0; case B(x) => sum += x } }, A(1), A(0), B(5), B(6))
    assertEquals(Seq((Violation.ErrorReached, 2L)), kinds(m))
    assertEquals(11, sum)
  }

  @Test def severalTargetsAllHold(): Unit = {
    val m = new Monitor[Ev] {
      case class P(x: Int) extends State { hot { case B(`x`) => ok } }
      case class Q(x: Int) extends State { hot { case C(`x`) => ok } }
      always {
        case A(1) => P(1) & Q(1)
        case A(2) => (P(2), Q(2))
        case A(3) => List(P(3), Q(3))
      }
    }
    Seq(A(1), A(2), A(3), B(1), B(2), B(3), C(2)).foreach(m.verify)
    assertEquals(Set("always", "Q(1)", "Q(3)"), m.activeStates.map(_.toString).toSet)
    m.end()
    assertEquals(Seq("Q(1)", "Q(3)"), m.violations.map(_.state))
  }

  @Test def errorTogetherWithAStateReportsAndContinues(): Unit = {
    val m = new Monitor[Ev] {
      case class Count(n: Int) extends State {
        watch { case A(_) => if (n >= 2) error("too many") & Count(n + 1) else Count(n + 1) }
      }
      Count(0)
    }
    run(m, A(0), A(0), A(0), A(0))
    assertEquals(Seq(3L, 4L), m.violations.map(_.eventNumber))
    assertEquals(Seq("Count(2)", "Count(3)"), m.violations.map(_.state))
    assertEquals(Seq("Count(4)"), m.activeStates.map(_.toString))
  }

  // ---- states

  @Test def statesCreatedByAnEventDoNotSeeThatEvent(): Unit = {
    val m = run(new Monitor[Ev] { always { case A(_) => watch { case A(_) => error } } }, A(1))
    assertTrue(m.passed)
    val m2 = run(new Monitor[Ev] { always { case A(_) => watch { case A(_) => error } } }, A(1), A(2))
    assertEquals(Seq((Violation.ErrorReached, 2L)), kinds(m2))
  }

  @Test def caseClassStatesCarryDataAndMakeAStateMachine(): Unit = {
    // A data-parameterised state machine: Idle -> Busy(job) -> Idle; Busy must end.
    val m = new Monitor[Ev]("machine") {
      case class Idle() extends State { watch { case A(job) => Busy(job); case B(_) => error("finish while idle") } }
      case class Busy(job: Int) extends State { hot { case B(`job`) => Idle(); case A(other) => error(s"job $other while $job") } }
      Idle()
    }
    run(m, A(7), B(7), A(8), A(9))
    assertEquals(Seq("Busy(8)"), m.violations.map(_.state))
    assertEquals(Seq(Some("job 9 while 8")), m.violations.map(_.message))
    assertEquals(Vector(1L, 2L, 3L, 4L), m.violations.head.traceNumbers)
  }

  @Test def operatorsInsideACaseClassStatesTransitionsMakeNewStates(): Unit = {
    // Inside the transitions of a state whose body already chose its operator, `watch` makes a new state.
    val m = new Monitor[Ev] {
      case class Request(id: Int) extends State {
        hot { case B(`id`) => watch { case B(`id`) => error("answered twice") } }
      }
      always { case A(id) => Request(id) }
    }
    run(m, A(1), B(1), B(1))
    assertEquals(Seq((Violation.ErrorReached, 3L)), kinds(m))
    assertEquals("watch", m.violations.head.state)
    assertEquals(Vector(1L, 2L, 3L), m.violations.head.traceNumbers)
  }

  @Test def untilInsideACaseClassBody(): Unit = {
    val m = new Monitor[Ev] {
      case class Open(x: Int) extends State { until { case C(`x`) => ok } watch { case B(`x`) => error("b while open") } }
      always { case A(x) => Open(x) }
    }
    run(m, A(1), B(2), B(1), A(3))
    // The body's error does not end the until-state: Open(1) is still open at the end.
    assertEquals(Seq("Open(1)", "Open(1)", "Open(3)"), m.violations.map(_.state))
    assertEquals(Seq((Violation.ErrorReached, 3L), (Violation.HotAtEnd, 4L), (Violation.HotAtEnd, 4L)), kinds(m))
  }

  @Test def equalStatesAreOneState(): Unit = {
    val m = new Monitor[Ev] {
      case class Seen(x: Int) extends Fact
      always { case A(x) => Seen(x) }
    }
    Seq(A(1), A(1), A(2), A(1)).foreach(m.verify)
    assertEquals(Seq("always", "Seen(1)", "Seen(2)"), m.activeStates.map(_.toString))
  }

  @Test def manyStatesInOneSliceUseHashedMembership(): Unit = {
    val m = new Monitor[Ev] {
      case class Open(x: Int) extends State { hot { case B(`x`) => ok } }
      always { case A(x) => Open(x) }
    }
    (1 to 1000).foreach(i => m.verify(A(i)))
    (1 to 1000).foreach(i => m.verify(A(i))) // duplicates are not added again
    assertEquals(1001, m.activeStates.size)
    (1 to 1000 by 2).foreach(i => m.verify(B(i)))
    m.end()
    assertEquals(500, m.errorCount)
    assertEquals((2 to 1000 by 2).map(i => s"Open($i)"), m.violations.map(_.state))
  }

  @Test def verifyFromInsideATransitionIsRefused(): Unit = {
    lazy val m: Monitor[Ev] = new Monitor[Ev] { always { case A(_) => m.verify(B(0)) } }
    assertThrows(classOf[IllegalStateException], () => m.verify(A(1)))
    m.verify(B(1)) // the monitor is still usable afterwards
    assertEquals(2L, m.eventCount)
  }
}
