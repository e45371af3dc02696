package cogs.runtime

import java.lang.management.ManagementFactory
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/**
 * Point 10: scale. These check that the work completes and that memory stays bounded; the
 * byte counts they print are indicative only (the benchmarks module measures them properly).
 */
class ScaleTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  private def usedHeap(): Long = {
    val mx = ManagementFactory.getMemoryMXBean
    var i = 0
    while (i < 3) { System.gc(); Thread.sleep(20); i += 1 }
    mx.getHeapMemoryUsage.getUsed
  }

  @Test def aMillionIdleObjects(): Unit = {
    val before = usedHeap()
    val cells = new Array[Cell](1000000)
    var i = 0
    while (i < cells.length) { cells(i) = rt.spawn(new CellImpl(i)); i += 1 }
    val perObject = (usedHeap() - before - 4L * cells.length) / cells.length
    println(s"ScaleTest: about $perObject bytes per idle object (object + its COG)")
    assertTrue(perObject < 400, s"$perObject bytes per idle object")
    // All still usable.
    assertEquals(999999, cells(999999).send("get")(_.get()).join())
  }

  @Test def tenMillionSuspendedContinuations(): Unit = {
    val n = 10000000
    val gates = Array.fill(4)(rt.spawn(new LatchImpl))
    val workers = Array.fill(1000)(rt.spawn(new CellImpl))
    val gateFuts = gates.map(g => g.send("waitOpen")(_.waitOpen()))
    val done = new java.util.concurrent.atomic.AtomicLong
    trait W extends Active { def waitGate(f: Fut[Int]): Proc[Unit] }
    final class WImpl extends ActiveObject with W {
      def waitGate(f: Fut[Int]) = Proc.await(f).map(_ => { done.incrementAndGet(); () })
    }
    val ws = Array.fill(1000)(rt.spawn(new WImpl): W)
    val before = usedHeap()
    var i = 0
    while (i < n) { val f = gateFuts(i & 3); ws(i % 1000) ! (_.waitGate(f)); i += 1 }
    rt.awaitQuiescence()
    val perContinuation = (usedHeap() - before) / n
    println(s"ScaleTest: about $perContinuation bytes per suspended continuation (process, future, waiter)")
    assertEquals(0L, done.get, "nothing may run before the gates open")
    assertTrue(perContinuation < 400, s"$perContinuation bytes per suspended continuation")
    gates.foreach(g => g ! (_.open(1)))
    rt.awaitQuiescence()
    assertEquals(n.toLong, done.get)
    assertTrue(workers.nonEmpty)
  }

  @Test def tenMillionAwaitCyclesInOneLoopRunInConstantStackAndHeap(): Unit = {
    trait L extends Active { def spin(n: Int): Proc[(Int, Int, Long, Long)] }
    final class LImpl extends ActiveObject with L {
      def spin(n: Int) = {
        var i = 0
        var depthAt1M, depthAtEnd = -1
        var heapAt1M, heapAtEnd = 0L
        Proc.loopWhile(i < n) {
          Proc.suspend >> Proc.awaitUntil(i >= 0) >> Proc.delay {
            i += 1
            if (i == 1000000) { depthAt1M = cog.running.depth; heapAt1M = usedHeap() }
            if (i == n - 1) { depthAtEnd = cog.running.depth; heapAtEnd = usedHeap() }
          }
        }.map(_ => (depthAt1M, depthAtEnd, heapAt1M, heapAtEnd))
      }
    }
    val (d1, d2, h1, h2) = rt.spawn(new LImpl).send("spin")(_.spin(10000000)).join()
    println(s"ScaleTest: continuation stack depth $d1 -> $d2, heap ${h1 >> 20} MiB -> ${h2 >> 20} MiB over 9M cycles")
    assertEquals(d1, d2, "the continuation stack does not grow with iterations")
    assertTrue(d1 < 8, s"stack depth $d1")
    assertTrue(h2 - h1 < (32L << 20), s"heap grew by ${(h2 - h1) >> 20} MiB over 9M iterations")
  }
}
