package cogs.bench.monitor

import com.sun.management.GarbageCollectionNotificationInfo
import java.lang.management.ManagementFactory
import java.util.concurrent.atomic.AtomicLong
import javax.management.openmbean.CompositeData
import javax.management.{Notification, NotificationEmitter, NotificationListener}
import scala.jdk.CollectionConverters._

/**
 * What one run cost the JVM: wall time, process CPU time, the largest heap in use at any sample
 * (garbage included: what a profiler's heap graph shows, as in MESA's VisualVM figures), and the
 * largest heap left after a collection during the run (the live set: what the run actually held).
 */
final case class Cost(wallNanos: Long, cpuNanos: Long, peakUsedBytes: Long, peakLiveBytes: Long, gcCount: Long, gcMillis: Long) {
  /** CPU time over the wall time of all processors: 1.0 means every core was busy throughout. */
  def cpuShare: Double = cpuNanos.toDouble / wallNanos / Runtime.getRuntime.availableProcessors
}

/**
 * Measures one run. The heap is sampled by a daemon thread every `sampleMillis` (1 ms of CPU per
 * second at most), and the heap after each collection comes from the collectors' notifications,
 * so nothing forces a collection during the run (that would change what is measured).
 */
final class Meter(sampleMillis: Long = 10) {
  private[this] val os = ManagementFactory.getOperatingSystemMXBean.asInstanceOf[com.sun.management.OperatingSystemMXBean]
  private[this] val memory = ManagementFactory.getMemoryMXBean
  private[this] val gcs = ManagementFactory.getGarbageCollectorMXBeans.asScala.toList
  private[this] val peakUsed = new AtomicLong
  private[this] val peakLive = new AtomicLong
  @volatile private[this] var running = false

  private[this] val listener: NotificationListener = (n: Notification, _: AnyRef) =>
    if (running && n.getType == GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION) {
      val info = GarbageCollectionNotificationInfo.from(n.getUserData.asInstanceOf[CompositeData])
      val after = info.getGcInfo.getMemoryUsageAfterGc.asScala.iterator
        .filter { case (pool, _) => heapPools(pool) }
        .map(_._2.getUsed).sum
      peakLive.accumulateAndGet(after, math.max)
    }
  private[this] val heapPools: Set[String] = ManagementFactory.getMemoryPoolMXBeans.asScala
    .filter(_.getType == java.lang.management.MemoryType.HEAP).map(_.getName).toSet
  gcs.foreach {
    case e: NotificationEmitter => e.addNotificationListener(listener, null, null)
    case _                      => ()
  }

  private def gcTotals: (Long, Long) = (gcs.map(_.getCollectionCount).sum, gcs.map(_.getCollectionTime).sum)

  /** Run `body` and measure it; `body`'s result comes back with the cost. */
  def measure[A](body: => A): (A, Cost) = {
    peakUsed.set(memory.getHeapMemoryUsage.getUsed)
    peakLive.set(0L)
    running = true
    val sampler = new Thread(() => {
      while (running) {
        peakUsed.accumulateAndGet(memory.getHeapMemoryUsage.getUsed, math.max)
        try Thread.sleep(sampleMillis) catch { case _: InterruptedException => () }
      }
    }, "heap-sampler")
    sampler.setDaemon(true)
    val (gc0, gct0) = gcTotals
    val cpu0 = os.getProcessCpuTime
    val t0 = System.nanoTime()
    sampler.start()
    val a =
      try body
      finally {
        running = false
        sampler.interrupt()
      }
    val wall = System.nanoTime() - t0
    val cpu = os.getProcessCpuTime - cpu0
    sampler.join()
    peakUsed.accumulateAndGet(memory.getHeapMemoryUsage.getUsed, math.max)
    val (gc1, gct1) = gcTotals
    (a, Cost(wall, cpu, peakUsed.get, peakLive.get, gc1 - gc0, gct1 - gct0))
  }
}

object Meter {
  /** Between runs: a clean heap, so that one run's garbage is not collected on the next one's time. */
  def settle(): Unit = {
    var i = 0
    while (i < 3) { System.gc(); i += 1 }
    Thread.sleep(100)
  }
}

/** Median, minimum and maximum of a few repetitions. */
final case class Spread(median: Double, min: Double, max: Double) {
  /** (max - min) / median: how much the repetitions disagree. */
  def range: Double = if (median == 0) 0 else (max - min) / median
}

object Spread {
  def of(xs: Seq[Double]): Spread = {
    require(xs.nonEmpty, "no values")
    val s = xs.sorted
    val n = s.size
    Spread(if (n % 2 == 1) s(n / 2) else (s(n / 2 - 1) + s(n / 2)) / 2, s.head, s.last)
  }

  /** The p-th percentile (0..100) of sorted values, nearest rank. */
  def percentile(sorted: Array[Long], p: Double): Long =
    if (sorted.isEmpty) 0L
    else sorted(math.min(sorted.length - 1, math.max(0, math.ceil(p / 100.0 * sorted.length).toInt - 1)))
}
