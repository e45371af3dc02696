package cogs.monitor

import cogs.trace.{FutRef, ObjRef, TraceEvent}
import cogs.trace.TraceEvent._

/** Small events for testing the DSL itself. */
sealed trait Ev
final case class A(x: Int) extends Ev
final case class B(x: Int) extends Ev
final case class C(x: Int) extends Ev
final case class Acquire(thread: Int, lock: Int) extends Ev
final case class Release(thread: Int, lock: Int) extends Ev
case object Reset extends Ev

/** Hand-built runtime traces: objects, futures and events with the fields monitors look at. */
object Traces {
  def obj(cls: String, id: Long): ObjRef = new ObjRef(cls, id)
  def fut(id: Long): FutRef = new FutRef(id)

  def call(from: ObjRef, to: ObjRef, method: String, f: FutRef, args: Any*): TraceEvent =
    CallSent(from, 0L, 0L, to, method, args, f)
  def start(o: ObjRef, method: String, f: FutRef): TraceEvent = Started(o, 0L, 0L, method, f)
  def suspend(o: ObjRef, method: String, f: FutRef, guard: String): TraceEvent = Suspended(o, 0L, 0L, method, f, guard)
  def resume(o: ObjRef, method: String, f: FutRef): TraceEvent = Resumed(o, 0L, 0L, method, f)
  def complete(o: ObjRef, method: String, f: FutRef, value: Any = ()): TraceEvent =
    Completed(o, 0L, 0L, method, f, value, null)
  def failed(o: ObjRef, method: String, f: FutRef, t: Throwable): TraceEvent = Completed(o, 0L, 0L, method, f, null, t)
  def resolve(o: ObjRef, f: FutRef, value: Any = ()): TraceEvent = FutureResolved(o, 0L, 0L, f, value, null)
  def get(o: ObjRef, f: FutRef): TraceEvent = Get(o, 0L, 0L, f)
  def user(o: ObjRef, name: String, payload: Any*): TraceEvent = User(o, 0L, 0L, name, payload)
  def created(o: ObjRef, child: ObjRef): TraceEvent = Created(o, 0L, 0L, child, newCog = true)

  /** Runs `events` through `m` and ends it. */
  def run[E](m: Monitor[E], events: E*): Monitor[E] = m.verifyTrace(events)
}
