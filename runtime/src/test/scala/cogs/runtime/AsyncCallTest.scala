package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/** Point 1 and 6: interfaces, asynchronous calls returning futures at once, new and new local. */
class AsyncCallTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  @Test def asynchronousCallReturnsItsFutureBeforeTheCallRuns(): Unit = {
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = latch.send("waitOpen")(_.waitOpen())
    assertFalse(f.isDone, "the call cannot have finished: it waits for open")
    latch.send("open")(_.open(42))
    assertEquals(42, f.join())
  }

  @Test def callsToOneObjectRunInArrivalOrderWhenNoneSuspends(): Unit = {
    val log = new Log
    trait Rec extends Active { def rec(i: Int): Proc[Unit] }
    final class RecImpl extends ActiveObject with Rec { def rec(i: Int) = Proc.delay(log.add(i.toString)) }
    val r: Rec = rt.spawn(new RecImpl)
    (1 to 1000).foreach(i => r ! (_.rec(i)))
    rt.awaitQuiescence()
    assertEquals((1 to 1000).map(_.toString).toList, log.all)
  }

  @Test def newCreatesACogAndNewLocalJoinsTheCreatorsCog(): Unit = {
    final class Child extends ActiveObject
    trait Parent extends Active { def make(): Proc[(Child, Child)] }
    final class ParentImpl extends ActiveObject with Parent {
      def make(): Proc[(Child, Child)] = Proc.delay((Cogs.spawn(new Child), Cogs.spawnLocal(new Child)))
    }
    val p = rt.spawn(new ParentImpl)
    val (remote, local) = p.send("make")(_.make()).join()
    assertNotSame(p.cog, remote.cog)
    assertSame(p.cog, local.cog)
    assertSame(rt, remote.cog.runtime)
  }

  @Test def objectsOfOneCogNeverRunAtTheSameTime(): Unit = {
    val ex = new Exclusion
    trait Worker extends Active { def work(n: Int): Proc[Int] }
    final class WorkerImpl extends ActiveObject with Worker {
      def work(n: Int): Proc[Int] = Proc.delay {
        ex.enter(); var s = 0; var i = 0; while (i < n) { s += i; i += 1 }; ex.exit(); s
      }
    }
    trait Maker extends Active { def make(): Proc[(Worker, Worker)] }
    final class MakerImpl extends ActiveObject with Maker {
      def make() = Proc.delay((Cogs.spawnLocal(new WorkerImpl): Worker, Cogs.spawnLocal(new WorkerImpl): Worker))
    }
    val m = rt.spawn(new MakerImpl)
    val (a, b) = m.send("make")(_.make()).join()
    val futures = (1 to 2000).flatMap(_ => List(a ! (_.work(1000)), b ! (_.work(1000))))
    futures.foreach(_.join())
    assertEquals(0, ex.violations.get, "two processes of one COG overlapped")
  }

  @Test def activeObjectsMustBeSpawned(): Unit = {
    val e = assertThrows(classOf[IllegalStateException], () => new CellImpl(): Unit)
    assertTrue(e.getMessage.contains("spawn"), e.getMessage)
  }

  @Test def runMethodStartsAfterCreation(): Unit = {
    trait Auto extends Active { def started(): Proc[Boolean] }
    final class AutoImpl extends ActiveObject with Auto {
      private var ran = false
      override def run(): Proc[Unit] = Proc.delay { ran = true }
      def started(): Proc[Boolean] = Proc.delay(ran)
    }
    val a = rt.spawn(new AutoImpl)
    assertTrue(a.send("started")(_.started()).join(), "run is the object's first process")
  }

  @Test def sendingToNullFailsClearly(): Unit = {
    val c: Cell = null
    val e = assertThrows(classOf[NullPointerException], () => c.send("get")(_.get()): Unit)
    assertTrue(e.getMessage.contains("get"))
  }
}

class DestinyTest {
  @Test def destinyIsTheFutureOfTheRunningProcess(): Unit = {
    val rt = CogRuntime()
    try {
      trait D extends Active { def me(): Proc[Fut[Any]] }
      final class DImpl extends ActiveObject with D { def me() = Proc.destiny }
      val d = rt.spawn(new DImpl)
      val f = d.send("me")(_.me())
      assertSame(f, f.join())
      assertThrows(classOf[IllegalStateException], () => Proc.destiny.asInstanceOf[Proc.Delay[Any]].thunk(): Unit)
    } finally rt.close()
  }
}

class SelfTest {
  @Test def selfIsTheObjectWhoseProcessRuns(): Unit = {
    val rt = CogRuntime()
    try {
      final class S extends ActiveObject { def me(): Proc[Active] = Proc.defer(Proc.done(Cogs.self)) }
      val a = rt.spawn(new S)
      val b = rt.spawn(new S)
      assertSame(a, a.send("me")(_.me()).join())
      assertSame(b, b.send("me")(_.me()).join())
      // In a main block, the object that runs it (named main, as in monitor configurations).
      assertEquals("main", rt.run(Proc.defer(Proc.done(String.valueOf(Cogs.self)))))
      assertThrows(classOf[IllegalStateException], () => Cogs.self: Unit)
    } finally rt.close()
  }
}
