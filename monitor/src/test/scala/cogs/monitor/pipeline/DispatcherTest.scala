package cogs.monitor.pipeline

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import TestSupport._

/** Each dispatcher kind gives every event to the right instance, in order, and ends instances as configured. */
class DispatcherTest {

  /** Every instance saw only events of one key, all of them, in emission order. */
  private def assertOneKeyPerInstance(rec: Recording[Ev], events: Vector[Ev]): Unit = {
    val byKey = events.groupBy(_.key)
    rec.instances.filter(_.seen.nonEmpty).foreach { r =>
      val keys = r.seen.map(_.key).distinct
      assertEquals(1, keys.size, s"instance ${r.id} saw keys $keys")
    }
    byKey.foreach { case (k, evs) =>
      val lives = rec.instances.filter(_.seen.exists(_.key == k))
      assertEquals(evs, lives.sortBy(_.id).flatMap(_.seen).toVector, s"events of key $k")
    }
  }

  @Test def singleGivesEveryEventToOneInstanceInOrder(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.Single, rec.factory)), SinkSettings[Ev](batch = 7))
    val events = interleaved(keys = 13, n = 300)
    events.foreach(c.emit)
    val r = c.finish()
    assertEquals(1, rec.instances.size)
    assertEquals(events, rec.instances.head.seen.toVector)
    assertEquals(1, rec.instances.head.ended)
    assertEquals(events.size.toLong, r.delivered)
    assertEquals(events.size.toLong, r.routes.head.events)
    assertEquals(1L, r.routes.head.instances)
  }

  @Test def singleIsEndedEvenWithoutEvents(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    chain(rt, List(evSpec(DispatchKind.Single, rec.factory))).finish()
    assertEquals(List(1), rec.instances.map(_.ended))
  }

  @Test def indexedKeepsOneInstancePerKeyInTheDispatcher(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.Indexed, rec.factory)), SinkSettings[Ev](batch = 10))
    val events = interleaved(keys = 20, n = 250)
    events.foreach(c.emit)
    assertEquals(20, c.status().head.live)
    val r = c.finish()
    assertEquals(20, rec.instances.size)
    assertOneKeyPerInstance(rec, events)
    assertTrue(rec.instances.forall(_.ended == 1))
    assertEquals(20L, r.routes.head.instances)
    assertEquals(0L, r.routes.head.completed)
  }

  @Test def indexedEndsAnInstanceOnItsCompletionEvent(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.Indexed, rec.factory)))
    c.emit(Ev("e", 1, "a")); c.emit(Ev("e", 2, "a", last = true)); c.emit(Ev("e", 3, "a")); c.emit(Ev("e", 4, "b"))
    val st = c.status().head
    assertEquals(2, st.live) // a's second life and b
    assertEquals(3L, st.instances)
    val first = rec.instances.minBy(_.id)
    assertEquals(1, first.ended, "ended by its completion event, before the end of the trace")
    assertEquals(2, first.seenWhenEnded)
    val r = c.finish()
    assertEquals(1L, r.routes.head.completed)
    assertTrue(rec.instances.forall(_.ended == 1))
  }

  @Test def perKeyCreatesAnActorPerKeyAndEndsItOnCompletion(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.PerKey, rec.factory)), SinkSettings[Ev](batch = 16))
    var seq = 0L
    def next(k: String, last: Boolean = false) = { seq += 1; Ev("e", seq, k, last) }
    // ten keys, 50 events each, interleaved; each key's 50th event completes it
    val first = (for (i <- 1 to 50; k <- 0 until 10) yield next(s"k$k", last = i == 50)).toVector
    // then k0 comes back: a new life, hence a new actor; k1 too, and stays open
    val again = Vector(next("k0"), next("k1"), next("k0"))
    (first ++ again).foreach(c.emit)
    val st = c.status().head
    assertEquals(12L, st.instances)
    assertEquals(2, st.live, "k0 and k1 are open again; the others were completed and dropped")
    // the completed actors are ended without waiting for the end of the trace
    val deadline = System.nanoTime() + 10e9.toLong
    def completedEnded = rec.instances.count(r => r.ended == 1)
    while (completedEnded < 10 && System.nanoTime() < deadline) Thread.sleep(5)
    assertEquals(10, completedEnded)
    assertTrue(rec.instances.filter(_.ended == 1).forall(_.seenWhenEnded == 50), "ended after all 50 of its events")
    val r = c.finish()
    assertEquals(12, rec.instances.size)
    assertTrue(rec.instances.forall(_.ended == 1), "every actor ended exactly once")
    assertOneKeyPerInstance(rec, first ++ again)
    assertEquals(10L, r.routes.head.completed)
    assertEquals(12L, r.routes.head.instances)
  }

  @Test def poolAssignsKeysRoundRobinEvenly(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.Pool, rec.factory, poolSize = 8)))
    val events = interleaved(keys = 1003, n = 3)
    events.foreach(c.emit)
    val st = c.status().head
    assertEquals(8, st.live)
    assertEquals(Vector(126, 126, 126, 125, 125, 125, 125, 125), st.keysPerActor)
    c.finish()
    assertEquals(8, rec.instances.size)
    // each key lives in exactly one actor, whose instance saw that key's events in order
    val owners = events.map(_.key).distinct.map(k => k -> rec.instances.filter(_.seen.exists(_.key == k)))
    owners.foreach { case (k, rs) =>
      assertEquals(1, rs.size, s"key $k")
      assertEquals(events.filter(_.key == k), rs.head.seen.filter(_.key == k).toVector)
    }
    assertEquals(rec.instances.map(_.seen.map(_.key).distinct.size).sorted, List(125, 125, 125, 125, 125, 126, 126, 126))
    // and each actor saw its keys' events in the order they were emitted
    rec.instances.foreach(r => assertEquals(r.seen.sortBy(_.seq), r.seen))
  }

  @Test def poolByHashKeepsEachKeyOnOneActor(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.Pool, rec.factory, poolSize = 8, assign = Assign.Hash)))
    val events = interleaved(keys = 2000, n = 2)
    events.foreach(c.emit)
    c.finish()
    val counts = rec.instances.map(_.seen.map(_.key).distinct.size)
    assertEquals(2000, counts.sum, "each key on exactly one actor")
    assertEquals(8, counts.size)
    // 250 keys per actor on average; a binomial spread (sd about 15) stays well inside these bounds
    assertTrue(counts.forall(n => n > 170 && n < 330), s"keys per actor: $counts")
  }

  @Test def poolForgetsACompletedKey(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.Pool, rec.factory, poolSize = 2)))
    c.emit(Ev("e", 1, "a")); c.emit(Ev("e", 2, "b")); c.emit(Ev("e", 3, "a", last = true)); c.emit(Ev("e", 4, "a"))
    // a went to actor 0, b to 1; a completed, so its return is a new key: actor 0 again (round robin)
    assertEquals(Vector(2, 1), c.status().head.keysPerActor)
    c.finish()
  }

  @Test def unkeyedEventsAreCountedOrBroadcast(): Unit = withRuntime { rt =>
    val skip = new Recording[Ev]
    val cast = new Recording[Ev]
    val c = chain(rt, List(
      evSpec(DispatchKind.PerKey, skip.factory, name = "skip"),
      evSpec(DispatchKind.Indexed, cast.factory, unkeyed = Unkeyed.Broadcast, name = "cast")))
    c.emit(Ev("e", 1, "a")); c.emit(Ev("e", 2, "b")); c.emit(Ev("e", 3, null)); c.emit(Ev("e", 4, "a"))
    val r = c.finish()
    val bySkip = r.routes.find(_.monitor == "skip").get
    assertEquals(1L, bySkip.unkeyed)
    assertEquals(4L, bySkip.events)
    assertEquals(3, skip.instances.map(_.seen.size).sum)
    assertEquals(List(3, 2), cast.instances.sortBy(_.id).map(_.seen.size), "the unkeyed event reached a and b")
  }

  @Test def aThrowingMonitorIsReportedAndIsolated(): Unit = withRuntime { rt =>
    val bad: Checker.Factory[Ev] = () => Checker.invariant[Ev]("bad") { e =>
      if (e.key == "boom" && e.seq == 3) throw new IllegalStateException("boom") else None
    }
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.PerKey, bad, name = "bad"), evSpec(DispatchKind.PerKey, rec.factory, name = "rec")))
    (1 to 6).foreach(i => c.emit(Ev("e", i.toLong, if (i % 2 == 1) "boom" else "fine")))
    val r = c.finish()
    val badRoute = r.routes.find(_.monitor == "bad").get
    assertEquals(1L, badRoute.failed)
    val messages = badRoute.verdicts.map(_.finding.message)
    assertTrue(messages.exists(_.contains("monitor failed on its event 2: java.lang.IllegalStateException: boom")), messages.toString)
    assertTrue(messages.exists(_.contains("1 events after the failure were not checked")), messages.toString)
    assertEquals("key=boom", badRoute.verdicts.head.instance)
    assertEquals(6, rec.instances.map(_.seen.size).sum, "the other monitor got everything")
  }

  @Test def aFactoryThatThrowsIsAVerdictNotACrash(): Unit = withRuntime { rt =>
    val c = chain(rt, List(evSpec(DispatchKind.Indexed, () => throw new RuntimeException("no"), name = "nope")))
    c.emit(Ev("e", 1, "a"))
    val r = c.finish()
    assertTrue(r.routes.head.verdicts.exists(_.finding.message.contains("could not be created")), r.routes.head.verdicts.toString)
  }

  @Test def aThrowingKeyFunctionCostsItsEventNotTheChain(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val key: Ev => Any = e => if (e.key == "bad") throw new IllegalArgumentException("no key") else e.key
    val c = chain(rt, List(MonitorSpec[Ev]("m", rec.factory, DispatchSettings[Ev](DispatchKind.PerKey, key))))
    c.emit(Ev("e", 1, "a")); c.emit(Ev("e", 2, "bad")); c.emit(Ev("e", 3, "a"))
    assertEquals(3L, c.status().head.events, "the chain goes on after the failure (which counts as an event given)")
    val r = c.finish()
    assertEquals(List(1L, 3L), rec.instances.head.seen.map(_.seq).toList)
    assertEquals(List("dispatch failed (key function or completion event): java.lang.IllegalArgumentException: no key"),
      r.routes.head.verdicts.map(_.finding.message).toList)
  }

  @Test def aMonitorThatDoesNotEndInTimeIsReported(): Unit = withRuntime { rt =>
    val slow: Checker.Factory[Ev] = () => new Checker[Ev] {
      def name = "slow"
      def verify(e: Ev): Unit = ()
      def end(): Unit = Thread.sleep(1000)
      def violations: Seq[Finding] = Nil
    }
    val c = chain(rt, List(MonitorSpec[Ev]("slow", slow, DispatchSettings[Ev](DispatchKind.PerKey, _.key))),
      SinkSettings[Ev](finishTimeoutNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100)))
    c.emit(Ev("e", 1, "a"))
    val r = c.finish()
    val report = Report.of(Mode.Centralised, Nil, List(r), 0L, Statistics.empty)
    assertEquals(3, report.exitStatus, "missing verdicts fail the run")
    assertEquals(List("the dispatcher of test and its monitors did not finish within 100 ms: verdicts are missing"),
      report.verdicts.map(_.finding.message).toList)
  }

  @Test def inlineSinkRoutesOnTheCallingThread(): Unit = {
    val single = new Recording[Ev]
    val indexed = new Recording[Ev]
    val s = new InlineSink[Ev]("inline",
      List(evSpec(DispatchKind.Single, single.factory, name = "s"), evSpec(DispatchKind.Indexed, indexed.factory, name = "i")),
      SinkSettings[Ev](order = () => new OrderCheck[Ev](_.emitter, _.seq)))
    val events = interleaved(keys = 5, n = 20)
    events.foreach(s.emit)
    // inline: delivered before emit returned, no finish needed to see it
    assertEquals(events, single.instances.head.seen.toVector)
    assertEquals(5, s.status().find(_.monitor == "i").get.live)
    val r = s.finish()
    assertOneKeyPerInstance(indexed, events)
    assertTrue(r.order.sound)
    s.emit(Ev("e", 999, "late"))
    assertEquals(1L, s.finish().losses.late)
  }

  @Test def inlineRefusesActorDispatch(): Unit = {
    val e = assertThrows(classOf[IllegalArgumentException], () => new InlineSink[Ev]("inline", List(evSpec(DispatchKind.Pool, () => null)), SinkSettings[Ev]()))
    assertTrue(e.getMessage.contains("needs monitor actors"))
  }
}
