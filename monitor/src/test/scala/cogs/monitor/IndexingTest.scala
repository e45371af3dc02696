package cogs.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import Traces.run

/** Indexing by key: slices per key, events without a key, memory, and agreement with the unindexed monitor. */
class IndexingTest {

  /** Each acquired lock is released by its holder before anyone else takes it, and before the end. */
  private class LockMonitor(indexed: Boolean) extends Monitor[Ev]("locks") {
    var evaluations = 0
    case class Held(thread: Int, lock: Int) extends State {
      hot {
        case e if { evaluations += 1; false } => ok // counts how often this state is examined
        case Release(`thread`, `lock`) => ok
        case Acquire(t, `lock`)        => error(s"thread $t took lock $lock held by $thread")
        case Release(t, `lock`)        => error(s"thread $t released lock $lock held by $thread")
      }
    }
    always { case Acquire(t, l) => Held(t, l) }

    override protected def keyOf(e: Ev): Option[Any] =
      if (!indexed) None
      else e match {
        case Acquire(_, l) => Some(l)
        case Release(_, l) => Some(l)
        case _             => None
      }
  }

  private val lockTrace = Seq(
    Acquire(1, 10), Acquire(2, 20), Release(1, 10), Acquire(3, 10), Acquire(4, 20), Release(3, 10), Release(9, 30), Acquire(5, 30))

  private def verdicts(m: Monitor[Ev]) = m.violations.map(v => (v.kind, v.state, v.eventNumber, v.message, v.traceNumbers))

  @Test def indexedAndUnindexedMonitorsAgree(): Unit = {
    val plain = run(new LockMonitor(false), lockTrace: _*)
    val indexed = run(new LockMonitor(true), lockTrace: _*)
    assertEquals(verdicts(plain), verdicts(indexed))
    assertEquals(
      Seq(
        (Violation.ErrorReached, "Held(2,20)", 5L, Some("thread 4 took lock 20 held by 2"), Vector(2L, 5L)),
        (Violation.HotAtEnd, "Held(4,20)", 8L, None, Vector(5L)),
        (Violation.HotAtEnd, "Held(5,30)", 8L, None, Vector(8L))),
      verdicts(indexed))
  }

  @Test def anEventExaminesOnlyTheStatesOfItsKey(): Unit = {
    val m = new LockMonitor(true)
    (1 to 1000).foreach(l => m.verify(Acquire(1, l)))
    m.evaluations = 0
    m.verify(Release(1, 500))
    assertEquals(1, m.evaluations, "only Held(1,500) should have been tried")
    val plain = new LockMonitor(false)
    (1 to 1000).foreach(l => plain.verify(Acquire(1, l)))
    plain.evaluations = 0
    plain.verify(Release(1, 500))
    assertEquals(1000, plain.evaluations)
  }

  @Test def slicesOfKeysWithNothingOpenAreDropped(): Unit = {
    val m = new LockMonitor(true)
    (1 to 100).foreach(l => m.verify(Acquire(1, l)))
    assertEquals(100, m.sliceCount)
    (1 to 100).foreach(l => m.verify(Release(1, l)))
    assertEquals(0, m.sliceCount) // each slice came back to the initial states
    m.verify(Release(7, 1000)) // an event of an unknown key that changes nothing makes no slice
    assertEquals(0, m.sliceCount)
    m.end()
    assertTrue(m.passed)
  }

  @Test def slicingMakesNextMeanTheNextEventOfTheSameKey(): Unit = {
    class Alternate(indexed: Boolean) extends Monitor[Ev] {
      always { case A(x) => next { case B(`x`) => ok } }
      override protected def keyOf(e: Ev): Option[Any] = if (!indexed) None else e match {
        case A(x) => Some(x)
        case B(x) => Some(x)
        case _    => None
      }
    }
    val trace = Seq(A(1), A(2), B(1), B(2))
    assertTrue(run(new Alternate(true), trace: _*).passed)
    assertEquals(Seq(2L, 3L), run(new Alternate(false), trace: _*).violations.map(_.eventNumber))
  }

  @Test def anEventWithoutAKeyReachesEverySlice(): Unit = {
    val m = new Monitor[Ev] {
      always { case A(x) => hot { case B(`x`) => ok; case Reset => ok }.label(x) }
      override protected def keyOf(e: Ev): Option[Any] = e match {
        case A(x) => Some(x)
        case B(x) => Some(x)
        case _    => None
      }
    }
    Seq(A(1), A(2), A(3)).foreach(m.verify)
    assertEquals(3, m.sliceCount)
    m.verify(Reset)
    assertEquals(0, m.sliceCount)
    m.verify(A(4))
    m.end()
    assertEquals(Seq("hot(4)"), m.violations.map(_.state))
  }

  @Test def aKeyWhoseStatesAreAllGoneStaysFinished(): Unit = {
    // The initial watch is used up per key: a second A(1) finds key 1's slice empty, not a fresh copy.
    val m = new Monitor[Ev] {
      watch { case A(x) => error(s"first A($x)") }
      override protected def keyOf(e: Ev): Option[Any] = e match { case A(x) => Some(x); case _ => None }
    }
    run(m, A(1), A(1), A(2), A(1), A(2))
    assertEquals(Seq(Some("first A(1)"), Some("first A(2)")), m.violations.map(_.message))
    assertEquals(2, m.sliceCount)
  }

  @Test def factsQueriedDuringAnEventAreThoseOfItsSlice(): Unit = {
    var seenOthers = -1
    val m = new Monitor[Ev] {
      case class Seen(x: Int) extends Fact
      always {
        case A(x) => Seen(x)
        case B(x) => seenOthers = facts.count { case Seen(y) => y != x; case _ => false }
      }
      override protected def keyOf(e: Ev): Option[Any] = e match { case A(x) => Some(x); case B(x) => Some(x); case _ => None }
    }
    Seq(A(1), A(2), A(3)).foreach(m.verify)
    m.verify(B(2))
    assertEquals(0, seenOthers)
    assertEquals(Set("always", "Seen(1)", "Seen(2)", "Seen(3)"), m.activeStates.map(_.toString).toSet)
  }

  @Test def outsideAnEventFactsAndInvariantsSeeAllSlicesEachStateOnce(): Unit = {
    val m = new LockMonitor(true) {
      invariant("at most two locks held") { facts.count(_.isInstanceOf[Held]) <= 2 }
      invariant("one initial state") { facts.count(_.toString == "always") == 1 }
    }
    run(m, Acquire(1, 1), Acquire(1, 2), Release(1, 1), Acquire(1, 3), Acquire(1, 4))
    assertEquals(Seq(("at most two locks held", 5L)), m.violations.filter(_.kind == Violation.InvariantFailed).map(v => (v.state, v.eventNumber)))
  }

  @Test def indexKeyCanBeOverriddenDirectly(): Unit = {
    val m = new Monitor[Ev] {
      always { case A(x) => hot { case B(`x`) => ok } }
      override protected def indexKey(e: Ev): Any = e match {
        case A(x) => Int.box(x)
        case B(x) => Int.box(x)
        case _    => null
      }
    }
    Seq(A(1), A(2), B(2)).foreach(m.verify)
    assertEquals(1, m.sliceCount)
    m.end()
    assertEquals(1, m.errorCount)
  }

  @Test def irrelevantEventsAreCountedButNotExamined(): Unit = {
    val m = new Monitor[Ev] {
      always { case _ => error }
      override protected def relevant(e: Ev): Boolean = e.isInstanceOf[A]
    }
    run(m, B(1), A(1), C(1), A(2))
    assertEquals(4L, m.eventCount)
    assertEquals(Seq(2L, 4L), m.violations.map(_.eventNumber))
  }
}
