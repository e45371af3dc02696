package cogs.runtime

import cogs.trace.{FutRef, ObjRef, TraceEvent}
import cogs.trace.TraceEvent._

/**
 * Where the runtime emits trace events. Every caller tests first that tracing is on (the
 * runtime's `tracing`, an object's `traceRef` or a process's `traceMode`), so with tracing off
 * none of this runs and the instrumentation costs a field read and a branch per point.
 *
 * An event belongs to the object it is emitted by, and takes that object's next sequence number.
 * Only the object's COG emits its events, one slice at a time, so the numbers have no gaps and
 * follow the object's order; the `outside` pseudo-object can be used by several threads at once
 * and is emitted under its own lock so that its numbers, too, follow the order of delivery.
 */
private[cogs] object TraceHooks {
  final val Traced: Byte = 1
  final val MethodNotObserved: Byte = 2

  /** The traced object on whose behalf this thread acts in `rt`: its running process's object, or `outside`. */
  def currentRef(rt: CogRuntime): ObjRef = {
    val c = Cog.current()
    if ((c eq null) || (c.runtime ne rt)) rt.outside
    else {
      val p = c.running
      if (p eq null) rt.outside else p.target.traceRef
    }
  }

  @inline private def emit(ref: ObjRef)(make: Long => TraceEvent): Unit =
    if (ref.cls eq ObjRef.OutsideClass) ref.synchronized(ref.sink.event(make(ref.nextSeq())))
    else ref.sink.event(make(ref.nextSeq()))

  /** The future's identity in traces; null for no future (a one-way call's). */
  def futRef(rt: CogRuntime, f: Fut[_]): FutRef = {
    if (f eq null) return null
    val r = f.traceRef
    if (r ne null) r
    else f.synchronized {
      if (f.traceRef eq null) f.traceRef = new FutRef(rt.nextTraceId())
      f.traceRef
    }
  }

  def created(rt: CogRuntime, child: ActiveObject, newCog: Boolean): Unit = {
    val t = rt.tracing
    val cls = child.traceName
    if (!t.observes(cls)) return
    val creator = currentRef(rt)
    val ref = new ObjRef(cls, rt.nextTraceId())
    ref.sink = t.tracerFor(ref, creator)
    child.traceRef = ref
    if (creator ne null) emit(creator)(s => Created(creator, s, System.nanoTime(), ref, newCog))
  }

  def sent(rt: CogRuntime, target: Active, method: String, args: Seq[Any], fut: Fut[_]): Unit = {
    val caller = currentRef(rt)
    if (caller ne null) {
      val f = futRef(rt, fut)
      val callee = target.traceRef
      emit(caller)(s => CallSent(caller, s, System.nanoTime(), callee, method, args, f))
    }
  }

  /** Before a slice of a process of a traced object: Started (first slice) or Resumed. */
  def beforeSlice(p: Process, first: Boolean): Unit = {
    val ref = p.target.traceRef
    if (first) {
      val rt = p.cog.runtime
      if (rt.tracing.observesMethod(ref.cls, p.label)) {
        p.setTraceMode(Traced)
        val f = futRef(rt, p.fut)
        emit(ref)(s => Started(ref, s, System.nanoTime(), p.label, f))
      } else p.setTraceMode(MethodNotObserved)
    } else if (p.traceMode == Traced)
      emit(ref)(s => Resumed(ref, s, System.nanoTime(), p.label, futRef(p.cog.runtime, p.fut)))
  }

  /** A traced process gave up its COG without finishing: on a guard, in `get`, or by `suspend`. */
  def suspended(p: Process, guard: String): Unit = {
    val ref = p.target.traceRef
    emit(ref)(s => Suspended(ref, s, System.nanoTime(), p.label, futRef(p.cog.runtime, p.fut), guard))
  }

  /** The text of a guard in a Suspended event: `fut#3?`, `condition 'x'`, `(fut#3? & a condition)`. */
  def guardText(rt: CogRuntime, g: Guard): String = g match {
    case f: Fut[_]      => s"${futRef(rt, f)}?"
    case a: Guard.And   => s"(${guardText(rt, a.left)} & ${guardText(rt, a.right)})"
    case o: Guard.Or    => s"(${guardText(rt, o.left)} | ${guardText(rt, o.right)})"
    case null           => "nothing"
    case other          => other.toString
  }

  /** A traced process read `f` with `get`. */
  def get(p: Process, f: Fut[_]): Unit = {
    val ref = p.target.traceRef
    val fr = futRef(p.cog.runtime, f)
    emit(ref)(s => Get(ref, s, System.nanoTime(), fr))
  }

  /**
   * A traced process ended, right before its future is resolved. A one-way call has no future
   * (unless it asked for its destiny, which then gets its identity here): Completed only.
   */
  def completed(p: Process, value: Any, failure: Throwable): Unit = {
    val ref = p.target.traceRef
    val f = futRef(p.cog.runtime, p.fut)
    emit(ref)(s => Completed(ref, s, System.nanoTime(), p.label, f, value, failure))
    if (f ne null) emit(ref)(s => FutureResolved(ref, s, System.nanoTime(), f, value, failure))
  }

  /** `Trace.emit`: an event of the program's own, from the running process's object (if traced). */
  def user(name: String, payload: Seq[Any]): Boolean = {
    val c = Cog.current()
    val ref =
      if (c eq null) null
      else if (c.running eq null) c.runtime.outside
      else c.running.target.traceRef
    if (ref eq null) false
    else { emit(ref)(s => User(ref, s, System.nanoTime(), name, payload)); true }
  }

  /** `Trace.emit` from outside every process, for runtime `rt`. */
  def userOutside(rt: CogRuntime, name: String, payload: Seq[Any]): Boolean = {
    val ref = rt.outside
    if (ref eq null) false
    else { emit(ref)(s => User(ref, s, System.nanoTime(), name, payload)); true }
  }
}
