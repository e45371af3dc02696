package cogs.runtime

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.{AtomicInteger, AtomicLongArray}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}
import scala.jdk.CollectionConverters._

/**
 * The batch wake-up of a clock advance (SimClock.reach and SimClock.wake), through both ways the
 * time moves: the runtime's own clock (`advance`, by the token holder) and a cluster clock's
 * `advanceTo` (through a ClusterClockLink, here driven by a thread of the test in the cluster's
 * place). Thousands of processes over hundreds of COGs, an uneven number per COG (1 to 23), wake
 * together at each of several instants, by the three kinds of time wait that meet at one instant:
 * the process kept by the clock itself (`Proc.awaitDuration`), with a range whose maximum is later
 * (the minimum and maximum heaps disagree), and a time future (`Guard.duration`). Each COG also
 * has a process waiting for a condition that only the COG's last wake-up makes true.
 *
 * What it catches: a process woken at instant `s` finds every process of instant `s - 1` done (else
 * an advance happened before a COG of the previous batch had run: the barrier of SimClock's
 * token); it sees exactly the time `s` (early or late otherwise); every count is exact at the end
 * and nothing is left waiting (a lost wake-up would leave a process in the deadlock report and a
 * count short); the clock made exactly one advance per instant. Bounded: every wait has a
 * deadline, the driver of the cluster path gives up after one, and JUnit's timeout ends the rest.
 */
class StressClockBatchTest {

  private val cogs = 300
  private val steps = 8

  private def perCog(c: Int): Int = 1 + (c * 7) % 23

  private val n = (0 until cogs).map(perCog).sum

  trait W extends Active {
    def go(k: Int): Proc[Unit]
    def lastOfCog(): Proc[Unit]
  }

  final class WImpl(size: Int, done: AtomicLongArray, violations: ConcurrentLinkedQueue[String], arrived: AtomicInteger)
      extends ActiveObject with W {
    // Processes of this COG that finished their last step: the condition waiter's guard reads it.
    private var finished = 0

    def go(k: Int) = {
      arrived.incrementAndGet()
      var s = 0
      Proc.loopWhile(s < steps) {
        val wait: Proc[Unit] = k % 4 match {
          case 0 | 1 => Proc.awaitDuration(SimTime.One)
          case 2     => Proc.awaitDuration(SimTime.One, SimTime(3))
          case _     => Proc.await(Guard.duration(SimTime.One, SimTime.One))
        }
        wait.map { _ =>
          s += 1
          val now = Cogs.now
          if (now != SimTime(s.toLong)) violations.add(s"process $k woke at $now for instant $s")
          if (s > 1 && done.get(s - 2) != n) violations.add(s"process $k woke at instant $s with ${done.get(s - 2)} of $n done at ${s - 1}")
          done.incrementAndGet(s - 1)
          if (s == steps) finished += 1
        }
      }
    }

    def lastOfCog() = Proc.await(Guard.cond(finished == size)).map { _ =>
      if (Cogs.now != SimTime(steps.toLong)) violations.add(s"a condition waiter woke at ${Cogs.now}")
      done.incrementAndGet(steps)
    }
  }

  private final class Run(rt: CogRuntime) {
    val done = new AtomicLongArray(steps + 1)
    val violations = new ConcurrentLinkedQueue[String]
    val arrived = new AtomicInteger
    val objs = (0 until cogs).map(c => rt.spawn(new WImpl(perCog(c), done, violations, arrived)))

    def main: Proc[Unit] = {
      var k = 0
      val futs = objs.indices.flatMap { c =>
        val o = objs(c)
        o.send("lastOfCog")(_.lastOfCog()) +: (0 until perCog(c)).map { _ => val kk = k; k += 1; o.send("go")(_.go(kk)) }
      }
      Proc.awaitAll(futs).map(_ => ())
    }

    def check(what: String): Unit = {
      assertEquals(List(), violations.asScala.toList.take(5), what)
      (0 until steps).foreach(s => assertEquals(n.toLong, done.get(s), s"$what: wake-ups at instant ${s + 1}"))
      assertEquals(cogs.toLong, done.get(steps), s"$what: condition waiters")
      assertEquals(List(), rt.deadlockReport(), what)
      assertEquals(steps.toLong, rt.clockAdvances, what)
      assertEquals(SimTime(steps.toLong), rt.now, what)
    }
  }

  @Test @Timeout(300)
  def unevenBatchesAtEveryInstantThroughTheLocalClock(): Unit = {
    assertTrue(n > 3000, s"$n processes")
    (1 to 3).foreach { round =>
      val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
      try {
        val r = new Run(rt)
        rt.run(r.main)
        r.check(s"round $round")
      } finally rt.close()
    }
  }

  @Test @Timeout(300)
  def unevenBatchesAtEveryInstantThroughAClusterClock(): Unit = {
    (1 to 3).foreach { round =>
      val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
      try {
        val link = rt.linkClusterClock(() => ())
        val r = new Run(rt)
        val driverFailure = new ConcurrentLinkedQueue[String]
        val woken = new java.util.ArrayList[Integer]
        // In the cluster's place: whenever the node is passive, advance it to its next target.
        // No message comes from outside here, so passive stays passive until this advances.
        val driver = new Thread(() => {
          val deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120) // liveness bound only
          var over = false
          while (!over) {
            if (System.nanoTime() > deadline) { driverFailure.add(s"no end by the deadline at ${link.now}"); over = true }
            else if (r.arrived.get() == n && link.isPassive) {
              val next = link.nextTarget
              if (next eq null) over = true
              else woken.add(Integer.valueOf(link.advanceTo(next)))
            } else Thread.onSpinWait()
          }
          link.end()
        })
        driver.start()
        rt.run(r.main)
        driver.join()
        assertEquals(List(), driverFailure.asScala.toList, s"round $round")
        // Each instant wakes every process's wait (the condition waiters wait for no time).
        assertEquals(List.fill(steps)(n), woken.asScala.toList.map(_.intValue), s"round $round")
        r.check(s"round $round, cluster")
      } finally rt.close()
    }
  }
}
