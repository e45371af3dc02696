package cogs.trace

/**
 * A traced active object, as monitors see it: its class (for ABS models, the ABS class name as the
 * modeller wrote it) and a number unique within its runtime. Compared by identity: one object,
 * one `ObjRef`, for its whole life.
 *
 * The runtime gives an object an `ObjRef` at creation, and only when tracing is on and the
 * object's class is observed; untraced objects cost nothing.
 */
final class ObjRef private[cogs] (val cls: String, val id: Long) {
  // Sequence number of the last event this object emitted (1 for its first). Only the object's
  // COG emits its events, one slice at a time, and consecutive slices are ordered by the COG's
  // status word, so a plain field is enough; `outside` is emitted under its own lock.
  private[cogs] var lastSeq: Long = 0L
  /** Where this object's events go (its tracer); chosen at creation. */
  private[cogs] var sink: Tracer = _

  private[cogs] def nextSeq(): Long = { val s = lastSeq + 1; lastSeq = s; s }

  /** `Account#12`. */
  override def toString: String = s"$cls#$id"
}

object ObjRef {
  /** The class name of the pseudo-object `outside#0`: code outside every process (a `main` thread). */
  final val OutsideClass = "outside"
}

/**
 * The events the runtime emits when tracing is on (see [[Tracing]]).
 *
 * Every event belongs to one object, `obj`: the object on whose behalf it happened (the caller of
 * a call, the callee of a process, the creator of an object). `seq` numbers the events of that
 * object from 1 without gaps, in the order the object emitted them, so a consumer can check that
 * the trace it received of an object is complete and in order. `nanos` is `System.nanoTime` at
 * emission. `obj` is [[ObjRef.Outside]] for events caused by code outside every process (a
 * `main` thread creating objects or calling them).
 *
 * A one-way call (`Cogs.tell`, `o.tell("m")(..)`) has no future: its `CallSent`, `Started`,
 * `Suspended`, `Resumed` and `Completed` events carry `fut = null`, and no `FutureResolved`
 * follows its `Completed`. If its process asks for its `destiny`, that future is created then,
 * and the process's events from then on (its `Completed`, a `FutureResolved`) carry it.
 */
sealed trait TraceEvent {
  def obj: ObjRef
  def seq: Long
  def nanos: Long
}

object TraceEvent {
  /** `obj` created `child` (in a new COG, or in its own with `newCog = false`). */
  final case class Created(obj: ObjRef, seq: Long, nanos: Long, child: ObjRef, newCog: Boolean) extends TraceEvent

  /** `obj` called `callee.method(args)` asynchronously; the call's result will resolve future `fut` (null: a one-way call). */
  final case class CallSent(obj: ObjRef, seq: Long, nanos: Long, callee: ObjRef, method: String, args: Seq[Any], fut: FutRef)
      extends TraceEvent

  /** A process of `obj` started to serve `method`, whose result resolves `fut` (null: a one-way call). */
  final case class Started(obj: ObjRef, seq: Long, nanos: Long, method: String, fut: FutRef) extends TraceEvent

  /** The process serving `method` suspended on `guard` (its text, e.g. `f?` or `condition`). */
  final case class Suspended(obj: ObjRef, seq: Long, nanos: Long, method: String, fut: FutRef, guard: String)
      extends TraceEvent

  /** The process serving `method` resumed after a suspension. */
  final case class Resumed(obj: ObjRef, seq: Long, nanos: Long, method: String, fut: FutRef) extends TraceEvent

  /**
   * The process serving `method` ended: with `value`, or with `failure` (then `value` is null).
   * Its future `fut` is resolved right after this event.
   */
  final case class Completed(obj: ObjRef, seq: Long, nanos: Long, method: String, fut: FutRef, value: Any, failure: Throwable)
      extends TraceEvent {
    def failed: Boolean = failure ne null
  }

  /** Future `fut` was resolved by `obj` (the callee), with `value` or `failure`. */
  final case class FutureResolved(obj: ObjRef, seq: Long, nanos: Long, fut: FutRef, value: Any, failure: Throwable)
      extends TraceEvent

  /** A process of `obj` read future `fut` with `get` (emitted when `get` returns; a `get` that had to block its COG was preceded by `Suspended` with guard `get fut#n`). */
  final case class Get(obj: ObjRef, seq: Long, nanos: Long, fut: FutRef) extends TraceEvent

  /** An event of the program's own, emitted with `Tracing.emit(name, payload*)`. */
  final case class User(obj: ObjRef, seq: Long, nanos: Long, name: String, payload: Seq[Any]) extends TraceEvent
}

/** A future, as monitors see it: a number unique within its runtime, assigned when tracing first mentions it. */
final class FutRef private[cogs] (val id: Long) {
  override def toString: String = s"fut#$id"
}

/** Receives trace events. Called on the emitting thread; an implementation decides how to pass them on. */
trait Tracer {
  def event(e: TraceEvent): Unit
}
