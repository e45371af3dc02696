package cogs.runtime

import java.util.concurrent.atomic.{AtomicBoolean, AtomicLong}
import java.util.concurrent.{ConcurrentLinkedQueue, TimeUnit}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.jdk.CollectionConverters._

/**
 * `CogRuntime.inspectBlocked`: reading an object from outside while its COG is blocked in `get`
 * (what the ABS Model API shows of a stuck object), and never a torn read while the COG moves.
 */
class InspectBlockedTest {

  trait Waiter extends Active { def waitFor(f: Fut[Int]): Proc[Int] }
  final class WaiterImpl extends ActiveObject with Waiter {
    @volatile var noted = 0 // volatile only so that the test's polling below sees the write
    def waitFor(f: Fut[Int]) = Proc.delay { noted = 5 }.flatMap(_ => Proc.get(f))
  }

  private def eventually[A](what: String)(probe: => Option[A]): A = {
    // A bound for liveness only (a broken build must not hang the suite); no time is asserted.
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
    var r = probe
    while (r.isEmpty) {
      if (System.nanoTime() > deadline) fail(s"never: $what")
      Thread.sleep(5)
      r = probe
    }
    r.get
  }

  @Test def aCogBlockedInGetIsSeenWithItsFieldsAndWhatItWaitsFor(): Unit = {
    val rt = CogRuntime()
    try {
      val w = rt.spawn(new WaiterImpl)
      val idle = rt.spawn(new WaiterImpl)
      assertEquals(None, rt.inspectBlocked(idle)(idle.noted), "a COG that is not blocked")
      val p = Promise[Int](rt, "the test's promise")
      val result = w.send("waitFor")(_.waitFor(p.future))
      val (blocked, noted) = eventually("the COG blocks")(rt.inspectBlocked(w)(w.noted))
      assertEquals(5, noted)
      assertEquals(SimTime.Zero, blocked.since)
      assertTrue(blocked.blockedProcess.endsWith(".waitFor"), blocked.blockedProcess)
      assertEquals("the test's promise", blocked.waitingFor)
      p.success(7)
      assertEquals(7, result.join())
      eventually("the COG unblocks")(if (rt.inspectBlocked(w)(()).isEmpty) Some(()) else None)
    } finally rt.close()
  }

  trait Pair extends Active { def go(rounds: Int, peer: Slow): Proc[Unit] }
  trait Slow extends Active { def work(): Proc[Int] }
  final class SlowImpl extends ActiveObject with Slow {
    def work() = Proc.delay { var i = 0; while (i < 2000) { i += 1; Thread.onSpinWait() }; i }
  }
  final class PairImpl extends ActiveObject with Pair {
    var a = 0L
    var b = 0L
    def go(rounds: Int, peer: Slow) = {
      var i = 0
      Proc.loopWhile(i < rounds) {
        i += 1
        a = i
        var s = 0
        while (s < 500) { s += 1; Thread.onSpinWait() } // widen the window between the two writes
        b = i
        Proc.get(peer.send("work")(_.work())).map(_ => ())
      }
    }
  }

  /**
   * The object keeps `a == b` at every scheduling point and breaks it between them; it blocks in
   * `get` once per round. Another thread inspects it all the time: every read that
   * `inspectBlocked` returns must see `a == b`. Without the second read of the blocked `get`
   * (the sequence lock's validation), reads that overlap the writes after the COG unblocks
   * return torn pairs.
   */
  @Test def aReadThatOverlapsTheCogMovingIsNeverReturned(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
    try {
      val o = rt.spawn(new PairImpl)
      val peer = rt.spawn(new SlowImpl)
      val torn = new ConcurrentLinkedQueue[String]
      val seen = new AtomicLong
      val stop = new AtomicBoolean
      val inspector = new Thread(() => {
        while (!stop.get()) rt.inspectBlocked(o)((o.a, o.b)).foreach { case (_, (a, b)) =>
          seen.incrementAndGet()
          if (a != b) torn.add(s"a=$a b=$b")
        }
      })
      inspector.start()
      val done = o.send("go")(_.go(3000, peer))
      done.join()
      stop.set(true)
      inspector.join()
      assertEquals(List(), torn.asScala.toList.take(5))
      assertTrue(seen.get() > 0, "the inspector saw the COG blocked at least once")
    } finally rt.close()
  }
}
