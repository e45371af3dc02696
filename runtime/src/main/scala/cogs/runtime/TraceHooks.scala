package cogs.runtime

import cogs.trace.{FutRef, ObjRef, TraceEvent, Tracer}
import cogs.trace.TraceEvent._

/**
 * A traced object's identity (what events carry), its tracer, and the sequence number of its
 * last event: the runtime's side of an [[ObjRef]], kept here so that the trace package holds
 * only data and the interfaces a consumer implements.
 */
private[runtime] final class TraceSlot(val ref: ObjRef, val sink: Tracer, stamps: Boolean) {
  /** The time for this object's next event: `System.nanoTime`, or 0 if the tracing wants no times. */
  def now(): Long = if (stamps) System.nanoTime() else 0L

  // Sequence number of the last event this object emitted (1 for its first). Only the object's
  // COG emits its events, one slice at a time, and consecutive slices are ordered by the COG's
  // status word, so a plain field is enough; `outside` is emitted under its own lock.
  private[this] var lastSeq: Long = 0L

  def nextSeq(): Long = { val s = lastSeq + 1; lastSeq = s; s }

  // The last method asked about and the tracing's answer (`Tracing.observesMethod`, which must
  // not change for an object while it lives): an object mostly serves the same few methods, and
  // the answer was a set lookup per started process. Written and read by the object's COG only.
  private[this] var lastMethod: String = null
  private[this] var lastObserved = false
  private[this] var asked = false

  def observesMethod(tracing: cogs.trace.Tracing, method: String): Boolean =
    if (asked && (method eq lastMethod)) lastObserved
    else {
      val o = tracing.observesMethod(ref.cls, method)
      lastMethod = method; lastObserved = o; asked = true
      o
    }
}

/**
 * Where the runtime emits trace events. Every caller tests first that tracing is on (the
 * runtime's `tracing`, an object's `traceSlot` or a process's `traceMode`), so with tracing off
 * none of this runs and the instrumentation costs a field read and a branch per point.
 *
 * An event belongs to the object it is emitted by, and takes that object's next sequence number.
 * Only the object's COG emits its events, one slice at a time, so the numbers have no gaps and
 * follow the object's order; the `outside` pseudo-object can be used by several threads at once
 * and is emitted under its own lock so that its numbers, too, follow the order of delivery.
 */
private[runtime] object TraceHooks {
  final val Traced: Byte = 1
  final val MethodNotObserved: Byte = 2

  /** The traced object on whose behalf this thread acts in `rt`: its running process's object, or `outside`. */
  def currentSlot(rt: CogRuntime): TraceSlot = {
    val c = Cog.current()
    if ((c eq null) || (c.runtime ne rt)) rt.outside
    else {
      val p = c.running
      if (p eq null) rt.outside else p.target.traceSlot
    }
  }

  // Each hook builds its event directly rather than through a `Long => TraceEvent` closure: the
  // closure was allocated per event and boxed the sequence number (Function1 is not specialised
  // for a reference result), about a quarter of the emission cost in a profile of monitored
  // ping-pong. The `outside` pseudo-object takes its number and delivers under its lock, so its
  // numbers follow the order of delivery; an object's own COG needs no lock (see TraceSlot).
  private def isOutside(slot: TraceSlot): Boolean = slot.ref.cls eq ObjRef.OutsideClass

  private def deliver(slot: TraceSlot, e: TraceEvent): Unit = slot.sink.event(e)

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
    val creator = currentSlot(rt)
    val ref = new ObjRef(cls, rt.nextTraceId())
    val slot =
      if (creator eq null) new TraceSlot(ref, t.tracerFor(ref, null, null), t.timestamps)
      else new TraceSlot(ref, t.tracerFor(ref, creator.ref, creator.sink), t.timestamps)
    child.traceSlot = slot
    if (creator ne null) {
      if (isOutside(creator)) creator.synchronized(deliver(creator, Created(creator.ref, creator.nextSeq(), creator.now(), ref, newCog)))
      else deliver(creator, Created(creator.ref, creator.nextSeq(), creator.now(), ref, newCog))
    }
  }

  /**
   * `fut` is the call's new future (null for a one-way call): the runtime calls this before it
   * queues the call, so no other thread can reach `fut` yet and its identity is set without the
   * lock `futRef` takes; the call's queueing publishes it with the future.
   */
  def sent(rt: CogRuntime, target: Active, method: String, args: Seq[Any], fut: Fut[_]): Unit = {
    val caller = currentSlot(rt)
    if (caller ne null) {
      val f =
        if ((fut eq null) || (fut.traceRef ne null)) futRef(rt, fut)
        else { val r = new FutRef(rt.nextTraceId()); fut.traceRef = r; r }
      val callee = target.traceSlot
      val calleeRef = if (callee eq null) null else callee.ref
      if (isOutside(caller)) caller.synchronized(deliver(caller, CallSent(caller.ref, caller.nextSeq(), caller.now(), calleeRef, method, args, f)))
      else deliver(caller, CallSent(caller.ref, caller.nextSeq(), caller.now(), calleeRef, method, args, f))
    }
  }

  /** Before a slice of a process of a traced object: Started (first slice) or Resumed. */
  def beforeSlice(p: Process, first: Boolean): Unit = {
    val slot = p.target.traceSlot
    val ref = slot.ref
    if (first) {
      val rt = p.cog.runtime
      if (slot.observesMethod(rt.tracing, p.label)) {
        p.setTraceMode(Traced)
        val f = futRef(rt, p.fut)
        deliver(slot, Started(ref, slot.nextSeq(), slot.now(), p.label, f))
      } else p.setTraceMode(MethodNotObserved)
    } else if (p.traceMode == Traced)
      deliver(slot, Resumed(ref, slot.nextSeq(), slot.now(), p.label, futRef(p.cog.runtime, p.fut)))
  }

  /** A traced process gave up its COG without finishing: on a guard, in `get`, or by `suspend`. */
  def suspended(p: Process, guard: String): Unit = {
    val slot = p.target.traceSlot
    val ref = slot.ref
    deliver(slot, Suspended(ref, slot.nextSeq(), slot.now(), p.label, futRef(p.cog.runtime, p.fut), guard))
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
    val slot = p.target.traceSlot
    val ref = slot.ref
    val fr = futRef(p.cog.runtime, f)
    deliver(slot, Get(ref, slot.nextSeq(), slot.now(), fr))
  }

  /**
   * A traced process ended, right before its future is resolved. A one-way call has no future
   * (unless it asked for its destiny, which then gets its identity here): Completed only.
   */
  def completed(p: Process, value: Any, failure: Throwable): Unit = {
    val slot = p.target.traceSlot
    val ref = slot.ref
    val f = futRef(p.cog.runtime, p.fut)
    // One clock read for both: the future is resolved right after the process ends, and a
    // second read would only add its own cost to the gap.
    val now = slot.now()
    deliver(slot, Completed(ref, slot.nextSeq(), now, p.label, f, value, failure))
    if (f ne null) deliver(slot, FutureResolved(ref, slot.nextSeq(), now, f, value, failure))
  }

  /** `Cogs.emit`: an event of the program's own, from the running process's object (if traced). */
  def user(name: String, payload: Seq[Any]): Boolean = {
    val c = Cog.current()
    val slot =
      if (c eq null) null
      else if (c.running eq null) c.runtime.outside
      else c.running.target.traceSlot
    if (slot eq null) false
    else { user(slot, name, payload); true }
  }

  private def user(slot: TraceSlot, name: String, payload: Seq[Any]): Unit =
    if (isOutside(slot)) slot.synchronized(deliver(slot, User(slot.ref, slot.nextSeq(), slot.now(), name, payload)))
    else deliver(slot, User(slot.ref, slot.nextSeq(), slot.now(), name, payload))

  /** `CogRuntime.emit` from outside every process, for runtime `rt`. */
  def userOutside(rt: CogRuntime, name: String, payload: Seq[Any]): Boolean = {
    val slot = rt.outside
    if (slot eq null) false
    else { user(slot, name, payload); true }
  }
}
