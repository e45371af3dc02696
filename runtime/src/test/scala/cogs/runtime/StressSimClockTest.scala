package cogs.runtime

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicLong
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.jdk.CollectionConverters._

/**
 * The simulated clock's idle decision and barrier under contention (see SimClock's comment):
 * many COGs on four workers sleep random (min, max) durations, call each other, block and wait
 * on conditions. If an advance could happen while a process is runnable, or before every process
 * woken by the previous advance had run, some process would see the time move inside one slice
 * or wake after its maximum; if a wake-up were lost, the run would end with a waiting process
 * (a deadlock report) or a count short.
 */
class StressSimClockTest {

  trait Sleeper extends Active { def run(rounds: Int, seed: Long, peer: Sleeper): Proc[Unit]; def ping(): Proc[SimTime] }

  final class SleeperImpl(violations: ConcurrentLinkedQueue[String], wakes: AtomicLong) extends ActiveObject with Sleeper {
    private var flag = false
    def ping() = Proc.delay { flag = !flag; Cogs.now }
    def run(rounds: Int, seed: Long, peer: Sleeper) = {
      val rnd = new scala.util.Random(seed)
      var i = 0
      Proc.loopWhile(i < rounds) {
        val min = SimTime(rnd.nextInt(4).toLong, 1 + rnd.nextInt(2).toLong)
        val max = min + SimTime(rnd.nextInt(3).toLong)
        val start = Cogs.now
        val kind = rnd.nextInt(4)
        val wait: Proc[Unit] = kind match {
          case 0 => Proc.duration(min, max)
          case 1 => Proc.awaitDuration(min, max)
          case 2 => Proc.await(Guard.duration(min, max) | Guard.cond(false))
          case _ => Proc.await(peer.send("ping")(_.ping())).flatMap(_ => Proc.awaitDuration(min, max))
        }
        wait.map { _ =>
          val woke = Cogs.now
          wakes.incrementAndGet()
          if (woke < start + min) violations.add(s"woke at $woke before ${start + min}")
          if (kind != 3 && woke > start + max) violations.add(s"woke at $woke after ${start + max}")
          // Time must not move while this process runs.
          var spin = 0
          while (spin < 200) { spin += 1; Thread.onSpinWait() }
          if (Cogs.now != woke) violations.add(s"time moved from $woke to ${Cogs.now} during a slice")
          i += 1
        }
      }
    }
  }

  @Test def manyCogsSleepingRandomDurationsNeverSeeTimeMoveOrWakeLate(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
    try {
      val violations = new ConcurrentLinkedQueue[String]
      val wakes = new AtomicLong
      val n = 200
      val rounds = 40
      val objs = Vector.fill(n)(rt.spawn(new SleeperImpl(violations, wakes)))
      rt.run(Proc.awaitAll(objs.indices.map(i => objs(i).send("run")(_.run(rounds, i.toLong, objs((i + 1) % n))))))
      assertEquals(List(), violations.asScala.toList.take(5))
      assertEquals(n.toLong * rounds, wakes.get())
      assertEquals(List(), rt.deadlockReport())
      assertTrue(rt.clockAdvances > 0 && rt.clockAdvances <= n.toLong * rounds, s"${rt.clockAdvances} advances")
    } finally rt.close()
  }

  /**
   * The batch wake-up (SimClock.wake): thousands of processes spread over many COGs, several per
   * COG, all wake at one instant and then at a second, later one; some wait with a range whose
   * maximum is later, so that the minimum and maximum heaps disagree. Each advance pushes one node
   * per COG and must activate every one of those COGs before the token goes back. Were a batch's
   * COG activated later (by its own thread, say), the clock could move to the second instant
   * while processes of the first had not run: they would wake seeing time 2 (late), or find the
   * count of the first instant short at the second. A wake-up lost would end the run with
   * processes waiting (the deadlock report) and the counts short; an early one would see a time
   * before its minimum.
   */
  @Test def thousandsAtOneInstantOverManyCogsWakeTogetherNeitherEarlyNorLost(): Unit = {
    val cogs = 150
    val perCog = 20
    val n = cogs * perCog
    (1 to 4).foreach { round =>
      val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
      try {
        val violations = new ConcurrentLinkedQueue[String]
        val first = new AtomicLong
        val second = new AtomicLong
        trait W extends Active { def go(k: Int): Proc[Unit] }
        final class WImpl extends ActiveObject with W {
          def go(k: Int) = {
            // A third wait up to a later maximum: the minimum decides, at the same instant.
            val max1 = if (k % 3 == 0) SimTime(5) else SimTime.One
            val start = Cogs.now
            Proc.awaitDuration(SimTime.One, max1).flatMap { _ =>
              val now = Cogs.now
              if (now != start + SimTime.One) violations.add(s"process $k woke at $now for its first instant, not ${start + SimTime.One}")
              first.incrementAndGet()
              Proc.awaitDuration(SimTime.One).map { _ =>
                val now2 = Cogs.now
                if (now2 != start + SimTime(2)) violations.add(s"process $k woke at $now2 for its second instant")
                val seen = first.get()
                if (seen != n) violations.add(s"process $k woke at the second instant with only $seen of $n woken at the first")
                second.incrementAndGet(): Unit
              }
            }
          }
        }
        val objs = Vector.fill(cogs)(rt.spawn(new WImpl))
        rt.run(Proc.awaitAll((0 until n).map(k => objs(k % cogs).send("go")(_.go(k)))))
        assertEquals(List(), violations.asScala.toList.take(5), s"round $round")
        assertEquals(n.toLong, first.get(), s"round $round")
        assertEquals(n.toLong, second.get(), s"round $round")
        assertEquals(List(), rt.deadlockReport())
        assertEquals(2L, rt.clockAdvances, s"round $round")
      } finally rt.close()
    }
  }

  @Test def repeatedRunsOfAFixedWorkloadMakeTheSameAdvances(): Unit = {
    // Exactly as many advances as distinct wake-up times: 50 objects sleeping 1..10 units, 20 times.
    def once(): (Long, SimTime) = {
      val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
      try {
        trait S extends Active { def go(d: Long): Proc[Unit] }
        final class SImpl extends ActiveObject with S { def go(d: Long) = Proc.repeat(20)(_ => Proc.awaitDuration(SimTime(d))) }
        val objs = (1 to 50).map(_ => rt.spawn(new SImpl))
        rt.run(Proc.awaitAll(objs.indices.map(i => objs(i).send("go")(_.go((i % 10 + 1).toLong)))))
        (rt.clockAdvances, rt.now)
      } finally rt.close()
    }
    val expected = (1 to 10).flatMap(d => (1 to 20).map(_ * d)).distinct.size.toLong
    (1 to 5).foreach { _ => assertEquals((expected, SimTime(200)), once()) }
  }

  /**
   * `extendClockLimit` against a running simulation (SimClock.extendLimit's argument): sleepers
   * step one time unit at a time under a limit that two threads raise by one unit at a time, so
   * that raises race with advances, with the token holder's idle decision and with each other. A
   * raise that was lost would leave the simulation stopped below the last limit: the bounded wait
   * below would then end with the time short.
   */
  @Test def raisingTheLimitWhileTheClockAdvancesIsNeverLost(): Unit = {
    val rounds = 400
    (1 to 3).foreach { _ =>
      val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
      try {
        trait S extends Active { def go(): Proc[Unit] }
        val wakes = new AtomicLong
        final class SImpl extends ActiveObject with S {
          def go() = Proc.repeat(rounds)(_ => Proc.awaitDuration(SimTime(1)).map(_ => wakes.incrementAndGet(): Unit))
        }
        rt.limitClock(SimTime.Zero)
        val objs = (1 to 8).map(_ => rt.spawn(new SImpl))
        rt.run(Proc.delay(objs.foreach(o => o ! (_.go())))) // returns at the limit 0
        val raisers = (1 to 2).map { k =>
          val t = new Thread(() => {
            val rnd = new scala.util.Random(k)
            (1 to rounds / 2).foreach { _ =>
              rt.extendClockLimit(SimTime(1))
              if (rnd.nextInt(4) == 0) Thread.onSpinWait()
            }
          })
          t.start()
          t
        }
        raisers.foreach(_.join())
        assertEquals(Some(SimTime(rounds.toLong)), rt.clockLimit)
        val deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60) // liveness bound only
        while (wakes.get() < 8L * rounds && System.nanoTime() < deadline) Thread.sleep(5)
        assertEquals(8L * rounds, wakes.get(), s"the simulation stopped at ${rt.now} under the limit $rounds")
        assertEquals(SimTime(rounds.toLong), rt.now)
      } finally rt.close()
    }
  }
}
