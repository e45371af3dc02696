package cogs.runtime

import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import TestObjects._

/** Point 2: many COGs on one shared executor, demand-driven main tasks, bounded batches. */
class SchedulingTest {

  private def withRuntime[A](conf: String)(f: CogRuntime => A): A = {
    val rt = CogRuntime.withOverrides(conf)
    try f(rt) finally rt.close()
  }

  @Test def suspendedProcessesHoldNoThread(): Unit = withRuntime("cogs.executor.parallelism = 2") { rt =>
    // 10,000 processes in 10,000 COGs wait; with two threads, a new call is still served.
    val latch: Latch = rt.spawn(new LatchImpl)
    val waiters = (1 to 10000).map { _ =>
      val c: Cell = rt.spawn(new CellImpl)
      c.send("awaitAtLeast")(_.awaitAtLeast(1))
    }
    val other: Cell = rt.spawn(new CellImpl(7))
    assertEquals(7, other.send("get")(_.get()).join())
    rt.awaitQuiescence()
    assertTrue(waiters.forall(!_.isDone))
    assertTrue(latch.cog.inboxEmpty())
  }

  @Test def aBatchIsBoundedSoOtherCogsAreServedDuringAFlood(): Unit =
    withRuntime("cogs.executor.parallelism = 1\ncogs.throughput = 4") { rt =>
      val progress = new AtomicInteger
      trait Busy extends Active { def tick(): Proc[Unit] }
      final class BusyImpl extends ActiveObject with Busy { def tick() = Proc.delay { progress.incrementAndGet(); () } }
      val busy = rt.spawn(new BusyImpl)
      val seenAt = new AtomicInteger(-1)
      trait Probe extends Active { def probe(): Proc[Unit] }
      final class ProbeImpl extends ActiveObject with Probe { def probe() = Proc.delay(seenAt.set(progress.get)) }
      val probe = rt.spawn(new ProbeImpl)
      val n = 200000
      // Send from inside the runtime so that the flood and the probe race on the executor.
      rt.run {
        Proc.delay {
          var i = 0
          while (i < n) { busy ! (_.tick()); i += 1 }
          probe ! (_.probe())
          ()
        }
      }
      assertEquals(n, progress.get)
      assertTrue(seenAt.get >= 0 && seenAt.get < n,
        s"the probe ran at ${seenAt.get} of $n ticks: a bounded batch lets it in before the flood ends")
    }

  // The hand-off slot is private to its worker. A COG woken into it must not wait for the rest of
  // a long slice or batch of the waker: each test below would spin until its deadline otherwise.

  trait Spinner extends Active {
    def flood(to: Counter, n: Int): Proc[Boolean]
    def poke(to: Counter): Proc[Unit]
    def waitFor(to: CounterImpl): Proc[Boolean]
  }
  trait Counter extends Active { def inc(): Proc[Unit] }
  final class CounterImpl extends ActiveObject with Counter {
    val count = new AtomicInteger
    def inc() = Proc.delay { count.incrementAndGet(); () }
  }
  final class SpinnerImpl extends ActiveObject with Spinner {
    private def spinUntil(c: Counter, deadline: Long): Boolean = {
      val n = c.asInstanceOf[CounterImpl].count
      while (n.get == 0 && System.nanoTime() < deadline) Thread.onSpinWait()
      n.get > 0
    }
    // One slice: sends calls, then waits (holding its thread) until the callee has run one.
    def flood(to: Counter, n: Int) = Proc.delay {
      var i = 0
      while (i < n) { to.tell("inc")(_.inc()); i += 1 }
      spinUntil(to, System.nanoTime() + 10_000_000_000L)
    }
    def poke(to: Counter) = Proc.delay(to.tell("inc")(_.inc()))
    def waitFor(to: CounterImpl) = Proc.delay(spinUntil(to, System.nanoTime() + 10_000_000_000L))
  }

  @Test def aCogWokenByALongSliceRunsBeforeTheSliceEnds(): Unit = withRuntime("cogs.executor.parallelism = 2") { rt =>
    val counter = rt.spawn(new CounterImpl)
    val s = rt.spawn(new SpinnerImpl)
    assertTrue(s.send("flood")(_.flood(counter, 1000)).join(), "the callee ran only after the sending slice")
    rt.awaitQuiescence()
    assertEquals(1000, counter.count.get)
  }

  @Test def aCogWokenByOneSliceOfABatchRunsBeforeTheBatchEnds(): Unit = withRuntime("cogs.executor.parallelism = 2") { rt =>
    val counter = rt.spawn(new CounterImpl)
    val s = rt.spawn(new SpinnerImpl)
    val got = rt.run {
      // Both calls are in the spinner's inbox before it runs: one batch, two slices.
      val a = s.send("poke")(_.poke(counter))
      val b = s.send("waitFor")(_.waitFor(counter))
      a.await.flatMap(_ => b.await)
    }
    assertTrue(got, "the callee ran only after the waker's batch")
  }

  @Test def manyCogsManySendersNothingLostOrDuplicated(): Unit = withRuntime("") { rt =>
    val cogs = 64
    val senders = 4
    val perSender = 250000
    val sums = new AtomicLong
    trait Sink extends Active { def put(sender: Int, seq: Int): Proc[Unit] }
    final class SinkImpl extends ActiveObject with Sink {
      private val last = Array.fill(senders)(-1)
      var count = 0
      var outOfOrder = 0
      def put(sender: Int, seq: Int) = Proc.delay {
        if (seq != last(sender) + 1) outOfOrder += 1 // FIFO per sender and receiver
        last(sender) = seq
        count += 1
        sums.addAndGet(seq.toLong)
        ()
      }
    }
    val sinks = Array.fill(cogs)(rt.spawn(new SinkImpl))
    val threads = (0 until senders).map { s =>
      new Thread(() => {
        val seqs = new Array[Int](cogs)
        var i = 0
        while (i < perSender) {
          val k = (i * 31 + s) % cogs
          val seq = seqs(k); seqs(k) += 1
          sinks(k) ! (_.put(s, seq))
          i += 1
        }
      })
    }
    threads.foreach(_.start()); threads.foreach(_.join())
    rt.awaitQuiescence()
    assertEquals(senders.toLong * perSender, sinks.map(_.count.toLong).sum)
    assertEquals(0, sinks.map(_.outOfOrder).sum)
    val expected = (0 until senders).map { s =>
      val seqs = new Array[Int](cogs); var tot = 0L; var i = 0
      while (i < perSender) { val k = (i * 31 + s) % cogs; tot += seqs(k); seqs(k) += 1; i += 1 }
      tot
    }.sum
    assertEquals(expected, sums.get)
  }

  @Test def idleCogsAreWokenAgainAndAgain(): Unit = withRuntime("") { rt =>
    // Bursts separated by quiescence: every COG goes idle and must be woken by the next burst.
    val cells = Array.fill(1000)(rt.spawn(new CellImpl))
    var round = 1
    while (round <= 50) {
      val r = round
      val fs = cells.map(c => c.send("set")(_.set(r)))
      fs.foreach(_.join())
      rt.awaitQuiescence()
      round += 1
    }
    assertTrue(cells.forall(_.value == 50))
  }
}
