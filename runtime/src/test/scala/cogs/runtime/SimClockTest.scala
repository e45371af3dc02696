package cogs.runtime

import java.util.concurrent.ConcurrentLinkedQueue
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import scala.jdk.CollectionConverters._

/**
 * Timed ABS on the runtime: the simulated clock, durations, deadlines, limits, resources.
 * Every scenario starts its calls from a main block (`rt.run`): a call sent from a thread outside
 * the runtime is an external event, which the clock does not wait for.
 */
class SimClockTest {
  private val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
  @AfterEach def close(): Unit = rt.close()

  private def t(n: Long): SimTime = SimTime(n)

  trait Timer extends Active {
    def sleep(name: String, min: SimTime, max: SimTime): Proc[SimTime]
    def block(name: String, d: SimTime): Proc[SimTime]
    def stamp(name: String): Proc[SimTime]
  }
  final class TimerImpl(log: ConcurrentLinkedQueue[String]) extends ActiveObject with Timer {
    def sleep(name: String, min: SimTime, max: SimTime) =
      Proc.awaitDuration(min, max).map { _ => log.add(s"$name@${Cogs.now}"); Cogs.now }
    def block(name: String, d: SimTime) =
      Proc.duration(d).map { _ => log.add(s"$name@${Cogs.now}"); Cogs.now }
    def stamp(name: String) = Proc.delay { log.add(s"$name@${Cogs.now}"); Cogs.now }
  }

  @Test def timeAdvancesOnlyWhenNothingCanRunAndWakesInOrder(): Unit = {
    val log = new ConcurrentLinkedQueue[String]
    val a = rt.spawn(new TimerImpl(log))
    val b = rt.spawn(new TimerImpl(log))
    val fs = rt.run(Proc.delay(List(a.send("sleep")(_.sleep("three", t(3), t(3))), b.send("sleep")(_.sleep("one", t(1), t(1))),
      a.send("sleep")(_.sleep("two", t(2), t(2))))))
    assertEquals(List(t(3), t(1), t(2)), fs.map(_.join()))
    assertEquals(List("one@1", "two@2", "three@3"), log.asScala.toList)
    assertEquals(t(3), rt.now)
    assertEquals(3L, rt.clockAdvances)
  }

  @Test def theClockJumpsToTheEarliestMaximumAndWakesEveryMinimumReached(): Unit = {
    val log = new ConcurrentLinkedQueue[String]
    val a = rt.spawn(new TimerImpl(log))
    val (wide, exact, late) = rt.run(Proc.delay((a.send("sleep")(_.sleep("wide", t(1), t(10))),
      a.send("sleep")(_.sleep("exact", t(5), t(5))), a.send("sleep")(_.sleep("late", t(7), t(8))))))
    assertEquals(t(5), wide.join())
    assertEquals(t(5), exact.join())
    assertEquals(t(8), late.join())
    assertEquals(2L, rt.clockAdvances) // 0 -> 5 (wide and exact), 5 -> 8
  }

  @Test def rationalDurationsAreExact(): Unit = {
    val log = new ConcurrentLinkedQueue[String]
    val a = rt.spawn(new TimerImpl(log))
    trait Thirds extends Active { def go(): Proc[SimTime] }
    final class ThirdsImpl extends ActiveObject with Thirds {
      def go() = Proc.repeat(3)(_ => Proc.awaitDuration(SimTime(1, 3))).map(_ => Cogs.now)
    }
    assertEquals(SimTime.One, rt.spawn(new ThirdsImpl).send("go")(_.go()).join())
    assertEquals("1/3", SimTime(2, 6).toString)
    assertEquals(SimTime(1), a.send("stamp")(_.stamp("x")).join())
  }

  /**
   * The clock keeps times as longs over a common denominator (SimClock, "Times as longs"): a new
   * denominator rescales the times already waiting, and a time that no longer fits in a long
   * sends the clock to the exact path for good. Both must keep every wake-up exact and in order,
   * with waiters left over from before the change.
   */
  @Test def newDenominatorsAndTimesBeyondALongKeepEveryWakeUpExact(): Unit = {
    val log = new ConcurrentLinkedQueue[String]
    val a = rt.spawn(new TimerImpl(log))
    val huge = SimTime.of(java.math.BigInteger.TWO.pow(70), java.math.BigInteger.ONE)
    val fs = rt.run(Proc.delay(List(
      a.send("sleep")(_.sleep("whole", t(2), t(2))),
      a.send("sleep")(_.sleep("third", SimTime(1, 3), SimTime(1, 3))),   // den 1 -> 3 with "whole" waiting
      a.send("sleep")(_.sleep("sevenths", SimTime(9, 7), SimTime(10, 7))), // den 3 -> 21
      a.send("sleep")(_.sleep("range", SimTime(1, 2), SimTime(5, 2))),     // den 21 -> 42
      a.send("sleep")(_.sleep("far", SimTime(Long.MaxValue / 2), SimTime(Long.MaxValue / 2))) // * 42 overflows: exact
    )))
    // The clock jumps to the earliest maximum, 10/7, and wakes "range" there too (minimum 1/2 reached).
    assertEquals(List(t(2), SimTime(1, 3), SimTime(10, 7), SimTime(10, 7), SimTime(Long.MaxValue / 2)), fs.map(_.join()))
    // One advance per distinct wake-up time: 1/3, 10/7, 2, far.
    assertEquals(4L, rt.clockAdvances)
    // Beyond a long, and then a third again on the exact path.
    val b = rt.spawn(new TimerImpl(log))
    val start = rt.now
    val g = rt.run(Proc.delay(List(b.send("sleep")(_.sleep("huge", huge, huge)), b.send("sleep")(_.sleep("third2", SimTime(1, 3), SimTime(1, 3))))))
    assertEquals(List(start + huge, start + SimTime(1, 3)), g.map(_.join()))
    val order = log.asScala.toList
    assertEquals("third@1/3", order.head)
    assertEquals(Set("sevenths@10/7", "range@10/7"), order.slice(1, 3).toSet)
    assertEquals(List("whole@2", s"far@${Long.MaxValue / 2}"), order.slice(3, 5))
    assertEquals(6L, rt.clockAdvances)
  }

  /**
   * Many processes waiting the same times wait as one group (SimClock, "Groups of equal times"),
   * and an advance that wakes more than a hundred of them wakes them in chunks on the pool's
   * workers. A new denominator must rescale every member of a waiting group, the exact path must
   * take every member over, a report must find a member that is not its group's head, and no
   * member may be lost or woken at another time.
   */
  @Test def groupsOfEqualTimesKeepEveryMemberThroughRescalingAndTheExactPath(): Unit = {
    val log = new ConcurrentLinkedQueue[String]
    val timers = Vector.fill(30)(rt.spawn(new TimerImpl(log)))
    def sleepers(ts: Vector[Timer], prefix: String, n: Int, min: SimTime, max: SimTime): List[Fut[SimTime]] =
      List.tabulate(n)(i => ts(i % ts.size).send("sleep")(_.sleep(s"$prefix$i", min, max)))
    val huge = SimTime.of(java.math.BigInteger.TWO.pow(70), java.math.BigInteger.ONE)
    trait Stepper extends Active { def go(): Proc[SimTime] }
    // At 1 every group below is waiting (the clock moved, so nothing could run): the third then
    // rescales them (den 1 -> 3), and at 4/3 the huge time sends them to the exact path.
    final class StepperImpl extends ActiveObject with Stepper {
      def go() = Proc.awaitDuration(t(1)).flatMap(_ => Proc.awaitDuration(SimTime(1, 3)))
        .flatMap(_ => Proc.awaitDuration(huge)).map(_ => Cogs.now)
    }
    val stepper = rt.spawn(new StepperImpl)
    val (twos, wide, stepped) = rt.run(Proc.delay((sleepers(timers, "two", 150, t(2), t(2)),
      sleepers(timers, "wide", 150, t(3), t(5)), stepper.send("go")(_.go()))))
    assertEquals(List.fill(150)(t(2)), twos.map(_.join()))
    assertEquals(List.fill(150)(t(5)), wide.map(_.join()), "the earliest maximum after 2 is 5, past the minimum 3")
    assertEquals(SimTime(4, 3) + huge, stepped.join())
    assertEquals(5L, rt.clockAdvances) // 1, 4/3, 2, 5, 4/3 + huge
    assertEquals(300, log.size)

    // A report finds every member of a group on the long path, not only its head.
    val other = CogRuntime.withOverrides("cogs.parallelism = 4")
    try {
      val ts = Vector.fill(30)(other.spawn(new TimerImpl(log)))
      other.limitClock(t(5))
      val stuck = other.run(Proc.delay(sleepers(ts, "late", 40, t(10), t(10))))
      assertTrue(other.clockLimitReached)
      assertTrue(stuck.forall(!_.isDone))
      val report = other.deadlockReport()
      assertEquals(40, report.count(_.contains("the clock to reach 10 ")), report.mkString("\n"))
    } finally other.close()
  }

  @Test def durationBlocksTheCogButAwaitDurationDoesNot(): Unit = {
    val log = new ConcurrentLinkedQueue[String]
    val a = rt.spawn(new TimerImpl(log))
    val (blocked, other) = rt.run(Proc.delay((a.send("block")(_.block("blocker", t(5))), a.send("stamp")(_.stamp("other")))))
    assertEquals(t(5), other.join(), "a process of a COG blocked in duration runs after it")
    assertEquals(t(5), blocked.join())

    val b = rt.spawn(new TimerImpl(log))
    val (sleeping, meanwhile) = rt.run(Proc.delay((b.send("sleep")(_.sleep("sleeper", t(5), t(5))), b.send("stamp")(_.stamp("meanwhile")))))
    assertEquals(t(5), meanwhile.join(), "await duration frees the COG at once")
    assertEquals(t(10), sleeping.join())
  }

  @Test def conditionsOverTheTimeAreCheckedAgainAfterAnAdvance(): Unit = {
    trait Alarm extends Active { def at(when: SimTime): Proc[SimTime] }
    final class AlarmImpl extends ActiveObject with Alarm {
      def at(when: SimTime) = Proc.awaitUntil(Cogs.now >= when).map(_ => Cogs.now)
    }
    val log = new ConcurrentLinkedQueue[String]
    val alarm = rt.spawn(new AlarmImpl)
    val ticker = rt.spawn(new TimerImpl(log))
    val f = rt.run(Proc.delay {
      List(2, 4, 6).foreach(n => ticker ! (_.sleep("tick", t(n.toLong), t(n.toLong))))
      alarm.send("at")(_.at(t(4)))
    })
    assertEquals(t(4), f.join())
  }

  @Test def aProcessWaitingForTimeIsNotDeadlockedButFuturesAloneAre(): Unit = {
    val log = new ConcurrentLinkedQueue[String]
    val a = rt.spawn(new TimerImpl(log))
    val never: Fut[Int] = new PlainFut[Int](rt)
    trait Stuck extends Active { def waitFor(f: Fut[Int]): Proc[Int] }
    final class StuckImpl extends ActiveObject with Stuck { def waitFor(f: Fut[Int]) = Proc.await(f) }
    val s = rt.spawn(new StuckImpl)
    val (stuck, timed) = rt.run(Proc.delay((s.send("waitFor")(_.waitFor(never)), a.send("sleep")(_.sleep("late", t(100), t(100))))))
    assertEquals(t(100), timed.join(), "time passes although another process waits forever")
    val e = assertThrows(classOf[DeadlockException], () => stuck.join())
    assertTrue(e.getMessage.contains("waitFor"), e.getMessage)
    assertFalse(rt.clockLimitReached)
  }

  @Test def theClockLimitStopsTheSimulation(): Unit = {
    rt.limitClock(t(10))
    trait Loop extends Active { def go(): Proc[Unit] }
    final class LoopImpl(seen: ConcurrentLinkedQueue[SimTime]) extends ActiveObject with Loop {
      def go() = Proc.loopWhile(true)(Proc.awaitDuration(t(3)).map(_ => seen.add(Cogs.now): Unit))
    }
    val seen = new ConcurrentLinkedQueue[SimTime]
    val loop = rt.spawn(new LoopImpl(seen))
    rt.run(Proc.delay(loop ! (_.go())))
    assertTrue(rt.clockLimitReached)
    assertEquals(List(t(3), t(6), t(9)), seen.asScala.toList)
    assertEquals(t(9), rt.now)
    val report = rt.deadlockReport().mkString("\n")
    assertTrue(report.contains("the clock to reach 12"), report)
  }

  @Test def deadlinesAreRelativeToTheCallAndShrinkWithTime(): Unit = {
    trait D extends Active { def left(): Proc[Option[SimTime]] }
    final class DImpl extends ActiveObject with D {
      def left() = Proc.awaitDuration(t(3)).map(_ => Cogs.deadline)
    }
    val d = rt.spawn(new DImpl)
    assertEquals(Some(t(7)), Cogs.sendWithDeadline(d, "left", Nil, t(10), (x: D) => x.left()).join())
    assertEquals(None, d.send("left")(_.left()).join())
  }

  @Test def costIsPaidOverTimeUnitsFromTheComponentsSpeed(): Unit = {
    val dc = rt.deploymentComponent("server", Map(Resource.Speed -> t(2)))
    trait Work extends Active { def work(c: Long): Proc[SimTime]; def child(): Proc[Option[DeploymentComponent]] }
    final class WorkImpl extends ActiveObject with Work {
      def work(c: Long) = Cogs.cost(t(c)).map(_ => Cogs.now)
      def child() = Proc.delay(Cogs.spawn(new WorkImpl)).flatMap(w => w.send("where")(_ => Proc.delay(Cogs.thisDC)).await)
    }
    val w = rt.spawnOn(dc)(new WorkImpl)
    assertEquals(t(2), rt.run(w.send("work")(_.work(5)).await), "5 units at speed 2: 2 + 2 + 1, done during unit 2")
    assertEquals(t(2), w.send("work")(_.work(1)).join(), "the rest of unit 2's capacity")
    assertEquals(Some(dc), w.send("child")(_.child()).join(), "a created object lands on its creator's component")
    val free = rt.spawn(new WorkImpl)
    assertEquals(t(2), free.send("work")(_.work(1000)).join(), "no component: no cost")
    // Units 0 and 1 were full.
    val h = dc.history(Resource.Speed)
    assertEquals(List((Some(t(2)), t(2)), (Some(t(2)), t(2))), h.toList)
    assertEquals(t(100), dc.load(Resource.Speed, 2))
    assertEquals(None, dc.total(Resource.Bandwidth))
    // The Model API ends a shut-down component's chart where it stopped: the first shutdown's time.
    assertEquals(None, dc.shutdownTime)
    dc.shutdown()
    assertEquals(Some(t(2)), dc.shutdownTime)
    assertTrue(dc.isShutDown)
    assertThrows(classOf[Exception], () => w.send("work")(_.work(1)).join(): Unit, "a cost on a shut-down component fails")
    dc.shutdown()
    assertEquals(Some(t(2)), dc.shutdownTime, "a second shutdown keeps the first time")
  }
}
