package cogs.monitor.pipeline

import cogs.runtime._
import java.util.concurrent.{CountDownLatch, CyclicBarrier, TimeUnit}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import TestSupport._

/**
 * The hand-off between emitting threads and a dispatcher under load: nothing lost, nothing
 * duplicated, each emitter's events in its order, and under `drop` every loss counted.
 */
class ChainStressTest {

  /** Checks per-emitter order itself (independently of OrderCheck) and counts per emitter. */
  private class PerEmitter(emitters: Int) extends Checker[Ev] {
    val last = new Array[Long](emitters)
    val count = new Array[Long](emitters)
    var outOfOrder = 0L
    def name = "per-emitter"
    def verify(e: Ev): Unit = {
      val i = e.emitter.toInt
      if (e.seq <= last(i)) outOfOrder += 1
      last(i) = e.seq
      count(i) += 1
    }
    def end(): Unit = ()
    def violations: Seq[Finding] = Nil
  }

  private def emitFromThreads(threads: Int, perThread: Int)(emit: Ev => Unit): Unit = {
    val start = new CyclicBarrier(threads)
    val ts = (0 until threads).map { t =>
      val th = new Thread(() => {
        val me = t.toString // one String per emitter: OrderCheck compares emitters by identity, as it does ObjRefs
        start.await()
        var s = 1L
        while (s <= perThread) { emit(Ev(me, s, null)); s += 1 }
      }, s"emitter-$t")
      th.start()
      th
    }
    ts.foreach(_.join(120000))
    assertTrue(ts.forall(!_.isAlive), "emitters finished")
  }

  @Test def backpressureDeliversEveryEventExactlyOnceInPerEmitterOrder(): Unit = withRuntime { rt =>
    val threads = 6
    val perThread = 100000
    val checker = new PerEmitter(threads)
    val c = chain(rt, List(MonitorSpec[Ev]("all", () => checker, DispatchSettings[Ev](DispatchKind.Single))),
      SinkSettings[Ev](capacity = 256, batch = 64, overload = Overload.Backpressure(TimeUnit.SECONDS.toNanos(60)),
        order = () => new OrderCheck[Ev](_.emitter, _.seq)))
    emitFromThreads(threads, perThread)(c.emit)
    val r = c.finish()
    assertEquals(Losses(), r.losses)
    assertEquals(threads.toLong * perThread, r.delivered)
    assertEquals(0L, checker.outOfOrder)
    // strictly increasing and as many as emitted: each event exactly once
    assertTrue(checker.count.forall(_ == perThread), checker.count.mkString(","))
    assertTrue(checker.last.forall(_ == perThread))
    assertTrue(r.order.sound, r.order.toString)
  }

  @Test def lazyWakeUpDeliversSmallBurstsWithoutFinish(): Unit = withRuntime { rt =>
    // With a max delay, emitters wake the dispatcher only for a full batch; bursts smaller than
    // that must still reach the monitor by the ticker, while the chain stays open.
    val threads = 4
    val rounds = 200
    val seen = new java.util.concurrent.atomic.AtomicLong
    val checker = new PerEmitter(threads) {
      override def verify(e: Ev): Unit = { super.verify(e); seen.incrementAndGet() }
    }
    val c = chain(rt, List(MonitorSpec[Ev]("all", () => checker, DispatchSettings[Ev](DispatchKind.Single))),
      SinkSettings[Ev](capacity = 1024, batch = 64, maxDelayNanos = TimeUnit.MILLISECONDS.toNanos(1),
        order = () => new OrderCheck[Ev](_.emitter, _.seq)))
    val seqs = new Array[Long](threads)
    val names = Array.tabulate(threads)(_.toString) // OrderCheck knows an emitter by identity
    for (round <- 1 to rounds) {
      val burst = 1 + round % 7 // always fewer than a batch
      val ts = (0 until threads).map { t =>
        val th = new Thread(() => (1 to burst).foreach { _ => seqs(t) += 1; c.emit(Ev(names(t), seqs(t), "k")) })
        th.start()
        th
      }
      ts.foreach(_.join())
      val expected = seqs.sum
      val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10)
      while (seen.get < expected && System.nanoTime() < deadline) Thread.sleep(0, 200000)
      assertEquals(expected, seen.get, s"round $round: the ticker delivered the burst")
    }
    val r = c.finish()
    assertEquals(seqs.sum, r.delivered)
    assertEquals(0L, checker.outOfOrder)
    assertTrue(r.order.sound, r.order.toString)
  }

  @Test def wakeUpsAreNeverLost(): Unit = withRuntime { rt =>
    // Rounds in which every emitter adds a burst of events and then waits until the monitor has
    // seen the round's events, without finish or status (which would drain on their own): the
    // dispatcher goes idle between rounds, racing with the next round's emitters. A lost wake-up
    // leaves an event in the buffer with no drain scheduled, and its round never completes.
    // The exact interleaving is pinned down by the next test; this one looks for any other.
    val threads = 4
    val rounds = Integer.getInteger("cogs.test.wakeRounds", 5000).intValue
    val seen = new java.util.concurrent.atomic.AtomicLong
    val counting: Checker.Factory[Ev] = () => Checker.invariant[Ev]("count") { _ => seen.incrementAndGet(); None }
    val c = chain(rt, List(MonitorSpec[Ev]("count", counting, DispatchSettings[Ev](DispatchKind.Single))),
      SinkSettings[Ev](capacity = 64, batch = 1, order = () => new OrderCheck[Ev](_.emitter, _.seq)))
    val stuck = new java.util.concurrent.atomic.AtomicReference[String]
    def burst(r: Int) = 1 + r % 3
    val perRound = (0 until 3).map(r => burst(r) * threads)
    val ts = (0 until threads).map { t =>
      val th = new Thread(() => {
        val me = t.toString
        var r = 0
        var seq = 0L
        var target = 0L
        while (r < rounds && stuck.get == null) {
          var i = 0
          while (i < burst(r)) { seq += 1; c.emit(Ev(me, seq, null)); i += 1 }
          target += perRound(r % 3)
          val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20)
          while (seen.get < target && stuck.get == null) {
            if (System.nanoTime() > deadline) stuck.compareAndSet(null, s"round $r: ${seen.get} of $target events seen")
            Thread.`yield`() // not a spin: four waiting emitters on two cores would starve the dispatcher
          }
          r += 1
        }
      }, s"emitter-$t")
      th.start()
      th
    }
    ts.foreach(_.join(300000))
    assertNull(stuck.get)
    val total = (0 until rounds).map(r => burst(r).toLong * threads).sum
    assertEquals(total, seen.get)
    val r = c.finish()
    assertEquals(total, r.delivered)
    assertTrue(r.order.sound)
  }

  @Test def lazyChainsStrandNoEventBetweenWakeUps(): Unit = withRuntime { rt =>
    // Lazy mode: an emitter below the wake-up count stores with release and never reads the
    // dispatcher's status, so its event relies on a later emitter's wake-up, the ticker, or finish.
    // Rounds as in wakeUpsAreNeverLost (every emitter adds a burst, then waits until the monitor
    // has seen the round, without finish or status), with bursts that end below, at and above the
    // wake-up count, so the dispatcher goes idle with events of either kind of store in the buffer.
    // An event nobody takes stops its round; without the ticker this fails in the first rounds.
    val threads = 4
    val rounds = Integer.getInteger("cogs.test.lazyRounds", 2000).intValue
    val seen = new java.util.concurrent.atomic.AtomicLong
    val counting: Checker.Factory[Ev] = () => Checker.invariant[Ev]("count") { _ => seen.incrementAndGet(); None }
    val c = chain(rt, List(MonitorSpec[Ev]("count", counting, DispatchSettings[Ev](DispatchKind.Single))),
      SinkSettings[Ev](capacity = 64, batch = 4, maxDelayNanos = TimeUnit.MILLISECONDS.toNanos(1),
        order = () => new OrderCheck[Ev](_.emitter, _.seq)))
    val stuck = new java.util.concurrent.atomic.AtomicReference[String]
    def burst(r: Int) = 1 + r % 9
    val perRound = (0 until 9).map(r => burst(r) * threads)
    val ts = (0 until threads).map { t =>
      val th = new Thread(() => {
        val me = t.toString
        var r = 0
        var seq = 0L
        var target = 0L
        while (r < rounds && stuck.get == null) {
          var i = 0
          while (i < burst(r)) { seq += 1; c.emit(Ev(me, seq, null)); i += 1 }
          target += perRound(r % 9)
          val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20)
          while (seen.get < target && stuck.get == null) {
            if (System.nanoTime() > deadline) stuck.compareAndSet(null, s"round $r: ${seen.get} of $target events seen")
            Thread.`yield`()
          }
          r += 1
        }
      }, s"emitter-$t")
      th.setDaemon(true)
      th.start()
      th
    }
    ts.foreach(_.join(300000))
    assertNull(stuck.get)
    val total = (0 until rounds).map(r => burst(r).toLong * threads).sum
    assertEquals(total, seen.get)
    val r = c.finish()
    assertEquals(total, r.delivered)
    assertTrue(r.order.sound)
  }

  @Test def anEventStoredJustBeforeTheDispatcherGoesIdleIsNotStranded(): Unit = withRuntime { rt =>
    // The race of the wake-up protocol, forced: an emitter stores its event after the dispatcher's
    // last poll found nothing, but before it goes idle. The emitter sees SCHEDULED and sends no
    // drain; only the dispatcher's re-check after going idle can pick the event up.
    val seen = new java.util.concurrent.atomic.AtomicLong
    val counting: Checker.Factory[Ev] = () => Checker.invariant[Ev]("count") { _ => seen.incrementAndGet(); None }
    val c = chain(rt, List(MonitorSpec[Ev]("count", counting, DispatchSettings[Ev](DispatchKind.Single))))
    val fired = new java.util.concurrent.atomic.AtomicBoolean
    c.dispatcher.testHookBeforeRest = () =>
      if (fired.compareAndSet(false, true)) {
        val emitter = new Thread(() => c.emit(Ev("other", 1, null)))
        emitter.start()
        emitter.join()
      }
    c.emit(Ev("e", 1, null))
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10)
    while (seen.get < 2 && System.nanoTime() < deadline) Thread.sleep(1)
    assertTrue(fired.get)
    assertEquals(2L, seen.get, "the second event was delivered without finish")
    assertEquals(2L, c.finish().delivered)
  }

  @Test def perKeyActorsUnderLoadKeepPerEmitterOrder(): Unit = withRuntime { rt =>
    // the same, through per-key monitor actors (key = emitter): order across the second hop too
    val threads = 4
    val perThread = 50000
    val rec = new Recording[Ev]
    val c = chain(rt, List(MonitorSpec[Ev]("per", rec.factory, DispatchSettings[Ev](DispatchKind.PerKey, _.emitter))),
      SinkSettings[Ev](capacity = 1024, batch = 100))
    emitFromThreads(threads, perThread)(c.emit)
    val r = c.finish()
    assertEquals(0L, r.losses.total)
    assertEquals(threads, rec.instances.size)
    rec.instances.foreach(i => assertEquals((1L to perThread).toVector, i.seen.map(_.seq).toVector))
  }

  @Test def emittersInsideAnotherCogsRuntimeReachThePipeline(): Unit = withRuntime { rt =>
    // The observed program's threads are Cogs workers of another runtime: wake-ups cross runtimes.
    val observed = CogRuntime.withOverrides("cogs.executor.parallelism = 2\ncogs.executor.thread-name-prefix = observed")
    try {
      val objects = 8
      val perObject = 20000
      val checker = new PerEmitter(objects)
      val c = chain(rt, List(MonitorSpec[Ev]("all", () => checker, DispatchSettings[Ev](DispatchKind.Single))),
        SinkSettings[Ev](capacity = 128, batch = 32))
      trait Emitter extends Active { def go(id: Int): Proc[Unit] }
      final class EmitterImpl extends ActiveObject with Emitter {
        // suspends now and then so the objects' COGs interleave on the two workers
        def go(id: Int): Proc[Unit] = Proc.repeat(perObject) { i =>
          c.emit(Ev(id.toString, i + 1L, null))
          if (i % 1000 == 0) Proc.suspend else Proc.unit
        }
      }
      observed.run {
        Proc.awaitAll((0 until objects).map(i => Cogs.spawn(new EmitterImpl).send("go")(_.go(i)))).void
      }
      val r = c.finish()
      assertEquals(0L, r.losses.total)
      assertEquals(0L, checker.outOfOrder)
      assertTrue(checker.count.forall(_ == perObject), checker.count.mkString(","))
    } finally observed.close()
  }

  @Test def dropCountsEveryLossExactly(): Unit = withRuntime { rt =>
    val threads = 4
    val perThread = 20000
    val checker = new PerEmitter(threads) {
      // slow enough that a 16-slot buffer overflows
      override def verify(e: Ev): Unit = {
        val until = System.nanoTime() + 2000
        while (System.nanoTime() < until) Thread.onSpinWait()
        super.verify(e)
      }
    }
    val c = chain(rt, List(MonitorSpec[Ev]("all", () => checker, DispatchSettings[Ev](DispatchKind.Single))),
      SinkSettings[Ev](capacity = 16, batch = 8, overload = Overload.Drop, order = () => new OrderCheck[Ev](_.emitter, _.seq)))
    emitFromThreads(threads, perThread)(c.emit)
    val r = c.finish()
    val emitted = threads.toLong * perThread
    assertTrue(r.losses.dropped > 0, "the buffer overflowed")
    assertEquals(emitted, r.delivered + r.losses.dropped, "delivered + dropped = emitted")
    assertEquals(r.delivered, checker.count.sum)
    assertEquals(0L, checker.outOfOrder, "what is delivered is still in per-emitter order")
    assertEquals(0L, r.order.disordered)
    // Gaps are seen only where a later event of the same emitter got through; losses at the very
    // end of an emitter's stream leave no gap, so this is a bound, not an equality.
    assertTrue(r.order.missing <= r.losses.dropped, r.order.toString)
  }

  @Test def backpressureGivesUpAfterMaxWaitAndCountsIt(): Unit = withRuntime { rt =>
    val gate = new CountDownLatch(1)
    val seen = new java.util.concurrent.atomic.AtomicLong
    val blocking: Checker.Factory[Ev] = () => Checker.invariant[Ev]("blocked") { _ =>
      gate.await(30, TimeUnit.SECONDS) // a monitor stuck (say, waiting for the program): the buffer fills
      seen.incrementAndGet()
      None
    }
    val c = chain(rt, List(MonitorSpec[Ev]("blocked", blocking, DispatchSettings[Ev](DispatchKind.Single))),
      SinkSettings[Ev](capacity = 4, batch = 1, overload = Overload.Backpressure(TimeUnit.MILLISECONDS.toNanos(20))))
    val n = 40
    val t0 = System.nanoTime()
    (1 to n).foreach(i => c.emit(Ev("e", i.toLong, null)))
    val waited = System.nanoTime() - t0
    gate.countDown()
    val r = c.finish()
    assertTrue(r.losses.timedOut > 0)
    assertEquals(n.toLong, r.delivered + r.losses.timedOut)
    assertEquals(r.delivered, seen.get)
    assertTrue(waited < TimeUnit.SECONDS.toNanos(20), "each wait is bounded")
  }

  @Test def eventsAfterFinishAreCountedAsLate(): Unit = withRuntime { rt =>
    val rec = new Recording[Ev]
    val c = chain(rt, List(evSpec(DispatchKind.Single, rec.factory)))
    c.emit(Ev("e", 1, null))
    c.finish()
    c.emit(Ev("e", 2, null))
    c.emit(Ev("e", 3, null))
    val r = c.finish()
    assertEquals(1L, r.delivered)
    assertEquals(2L, r.losses.late)
    assertEquals(1, rec.instances.head.seen.size)
  }

  @Test def theBufferIsAFifoThatRefusesWhenFull(): Unit = {
    val b = new EventBuffer[String](3)
    assertEquals(4, b.capacity)
    assertTrue((1 to 4).forall(i => b.offer(s"e$i")))
    assertFalse(b.offer("e5"))
    assertEquals("e1", b.poll())
    assertTrue(b.offer("e5"))
    assertEquals(List("e2", "e3", "e4", "e5"), List.fill(4)(b.poll()))
    assertNull(b.poll())
    assertTrue(b.isEmpty)
    assertEquals(List(2, 2, 4, 8, 1 << 30, 1 << 30), List(1, 2, 3, 5, (1 << 29) + 1, 1 << 30).map(EventBuffer.slotsFor))
  }

  @Test def aStaleCopyOfHeadNeverRefusesRoomNorUndercounts(): Unit = {
    // Producers count from a copy of the consumer's position and refresh it only when the copy
    // makes refreshAt events look waiting: the count may be too high, never too low, and a full
    // answer must come from a fresh read.
    val b = new EventBuffer[String](8)
    assertEquals(List(1L, 2L), List("a1", "a2").map(b.offerCounting(_, 4, 0L)))
    (1 to 2).foreach(_ => assertNotNull(b.poll())) // the consumer moves on; the producers' copy is still 0
    assertEquals(3L, b.offerCounting("b1", 4, 0L), "counted from the stale copy: too high (1 is waiting)")
    assertEquals(2L, b.offerCounting("b2", 4, 0L), "the copy would make 4 look waiting: refreshed, exact again")
    for (i <- 3 to 8) {
      val n = b.offerCounting(s"b$i", 4, 0L)
      assertTrue(n >= i, s"count $n below the $i really waiting")
    }
    assertEquals(0L, b.offerCounting("c", 4, 0L), "full: 8 of 8 slots taken")
    assertEquals(List.tabulate(8)(i => s"b${i + 1}"), List.fill(8)(b.poll()))
    assertEquals(1L, b.offerCounting("d", 8, 0L), "the copy says full, a fresh read says empty: room")
    assertEquals("d", b.poll())
  }

  @Test def tinyBufferUnderManyProducersLosesNothing(): Unit = {
    // The producers' copy of head on the slot-reuse path: a 4-slot buffer wraps around every few
    // events, so a producer that claimed a slot on a copy that did not cover the consumer's clear
    // of it would have its event overwritten with null (lost: the consumer stops at it and the
    // count below falls short) or taken twice. refreshAt differs per producer (1: always fresh,
    // 2, and the capacity: the stalest copy allowed). Three of them store with release below
    // their quiet count, as lazily woken emitters do, so the slot reuse is also checked for
    // stores without a fence.
    val producers = 4
    val perProducer = 200000
    val b = new EventBuffer[Ev](4)
    val names = Array.tabulate(producers)(_.toString)
    val refresh = Array(1L, 2L, 4L, 4L)
    val quiet = Array(0L, 2L, 4L, 3L)
    val start = new CyclicBarrier(producers + 1)
    // On a failure the consumer stops early and the producers would spin on a full buffer for
    // the rest of the test JVM: they stop when told, and are daemons.
    @volatile var stop = false
    val ts = (0 until producers).map { p =>
      val th = new Thread(() => {
        start.await()
        var s = 1L
        while (s <= perProducer && !stop) {
          if (b.offerCounting(Ev(names(p), s, null), refresh(p), quiet(p)) > 0) s += 1 else Thread.onSpinWait()
        }
      }, s"producer-$p")
      th.setDaemon(true)
      th.start()
      th
    }
    val last = new Array[Long](producers)
    var outOfOrder = 0L
    var taken = 0L
    start.await()
    // A lost event leaves a null slot the consumer stops at: it gives up after 30 s without progress.
    var lastProgress = System.nanoTime()
    while (taken < producers.toLong * perProducer && System.nanoTime() - lastProgress < TimeUnit.SECONDS.toNanos(30)) {
      val e = b.poll()
      if (e eq null) Thread.onSpinWait()
      else {
        val i = e.emitter.toInt
        if (e.seq != last(i) + 1) outOfOrder += 1
        last(i) = e.seq
        taken += 1
        lastProgress = System.nanoTime()
      }
    }
    stop = true
    ts.foreach(_.join(10000))
    assertEquals(producers.toLong * perProducer, taken, "every event taken")
    assertEquals(0L, outOfOrder, "each producer's events once each, in its order")
    assertTrue(last.forall(_ == perProducer), last.mkString(","))
    assertNull(b.poll())
    assertTrue(b.isEmpty)
  }
}
