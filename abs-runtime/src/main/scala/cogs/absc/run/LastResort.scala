package cogs.absc.run

import java.io.{FileDescriptor, FileOutputStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.LockSupport

/**
 * The end of a run that ran out of memory, whatever the heap's state (issue 28, item 6). The usual
 * path reports and exits: the runtime halts after the fatal error (cogs.on-fatal-error), `run`
 * throws, and the program runner writes its one paragraph. Out of memory, every step of that path
 * allocates and may fail again, and a model that keeps millions of COGs alive (each blocked in a
 * `get` on the next) keeps the heap full after the runtime stopped: the halt's thread died, `run`
 * waited for ever, and the JVM, which needs a thread and memory to handle SIGTERM, ignored it.
 *
 * So this holds, from the start of a run, what the end needs: a thread, started and parked; two
 * reserves of memory, one freed when woken (for the halt and the JVM's handling of a signal), one
 * freed by the usual path just before it writes its report ([[forReport]]: freed at the wake, the
 * workers still finishing their batches ate it, and the report, made on a heap still full, threw
 * an OutOfMemoryError out of `main`); the report's fallback text, already encoded, for a report
 * that still runs out of memory ([[reportLost]]); and standard error, already open. The runtime wakes it (`CogRuntime.fatalErrorHook`, which allocates nothing)
 * at the first fatal error. It then gives the usual path [[Grace]] to finish; if the run has not
 * ended by then, it writes the report itself (the fallback if even that fails) and halts the JVM
 * with status 1: `Runtime.halt`, since the shutdown hooks and `System.exit` need what is missing.
 * A run that ends normally, or reports its failure in time, stops it.
 */
private[run] final class LastResort(describe: () => String, standalone: Boolean) {
  import LastResort._

  @volatile private[this] var reserve: Array[Byte] = new Array[Byte](ReserveBytes)
  @volatile private[this] var reportReserve: Array[Byte] = new Array[Byte](ReserveBytes)
  @volatile private[this] var fatal = false
  @volatile private[this] var finished = false
  private[this] val stderr = new FileOutputStream(FileDescriptor.err)
  private[this] val fallback = FallbackText.getBytes(UTF_8)

  private[this] val thread: Thread = {
    val t = new Thread(() => watch(), "absc-last-resort")
    t.setDaemon(true)
    t.start()
    t
  }

  /** A fatal error reached the runtime. Allocates nothing. */
  val wake: Runnable = () => { fatal = true; LockSupport.unpark(thread) }

  /** Whether a fatal error woke it. */
  def woken: Boolean = fatal

  /** The usual path is about to write its report after a fatal error: the memory kept for it is freed. Allocates nothing. */
  def forReport(): Unit = reportReserve = null

  /** The usual path's report ran out of memory: the fallback text instead. Allocates nothing. */
  def reportLost(): Unit = {
    reportReserve = null
    try { stderr.write(fallback); stderr.flush() }
    catch { case _: Throwable => }
  }

  /**
   * The run ended and its outcome is reported. After a fatal error, a standalone program still
   * gets halted if it has not exited within [[Grace]] (System.exit itself may not get what it
   * needs); inside absc (`absc run`, `absc test`) the driver goes on.
   */
  def done(): Unit = { finished = true; LockSupport.unpark(thread) }

  private def watch(): Unit = {
    while (!fatal && !finished) LockSupport.park(this)
    if (!fatal) return
    if (finished) {
      if (standalone) { LockSupport.parkNanos(this, Grace); Runtime.getRuntime.halt(ProgramRunner.ExitFailure) }
      return
    }
    reserve = null // for the usual path's report, and for the JVM's handling of a signal
    val bound = System.nanoTime() + Grace
    while (!finished && System.nanoTime() < bound) LockSupport.parkNanos(this, bound - System.nanoTime())
    if (finished) return
    reportReserve = null
    val text =
      try s"absc: ${describe()}; the run was stopped\n".getBytes(UTF_8)
      catch { case _: Throwable => fallback }
    try { stderr.write(text); stderr.flush() }
    catch { case _: Throwable => }
    Runtime.getRuntime.halt(ProgramRunner.ExitFailure)
  }
}

private[run] object LastResort {
  /** How long the usual path gets to report and end after a fatal error. */
  private final val Grace = TimeUnit.SECONDS.toNanos(15)

  /** Memory kept for the end, twice: the halt and the JVM's signal handling; the report. */
  private final val ReserveBytes = 2 << 20

  private final val FallbackText =
    "absc: the program ran out of memory and stopped; give the JVM more heap, e.g. JAVA_OPTS=-Xmx4g\n"
}
