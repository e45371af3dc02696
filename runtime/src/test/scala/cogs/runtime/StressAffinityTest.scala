package cogs.runtime

import java.time.Duration
import java.util.concurrent.atomic.{AtomicBoolean, AtomicLong}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * The scheduler with and without affinity (CogRuntime's `defer`, [[NearQueue]]): COGs kept near
 * their worker must neither be lost (a COG left in a near queue when its worker goes back to the
 * pool never runs again: its callers wait for ever) nor starve (a pair that hands off for ever
 * through the slot must not keep a third COG waiting near the same worker).
 *
 * Every run has a bounded wait (a lost COG shows as a timeout, or as a deadlock report when the
 * runtime sees every COG idle) and runs with both settings, on more workers than this machine's
 * cores (threads are preempted mid-batch) and on one or two. A thread outside the runtime keeps
 * sending one-way calls while the programs run, so that the pool's submission queue is seldom
 * empty and workers leave their chains of hand-offs (`runOn`) with COGs still near them. It keeps
 * at most `OutsideWindow` of its calls unserved: unbounded, it is a producer as fast as the one
 * worker it competes with, and the pongers' queues then grow without bound (a CI run on one
 * worker reached a 6 GB heap and the two-minute timeout; by hand, single runs took from 20 ms to
 * 60 s). That is an unbounded mailbox doing what it must, not a lost COG, and not what this
 * test is about.
 *
 * Checked by hand (thirteenth session): with the expiry switched off (`expireNear` forking
 * nothing), `aPairHandingOffForEverDoesNotStarveAThirdCog` times out with affinity on and one
 * worker. With the near queue's `drain` left out of `runOn`'s `finally`, these tests still pass:
 * a COG left near a worker runs at that worker's next `runOn`, and in these runs there always was
 * one; it is lost only if the worker then finds nothing else to run, which no test here forces.
 */
class StressAffinityTest {
  import StressAffinityTest._

  // Both executors: the fork-join pool and the runtime's own (cogs.scheduler.pool = own, WorkerPool).
  private val Pools = List(CogRuntime.Settings.ForkJoin, CogRuntime.Settings.OwnPool)

  private def runtime(affinity: Boolean, parallelism: Int, pool: String): CogRuntime =
    CogRuntime.withAffinity(affinity, CogRuntime.Settings.defaults.copy(parallelism = parallelism, pool = pool))

  @Test def patternsMixedAtRandom(): Unit =
    for (pool <- Pools; affinity <- List(false, true); parallelism <- List(4, 2, 1); seed <- 1 to 2)
      mixed(affinity, parallelism, seed * 7919L + parallelism, pool)

  private def mixed(affinity: Boolean, parallelism: Int, seed: Long, pool: String): Unit = {
    val what = s"pool=$pool, affinity=$affinity, parallelism=$parallelism, seed=$seed"
    val rt = runtime(affinity, parallelism, pool)
    try {
      val rnd = new scala.util.Random(seed)
      val pairs = 24
      val rounds = 400
      val rings = 6
      val ringSize = 7
      val laps = 60
      val counts = 20000
      val pingers = Vector.fill(pairs)(rt.spawn(new PingerImpl))
      val pongers = Vector.fill(pairs)(rt.spawn(new PongerImpl))
      val sink = rt.spawn(new SinkImpl)
      val ringMembers = Vector.fill(rings, ringSize)(rt.spawn(new MemberImpl(sink)))
      for (r <- ringMembers; i <- r.indices) r(i).next = r((i + 1) % ringSize)
      val counter = rt.spawn(new CounterImpl)
      val producer = rt.spawn(new ProducerImpl)
      val seeds = Vector.fill(pairs + rings)(rnd.nextLong())
      val outsideDone = new AtomicBoolean
      val outsideServed = new AtomicLong
      val outside = new Thread(() => {
        var i = 0L
        while (!outsideDone.get()) {
          if (i - outsideServed.get() < OutsideWindow) {
            pongers((i % pairs).toInt).tell("noteFromOutside")(_.noteFromOutside(outsideServed))
            i += 1
            if (i % 64 == 0) Thread.`yield`()
          } else Thread.`yield`()
        }
      }, "outside-sender")
      outside.setDaemon(true)
      outside.start()
      val total = try assertTimeoutPreemptively(Duration.ofSeconds(120), () => rt.run {
        val played = for (i <- 0 until pairs) yield pingers(i).send("play")(_.play(pongers(i), rounds, seeds(i)))
        for (k <- 0 until rings) ringMembers(k)(0).tell("pass")(_.pass(laps * ringSize, seeds(pairs + k)))
        val counted = producer.send("produce")(_.produce(counter, counts))
        Proc.awaitAll(played).flatMap { ps =>
          Proc.await(counted).flatMap { c =>
            Proc.await(sink.send("waitFor")(_.waitFor(rings))).map(_ => ps.sum.toLong + c)
          }
        }
      }, s"the run did not end ($what): a COG was lost or starved")
      finally { outsideDone.set(true); outside.join(10000) }
      assertEquals(pairs.toLong * rounds + counts, total, what)
      assertEquals(pairs.toLong * rounds, pongers.map(_.served.toLong).sum, what)
      assertEquals(List(), rt.deadlockReport(), what)
      assertEquals(0L, rt.failedProcesses, s"$what, first failure: ${rt.firstFailure}")
    } finally rt.close()
  }

  /**
   * A ping-pong pair whose every message goes through the slot, so that the chain of hand-offs in
   * its worker never runs dry; it stops only when a third COG, scheduled while the pair runs, has
   * run. On one worker that COG sits near it (affinity) or in its pool queue: it must get the
   * thread within the grace time or the bound on hand-offs, not never.
   */
  @Test def aPairHandingOffForEverDoesNotStarveAThirdCog(): Unit =
    for (pool <- Pools; affinity <- List(false, true); parallelism <- List(1, 2)) {
      val what = s"pool=$pool, affinity=$affinity, parallelism=$parallelism"
      val rt = runtime(affinity, parallelism, pool)
      try {
        val stop = new AtomicBoolean
        val a = rt.spawn(new PingerImpl)
        val b = rt.spawn(new PongerImpl)
        val stopper = rt.spawn(new StopperImpl(stop))
        val rounds = assertTimeoutPreemptively(Duration.ofSeconds(60), () => rt.run {
          val f = a.send("untilStopped")(_.untilStopped(b, stop))
          stopper.tell("stop")(_.stop())
          Proc.await(f)
        }, s"the third COG never ran ($what)")
        assertTrue(rounds > 0, what)
        assertEquals(List(), rt.deadlockReport(), what)
      } finally rt.close()
    }
}

object StressAffinityTest {
  /** How many of the outside thread's calls may wait unserved at once. */
  val OutsideWindow = 512L

  /** Busy work of a random length, whose result is kept so that it is not optimised away. */
  final class Work {
    var sink = 0L
    def spin(rnd: scala.util.Random): Unit = {
      var i = rnd.nextInt(400)
      var x = sink
      while (i > 0) { x = x * 6364136223846793005L + 1442695040888963407L; i -= 1 }
      sink = x
    }
  }

  trait Ponger extends Active {
    def pong(x: Int, seed: Long): Proc[Int]
    def note(): Proc[Unit]
    def noteFromOutside(served: AtomicLong): Proc[Unit]
  }

  final class PongerImpl extends ActiveObject with Ponger {
    private[this] val work = new Work
    var served = 0
    def pong(x: Int, seed: Long): Proc[Int] = Proc.delay {
      work.spin(new scala.util.Random(seed)); served += 1; x + 1
    }
    def note(): Proc[Unit] = Proc.delay(())
    def noteFromOutside(served: AtomicLong): Proc[Unit] = Proc.delay { served.incrementAndGet(); () }
  }

  trait Pinger extends Active {
    def play(peer: Ponger, rounds: Int, seed: Long): Proc[Int]
    def untilStopped(peer: Ponger, stop: AtomicBoolean): Proc[Int]
  }

  final class PingerImpl extends ActiveObject with Pinger {
    private[this] val work = new Work

    /** `rounds` request/reply rounds, with one-way notes, yields and busy work between them at random. */
    def play(peer: Ponger, rounds: Int, seed: Long): Proc[Int] = {
      val rnd = new scala.util.Random(seed)
      var i = 0
      Proc.loopWhile(i < rounds) {
        work.spin(rnd)
        val step: Proc[Unit] = rnd.nextInt(4) match {
          case 0 => Proc.suspend
          case 1 => Proc.delay { var k = rnd.nextInt(40); while (k > 0) { peer.tell("note")(_.note()); k -= 1 } }
          case _ => Proc.unit
        }
        step.flatMap(_ => Proc.await(peer.send("pong")(_.pong(i, rnd.nextLong())))).map { r =>
          if (r != i + 1) throw new AssertionError(s"pong($i) answered $r")
          i += 1
        }
      }.map(_ => rounds)
    }

    // The flag is read after each round, not before the first: with two workers the stopper can
    // run before the pair's first round, and the test is about the stopper running, not the pair.
    def untilStopped(peer: Ponger, stop: AtomicBoolean): Proc[Int] = {
      var i = 0
      Proc.loopWhile(i == 0 || !stop.get()) {
        Proc.await(peer.send("pong")(_.pong(i, i.toLong))).map(_ => i += 1)
      }.map(_ => i)
    }
  }

  trait Stopper extends Active { def stop(): Proc[Unit] }
  final class StopperImpl(flag: AtomicBoolean) extends ActiveObject with Stopper {
    def stop(): Proc[Unit] = Proc.delay(flag.set(true))
  }

  trait Sink extends Active {
    def arrived(): Proc[Unit]
    def waitFor(n: Int): Proc[Int]
  }

  final class SinkImpl extends ActiveObject with Sink {
    private var n = 0
    def arrived(): Proc[Unit] = Proc.delay { n += 1 }
    def waitFor(k: Int): Proc[Int] = Proc.awaitUntil(n >= k).map(_ => n)
  }

  /** A ring member: passes the token on, one way, until it has made its hops; then tells the sink. */
  trait Member extends Active { def pass(hops: Int, seed: Long): Proc[Unit] }

  final class MemberImpl(sink: Sink) extends ActiveObject with Member {
    var next: Member = _
    private[this] val work = new Work
    def pass(hops: Int, seed: Long): Proc[Unit] = Proc.delay {
      val rnd = new scala.util.Random(seed)
      work.spin(rnd)
      if (hops == 0) sink.tell("arrived")(_.arrived())
      else next.tell("pass")(_.pass(hops - 1, rnd.nextLong()))
    }
  }

  trait Counter extends Active {
    def increment(): Proc[Unit]
    def total(): Proc[Long]
  }

  final class CounterImpl extends ActiveObject with Counter {
    private var n = 0L
    def increment(): Proc[Unit] = Proc.delay { n += 1 }
    def total(): Proc[Long] = Proc.delay(n)
  }

  /** Counting's pattern: one long slice sends every call, then awaits the total. */
  trait Producer extends Active { def produce(c: Counter, n: Int): Proc[Long] }

  final class ProducerImpl extends ActiveObject with Producer {
    def produce(c: Counter, n: Int): Proc[Long] = {
      var i = 0
      while (i < n) { c.tell("increment")(_.increment()); i += 1 }
      Proc.await(c.send("total")(_.total()))
    }
  }
}
