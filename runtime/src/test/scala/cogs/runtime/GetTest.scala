package cogs.runtime

import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import TestObjects._

/** Point 5: `get` blocks its COG, never a pool thread; `join` blocks threads outside the runtime. */
class GetTest {

  @Test def getBlocksOnlyItsCogWhileOtherCogsProgress(): Unit = {
    // One worker thread: if get held it, nothing else could run and the test would deadlock.
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
    try {
      val log = new Log
      val latch: Latch = rt.spawn(new LatchImpl)
      trait B extends Active { def blockOn(l: Latch): Proc[Int]; def later(): Proc[Unit] }
      final class BImpl extends ActiveObject with B {
        def blockOn(l: Latch) = l.send("waitOpen")(_.waitOpen()).get.map { v => log.add("got"); v }
        def later() = Proc.delay(log.add("later"))
      }
      val b = rt.spawn(new BImpl)
      val f = b.send("blockOn")(_.blockOn(latch))
      val g = b.send("later")(_.later())
      val others = (1 to 100).map(i => rt.spawn(new CellImpl(i))).map(c => c.send("get")(_.get()))
      assertEquals((1 to 100).sum, others.map(_.join()).sum, "other COGs progress while b is blocked")
      rt.awaitQuiescence()
      assertFalse(g.isDone, "no other process of the blocked COG runs")
      latch ! (_.open(3))
      assertEquals(3, f.join()); g.join()
      assertEquals(List("got", "later"), log.all)
    } finally rt.close()
  }

  @Test def getOfAResolvedFutureDoesNotBlock(): Unit = {
    val rt = CogRuntime()
    try assertEquals(7, rt.run(Fut.successful(7).get))
    finally rt.close()
  }

  @Test def joinInsideAProcessIsRefused(): Unit = {
    val rt = CogRuntime()
    try {
      val cell: Cell = rt.spawn(new CellImpl(1))
      val e = assertThrows(classOf[CallFailedException], () => rt.run(Proc.delay(cell.send("get")(_.get()).join())): Unit)
      assertTrue(e.getCause.isInstanceOf[IllegalStateException])
      assertTrue(e.getCause.getMessage.contains("pool thread"), e.getCause.getMessage)
    } finally rt.close()
  }

  @Test def joinReportsADeadlockInsteadOfHanging(): Unit = {
    val rt = CogRuntime()
    try {
      val latch: Latch = rt.spawn(new LatchImpl)
      val f = latch.send("waitOpen")(_.waitOpen())
      val e = assertThrows(classOf[DeadlockException], () => f.join(): Unit)
      assertTrue(e.getMessage.contains("waitOpen"), e.getMessage)
      latch ! (_.open(1)) // an outside thread can still resolve it afterwards
      assertEquals(1, f.join(10, TimeUnit.SECONDS))
    } finally rt.close()
  }
}
