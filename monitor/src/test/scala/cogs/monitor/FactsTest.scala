package cogs.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.collection.mutable.ArrayBuffer
import Traces.run

/** States as facts: exists, holds, rules, retract, invariants and checks. */
class FactsTest {

  /** One holder per lock at a time; only the holder releases it. Written with facts. */
  private class OneHolder extends Monitor[Ev]("one-holder") {
    case class Locked(thread: Int, lock: Int) extends State {
      watch { case Release(`thread`, `lock`) => ok }
    }
    always {
      case Acquire(_, l) if exists { case Locked(_, `l`) => true } => error(s"lock $l taken twice")
      case Acquire(t, l)                                           => Locked(t, l)
      case Release(t, l) if !Locked(t, l)                          => error(s"thread $t does not hold lock $l")
    }
  }

  @Test def factsRecordWhatHappenedAndRulesQueryThem(): Unit = {
    assertTrue(run(new OneHolder, Acquire(1, 10), Release(1, 10), Acquire(2, 10), Release(2, 10)).passed)

    val m = run(new OneHolder, Acquire(1, 10), Acquire(2, 10), Release(2, 10), Release(1, 10))
    assertEquals(Seq((2L, Some("lock 10 taken twice")), (3L, Some("thread 2 does not hold lock 10"))),
      m.violations.map(v => (v.eventNumber, v.message)))
    assertTrue(m.violations.forall(_.state == "always"))
  }

  @Test def existsSeesTheFactsAsTheyWereBeforeTheEvent(): Unit = {
    // Both transitions see the same event; the fact made by the first is not visible to the second.
    val answers = ArrayBuffer[Boolean]()
    val m = new Monitor[Ev] {
      case class Seen(x: Int) extends Fact
      always { case A(x) => Seen(x) }
      always { case A(x) => answers += exists { case Seen(`x`) => true }; ok }
    }
    Seq(A(1), A(1)).foreach(m.verify)
    assertEquals(Seq(false, true), answers.toSeq)
  }

  @Test def whenOtherwiseCombinesTheMatchingFacts(): Unit = {
    val owners = ArrayBuffer[String]()
    val m = new Monitor[Ev] {
      case class Locked(thread: Int, lock: Int) extends Fact
      case class Owner(thread: Int) extends Fact
      case class NoOwner(lock: Int) extends Fact
      always {
        case Acquire(t, l) => Locked(t, l)
        case A(l) =>
          when { case Locked(t, `l`) => Owner(t) } otherwise { NoOwner(l) }
      }
      def found: Seq[String] = activeStates.collect { case o: Owner => o.toString; case n: NoOwner => n.toString }
    }
    Seq(Acquire(1, 10), Acquire(2, 10), Acquire(3, 20), A(10), A(30)).foreach(m.verify)
    owners ++= m.found
    assertEquals(Seq("Owner(1)", "Owner(2)", "NoOwner(30)"), owners.toSeq)
  }

  @Test def retractRemovesAFactAfterTheEventsTransitions(): Unit = {
    val m = new Monitor[Ev] {
      case class Locked(thread: Int, lock: Int) extends Fact
      always {
        case Acquire(t, l) => Locked(t, l)
        case Release(t, l) => retract(Locked(t, l))
        case Reset         => facts.foreach { case f: Locked => retract(f); case _ => }
      }
    }
    Seq(Acquire(1, 10), Acquire(2, 20), Acquire(3, 30), Release(2, 20)).foreach(m.verify)
    assertEquals(Seq("always", "Locked(1,10)", "Locked(3,30)"), m.activeStates.map(_.toString))
    m.verify(Reset)
    assertEquals(Seq("always"), m.activeStates.map(_.toString))
  }

  @Test def factsMadeWhileBuildingAreInitial(): Unit = {
    val m = new Monitor[Ev] {
      case class Allowed(x: Int) extends Fact
      Allowed(1)
      Allowed(2)
      always { case A(x) => exists { case Allowed(`x`) => true } }
    }
    run(m, A(1), A(3), A(2))
    assertEquals(Seq(2L), m.violations.map(_.eventNumber))
  }

  @Test def invariantIsCheckedAfterEachEvent(): Unit = {
    val m = new Monitor[Ev]("inv") {
      case class Locked(thread: Int, lock: Int) extends State { watch { case Release(`thread`, `lock`) => ok } }
      always { case Acquire(t, l) => Locked(t, l) }
      invariant("at most two locks held") { facts.count(_.isInstanceOf[Locked]) <= 2 }
    }
    run(m, Acquire(1, 1), Acquire(1, 2), Acquire(1, 3), Release(1, 1), Acquire(1, 4))
    assertEquals(Seq(3L, 5L), m.violations.map(_.eventNumber))
    val v = m.violations.head
    assertEquals(Violation.InvariantFailed, v.kind)
    assertEquals("at most two locks held", v.state)
    assertEquals(Some(Acquire(1, 3)), v.event)
  }

  @Test def checkReportsWithoutChangingState(): Unit = {
    val m = new Monitor[Ev]("checked") {
      case class Sum(total: Int) extends State {
        watch { case A(x) => check(x >= 0, s"negative $x in sum $total"); Sum(total + x) }
      }
      Sum(0)
    }
    run(m, A(1), A(-2), A(3))
    assertEquals(1, m.errorCount)
    val v = m.violations.head
    assertEquals(Violation.CheckFailed, v.kind)
    assertEquals("Sum(1)", v.state)
    assertEquals(Some("negative -2 in sum 1"), v.message)
    assertEquals(Vector(1L, 2L), v.traceNumbers)
    assertEquals(Seq("Sum(2)"), m.activeStates.map(_.toString))
  }
}
