package cogs.absc.lib

import java.io.{FileDescriptor, FileOutputStream, OutputStream}
import java.nio.charset.StandardCharsets

/**
 * Standard output of an ABS program (`print`, `println`): UTF-8, buffered, shared by all COGs.
 *
 *  - Text goes into a 64 KiB buffer under one lock (each `print`/`println` call is atomic: lines
 *    of different processes never interleave), and reaches file descriptor 1 when the buffer
 *    fills, at [[flush]], and at JVM exit (a shutdown hook).
 *  - If standard output is a terminal, every call is flushed (line buffering, as C's stdio
 *    does), so interactive runs show output at once. `-Dcogs.absc.out.autoflush=true|false`
 *    overrides the guess.
 *  - Otherwise (a pipe, a file) text waits in the buffer at most `cogs.absc.out.flush-interval`
 *    milliseconds (100 by default; 0: until the buffer fills): a daemon thread, started by the
 *    first text that waits, flushes it. Nothing is paid per line: a reader at the other end of a
 *    pipe sees a line within the interval, and a program that prints a million lines still writes
 *    64 KiB at a time. The program runner also flushes whenever the main block reaches a
 *    scheduling point (`await`, `get`, `suspend`), so what it printed before waiting is out
 *    before the wait.
 *  - Ordering with standard error: anything that writes to stderr (an uncaught exception, a
 *    deadlock report) must call [[flush]] first, or use [[err]], which does; the generated main
 *    calls [[flush]] when the program ends and before `System.exit`. Do not mix `System.out`
 *    with `Out` in one program: they have separate buffers.
 *
 * Tests can [[capture]] the output.
 *
 * Each run has an [[Output]] of its own, in its program context (`cogs.absc.run.RunContext`): the
 * calls here go to the output of the run whose process makes them, and code outside every run
 * (a library user, a test) writes to [[stdout]], the one output on file descriptor 1 (what a
 * standalone program and `absc run` use). `absc test` gives each model an output of its own, so
 * that a model it gave up on (a timeout) can write nothing into the next one's.
 */
object Out {
  /** File descriptor 1: process-wide by nature. Flushed at JVM exit (a shutdown hook). */
  lazy val stdout: Output = {
    val o = new Output(new FileOutputStream(FileDescriptor.out),
      Option(System.getProperty("cogs.absc.out.autoflush")) match {
        case Some(v) => v.trim.equalsIgnoreCase("true")
        case None    => System.console() != null
      },
      try math.max(0L, Option(System.getProperty("cogs.absc.out.flush-interval")).fold(100L)(_.trim.toLong)) * 1000000L
      catch { case _: NumberFormatException => 100L * 1000000L })
    Runtime.getRuntime.addShutdownHook(new Thread(() => o.flush(), "cogs-absc-out-flush"))
    o
  }

  /** The output of the run whose process calls (see `RunContext.current`); [[stdout]] outside every run. */
  def current: Output = cogs.absc.run.RunContext.current.output

  /** Whether [[stdout]] flushes every call (a terminal, or `-Dcogs.absc.out.autoflush`). */
  def autoFlush: Boolean = stdout.autoFlush
  def autoFlush_=(on: Boolean): Unit = stdout.autoFlush = on

  /** ABS `print(s)`. */
  def print(s: String): Unit = current.print(s)

  /** ABS `println(s)`. */
  def println(s: String): Unit = current.println(s)

  /** How many times `print` or `println` was called so far on the current output (for `absc explore`). */
  private[absc] def printCount: Long = current.printCount

  /** Write what is buffered to the current output's stream. */
  def flush(): Unit = current.flush()

  /** Flush standard output, then write `s` and a newline to standard error. */
  def err(s: String): Unit = {
    flush()
    System.err.println(s)
    System.err.flush()
  }

  /** Run `body` with the current output collected into the returned string (for tests). */
  def capture(body: => Any): String = current.capture(body)
}

/**
 * One output of ABS programs: text goes into a 64 KiB buffer under one lock (each `print`/`println`
 * call is atomic), and reaches `sink` when the buffer fills, at [[flush]], at every call if
 * `autoFlush`, and otherwise within `intervalNanos` (a daemon thread, started by the first text that
 * waits, flushes it; 0: no thread, text waits until the buffer fills or a flush). After [[close]]
 * the output takes nothing more: text written then is dropped (a model `absc test` gave up on).
 */
final class Output(initialSink: OutputStream, @volatile var autoFlush: Boolean, intervalNanos: Long) {
  private final val Size = 1 << 16

  private val lock = new Object
  private var buf = new Array[Byte](Size)
  private var pos = 0
  // Calls of print and println so far: `absc explore` tells from it whether a step printed.
  private var prints = 0L
  private var sink: OutputStream = initialSink
  // Read and written under `lock`.
  private var closed = false

  // Whether the flusher thread runs; read and written under `lock`.
  private var flusherStarted = false

  /**
   * Under `lock`, after text went into the buffer without being flushed: start the flusher the
   * first time. One plain test per call afterwards.
   */
  private def waiting(): Unit =
    if (!flusherStarted && intervalNanos > 0) {
      flusherStarted = true
      val t = new Thread(() => flushEvery(), "cogs-absc-out-flusher")
      t.setDaemon(true)
      t.start()
    }

  // A lost race between a print and this flush only delays that text by one interval.
  private def flushEvery(): Unit =
    while (!lock.synchronized(closed)) {
      java.util.concurrent.locks.LockSupport.parkNanos(intervalNanos)
      try flush()
      catch { case _: VirtualMachineError => () } // out of memory: the next round tries again
    }

  /** ABS `print(s)`. */
  def print(s: String): Unit = lock.synchronized {
    if (!closed) {
      prints += 1
      write(s)
      if (autoFlush) flushLocked() else waiting()
    }
  }

  /** ABS `println(s)`. */
  def println(s: String): Unit = lock.synchronized {
    if (!closed) {
      prints += 1
      write(s)
      put('\n'.toByte)
      if (autoFlush) flushLocked() else waiting()
    }
  }

  /** How many times `print` or `println` was called so far. */
  private[absc] def printCount: Long = lock.synchronized(prints)

  /** Write what is buffered to the sink. */
  def flush(): Unit = lock.synchronized(flushLocked())

  /**
   * Flush, then take nothing more: later text is dropped, the buffer is freed, and the flusher
   * thread (if any) ends within an interval. The sink is not closed (it is the caller's).
   */
  def close(): Unit = lock.synchronized {
    flushLocked()
    closed = true
    buf = null
  }

  /** Run `body` with this output collected into the returned string. */
  def capture(body: => Any): String = {
    val bytes = new java.io.ByteArrayOutputStream
    val previous = lock.synchronized {
      flushLocked()
      val p = sink
      sink = bytes
      p
    }
    try body
    finally lock.synchronized {
      flushLocked()
      sink = previous
    }
    bytes.toString(StandardCharsets.UTF_8)
  }

  private def flushLocked(): Unit =
    if (pos > 0) {
      try {
        sink.write(buf, 0, pos)
        sink.flush()
      } catch { case _: java.io.IOException => () } // a closed pipe must not kill the program
      pos = 0
    }

  private def put(b: Byte): Unit = {
    if (pos == Size) flushLocked()
    buf(pos) = b
    pos += 1
  }

  private def write(s: String): Unit = {
    val n = s.length
    var i = 0
    // ASCII fast path: copy chars as bytes; anything else is encoded by the JDK.
    while (i < n && s.charAt(i) < 0x80) {
      if (pos == Size) flushLocked()
      buf(pos) = s.charAt(i).toByte
      pos += 1
      i += 1
    }
    if (i < n) {
      val bytes = s.substring(i).getBytes(StandardCharsets.UTF_8)
      if (bytes.length > Size - pos) {
        flushLocked()
        if (bytes.length > Size) {
          try sink.write(bytes) catch { case _: java.io.IOException => () }
          return
        }
      }
      System.arraycopy(bytes, 0, buf, pos, bytes.length)
      pos += bytes.length
    }
  }
}
