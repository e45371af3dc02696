package cogs.runtime

import java.util.concurrent.atomic.AtomicLong
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * One-way calls travel as `OneWayCall` nodes and their COG runs each in the process its previous
 * one-way call ended in, when that one qualified (`Process.reusable`): ended with a value in its
 * first slice, never handed out as a future, nothing kept on the side. Here the calls that must
 * not be reused are mixed with those that may: a call that hands its `destiny` to another COG
 * (which awaits it and checks its value), one that awaits another COG's answer (it parks, so it
 * was registered as a waiter), one that yields, one that fails, one that blocks its COG in `get`.
 * Four senders in processes and one thread outside the runtime, three receivers, four workers on
 * this machine's two cores, so that threads are preempted in the middle of it all.
 *
 * A process reused while something still held it shows here: a destiny resolved twice or with
 * another call's value (the checker counts a wrong value, the second resolution fails the call),
 * a waiter woken into the wrong call (counts over or under, or a process left parked: the
 * deadlock report), a failure named after another method. Checked once by hand: with the
 * `handedOut` test taken out of `Process.reusable`, the destiny calls' checks fail.
 */
class StressOneWayReuseTest {
  import StressOneWayReuseTest._

  @Test def reusedProcessesNeverCarryAnotherCallsState(): Unit = {
    val rounds = 3
    val n = 30000
    var round = 0
    while (round < rounds) {
      val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 4")
      try {
        val ok = new AtomicLong
        val bad = new AtomicLong
        val receivers: Array[Recv] = Array.fill(3)(rt.spawn(new RecvImpl))
        val checker: Checker = rt.spawn(new CheckerImpl(ok, bad))
        val gates: Array[Gate] = Array.fill(2)(rt.spawn(new GateImpl))
        val outside = new Thread(() => {
          var i = 0
          while (i < n) { send(receivers(i % 3), i, checker, gates(1)); i += 1 }
        })
        outside.start()
        rt.run {
          val senders = Array.fill(4)(Cogs.spawn(new SenderImpl): Sender)
          val fs = senders.indices.map(s => senders(s).send("flood")(_.flood(receivers, n, s, checker, gates(0))))
          Proc.awaitAll(fs)
        }
        outside.join(60000)
        assertFalse(outside.isAlive, "the outside sender finished")
        rt.awaitQuiescence()
        assertEquals(Nil, rt.deadlockReport(), "nothing is left waiting")

        // Five senders of n calls each, spread over the receivers; call i is of kind i % 6.
        val perKind = Array.tabulate(6)(k => 5L * (0 until n).count(_ % 6 == k))
        val sumKind = Array.tabulate(6)(k => 5L * (0 until n).filter(_ % 6 == k).map(_.toLong).sum)
        val got = receivers.map(r => r.send("totals")(_.totals()).join())
        for (k <- 0 until 6) {
          assertEquals(perKind(k), got.map(_(k)).sum, s"calls of kind $k that ran")
          assertEquals(sumKind(k), got.map(_(6 + k)).sum, s"sum of the values of kind $k")
        }
        assertEquals(perKind(1), ok.get, "destinies resolved with their own call's value")
        assertEquals(0L, bad.get, "destinies resolved with another call's value")
        assertEquals(perKind(4), rt.failedProcesses, "failed calls: the boom ones, and nothing else")
        val first = rt.firstFailure.getOrElse("")
        assertTrue(first.contains("boom") && first.contains("IllegalStateException"), first)
      } finally rt.close()
      round += 1
    }
  }

  @Test def aStreamOfOneWayCallsRunsInFewProcessesAndAnIdleCogKeepsNone(): Unit = {
    // One worker: the sender's slice queues every call before the receiver runs, and the receiver
    // then serves them in batches of `throughput` slices, each batch making one process.
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
    try {
      val seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap[AnyRef, java.lang.Boolean])
      trait Probe extends Active { def hit(): Proc[Unit] }
      final class ProbeImpl extends ActiveObject with Probe {
        def hit() = Proc.delay { seen.add(Cog.current().running); () }
      }
      val probe: Probe = rt.spawn(new ProbeImpl)
      val n = 10000
      rt.run {
        var i = 0
        while (i < n) { probe.tell("hit")(_.hit()); i += 1 }
        Proc.unit
      }
      rt.awaitQuiescence()
      assertTrue(seen.size >= 1 && seen.size <= n / 8, s"$n calls ran in ${seen.size} processes")
      assertNull(probe.cog.spareProcess, "an idle COG keeps no spare process")
    } finally rt.close()
  }
}

object StressOneWayReuseTest {
  trait Recv extends Active {
    def plain(v: Int): Proc[Unit]
    def withDestiny(v: Int, checker: Checker): Proc[Int]
    def awaitsAnswer(v: Int, gate: Gate): Proc[Unit]
    def yields(v: Int): Proc[Unit]
    def boom(v: Int): Proc[Unit]
    def blocks(v: Int, gate: Gate): Proc[Unit]
    def totals(): Proc[Vector[Long]]
  }

  trait Checker extends Active {
    def check(f: Fut[Any], v: Int): Proc[Unit]
  }

  trait Gate extends Active {
    def answer(v: Int): Proc[Int]
  }

  trait Sender extends Active {
    def flood(to: Array[Recv], n: Int, seed: Int, checker: Checker, gate: Gate): Proc[Unit]
  }

  // Per kind: how many calls ran, and the sum of their values.
  final class RecvImpl extends ActiveObject with Recv {
    private val count = new Array[Long](6)
    private val sum = new Array[Long](6)
    private def note(k: Int, v: Int): Unit = { count(k) += 1; sum(k) += v }
    def plain(v: Int) = Proc.delay(note(0, v))
    def withDestiny(v: Int, checker: Checker) =
      Proc.destiny.flatMap { d => checker.tell("check")(_.check(d, v)); note(1, v); Proc.done(v) }
    def awaitsAnswer(v: Int, gate: Gate) = Proc.await(gate.send("answer")(_.answer(v))).map(x => note(2, x))
    def yields(v: Int) = Proc.suspend.flatMap(_ => Proc.delay(note(3, v)))
    def boom(v: Int) = Proc.delay { note(4, v); throw new IllegalStateException(s"boom $v") }
    def blocks(v: Int, gate: Gate) = gate.send("answer")(_.answer(v)).get.map(x => note(5, x))
    def totals() = Proc.delay((count ++ sum).toVector)
  }

  final class CheckerImpl(ok: AtomicLong, bad: AtomicLong) extends ActiveObject with Checker {
    def check(f: Fut[Any], v: Int) =
      Proc.await(f).map(x => if (x == v) ok.incrementAndGet() else bad.incrementAndGet())
  }

  final class GateImpl extends ActiveObject with Gate {
    def answer(v: Int) = Proc.done(v)
  }

  final class SenderImpl extends ActiveObject with Sender {
    def flood(to: Array[Recv], n: Int, seed: Int, checker: Checker, gate: Gate) = Proc.delay {
      var i = 0
      while (i < n) { send(to((i + seed) % to.length), i, checker, gate); i += 1 }
    }
  }

  private def send(r: Recv, i: Int, checker: Checker, gate: Gate): Unit =
    (i % 6) match {
      case 0 => r.tell("plain")(_.plain(i))
      case 1 => r.tell("withDestiny")(_.withDestiny(i, checker))
      case 2 => r.tell("awaitsAnswer")(_.awaitsAnswer(i, gate))
      case 3 => r.tell("yields")(_.yields(i))
      case 4 => r.tell("boom")(_.boom(i))
      case _ => r.tell("blocks")(_.blocks(i, gate))
    }
}
