package cogs.runtime

import java.util.concurrent.ConcurrentHashMap
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
 */
private[runtime] final class Watchdog(rt: CogRuntime, stuckAfterNanos: Long, threadName: String) {
  import Watchdog._

  // The runtime's live workers: added by the pool's thread factory, removed when they terminate.
  private[this] val workers = ConcurrentHashMap.newKeySet[CogRuntime.Worker]()
  private[this] val running = new AtomicBoolean

  private[runtime] def workerCreated(w: CogRuntime.Worker): Unit = {
    workers.add(w)
    // After the add: a watchdog that stops re-checks `workers` after clearing `running` (the
    // Dekker pair, both sides on atomics), so either it sees this worker or this CAS succeeds.
    if (stuckAfterNanos > 0 && !running.get() && running.compareAndSet(false, true)) startThread()
  }

  private[runtime] def workerEnded(w: CogRuntime.Worker): Unit = { workers.remove(w); () }

  /** The processes running on the runtime's workers now (for close()'s timeout), by best effort. */
  private[runtime] def runningNow(): List[String] = {
    val b = List.newBuilder[String]
    workers.forEach { w =>
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

  // Only the watchdog thread touches these.
  private[this] val seen = new java.util.HashMap[CogRuntime.Worker, Seen]
  private[this] val reported = java.util.Collections.newSetFromMap(new java.util.WeakHashMap[Process, java.lang.Boolean])

  private def loop(): Unit = {
    val period = math.max(MinPeriod, math.min(MaxPeriod, stuckAfterNanos / 4))
    while (true) {
      // Checked after each park: stop() unparks the thread once `closed` or `halting` is set.
      if (rt.isClosedOrHalting) { running.set(false); return }
      if (workers.isEmpty) {
        running.set(false)
        if (workers.isEmpty || !running.compareAndSet(false, true)) { seen.clear(); return }
      }
      try sample()
      catch { case _: VirtualMachineError | _: RuntimeException => seen.clear() } // the watchdog must not die of what it watches
      LockSupport.parkNanos(this, period)
    }
  }

  private def sample(): Unit = {
    val now = System.nanoTime()
    val it = workers.iterator()
    while (it.hasNext) {
      val w = it.next()
      val c = w.current
      val p = if (c eq null) null else c.running
      if (p eq null) seen.remove(w)
      else {
        val s = c.slices
        val prev = seen.get(w)
        if ((prev ne null) && (prev.cog eq c) && (prev.process eq p) && prev.slices == s) {
          if (now - prev.since >= stuckAfterNanos && !reported.contains(p)) {
            val stack = w.getStackTrace
            // Still the same slice after the stack was taken: the stack is this process's.
            if ((w.current eq c) && (c.running eq p) && c.slices == s) {
              reported.add(p)
              rt.reportStuck(new StuckProcess(p.describe, p.target, p.label, w.getName, (now - prev.since) / 1000000L, stack))
            }
          }
        } else seen.put(w, new Seen(c, p, s, now))
      }
    }
    // Workers that ended.
    if (seen.size > workers.size) seen.keySet.removeIf(w => !workers.contains(w))
  }
}

private[runtime] object Watchdog {
  private final val MinPeriod = 1000000L      // 1 ms
  private final val MaxPeriod = 1000000000L   // 1 s

  private final class Seen(val cog: Cog, val process: Process, val slices: Int, val since: Long)
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
