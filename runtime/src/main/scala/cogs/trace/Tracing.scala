package cogs.trace

/**
 * The service-provider interface between a runtime and whatever consumes its events (the monitor
 * pipeline, a test, a file): [[Tracing]] and [[Tracer]] are implemented by the consumer, and
 * [[TraceEvent]], [[ObjRef]] and [[FutRef]] are the data it receives. This package depends on
 * nothing of the runtime (`PackageCycleTest` checks it), so a consumer needs nothing else.
 *
 * What a runtime traces and where the events go. Install one with `CogRuntime.withTracing`; a
 * runtime without one (the default) emits nothing, and each instrumentation point then costs one
 * field read and a null test.
 *
 * Events are emitted by traced objects only: an object is traced when [[observes]] accepts its
 * class at creation. Each traced object gets an [[ObjRef]] and one [[Tracer]] ([[tracerFor]]),
 * which receives all of that object's events, on the thread of the object's COG, in the order
 * they happen (with gap-free sequence numbers). Calls from code outside every process are
 * attributed to [[ObjRef]] `outside`.
 */
trait Tracing {
  /** Whether objects of class `cls` (its trace name, see `ActiveObject.traceName`) are traced. Called once per created object. */
  def observes(cls: String): Boolean

  /**
   * The tracer of a new traced object. `creator` is the traced object that created it and
   * `creatorTracer` the tracer this method chose for it, or both null (created outside every
   * process, or by an untraced object). Decentralised tracing hands the creator's tracer down,
   * or a new one for classes configured to get their own.
   */
  def tracerFor(obj: ObjRef, creator: ObjRef, creatorTracer: Tracer): Tracer

  /**
   * Whether to emit process events (Started, Suspended, Resumed, Completed) for `method` of class
   * `cls`. The answer for a class and method must not change while the runtime runs: the runtime
   * may remember it per object.
   */
  def observesMethod(cls: String, method: String): Boolean = true

  /**
   * Whether events carry a time (`TraceEvent.nanos`, from `System.nanoTime`); when false they carry
   * 0 and the runtime reads no clock, a visible share of the cost of an event when events are
   * frequent. Asked once per traced object, when it is created.
   */
  def timestamps: Boolean = true

  /** Called once when the runtime closes, after the last event. */
  def close(): Unit = ()
}
