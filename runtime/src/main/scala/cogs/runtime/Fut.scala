package cogs.runtime

import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.LockSupport
import scala.util.{Failure, Success, Try}

/**
 * The future of an asynchronous call: resolved exactly once, with a value or with the exception
 * the call ended in.
 *
 * Inside a process, use [[Proc.await]] (suspends the process, the COG runs others) or
 * [[Fut.get]] (blocks the whole COG, as ABS `f.get` does, but never a pool thread). From plain
 * code outside every COG (a `main`), use [[join]], which blocks the calling thread and reports a
 * deadlock instead of hanging.
 *
 * A `Fut` is also a [[Guard]] (`await f?`), and the same object is Java's `cogs.javadsl.Fut`.
 */
abstract class Fut[A] private[runtime] () extends FutCore with Guard with cogs.javadsl.Fut[A] {

  // Two kinds (the constructor is the runtime's): a process, which is the future of its own call
  // (one object per call: see Process and docs/runtime-design.md), and a PlainFut (a promise's, a
  // timer's, a future resolved from the start).

  /** The runtime whose quiescence and deadlock reports this future belongs to (null: none). */
  private[runtime] def runtime: CogRuntime

  /** The process that will resolve this future while it is pending, or null. Only for reports. */
  private[runtime] def producer: Process

  /** The promise that resolves this future when code outside every COG does (see Promise), or null. */
  private[runtime] def promise: Promise[_] = null

  // The future's identity in traces, assigned on first mention when tracing is on.
  @volatile private[runtime] var traceRef: cogs.trace.FutRef = _

  /** True once resolved (with a value or a failure). */
  def isDone: Boolean = isResolved

  /** The outcome, if resolved. */
  def poll: Option[Try[A]] = outcome() match {
    case null => None
    case o    => Some(Fut.toTry[A](o))
  }

  /** ABS `f.get`: inside a process, blocks this process's COG until resolved (no pool thread is held). */
  def get: Proc[A] = new Proc.Get(this)

  /**
   * [[get]] at a place in the program (`f.abs:12:5`, a constant of code generated from ABS): a
   * deadlock report says where the COG blocks. Nothing else differs.
   */
  def getAt(at: String): Proc[A] = new Proc.GetAt(this, at)

  /** ABS `await f?` followed by reading the value: suspends the process, the COG may run others. */
  def await: Proc[A] = new Proc.AwaitFut(this)

  /**
   * Block the calling thread until resolved. Only from outside every COG: inside a process this
   * would hold a pool thread, so it throws. If the runtime becomes quiescent while this future is
   * still pending, nothing can ever resolve it: throws [[DeadlockException]] with a report.
   * A failed call is rethrown as [[CallFailedException]] naming the object and method.
   */
  def join(): A = joinImpl(Long.MaxValue)

  /**
   * [[join]] with a time limit; throws `java.util.concurrent.TimeoutException` (declared, so that
   * Java callers can catch it).
   */
  @throws[java.util.concurrent.TimeoutException]
  def join(timeout: Long, unit: TimeUnit): A = joinImpl(unit.toNanos(timeout))

  private def joinImpl(timeoutNanos: Long): A = {
    if (Cog.current() != null)
      throw new IllegalStateException(
        "join() would block a pool thread: inside a process use `get` (blocks the COG) or `await` (suspends)")
    if (!isDone) runtime.blockUntil(this, timeoutNanos)
    Fut.unwrap[A](outcome(), rethrowRaw = false)
  }

  /** Run `f` when resolved, on the resolving thread (or at once if already resolved). Keep it short. */
  def onComplete(f: Try[A] => Unit): Unit = {
    val w = new FutCore.Waiter { def onResolved(c: FutCore): Unit = Fut.callback(f, Fut.toTry[A](c.outcome())) }
    if (!register(w)) f(Fut.toTry[A](outcome()))
  }

  private[runtime] def resolve(value: A): Boolean = {
    // Most calls return Unit or a small number: they share an outcome instead of allocating one each.
    complete(Fut.valueOf(value))
  }

  private[runtime] def fail(e: Throwable, origin: String): Boolean = failWith(new Fut.Failed(e, origin))

  private[runtime] def failWith(failed: Fut.Failed): Boolean = complete(failed)

  // Guard: a future is the guard `f?`.
  private[runtime] def enabled: Boolean = isResolved
  private[runtime] def hasCondition: Boolean = false
  private[runtime] def hasFutures: Boolean = true
  private[runtime] def isSimple: Boolean = true
  private[runtime] def firstPending: Fut[_] = if (isResolved) null else this
  private[runtime] def pendingFutures(acc: List[Fut[_]]): List[Fut[_]] = if (isResolved) acc else this :: acc

  /** Who will resolve this future, for reports. */
  private[runtime] def describeFuture: String = {
    val p = producer
    if (isDone) "a resolved future"
    else if (p eq null) {
      val q = promise
      val c = if (runtime eq null) null else runtime.clockOrNull
      if (q ne null) q.description
      else (if (c eq null) None else c.describe(this)).getOrElse("a future with no producer")
    }
    else s"the future of ${p.describe}"
  }

  override def toString: String = outcome() match {
    case null      => s"Fut(pending${Option(producer).map(p => ", " + p.describe).getOrElse("")})"
    case v: Fut.Value => s"Fut(Success(${v.value}))"
    case f: Fut.Failed => s"Fut(Failure(${f.origin} failed: ${f.error}))" // printing is not reading: not observed
  }
}

object Fut {
  private[runtime] final class Value(val value: Any) extends FutCore.Outcome
  private[runtime] val UnitValue = new Value(())
  // The outcomes of the JVM's own cached boxes (Integer.valueOf of -128..127, the two Booleans):
  // shared, so that a call returning one allocates no outcome. Only the cached box itself maps to
  // its shared outcome (an `eq` test), so a value keeps its identity. Immutable, so safe to share
  // between threads like UnitValue.
  private[this] val SmallInts: Array[Value] = Array.tabulate(256)(i => new Value(Integer.valueOf(i - 128)))
  private[this] val TrueValue = new Value(java.lang.Boolean.TRUE)
  private[this] val FalseValue = new Value(java.lang.Boolean.FALSE)
  private[runtime] def valueOf(value: Any): Value = value.asInstanceOf[AnyRef] match {
    case u if u eq scala.runtime.BoxedUnit.UNIT => UnitValue
    case i: Integer =>
      val n = i.intValue
      if (n >= -128 && n < 128) { val c = SmallInts(n + 128); if (c.value.asInstanceOf[AnyRef] eq i) c else new Value(i) }
      else new Value(i)
    case b: java.lang.Boolean =>
      if (b eq java.lang.Boolean.TRUE) TrueValue else if (b eq java.lang.Boolean.FALSE) FalseValue else new Value(b)
    case null => new Value(null)
    case v =>
      val c = canonical
      if ((c ne null) && (v.getClass eq c.values.valueClass)) {
        val i = c.values.indexOf(v)
        if (i >= 0) c.outcomes(i) else new Value(v)
      } else new Value(v)
  }

  // A library's canonical values and their shared outcomes (internal.CanonicalValues), in one
  // object so that one volatile read sees both; the outcomes are immutable and made before the
  // holder is published, so any thread may share them, like UnitValue.
  private final class Canonical(val values: internal.CanonicalValues, val outcomes: Array[Value])
  @volatile private[this] var canonical: Canonical = null
  private[runtime] def registerCanonical(values: internal.CanonicalValues): Unit =
    canonical = new Canonical(values, Array.tabulate(values.count)(i => new Value(values.value(i))))
  /**
   * A failed call's outcome. `observed` is set by whoever reads the failure (a process's `await`
   * or `get`, `join`, `poll`, `onComplete`): the end-of-run report names the failed processes
   * whose failure nobody read (CogRuntime.unobservedFailures). Only reads of a failure write it,
   * so a call that succeeds pays nothing for the tracking, and a failure read many times writes
   * once. Volatile: the report may run on another thread than the reader (after quiescence, which
   * orders them anyway; outside quiescence a late read may miss a concurrent one, which only
   * reports a failure that was just being read).
   */
  private[runtime] final class Failed(val error: Throwable, val origin: String) extends FutCore.Outcome {
    @volatile private[this] var observed$ = false
    def observed: Boolean = observed$
    def observe(): Unit = if (!observed$) observed$ = true
  }

  private[runtime] def toTry[A](o: FutCore.Outcome): Try[A] = o match {
    case v: Value  => Success(v.value.asInstanceOf[A])
    case f: Failed => f.observe(); Failure(new CallFailedException(f.origin, f.error))
  }

  /** Value of a resolved future; a failure is thrown raw (inside processes) or wrapped (join). */
  private[runtime] def unwrap[A](o: FutCore.Outcome, rethrowRaw: Boolean): A = o match {
    case v: Value                => v.value.asInstanceOf[A]
    case f: Failed if rethrowRaw => f.observe(); throw f.error
    case f: Failed               => f.observe(); throw new CallFailedException(f.origin, f.error)
  }

  /**
   * Run an `onComplete` callback on the resolving thread, which may be a COG's in the middle of
   * ending a process: a non-fatal exception of the callback is logged, not allowed to fail that
   * process or the COG.
   */
  private def callback[A](f: Try[A] => Unit, t: Try[A]): Unit =
    try f(t)
    catch {
      case e: Throwable if !Cog.isFatal(e) =>
        CogRuntime.Log.log(System.Logger.Level.WARNING, "cogs: an onComplete callback threw; ignored", e)
    }

  /** A future already resolved with `value` (not tied to any runtime). */
  def successful[A](value: A): Fut[A] = {
    val f = new PlainFut[A](null)
    f.resolve(value)
    f
  }
}

/**
 * A future that is not the future of a call: a promise's, a timer's of the simulated clock, one
 * resolved from the start. Nothing produces it inside the runtime, so it has no producer.
 */
private[runtime] final class PlainFut[A](private[runtime] val runtime: CogRuntime) extends Fut[A] {
  private[runtime] def producer: Process = null
  // Set once, before the future is handed out; only read for reports.
  private[this] var promise$ : Promise[_] = _
  override private[runtime] def promise: Promise[_] = promise$
  private[runtime] def promise_=(p: Promise[_]): Unit = promise$ = p
}
