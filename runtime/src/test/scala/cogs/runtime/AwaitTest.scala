package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/** Point 3: await on futures, conditions, conjunctions, disjunctions, and suspend. */
class AwaitTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  @Test def awaitFutureLetsTheCogRunOthersAndGivesTheValue(): Unit = {
    val latch: Latch = rt.spawn(new LatchImpl)
    val log = new Log
    trait W extends Active { def waitFor(l: Latch): Proc[Int]; def poke(): Proc[Unit] }
    final class WImpl extends ActiveObject with W {
      def waitFor(l: Latch) = Proc.await(l.send("waitOpen")(_.waitOpen())).map { v => log.add(s"resumed $v"); v }
      def poke() = Proc.delay(log.add("poke"))
    }
    val w = rt.spawn(new WImpl)
    val f = w.send("waitFor")(_.waitFor(latch))
    w.send("poke")(_.poke()).join() // runs while waitFor is suspended
    latch ! (_.open(5))
    assertEquals(5, f.join())
    assertEquals(List("poke", "resumed 5"), log.all)
  }

  @Test def conditionAwaitIsRecheckedOnlyWhenTheCogsStateChanged(): Unit = {
    val cell = rt.spawn(new CellImpl)
    val f = cell.send("awaitAtLeast")(_.awaitAtLeast(3))
    // Lots of unrelated work elsewhere must not re-evaluate the condition.
    val other = rt.spawn(new CellImpl)
    (1 to 100000).foreach(i => other ! (_.set(i)))
    rt.awaitQuiescence()
    val checksWhileIdle = cell.checks
    assertTrue(checksWhileIdle <= 2, s"condition evaluated $checksWhileIdle times with no state change")
    (1 to 3).foreach(i => cell ! (_.set(i)))
    assertEquals(3, f.join())
    assertTrue(cell.checks <= checksWhileIdle + 4, s"${cell.checks} evaluations for 3 state changes")
  }

  @Test def twoProcessesPingPongABooleanAMillionTimes(): Unit = {
    trait Flip extends Active { def ping(n: Int): Proc[Int]; def pong(n: Int): Proc[Int] }
    final class FlipImpl extends ActiveObject with Flip {
      private var flag = false
      var switches = 0
      def ping(n: Int): Proc[Int] = {
        var i = 0
        Proc.loopWhile(i < n)(Proc.awaitUntil(!flag).map { _ => flag = true; switches += 1; i += 1 }).map(_ => i)
      }
      def pong(n: Int): Proc[Int] = {
        var i = 0
        Proc.loopWhile(i < n)(Proc.awaitUntil(flag).map { _ => flag = false; switches += 1; i += 1 }).map(_ => i)
      }
    }
    val o = rt.spawn(new FlipImpl)
    val n = 1000000
    val a = o.send("ping")(_.ping(n))
    val b = o.send("pong")(_.pong(n))
    assertEquals(n, a.join())
    assertEquals(n, b.join())
    assertEquals(2 * n, o.switches)
  }

  @Test def conjunctionWaitsForBothParts(): Unit = {
    val latch: Latch = rt.spawn(new LatchImpl)
    val log = new Log
    trait C extends Active { def both(l: Latch): Proc[String]; def bump(): Proc[Unit] }
    final class CImpl extends ActiveObject with C {
      private var ready = false
      def both(l: Latch) = {
        val f = l.send("waitOpen")(_.waitOpen())
        Proc.await(f & Guard.cond(ready)).map(_ => { log.add("both"); "done" })
      }
      def bump() = Proc.delay { log.add("bump"); ready = true }
    }
    val c = rt.spawn(new CImpl)
    val r = c.send("both")(_.both(latch))
    latch.send("open")(_.open(1)).join()
    rt.awaitQuiescence()
    assertFalse(r.isDone, "the future alone must not enable f? & b")
    c ! (_.bump())
    assertEquals("done", r.join())
    assertEquals(List("bump", "both"), log.all)

    // And the other order: condition first, future last.
    val latch2: Latch = rt.spawn(new LatchImpl)
    val c2 = rt.spawn(new CImpl)
    val r2 = c2.send("both")(_.both(latch2))
    c2.send("bump")(_.bump()).join()
    rt.awaitQuiescence()
    assertFalse(r2.isDone, "the condition alone must not enable f? & b")
    latch2 ! (_.open(2))
    assertEquals("done", r2.join())
  }

  @Test def conjunctionOfTwoFutures(): Unit = {
    val l1: Latch = rt.spawn(new LatchImpl)
    val l2: Latch = rt.spawn(new LatchImpl)
    trait C extends Active { def sum(): Proc[Int] }
    final class CImpl extends ActiveObject with C {
      def sum() = {
        val f1 = l1.send("waitOpen")(_.waitOpen()); val f2 = l2.send("waitOpen")(_.waitOpen())
        Proc.await(f1 & f2).flatMap(_ => f1.get.flatMap(a => f2.get.map(_ + a)))
      }
    }
    val r = rt.spawn(new CImpl).send("sum")(_.sum())
    l2 ! (_.open(20)); rt.awaitQuiescence(); assertFalse(r.isDone)
    l1 ! (_.open(1))
    assertEquals(21, r.join())
  }

  @Test def disjunctionWakesOnEitherPart(): Unit = {
    val l1: Latch = rt.spawn(new LatchImpl)
    val l2: Latch = rt.spawn(new LatchImpl)
    trait C extends Active { def either(): Proc[Boolean] }
    final class CImpl extends ActiveObject with C {
      def either() = {
        val f1 = l1.send("waitOpen")(_.waitOpen()); val f2 = l2.send("waitOpen")(_.waitOpen())
        Proc.await(f1 | f2).map(_ => f2.isDone && !f1.isDone)
      }
    }
    val r = rt.spawn(new CImpl).send("either")(_.either())
    rt.awaitQuiescence(); assertFalse(r.isDone)
    l2 ! (_.open(2))
    assertTrue(r.join(), "woken by the second future while the first is still pending")
    l1.send("open")(_.open(1)).join() // a stale wake-up of the finished await is harmless
    rt.awaitQuiescence()
  }

  @Test def suspendLetsOthersRunAndThenContinues(): Unit = {
    val log = new Log
    trait S extends Active { def a(): Proc[Unit]; def b(): Proc[Unit] }
    final class SImpl extends ActiveObject with S {
      def a() = Proc.delay(log.add("a1")) >> Proc.suspend >> Proc.delay(log.add("a2"))
      def b() = Proc.delay(log.add("b"))
    }
    // One worker: the main block sends both calls before s's COG can start.
    val rt1 = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
    val s = rt1.spawn(new SImpl)
    try rt1.run(Proc.delay { s ! (_.a()); s ! (_.b()); () }) finally rt1.close()
    assertEquals(List("a1", "b", "a2"), log.all)
  }

  @Test def awaitOnAnEnabledGuardDoesNotSuspend(): Unit = {
    val log = new Log
    trait S extends Active { def a(): Proc[Unit]; def b(): Proc[Unit] }
    final class SImpl extends ActiveObject with S {
      def a() = Proc.delay(log.add("a1")) >> Proc.awaitUntil(true) >> Proc.await(Fut.successful(1)) >> Proc.delay(log.add("a2"))
      def b() = Proc.delay(log.add("b"))
    }
    // One worker: the main block sends both calls before s's COG can start.
    val rt1 = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
    val s = rt1.spawn(new SImpl)
    try rt1.run(Proc.delay { s ! (_.a()); s ! (_.b()); () }) finally rt1.close()
    assertEquals(List("a1", "a2", "b"), log.all)
  }
}

class AwaitAllTest {
  @org.junit.jupiter.api.Test def awaitAllGivesTheValuesInOrder(): Unit = {
    val rt = CogRuntime()
    try {
      val cells = (1 to 50).map(i => rt.spawn(new TestObjects.CellImpl(i)))
      val r = rt.run(Proc.awaitAll(cells.map(c => c.send("get")(_.get()))))
      org.junit.jupiter.api.Assertions.assertEquals((1 to 50).toList, r)
    } finally rt.close()
  }
}
