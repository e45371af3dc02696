package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

/**
 * `Proc.repeat` keeps a counter per run of the loop (twentieth session: one Bind per iteration
 * instead of a Defer, a Bind and two closures). The loop value is still a description: these
 * check that it runs its indices in order across scheduling points, and that running the same
 * value twice, one after the other or in two processes at once, counts each run from zero.
 */
class RepeatTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  @Test def indicesInOrderAcrossSuspends(): Unit = {
    val seen = scala.collection.mutable.ArrayBuffer.empty[Int]
    rt.run(Proc.repeat(5)(i => Proc.suspend.map(_ => { seen += i; () })))
    assertEquals(List(0, 1, 2, 3, 4), seen.toList)
  }

  @Test def noIterationsForZeroOrLess(): Unit = {
    var ran = 0
    rt.run(Proc.repeat(0)(_ => Proc.delay { ran += 1 }))
    rt.run(Proc.repeat(-3)(_ => Proc.delay { ran += 1 }))
    assertEquals(0, ran)
  }

  @Test def theSameLoopValueRunsTwiceFromZero(): Unit = {
    val seen = scala.collection.mutable.ArrayBuffer.empty[Int]
    val loop = Proc.repeat(3)(i => Proc.suspend.map(_ => { seen += i; () }))
    rt.run(loop.flatMap(_ => loop))
    assertEquals(List(0, 1, 2, 0, 1, 2), seen.toList)
  }

  @Test def theSameLoopValueInTwoProcessesAtOnce(): Unit = {
    val sums = new java.util.concurrent.atomic.AtomicLong
    val counts = new java.util.concurrent.atomic.AtomicInteger
    val loop = Proc.repeat(1000)(i => Proc.suspend.map(_ => { sums.addAndGet(i.toLong); counts.incrementAndGet(); () }))
    trait L extends Active { def go(): Proc[Unit] }
    final class LImpl extends ActiveObject with L { def go() = loop }
    val a: L = rt.spawn(new LImpl)
    val b: L = rt.spawn(new LImpl)
    val fa = a.send("go")(_.go())
    val fb = b.send("go")(_.go())
    fa.join(); fb.join()
    assertEquals(2000, counts.get)
    assertEquals(2L * (999L * 1000L / 2), sums.get)
  }

  @Test def aFailingIterationEndsTheLoopWithItsFailure(): Unit = {
    var last = -1
    val e = assertThrows(classOf[CallFailedException], () =>
      rt.run(Proc.repeat(10)(i => if (i == 3) throw new IllegalStateException("boom at 3") else Proc.delay { last = i })))
    assertEquals("boom at 3", e.getCause.getMessage)
    assertEquals(2, last)
  }
}
