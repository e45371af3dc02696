package cogs.runtime

import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.locks.LockSupport

/**
 * A process that runs a long time without reaching a scheduling point (an `await`, a `get`, a
 * `suspend`, its end): one that loops, or blocks in a Java call. It holds its worker thread all
 * that time; with as many of them as workers nothing else runs, and nothing said so (issue 28).
 *
 * The watchdog is one daemon thread per runtime that samples, a few times per `stuckAfter`, what
 * each worker runs, and reports a slice that it saw running for at least `stuckAfter` once (see
 * [[StuckProcess]]). It also knows the runtime's workers, so that `close()` can name the processes
 * still running when it gives up waiting.
 *
 * == No cost on the hot path ==
 * Workers write nothing for the watchdog: it reads what the scheduler writes anyway, all plain
 * fields: the worker's current COG (`Worker.current`, once per batch), the COG's running process
 * (`Cog.running`, set before each slice and cleared after it) and the COG's slice counter
 * (`Cog.slices`, incremented before each slice). The thread is started with the first worker and
 * stops when the pool has no worker left (idle workers end after the pool's keep-alive), so a
 * runtime that is never closed leaves no thread behind once idle, and a runtime that never runs
 * anything starts none.
 *
 * == Why a report is right (the races it tolerates) ==
 * A report needs two samples at least `stuckAfter` apart that read, on the same worker, the same
 * COG, the same non-null running process and the same slice count. Each slice of a COG increments
 * its counter before it starts (nothing decrements it; wrapping around takes 2^32^ slices of one
 * COG between two samples), and a COG runs on one worker at a time, with `Worker.current` set
 * before its batch and restored after it. So equal readings mean no other slice of that COG
 * started in between: the same slice of the same process ran all that time. The three reads of a
 * sample are not atomic together: a COG's batch may end between them and the COG start again on
 * another worker; such a sample is attributed to the wrong worker, but the next sample of that
 * worker then reads another COG or another count, and the reading is dropped. The reads are plain
 * (a racy read of a reference or an `Int` is never torn): the watchdog parks between samples (a
 * call the JIT cannot move a field read across) and hardware caches are coherent, so a reading is
 * at most a store-buffer drain old; a stale reading could only delay a report by a sample, never
 * make one up, since a stale reading is a reading that was true. Time is measured from the first
 * sample that saw the slice, after the slice began: a report never overstates how long it ran.
 * The stack is taken after the second reading; if the worker has moved on by then (the counter
 * changed when read again), the report is dropped: the process reached a scheduling point after
 * all, and its stack would be someone else's.
 *
 * == Out of memory ==
 * A sample allocates nothing (the workers are an array, what was seen is kept in fields of each
 * worker): a model that fills the heap keeps this thread sampling while every allocation fails.
 * When it sampled with allocations, each sample met an OutOfMemoryError and went on; the JVM gives
 * only the first few such errors a stack trace (`-XX:PreallocatedOutOfMemoryErrorCount`, 4), so
 * the error of the process that filled the heap came without one, and absc's report lost its ABS
 * line. For the same reason the watchdog ends for good at the first VirtualMachineError it meets
 * (only a report allocates): the run is ending, or goes on (`cogs.on-fatal-error = continue`)
 * without a watchdog.
 *
 * == A heap that is full without an OutOfMemoryError ==
 * A collector can spend nearly all its time on a heap that stays full and still find room for
 * each allocation: no OutOfMemoryError, and the program crawls on for minutes (issue 28, item 6).
 * The JVM's own limit (`UseGCOverheadLimit`) exists for the Parallel collector only. So, about once
 * a second, the watchdog also reads the collectors' accumulated time and the heap's occupancy
 * (native reads that allocate nothing) into a ring covering at least 10 s ([[HeapJudge]]); when over a whole
 * window the collectors took at least `gcOverheadLimit` of the wall time and the heap was at least
 * 90% full at every reading, the heap is as good as exhausted, and the runtime is given
 * an OutOfMemoryError as a fatal error from a worker would be (`cogs.on-fatal-error` decides;
 * absc's out-of-memory report and exit follow). Both conditions over a whole window, so a
 * program that collects hard but frees memory, or one whose heap is full but quiet, is left alone.
 */
private[runtime] final class Watchdog(rt: CogRuntime, stuckAfterNanos: Long, threadName: String,
    gcOverheadLimit: Double = 0.0) {
  import Watchdog._

  // The runtime's live workers, as an array replaced (under this object's lock) when a worker
  // starts or ends, so that a sample reads it without allocating (see "Out of memory" above).
  @volatile private[this] var workers: Array[CogRuntime.Worker] = NoWorkers
  private[this] val running = new AtomicBoolean

  private[runtime] def workerCreated(w: CogRuntime.Worker): Unit = {
    synchronized { workers = java.util.Arrays.copyOf(workers, workers.length + 1); workers(workers.length - 1) = w }
    // After the write: a watchdog that stops re-reads `workers` after clearing `running` (the
    // Dekker pair, both sides volatile, so in one total order), so either it sees this worker or
    // this CAS succeeds.
    if (stuckAfterNanos > 0 && !running.get() && running.compareAndSet(false, true)) startThread()
  }

  private[runtime] def workerEnded(w: CogRuntime.Worker): Unit =
    try synchronized {
      val ws = workers
      val i = ws.indexOf(w)
      if (i >= 0) {
        val left = new Array[CogRuntime.Worker](ws.length - 1)
        System.arraycopy(ws, 0, left, 0, i)
        System.arraycopy(ws, i + 1, left, i, ws.length - 1 - i)
        workers = left
      }
    } catch {
      // Out of memory on a worker that ends: it stays listed, and a sample finds it idle (its
      // `current` is restored after each batch), so it is never reported.
      case _: VirtualMachineError =>
    }

  /** The processes running on the runtime's workers now (for close()'s timeout), by best effort. */
  private[runtime] def runningNow(): List[String] = {
    val b = List.newBuilder[String]
    workers.foreach { w =>
      val c = w.current
      val p = if (c eq null) null else c.running
      if (p ne null) b += s"${p.describe} (on ${w.getName})"
    }
    b.result()
  }

  @volatile private[this] var thread: Thread = _

  /** The runtime closed or halted: the watchdog ends now rather than at its next sample. */
  private[runtime] def stop(): Unit = { val t = thread; if (t ne null) LockSupport.unpark(t) }

  private def startThread(): Unit =
    try {
      val t = new Thread(() => loop(), threadName)
      t.setDaemon(true)
      thread = t
      t.start()
    } catch {
      // No thread (out of memory, or of native threads): no watchdog until the next worker tries.
      case _: VirtualMachineError => running.set(false)
    }

  // Only the watchdog thread touches this (and the Worker's seen* fields).
  private[this] val reported = java.util.Collections.newSetFromMap(new java.util.WeakHashMap[Process, java.lang.Boolean])

  private def loop(): Unit = {
    val period = math.max(MinPeriod, math.min(MaxPeriod, stuckAfterNanos / 4))
    while (true) {
      // Checked after each park: stop() unparks the thread once `closed` or `halting` is set.
      if (rt.isClosedOrHalting) { running.set(false); return }
      if (workers.length == 0) {
        running.set(false)
        if (workers.length == 0 || !running.compareAndSet(false, true)) return
      }
      try { sample(); if (gcOverheadLimit > 0) heapCheck() }
      catch {
        case _: RuntimeException => forget()
        // Out of memory (only a report allocates): the watchdog ends for good, `running` left set
        // so that no new worker restarts it. It must not go on meeting the error: each one thrown
        // uses up one of the few the JVM keeps with a stack, and the process that ran out of
        // memory needs one to be reported at its ABS line.
        case _: VirtualMachineError => return
      }
      LockSupport.parkNanos(this, period)
    }
  }

  private def forget(): Unit = { val ws = workers; var i = 0; while (i < ws.length) { ws(i).seenProcess = null; i += 1 } }

  // Allocates nothing unless it reports: a model that fills the heap keeps this thread sampling
  // while every allocation fails.
  private def sample(): Unit = {
    val now = System.nanoTime()
    val ws = workers
    var i = 0
    while (i < ws.length) {
      val w = ws(i)
      i += 1
      val c = w.current
      val p = if (c eq null) null else c.running
      if (p eq null) w.seenProcess = null
      else {
        val s = c.slices
        if ((w.seenProcess eq p) && (w.seenCog eq c) && w.seenSlices == s) {
          if (now - w.seenSince >= stuckAfterNanos && !reported.contains(p)) {
            val stack = w.getStackTrace
            // Still the same slice after the stack was taken: the stack is this process's.
            if ((w.current eq c) && (c.running eq p) && c.slices == s) {
              reported.add(p)
              rt.reportStuck(new StuckProcess(p.describe, p.target, p.label, w.getName, (now - w.seenSince) / 1000000L, stack))
            }
          }
        } else { w.seenCog = c; w.seenProcess = p; w.seenSlices = s; w.seenSince = now }
      }
    }
  }

  // The heap check (only the watchdog thread calls it).
  private[this] lazy val collectors = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans.toArray(
    new Array[java.lang.management.GarbageCollectorMXBean](0))
  private[this] val heap = new HeapJudge(gcOverheadLimit)

  private def heapCheck(): Unit = {
    val now = System.nanoTime()
    if (!heap.wantsReading(now)) return
    val r = Runtime.getRuntime
    val used = r.totalMemory - r.freeMemory
    val max = r.maxMemory
    // A reading under the bar would block every window it is in: the ring starts again instead,
    // and java.lang.management (which loads java.util.logging, some 100 ms of a cold start that
    // ColdStartTest keeps out) is not touched until the heap is first found that full.
    if (used < HeapJudge.FullShare * max) { heap.restart(); return }
    var gc = 0L
    val cs = collectors
    var i = 0
    while (i < cs.length) { val t = cs(i).getCollectionTime; if (t > 0) gc += t; i += 1 }
    if (heap.reading(now, gc, used, max)) {
      val running = runningNow()
      rt.heapExhausted(heap.verdict + (if (running.isEmpty) "" else running.mkString("; running: ", ", ", "")))
    }
  }
}

/**
 * The heap check's judgement (see Watchdog, "A heap that is full without an OutOfMemoryError"),
 * apart from the JVM so that it can be tested with readings made up: a ring of [[Slots]] readings
 * at least [[Step]] apart, so that a full ring spans at least 10 s. It allocates nothing but its
 * verdict, once.
 */
private[runtime] final class HeapJudge(limit: Double) {
  import HeapJudge._
  private[this] val readAt = new Array[Long](Slots)
  private[this] val gcMillis = new Array[Long](Slots)
  private[this] val full = new Array[Boolean](Slots)
  private[this] var readings = 0L
  private[this] var judged = false
  private[this] var share = 0L
  private[this] var spanMillis = 0L

  /** Forget the readings (one under the bar was seen): a verdict needs a whole new window. */
  def restart(): Unit = readings = 0

  /** Whether a reading at `now` is due: the last one is at least a step old, and no verdict yet. */
  def wantsReading(now: Long): Boolean =
    limit > 0 && !judged && (readings == 0 || now - readAt(((readings - 1) % Slots).toInt) >= Step)

  /**
   * One reading: the time, the collectors' accumulated milliseconds, the heap's used and maximum
   * bytes. True when it completes a window over which the heap was at least [[FullShare]] full at
   * every reading and the collectors took at least `limit` of the wall time: then (only once) the
   * heap is as good as exhausted, and [[verdict]] says why.
   */
  def reading(now: Long, gc: Long, used: Long, max: Long): Boolean = {
    val slot = (readings % Slots).toInt
    readAt(slot) = now; gcMillis(slot) = gc; full(slot) = used >= FullShare * max
    readings += 1
    if (readings < Slots || judged) return false
    val oldest = (readings % Slots).toInt // the slot the next reading overwrites
    val wall = (now - readAt(oldest)) / 1000000L
    var allFull = true
    var i = 0
    while (i < Slots) { allFull &&= full(i); i += 1 }
    if (allFull && wall > 0 && (gc - gcMillis(oldest)).toDouble >= limit * wall) {
      judged = true
      share = math.min(100L, (gc - gcMillis(oldest)) * 100 / wall)
      spanMillis = wall
    }
    judged
  }

  def verdict: String =
    s"the heap stayed over ${(FullShare * 100).toInt}% full and the garbage collector took $share% of the last " +
      s"${spanMillis / 1000} s (cogs.watchdog.gc-overhead-limit = $limit): the heap is as good as exhausted"
}

private[runtime] object HeapJudge {
  final val Step = 1000000000L // 1 s between readings
  final val Slots = 11
  /** At every reading of a window, the heap is at least this full. */
  final val FullShare = 0.9
}

private[runtime] object Watchdog {

  private final val MinPeriod = 1000000L      // 1 ms
  private final val MaxPeriod = 1000000000L   // 1 s

  private val NoWorkers = new Array[CogRuntime.Worker](0)
}

/**
 * A process that ran at least `cogs.watchdog.stuck-after` without reaching a scheduling point, as
 * the watchdog saw it: `describe` (`Obj#1.method`), its object and method, the worker it holds,
 * how long it had run when seen (a lower bound), and the worker's stack then (its innermost frame
 * first).
 */
private[cogs] final class StuckProcess(
    val describe: String,
    val target: Active,
    val method: String,
    val worker: String,
    val ranForMillis: Long,
    val stack: Array[StackTraceElement]
) {
  /** One paragraph: what runs, for how long, and the stack. */
  def message: String = {
    val b = new StringBuilder(
      s"cogs: $describe has run for ${ranForMillis} ms without reaching a scheduling point (await, get, suspend or its end); " +
        s"it holds the worker thread $worker, and no other process can run there until it does. Its stack:")
    stack.foreach(f => b ++= "\n\tat " ++= f.toString)
    b.result()
  }
}
