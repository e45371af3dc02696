package cogs.monitor

import cogs.trace.{FutRef, ObjRef, TraceEvent}
import cogs.trace.TraceEvent._

/**
 * Ready-made properties over the runtime's [[cogs.trace.TraceEvent]]s, parameterised by class and
 * method names as the modeller wrote them (`ObjRef.cls`, the events' `method` fields).
 *
 * Each is indexed (by future or by object) and skips the events it does not need, so its cost per
 * event is a few field reads and one hash lookup, whatever the number of objects and futures; and
 * each means the same without the indexing (its patterns compare the key themselves).
 *
 * They assume the trace of the events they relate is in causal order: a call's `CallSent` before
 * its `Started`/`Completed`/`FutureResolved` (true of a centralised pipeline, and of any monitor
 * that sees caller and callee in one trace).
 */
object Properties {

  /** Base of the ready-made properties: reports show trace events compactly (see [[show]]). */
  abstract class TraceMonitor(name: String) extends Monitor[TraceEvent](name) {
    override protected def show(event: TraceEvent): String = Properties.show(event)
  }

  /**
   * Every call of `cls.method` is answered: each `CallSent` to an object of class `cls` for
   * `method` is followed, before the end of the trace, by a `Completed` or `FutureResolved` of its
   * future (a failure answers too). When the caller is not traced, the obligation starts at the
   * `Started` of the serving process instead. Still unanswered at the end: a violation in state
   * `Unanswered(callee,method,fut)`, whose trace shows the call. Indexed by future.
   */
  def callAnswered(cls: String, method: String, name: String = ""): Monitor[TraceEvent] =
    new CallAnswered(cls, method, orDefault(name, s"CallAnswered($cls.$method)"))

  /**
   * Calls happen in a given order: for each key (by default the callee), calls to objects of class
   * `cls` among `methods` come in the order of `methods` (the first must be `methods(0)`, then
   * `methods(1)`, ...). A call of one of `methods` out of turn is a violation, after which the
   * same method is still expected. After the last one, further calls are free, or, with `repeat`,
   * the order starts again. Calls to other methods are ignored. Indexed by the key.
   *
   * @param key what the order is per: the callee (default), or e.g. `c => (c.callee, c.args.head)`; never null
   */
  def callOrder(
      cls: String,
      methods: Seq[String],
      key: CallSent => Any = _.callee,
      repeat: Boolean = false,
      name: String = ""): Monitor[TraceEvent] =
    new CallOrder(cls, methods.toIndexedSeq, key, repeat, orDefault(name, s"CallOrder($cls: ${methods.mkString(" < ")})"))

  /**
   * At most `limit` processes of `cls.method` run at once on each object: counting `Started` minus
   * `Completed` of that method per object (suspended processes still run). Each start beyond the
   * limit is a violation in state `Running(obj,count)` (the count before it). Indexed by object.
   */
  def maxRunning(cls: String, method: String, limit: Int, name: String = ""): Monitor[TraceEvent] =
    new MaxRunning(cls, method, limit, orDefault(name, s"MaxRunning($cls.$method <= $limit)"))

  /**
   * A future is resolved at most once: each `FutureResolved` of a future already resolved is a
   * violation in state `Resolved(fut,by)`. Indexed by future; remembers every resolved future, so
   * its memory grows with their number.
   */
  def resolvedOnce(name: String = ""): Monitor[TraceEvent] =
    new ResolvedOnce(orDefault(name, "ResolvedOnce"))

  /**
   * No call after termination: an object of class `cls` is terminated by a `User` event named
   * `userEvent` it emits, or by the `Completed` of its method `method` (give at least one). After
   * that, each `CallSent` to it and each `Started` on it is a violation in state
   * `Terminated(obj,by)`. Indexed by object.
   */
  def noCallAfterTermination(
      cls: String,
      userEvent: Option[String] = None,
      method: Option[String] = None,
      name: String = ""): Monitor[TraceEvent] =
    new NoCallAfterTermination(cls, userEvent, method, orDefault(name, s"NoCallAfterTermination($cls)"))

  /** Several properties as one monitor (each a sub-monitor). */
  def all(name: String, properties: Monitor[TraceEvent]*): Monitor[TraceEvent] = Monitor.combine(name, properties: _*)

  /** A trace event as reports show it: who did what, without the timestamp and sequence number. */
  def show(e: TraceEvent): String = e match {
    case Created(o, _, _, child, newCog) => s"$o creates $child${if (newCog) " (new COG)" else ""}"
    case CallSent(o, _, _, callee, m, args, fut) => s"$o calls $callee.$m(${args.mkString(", ")}) -> $fut"
    case Started(o, _, _, m, fut) => s"$o starts $m for $fut"
    case Suspended(o, _, _, m, fut, guard) => s"$o suspends $m for $fut on $guard"
    case Resumed(o, _, _, m, fut) => s"$o resumes $m for $fut"
    case c: Completed =>
      if (c.failed) s"${c.obj} completes ${c.method} for ${c.fut} failing with ${c.failure}"
      else s"${c.obj} completes ${c.method} for ${c.fut} = ${c.value}"
    case FutureResolved(o, _, _, fut, v, f) => if (f ne null) s"$o resolves $fut failing with $f" else s"$o resolves $fut = $v"
    case Get(o, _, _, fut) => s"$o gets $fut"
    case User(o, _, _, n, payload) => s"$o emits $n(${payload.mkString(", ")})"
  }

  private def orDefault(name: String, default: String): String = if (name == null || name.isEmpty) default else name

  // -----------------------------------------------------------------------------------------------

  final class CallAnswered(cls: String, method: String, name: String) extends TraceMonitor(name) {
    // The call moves through these states so that a report shows how far it got: sent, running,
    // or waiting on a guard (and which). Each is an obligation until the call completes.
    case class Unanswered(callee: ObjRef, method: String, fut: FutRef) extends State {
      hot {
        case c: Completed if c.fut eq fut      => ok
        case r: FutureResolved if r.fut eq fut => ok
        case s: Started if s.fut eq fut        => Running(callee, method, fut)
      }
    }

    case class Running(callee: ObjRef, method: String, fut: FutRef) extends State {
      hot {
        case c: Completed if c.fut eq fut      => ok
        case r: FutureResolved if r.fut eq fut => ok
        case s: Suspended if s.fut eq fut      => Waiting(callee, method, fut, s.guard)
      }
    }

    case class Waiting(callee: ObjRef, method: String, fut: FutRef, guard: String) extends State {
      hot {
        case c: Completed if c.fut eq fut      => ok
        case r: FutureResolved if r.fut eq fut => ok
        case r: Resumed if r.fut eq fut        => Running(callee, method, fut)
      }
    }

    // The obligation starts at the call, or, when the caller is not traced (its CallSent is not in
    // the trace), at the start of the process that serves it. One-way calls (no future) have no
    // answer to wait for.
    always {
      case c: CallSent if c.method == method && (c.callee ne null) && c.callee.cls == cls && (c.fut ne null) =>
        Unanswered(c.callee, c.method, c.fut)
      case s: Started if s.method == method && s.obj.cls == cls && (s.fut ne null) && !exists { case Unanswered(_, _, f) => f eq s.fut } =>
        Running(s.obj, s.method, s.fut)
    }

    override protected def relevant(e: TraceEvent): Boolean = e match {
      case c: CallSent => c.method == method && (c.callee ne null) && c.callee.cls == cls
      case s: Started  => s.method == method && s.obj.cls == cls
      case _: Completed | _: FutureResolved | _: Suspended | _: Resumed => true
      case _ => false
    }

    override protected def indexKey(e: TraceEvent): Any = e match {
      case c: CallSent       => c.fut
      case s: Started        => s.fut
      case s: Suspended      => s.fut
      case r: Resumed        => r.fut
      case c: Completed      => c.fut
      case r: FutureResolved => r.fut
      case _                 => null
    }

    // For the pipeline's `OpenCallsChecker`, which must skip and key events exactly as this does.
    private[monitor] def concerns(e: TraceEvent): Boolean = relevant(e)
    private[monitor] def futureOf(e: TraceEvent): FutRef = indexKey(e).asInstanceOf[FutRef]
  }

  final class CallOrder(cls: String, methods: IndexedSeq[String], by: CallSent => Any, repeat: Boolean, name: String)
      extends TraceMonitor(name) {
    require(methods.nonEmpty, "callOrder needs at least one method")
    private[this] val ordered: Set[String] = methods.toSet

    /** The calls of `key` have made `position` steps of the order; `method` is the one allowed next. */
    case class Expecting(key: Any, method: String, position: Int) extends State {
      watch {
        case c: CallSent if concerns(c) && by(c) == key =>
          if (c.method == method) after(key, position)
          else error(s"${c.method} called out of order on ${c.callee}: expected $method") & stay
      }
    }

    /** The calls of `key` completed the order (without `repeat`): later calls are free. */
    case class Done(key: Any) extends Fact

    always {
      case c: CallSent if concerns(c) && fresh(by(c)) =>
        val k = by(c)
        if (c.method == methods(0)) after(k, 0)
        else error(s"${c.method} called out of order on ${c.callee}: expected ${methods(0)}") & Expecting(k, methods(0), 0)
    }.label(methods.mkString(" < "))

    private def fresh(k: Any): Boolean = !exists {
      case Expecting(`k`, _, _) => true
      case Done(`k`)            => true
    }

    private def after(k: Any, position: Int): Target = {
      val n = position + 1
      if (n < methods.size) Expecting(k, methods(n), n)
      else if (repeat) Expecting(k, methods(0), 0)
      else Done(k)
    }

    private def concerns(c: CallSent): Boolean = (c.callee ne null) && c.callee.cls == cls && ordered(c.method)

    override protected def relevant(e: TraceEvent): Boolean = e match {
      case c: CallSent => concerns(c)
      case _           => false
    }

    override protected def indexKey(e: TraceEvent): Any = e match {
      case c: CallSent => by(c)
      case _           => null
    }
  }

  final class MaxRunning(cls: String, method: String, limit: Int, name: String) extends TraceMonitor(name) {
    require(limit >= 0, s"maxRunning needs a limit >= 0, not $limit")

    /** `count` processes of `method` run on `obj`. */
    case class Running(obj: ObjRef, count: Int) extends State {
      watch {
        case s: Started if (s.obj eq obj) && s.method == method =>
          if (count >= limit) tooMany(obj, count + 1) & Running(obj, count + 1) else Running(obj, count + 1)
        case c: Completed if (c.obj eq obj) && c.method == method =>
          if (count <= 1) ok else Running(obj, count - 1)
      }
    }

    always {
      case s: Started if concerns(s.obj, s.method) && !exists { case Running(o, _) => o eq s.obj } =>
        if (limit < 1) tooMany(s.obj, 1) & Running(s.obj, 1) else Running(s.obj, 1)
    }

    private def tooMany(obj: ObjRef, n: Int): Target =
      error(s"$n processes of $method running at once on $obj (at most $limit)")

    private def concerns(obj: ObjRef, m: String): Boolean = m == method && obj.cls == cls

    override protected def relevant(e: TraceEvent): Boolean = e match {
      case s: Started   => concerns(s.obj, s.method)
      case c: Completed => concerns(c.obj, c.method)
      case _            => false
    }

    override protected def indexKey(e: TraceEvent): Any = e.obj
  }

  final class ResolvedOnce(name: String) extends TraceMonitor(name) {
    /** `fut` was resolved, by `by`. */
    case class Resolved(fut: FutRef, by: ObjRef) extends State {
      watch {
        case r: FutureResolved if r.fut eq fut => error(s"$fut resolved again, by ${r.obj}") & stay
      }
    }

    always {
      case r: FutureResolved if !exists { case Resolved(f, _) => f eq r.fut } => Resolved(r.fut, r.obj)
    }

    override protected def relevant(e: TraceEvent): Boolean = e.isInstanceOf[FutureResolved]

    override protected def indexKey(e: TraceEvent): Any = e match {
      case r: FutureResolved => r.fut
      case _                 => null
    }
  }

  final class NoCallAfterTermination(cls: String, userEvent: Option[String], method: Option[String], name: String)
      extends TraceMonitor(name) {
    require(userEvent.isDefined || method.isDefined, "noCallAfterTermination needs a userEvent or a method that terminates")

    /** `obj` terminated, by event or method `by`. */
    case class Terminated(obj: ObjRef, by: String) extends State {
      watch {
        case c: CallSent if c.callee eq obj => error(s"${c.method} called on $obj after it terminated ($by)") & stay
        case s: Started if s.obj eq obj     => error(s"${s.method} started on $obj after it terminated ($by)") & stay
      }
    }

    always {
      case u: User if terminates(u) && !terminated(u.obj)      => Terminated(u.obj, u.name)
      case c: Completed if terminates(c) && !terminated(c.obj) => Terminated(c.obj, c.method)
    }

    private def terminates(u: User): Boolean = userEvent.contains(u.name) && u.obj.cls == cls
    private def terminates(c: Completed): Boolean = method.contains(c.method) && c.obj.cls == cls
    private def terminated(o: ObjRef): Boolean = exists { case Terminated(t, _) => t eq o }

    override protected def relevant(e: TraceEvent): Boolean = e match {
      case c: CallSent  => (c.callee ne null) && c.callee.cls == cls
      case s: Started   => s.obj.cls == cls
      case u: User      => terminates(u)
      case c: Completed => terminates(c)
      case _            => false
    }

    override protected def indexKey(e: TraceEvent): Any = e match {
      case c: CallSent => c.callee
      case _           => e.obj
    }
  }
}
