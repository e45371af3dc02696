package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Issue 28, item 6: the watchdog's judgement of a heap that is full while the collector takes
 * most of the time, without an OutOfMemoryError (see Watchdog), on readings made up here: only a
 * whole window of at least 10 s with the heap over 90% full at every reading and the collector
 * over the limit gives a verdict, and only once.
 */
class HeapJudgeTest {
  private final val Second = 1000000000L
  private final val Max = 1000L

  /**
   * Readings one second apart from t = 0: (collector milliseconds so far, used bytes); each verdict,
   * up to the first true one (after it, no reading is due).
   */
  private def feed(j: HeapJudge, readings: Seq[(Long, Long)]): List[Boolean] = {
    val b = List.newBuilder[Boolean]
    var judged = false
    for (((gc, used), i) <- readings.zipWithIndex if !judged) {
      val now = i * Second
      assertTrue(j.wantsReading(now), s"a reading is due at ${i} s")
      judged = j.reading(now, gc, used, Max)
      b += judged
    }
    b.result()
  }

  private def busy(n: Int, perSecond: Long, used: Long = 950L): Seq[(Long, Long)] = (0 until n).map(i => (i * perSecond, used))

  @Test def aFullHeapAndABusyCollectorForAWholeWindowIsExhausted(): Unit = {
    val j = new HeapJudge(0.9)
    val verdicts = feed(j, busy(11, 950))
    assertEquals(List.fill(10)(false) :+ true, verdicts, "not before the window is whole (11 readings, 10 s)")
    assertEquals("the heap stayed over 90% full and the garbage collector took 95% of the last 10 s " +
      "(cogs.watchdog.gc-overhead-limit = 0.9): the heap is as good as exhausted", j.verdict)
    assertFalse(j.wantsReading(20 * Second), "one verdict only")
  }

  @Test def aBusyCollectorThatFreesMemoryIsLeftAlone(): Unit = {
    val j = new HeapJudge(0.9)
    val readings = busy(30, 990).zipWithIndex.map { case ((gc, used), i) => (gc, if (i % 7 == 3) 850L else used) }
    assertFalse(feed(j, readings).contains(true), "a reading under 90% full in every window")
  }

  @Test def aFullHeapWithAQuietCollectorIsLeftAlone(): Unit = {
    val j = new HeapJudge(0.9)
    assertFalse(feed(j, busy(30, 500, used = 999)).contains(true), "50% of the time collecting is under the limit")
  }

  @Test def theWindowSlides(): Unit = {
    val j = new HeapJudge(0.9)
    // Quiet for 15 s, then thrashing: the verdict comes once the thrashing fills a window.
    val quiet = (0 until 15).map(i => (i * 100L, 950L))
    val thrash = (1 to 12).map(i => (1400L + i * 980L, 950L))
    val verdicts = feed(j, quiet ++ thrash)
    assertEquals(24, verdicts.indexOf(true), verdicts.toString) // 9,800 ms of the 10 s from 14 s to 24 s
  }

  @Test def aRestartNeedsAWholeNewWindow(): Unit = {
    val j = new HeapJudge(0.9)
    assertEquals(List.fill(10)(false), feed(j, busy(10, 950)))
    j.restart() // what the watchdog does on a reading under 90%, without reading the collectors
    val later = (0 until 11).map(i => (9500L + i * 950L, 950L))
    val verdicts = later.zipWithIndex.map { case ((gc, used), i) => j.reading((20 + i) * Second, gc, used, Max) }
    assertEquals(List.fill(10)(false) :+ true, verdicts.toList)
  }

  @Test def readingsComeAtMostOnceASecondAndNotAtAllWhenOff(): Unit = {
    val j = new HeapJudge(0.9)
    assertTrue(j.wantsReading(0))
    j.reading(0, 0, 950, Max)
    assertFalse(j.wantsReading(Second / 2))
    assertTrue(j.wantsReading(Second))
    assertFalse(new HeapJudge(0).wantsReading(0), "0 turns the check off")
  }
}
