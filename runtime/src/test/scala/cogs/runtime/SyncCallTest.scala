package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/** Point 4: synchronous calls, within a COG (inline, suspending as a whole) and across COGs. */
class SyncCallTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  trait Chain extends Active {
    def top(l: Latch): Proc[Int]
    def other(): Proc[Unit]
  }

  final class ChainImpl(log: Log) extends ActiveObject with Chain {
    // top -> middle -> bottom, bottom suspends on a future; the stack resumes in order.
    def top(l: Latch): Proc[Int] =
      Proc.delay(log.add("top>")) >> middle(l).map { v => log.add(s"<top $v"); v + 1 }
    private def middle(l: Latch): Proc[Int] =
      Proc.delay(log.add("middle>")) >> bottom(l).map { v => log.add(s"<middle $v"); v * 10 }
    private def bottom(l: Latch): Proc[Int] =
      Proc.delay(log.add("bottom>")) >> Proc.await(l.send("waitOpen")(_.waitOpen())).map { v => log.add(s"<bottom $v"); v }
    def other(): Proc[Unit] = Proc.delay(log.add("other"))
  }

  @Test def aChainThatSuspendsAtItsBottomResumesInOrder(): Unit = {
    val log = new Log
    val latch: Latch = rt.spawn(new LatchImpl)
    val c = rt.spawn(new ChainImpl(log))
    val f = c.send("top")(_.top(latch))
    c.send("other")(_.other()).join() // runs while the whole chain is suspended
    latch ! (_.open(4))
    assertEquals(41, f.join())
    assertEquals(List("top>", "middle>", "bottom>", "other", "<bottom 4", "<middle 4", "<top 40"), log.all)
  }

  @Test def syncCallToAnObjectOfTheSameCogRunsInline(): Unit = {
    val log = new Log
    trait Helper extends Active { def help(l: Latch): Proc[Int] }
    final class HelperImpl extends ActiveObject with Helper {
      def help(l: Latch) = Proc.delay(log.add("help>")) >> Proc.await(l.send("waitOpen")(_.waitOpen())).map { v => log.add("<help"); v }
    }
    trait Boss extends Active { def go(l: Latch): Proc[Int]; def ping(): Proc[Unit] }
    final class BossImpl extends ActiveObject with Boss {
      private lazy val helper: Helper = Cogs.spawnLocal(new HelperImpl)
      def go(l: Latch) = Proc.defer { val h = helper; log.add("go>"); Proc.sync(h, "help")(_.help(l)).map { v => log.add("<go"); v } }
      def ping() = Proc.delay(log.add("ping"))
    }
    val latch: Latch = rt.spawn(new LatchImpl)
    val b = rt.spawn(new BossImpl)
    val f = b.send("go")(_.go(latch))
    b.send("ping")(_.ping()).join()
    latch ! (_.open(9))
    assertEquals(9, f.join())
    assertEquals(List("go>", "help>", "ping", "<help", "<go"), log.all)
  }

  @Test def syncCallAcrossCogsIsSendThenGet(): Unit = {
    val log = new Log
    val cell: Cell = rt.spawn(new CellImpl(3))
    trait U extends Active { def use(c: Cell): Proc[Int]; def other(): Proc[Unit] }
    final class UImpl extends ActiveObject with U {
      def use(c: Cell) = Proc.sync(c, "awaitAtLeast")(_.awaitAtLeast(5)).map { v => log.add("used"); v }
      def other() = Proc.delay(log.add("other"))
    }
    val u = rt.spawn(new UImpl)
    val f = u.send("use")(_.use(cell))
    val o = u.send("other")(_.other()) // must wait: the caller's COG is blocked, as with get
    rt.awaitQuiescence()
    assertFalse(o.isDone, "a cross-COG synchronous call blocks the caller's COG")
    cell ! (_.set(5))
    assertEquals(5, f.join()); o.join()
    assertEquals(List("used", "other"), log.all)
  }

  @Test def synchronousRecursionAMillionDeepDoesNotOverflow(): Unit = {
    trait R extends Active { def depth(n: Int): Proc[Long] }
    final class RImpl extends ActiveObject with R {
      def depth(n: Int): Proc[Long] =
        if (n == 0) Proc.done(0L) else Proc.defer(depth(n - 1)).map(_ + 1) // not a tail call
    }
    val r = rt.spawn(new RImpl)
    assertEquals(1000000L, r.send("depth")(_.depth(1000000)).join())
  }

  @Test def deepRecursionThatSuspendsAtTheBottomResumes(): Unit = {
    val latch: Latch = rt.spawn(new LatchImpl)
    trait R extends Active { def down(n: Int): Proc[Long] }
    final class RImpl extends ActiveObject with R {
      def down(n: Int): Proc[Long] =
        if (n == 0) Proc.await(latch.send("waitOpen")(_.waitOpen())).map(_.toLong)
        else Proc.defer(down(n - 1)).map(_ + 1)
    }
    val f = rt.spawn(new RImpl).send("down")(_.down(200000))
    rt.awaitQuiescence(); assertFalse(f.isDone)
    latch ! (_.open(1))
    assertEquals(200001L, f.join())
  }
}
