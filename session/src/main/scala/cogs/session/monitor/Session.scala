package cogs.session.monitor

import java.util.concurrent.atomic.AtomicIntegerArray
import java.util.function.{Function => JFunction}

import cogs.runtime.{Active, Cogs, Fut, Proc}

/**
 * One run of a protocol: roles bound to active objects, one machine state per role, and the
 * violations seen. Messages of the protocol are calls sent through the session ([[send]],
 * [[tell]]); the session travels with each call (it is in the call's closure), so an object that
 * plays roles in several sessions has each call checked against the right session's machine.
 *
 * Each message is checked twice, each time with one table look-up: against the sender's machine
 * when it is sent (before the call is queued), and against the receiver's machine when the
 * callee's process starts, before the method's body runs. Calls of one sender start in the order
 * they were sent, and a send is queued before `send` returns, so the receiver's machine sees the
 * order its object receives in.
 *
 * Concurrency: a role's state is one slot of an AtomicIntegerArray, advanced by compare-and-set
 * from the state it was read in. The slot is *not* owned by one COG, so a plain write would not
 * do: a reply ([[request]]) moves the caller's machine on the callee's COG, when the callee's
 * process ends, while the caller's own COG may be sending as the same role (a buggy program or a
 * `par` protocol), and code outside every process may send as a role. Two concurrent steps of one
 * role are ordered by their CASes and each is checked against the state the other left, never
 * against a stale one (StressRoleStateTest would catch a lost or doubled step). Uncontended, the
 * CAS is one locked instruction on a line the stepping thread usually has already; the profile
 * (docs/sessions.md) puts it well below the allocation the check used to add. No thread waits on
 * this state, so there is no wake-up to lose.
 *
 * What a checked message allocates (the fast path, no violation): one [[Session.Delivery]] (the
 * callee's process function, which runs the receiver's check, and for a request also the reply's
 * check) and nothing else; a one-way message whose call is a non-capturing function (the usual
 * case in Java: `r -> r.hit()` is one object for the program's life) reuses the delivery made for
 * its previous send of the same message, so it allocates nothing the unchecked call does not.
 * Strings (reports, expected actions, the session's name) are built only when a violation or a
 * report needs them.
 */
final class Session private[monitor] (val sessionType: SessionType, givenId: String, number: Long, bound: Array[Active]) {
  private[monitor] def this(sessionType: SessionType, id: String, bound: Array[Active]) = this(sessionType, id, 0L, bound)

  /** The session's name: the one it was given, or `Protocol#n` (built on first use, not per session started). */
  lazy val id: String = if (givenId ne null) givenId else s"${sessionType.name}#$number"

  private[this] val states = new AtomicIntegerArray(bound.length)
  // Violations, newest first; a new list per violation (rare), read as a snapshot. Replaces a
  // concurrent queue that every session allocated whether or not it ever saw a violation.
  @volatile private[this] var violations$: List[ProtocolViolation] = Nil
  // The last one-way delivery made per message id (see the class comment); created on the first
  // one-way send. Racy on purpose: a Delivery's fields are final, so a thread that reads one
  // written by another sees it whole (and the JVM never shows an array without its length); a
  // null, lost or stale entry only costs a new Delivery, never a wrong check (the entry is used
  // only if its message and function are the ones being sent).
  private[this] var oneWayCache: Array[Session.Delivery] = _
  // Set once by end() or a violation under EndSession. A send that read null just before it was
  // set goes through: ending is not a barrier for messages already past their check.
  @volatile private[this] var endedBy: String = _

  def protocolName: String = sessionType.name

  /** The object that plays `role`. */
  def role(role: String): Active = bound(roleIndex(role))

  private def roleIndex(r: String): Int = {
    val i = sessionType.roles.indexOf(r)
    if (i < 0) throw new NoSuchElementException(s"protocol ${sessionType.name} has no role '$r'")
    i
  }

  /** The current state of `role`'s machine. */
  def stateOf(role: String): Int = states.get(roleIndex(role))

  /** Violations seen so far, oldest first. */
  def violations: List[ProtocolViolation] = violations$.reverse

  private def record(v: ProtocolViolation): Unit = synchronized { violations$ = v :: violations$ }

  def isEnded: Boolean = endedBy != null

  // ------------------------------------------------------------------ sending

  /**
   * Send protocol message `msg` with payload `args` as an asynchronous call `call` of the
   * receiving role's object: `s.send(quote, 42)((b: Buyer) => b.quote(s, 42))`. Returns the call's
   * future, which fails with a [[ProtocolViolation]] if the message is rejected.
   */
  def send[T <: Active, A](msg: MessageRef, args: Any*)(call: T => Proc[A]): Fut[A] =
    dispatch(msg, args, new Session.Delivery(this, msg, null, call, false, false)).asInstanceOf[Fut[A]]

  /** [[send]] naming the message by sender, receiver and label (a hash look-up more per call). */
  def send[T <: Active, A](from: String, to: String, label: String, args: Any*)(call: T => Proc[A]): Fut[A] =
    send[T, A](sessionType.message(from, to, label), args: _*)(call)

  /**
   * A call whose reply is a protocol message too: `msg` is the request, and the resolution of the
   * call's future with the method's return value is message `reply` (which goes back from the
   * receiver to the sender), so request/response code needs no extra message:
   * `s.request(req, res, 42)((srv: Server) => srv.compute(42))` for `Req(Int) from C to S;
   * Res(Int) from S to C;`. When the callee's process finishes, its value is checked against
   * `reply`'s payload and the reply against both machines (the callee's as sender, the caller's
   * as receiver) before the future resolves; a refused reply fails the future with a
   * [[ProtocolViolation]] (under every policy but log). The caller's machine moves when the
   * future resolves, not when the caller reads it. A call that fails sends no reply: its future
   * fails with the call's exception and neither machine moves.
   */
  def request[T <: Active, A](msg: MessageRef, reply: MessageRef, args: Any*)(call: T => Proc[A]): Fut[A] =
    requestCall(msg, reply, args, call, java = false).asInstanceOf[Fut[A]]

  private[session] def requestCall(msg: MessageRef, reply: MessageRef, args: Seq[Any], call: AnyRef, java: Boolean): Fut[Any] = {
    replyOf(msg, reply)
    dispatch(msg, args, new Session.Delivery(this, msg, reply, call, java, false))
  }

  private def replyOf(msg: MessageRef, reply: MessageRef): Unit =
    if ((reply.sessionType ne sessionType) || reply.fromRole != msg.toRole || reply.toRole != msg.fromRole)
      throw new IllegalArgumentException(s"the reply to $msg must be a message of ${sessionType.name} from ${msg.to} to ${msg.from}, not $reply")

  /**
   * [[send]] (`reply` null) or [[request]] of a Scala process function, made at `at` in the
   * caller's source: a violation of the message, on either side, or of its reply names it.
   * Private to the project: absc's `AbsSessions` knows the ABS position of each call.
   */
  private[cogs] def sendAt(msg: MessageRef, reply: MessageRef, args: Seq[Any], call: AnyRef, at: String): Fut[Any] = {
    if (reply ne null) replyOf(msg, reply)
    dispatch(msg, args, new Session.Delivery(this, msg, reply, call, false, false, at))
  }

  /** [[send]] of a Java process function (the Java API's entry: no Scala wrapper per call). */
  private[session] def sendJava(msg: MessageRef, args: Seq[Any], call: JFunction[_, _]): Fut[Any] =
    dispatch(msg, args, new Session.Delivery(this, msg, null, call, true, false))

  /** [[tell]] of a Java process function. */
  private[session] def tellJava(msg: MessageRef, args: Seq[Any], call: JFunction[_, _]): Unit = { dispatch(msg, args, oneWayDelivery(msg, call, java = true)); () }

  /**
   * The reply `reply` carrying `value`, at the end of the callee's process: checked, then the
   * value; a refused reply is thrown (as the continuation of a `Proc.map`, which the runtime turns
   * into the failure of the process: one process node per request fewer than a `flatMap`).
   */
  private def answer(reply: MessageRef, value: Any, at: String): Any = {
    val v =
      if (endedBy ne null) ended(reply.fromRole, reply, asSender = true, at)
      else {
        val bad = replyPayloadProblem(reply, value)
        if (bad ne null) violation(reply.fromRole, states.get(reply.fromRole), reply, asSender = true, bad, at)
        else {
          val r = step(reply.fromRole, reply.id)
          if (r < 0) violation(reply.fromRole, ~r, reply, asSender = true, "the reply", at)
          else {
            val r2 = step(reply.toRole, reply.id)
            if (r2 < 0) violation(reply.toRole, ~r2, reply, asSender = false, "the reply", at) else null
          }
        }
      }
    if ((v eq null) || (sessionType.policy == Policy.LogAndContinue && !v.afterEnd)) value else throw v
  }

  /** A reply's payload is the return value: nothing to check for an empty payload, the value for one type, a tuple for several. */
  private def replyPayloadProblem(reply: MessageRef, value: Any): String = {
    val cs = reply.classes
    if ((cs eq null) || cs.isEmpty) null
    else if (cs.length == 1) {
      if (value != null && cs(0).isInstance(value)) null
      else payloadProblem(reply, List(value)).replace("argument 1 is", "the reply is") // a violation: the text as before
    }
    else value match {
      case p: Product if p.productArity == cs.length => payloadProblem(reply, p.productIterator.toList)
      case _ => s"the reply should be a tuple of ${cs.length} values, not ${if (value == null) "null" else value.getClass.getName}"
    }
  }

  /** A one-way call as protocol message `msg` (no future; see `Cogs.tell`). */
  def tell[T <: Active](msg: MessageRef, args: Any*)(call: T => Proc[Any]): Unit = { dispatch(msg, args, oneWayDelivery(msg, call, java = false)); () }

  /** The delivery of a one-way `msg` by `call`: the one made last time if it was for the same function object. */
  private def oneWayDelivery(msg: MessageRef, call: AnyRef, java: Boolean): Session.Delivery = {
    if (msg.sessionType ne sessionType) return new Session.Delivery(this, msg, null, call, java, true) // dispatch throws
    var cache = oneWayCache
    if (cache eq null) { cache = new Array[Session.Delivery](sessionType.messages.length); oneWayCache = cache }
    val d = cache(msg.id)
    if ((d ne null) && (d.call eq call) && d.java == java) d
    else { val n = new Session.Delivery(this, msg, null, call, java, true); cache(msg.id) = n; n }
  }

  private def dispatch(msg: MessageRef, args: Seq[Any], delivery: Session.Delivery): Fut[Any] = {
    if (msg.sessionType ne sessionType)
      throw new IllegalArgumentException(s"$msg is a message of ${msg.sessionType}, not of this session's ${sessionType.name}")
    val target = bound(msg.toRole)
    val policy = sessionType.policy
    val oneWay = delivery.oneWay

    val refused = senderCheck(msg, args, delivery.at)

    if ((refused eq null) || (policy == Policy.LogAndContinue && !refused.afterEnd)) {
      if (oneWay) { Cogs.tellWithArgs[Active](target, msg.label, args, delivery.process); null }
      else Cogs.sendWithArgs[Active, Any](target, msg.label, args, delivery.process)
    } else if (oneWay && policy == Policy.Drop && !refused.afterEnd) null // dropped: only the recorded violation is left
    else {
      // Not delivered. A future must still resolve, so it fails, from a process at the callee
      // that never runs the method (behind the calls queued there before, like any call).
      val fail: Active => Proc[Any] = _ => Proc.raise(refused)
      if (oneWay) { Cogs.tell[Active](target, msg.label, fail); null }
      else Cogs.send[Active, Any](target, msg.label, fail)
    }
  }

  /** The sender's check: null if `msg` may be sent now (the sender's machine has moved), else the violation. */
  private def senderCheck(msg: MessageRef, args: Seq[Any], at: String): ProtocolViolation =
    if (endedBy ne null) ended(msg.fromRole, msg, asSender = true, at)
    else {
      val bad = payloadProblem(msg, args)
      if (bad ne null) violation(msg.fromRole, states.get(msg.fromRole), msg, asSender = true, bad, at)
      else {
        val r = step(msg.fromRole, msg.id)
        if (r >= 0) null else violation(msg.fromRole, ~r, msg, asSender = true, "", at)
      }
    }

  // ------------------------------------------------------------------ synchronous calls

  /**
   * Protocol message `msg` as a synchronous call (ABS `o.m(..)`: the caller's process runs the
   * method itself if the callee shares its COG, else waits for it, holding its COG), to be run
   * as a step of the caller's process: `s.sync(quote, 42)((b: Buyer) => b.quote(42)).flatMap(..)`.
   * Checked as an asynchronous call is, when the returned process runs (not when it is built):
   * the sender's machine first, then the receiver's before the method runs. A refused call does
   * not run the method; the caller's process gets the [[ProtocolViolation]] instead of a value
   * (it can `handle` it), under every policy but log, which runs the method. Drop cannot drop a
   * call whose caller waits for its value, so it rejects, as for calls with a future.
   */
  def sync[T <: Active, A](msg: MessageRef, args: Any*)(call: T => Proc[A]): Proc[A] =
    syncCall(msg, null, args, call, java = false).asInstanceOf[Proc[A]]

  /**
   * [[sync]] whose return value is protocol message `reply` (as [[request]] for asynchronous
   * calls): checked at the end of the method, against both machines, before the caller gets it.
   */
  def syncRequest[T <: Active, A](msg: MessageRef, reply: MessageRef, args: Any*)(call: T => Proc[A]): Proc[A] =
    syncCall(msg, reply, args, call, java = false).asInstanceOf[Proc[A]]

  private[session] def syncCall(msg: MessageRef, reply: MessageRef, args: Seq[Any], call: AnyRef, java: Boolean): Proc[Any] =
    syncCall(msg, reply, args, call, java, self = false, at = null)

  /**
   * [[syncCall]]; with `self`, the caller is the receiving role's object itself (ABS `this.m(..)`
   * of a class that plays both roles; absc's `AbsSessions.sync` says so only when the callee is
   * the caller). Then the callee's process is run in place, without the runtime's synchronous-call
   * node: the object's COG is the caller's, where that node would run it inline anyway, and
   * without it the process is one that `Proc.now` can run when the method cannot suspend (absc
   * compiles such calls to a value, not a process step). The checks are the same, in the same
   * order. `at`, if not null, is where the call is in the caller's source (the ABS position),
   * named in the reason of a violation of the call or of its reply. Not public: only the ABS
   * runtime knows that the callee is the running object, and has positions.
   */
  private[cogs] def syncCall(msg: MessageRef, reply: MessageRef, args: Seq[Any], call: AnyRef, java: Boolean, self: Boolean,
      at: String): Proc[Any] = {
    if (msg.sessionType ne sessionType)
      throw new IllegalArgumentException(s"$msg is a message of ${msg.sessionType}, not of this session's ${sessionType.name}")
    if ((reply ne null) && ((reply.sessionType ne sessionType) || reply.fromRole != msg.toRole || reply.toRole != msg.fromRole))
      throw new IllegalArgumentException(s"the reply to $msg must be a message of ${sessionType.name} from ${msg.to} to ${msg.from}, not $reply")
    Proc.defer {
      val refused = senderCheck(msg, args, at)
      if ((refused eq null) || (sessionType.policy == Policy.LogAndContinue && !refused.afterEnd)) {
        val process = new Session.Delivery(this, msg, reply, call, java, false, at).process
        if (self) process(bound(msg.toRole)) else Proc.sync[Active, Any](bound(msg.toRole), msg.label)(process)
      } else Proc.raise(refused)
    }
  }

  /** The receiver's check, at the start of the callee's process (on its COG), before the method body. */
  private def receive(t: Any, d: Session.Delivery): Proc[Any] = {
    val msg = d.msg
    val v =
      if (endedBy ne null) ended(msg.toRole, msg, asSender = false, d.at)
      else {
        val r = step(msg.toRole, msg.id)
        if (r >= 0) null else violation(msg.toRole, ~r, msg, asSender = false, "", d.at)
      }
    if (v eq null) d.invoke(t)
    else if (v.afterEnd) Proc.raise(v)
    else sessionType.policy match {
      case Policy.LogAndContinue => d.invoke(t)
      case Policy.Drop if d.oneWay => Proc.unit
      case _                     => Proc.raise(v)
    }
  }

  /**
   * Advance `role`'s machine by message `msg`: the new state, or the complement (`~s`, negative)
   * of the state `s` in which the machine had no such transition. See the class comment for why a CAS.
   */
  private[monitor] def step(role: Int, msg: Int): Int = {
    val table = sessionType.tables(role)
    while (true) {
      val s = states.get(role)
      val n = table.step(s, msg)
      if (n < 0) return ~s
      if (states.compareAndSet(role, s, n)) return n
    }
    throw new AssertionError("unreachable")
  }

  private def payloadProblem(msg: MessageRef, args: Seq[Any]): String = {
    val cs = msg.classes
    if (cs eq null) return null
    if (args.length != cs.length) return s"${args.length} argument(s) for a payload of ${cs.length}"
    var i = 0
    while (i < cs.length) {
      val a = args(i)
      if (a == null || !cs(i).isInstance(a)) {
        val what = if (a == null) "null" else s"a ${a.getClass.getName}"
        return s"argument ${i + 1} is $what, not a ${msg.payload(i)} (${cs(i).getName})"
      }
      i += 1
    }
    null
  }

  // ------------------------------------------------------------------ violations

  /**
   * `at`: where the call was made, in the caller's source (null: not known), added to the reason;
   * only absc's synchronous calls give it (`AbsSessions.sync`: the ABS position of the call).
   */
  private def violation(role: Int, state: Int, msg: MessageRef, asSender: Boolean, reason: String, at: String): ProtocolViolation = {
    val v = new ProtocolViolation(id, sessionType.name, sessionType.roles(role), state, sessionType.expected(role, state),
      sessionType.actionText(msg, asSender), if (asSender) "sent" else "received", located(reason, at), afterEnd = false)
    record(v)
    // Into the runtime's trace, as an event of the object whose process saw it (the sender's when
    // sending, the receiver's when receiving), so the monitor pipeline sees violations with the
    // calls around them. Nothing happens when that object is not traced.
    Cogs.emit(Session.ViolationEvent, id, sessionType.name, v.role, v.state, v.received, v.side, v.expected)
    sessionType.policy match {
      case Policy.LogAndContinue => Session.Log.log(System.Logger.Level.WARNING, s"cogs-session: ${v.getMessage} (policy log: the call goes on)")
      case Policy.EndSession     => if (endedBy == null) endedBy = s"violation: ${v.getMessage}"
      case _                     =>
    }
    v
  }

  private def ended(role: Int, msg: MessageRef, asSender: Boolean, at: String): ProtocolViolation = {
    val s = states.get(role)
    new ProtocolViolation(id, sessionType.name, sessionType.roles(role), s, sessionType.expected(role, s),
      sessionType.actionText(msg, asSender), if (asSender) "sent" else "received", located(s"the session ended: $endedBy", at), afterEnd = true)
  }

  private def located(reason: String, at: String): String =
    if (at eq null) reason else if (reason.isEmpty) s"at $at" else s"$reason, at $at"

  // ------------------------------------------------------------------ end

  /**
   * End the session: later messages are rejected, and the report says which roles are not in a
   * final state and where they stopped. Call it when the protocol should be over (e.g. after
   * the last future resolved); messages still in flight are not waited for.
   */
  def end(): SessionReport = {
    if (endedBy == null) endedBy = "end() was called"
    report
  }

  /** Each role's state now, and the violations so far (does not end the session). */
  def report: SessionReport = {
    var roles: List[RoleStatus] = Nil
    var i = sessionType.roles.length - 1
    while (i >= 0) {
      val s = states.get(i)
      roles ::= RoleStatus(sessionType.roles(i), String.valueOf(bound(i)), s, sessionType.tables(i).finals(s), sessionType.expected(i, s))
      i -= 1
    }
    SessionReport(id, sessionType.name, roles, violations)
  }

  override def toString: String = s"Session($id of ${sessionType.name})"
}

object Session {
  private[monitor] val Log: System.Logger = System.getLogger("cogs.session")

  /**
   * The callee's process function of one checked message: it runs the receiver's check, then the
   * method (`call`, a Scala function or, `java`, a Java one). For a request (`reply` not null) it
   * is also the continuation after the method: applied a second time, to the method's value, it
   * checks the reply. One object for both saves the closures the check used to allocate per
   * message. `replying` is written and read only by the callee's process (on its COG, one step
   * after the other), so it needs no synchronisation; a one-way delivery never writes it, which
   * is why it may be shared between sends (see `Session.oneWayDelivery`). Its type is `Any =>
   * Any` because it is both: applied to the callee it returns the process (see [[process]]), to
   * the method's value the checked value.
   */
  private[monitor] final class Delivery(session: Session, val msg: MessageRef, reply: MessageRef, val call: AnyRef, val java: Boolean,
      val oneWay: Boolean, val at: String = null) extends (Any => Any) {
    private[this] var replying = false

    def apply(x: Any): Any =
      if (replying) session.answer(reply, x, at)
      else {
        val p = session.receive(x, this)
        if (reply eq null) p else { replying = true; p.map(this) }
      }

    /** This delivery as the function the runtime calls with the callee. */
    def process: Active => Proc[Any] = this.asInstanceOf[Active => Proc[Any]]

    private[monitor] def invoke(t: Any): Proc[Any] =
      if (java) toProc(call.asInstanceOf[JFunction[Any, cogs.javadsl.Proc[Any]]].apply(t))
      else call.asInstanceOf[Any => Proc[Any]](t)
  }

  // The runtime's processes implement `cogs.javadsl.Proc`: a Java process is one of them.
  private[session] def toProc[A](p: cogs.javadsl.Proc[A]): Proc[A] = p match {
    case q: Proc[A @unchecked] => q
    case null => throw new NullPointerException("a process is null (a method returned null instead of a Proc)")
    case other => throw new IllegalArgumentException(s"${other.getClass.getName} is not a process built with Proc's factories")
  }

  /**
   * The name of the user trace event (`cogs.trace.TraceEvent.User`) a violation emits; its payload:
   * session, protocol, role, state, received action, side ("sent"/"received"), expected actions.
   */
  final val ViolationEvent = "session-violation"
}
