package cogs.absc.monitoring

import java.util.concurrent.{ConcurrentHashMap, ConcurrentLinkedQueue}

import scala.jdk.CollectionConverters._

import cogs.absc.lib.AbsCall
import cogs.absc.run.{MonitoredRun, ProgramRunner, RunContext}
import cogs.runtime.{Active, Cogs, Fut, Proc}
import cogs.session.monitor.{Invitation, Policy, ProtocolViolation, SessionReport}
import cogs.monitor.pipeline.Json

/**
 * The run-time half of the `sessions` of a monitor configuration, for a compiled ABS model.
 *
 * Binding (the invitation step): every object of a class bound to a role is offered that role
 * when it is created (absc instruments `new` of those classes only): it accepts the role in the
 * oldest session of the protocol in which the role is still open, or in a new one. So the first
 * Buyer, the first Seller and the first Authenticator play one session, the second of each the
 * next, and a session starts when each of its roles has its object. An object whose class plays
 * several roles takes them all in one session.
 *
 * Messages: absc instruments only the calls, asynchronous ([[send]]) and synchronous ([[sync]]),
 * made in a method of a class that plays a role, of a method that the configuration maps to a
 * message from that role. Such a call is the message from the caller's role to the callee's role
 * in the caller's session, sent through the session (its sender's machine checked now, the
 * receiver's when the callee's process starts, the reply, if mapped, when it finishes: for a
 * synchronous call, the reply is its return value). A synchronous call on `this`, by an object
 * that plays both roles of a mapped message, is that message (one role of the object sends to
 * another), as the asynchronous `this!m(..)` is. A call between objects that are not partners in
 * one session is not a protocol message; one to an object of the receiving role's class that plays
 * it in another session, or a message of a session that has not started, is a violation of its own
 * (reported with the others). The main block plays the roles bound to `main`: its object takes
 * them as the block starts ([[mainBlockStarted]]), so in the first session, and its calls are
 * messages like any role's (a message to it can only be a reply: it has no methods).
 *
 * The report ([[finish]]): every session's end report, sessions that never started, and those
 * violations; the run fails (exit status 3) when a violation was seen or a role did not finish.
 */
private[absc] final class AbsSessions(entries: List[SessionEntry]) extends MonitoredRun.Sessions {

  private final class Membership(val inv: Invitation, val roles: List[String])

  private final class Route(val p: PerEntry, val inv: Invitation, val role: String, val c: MappedCall, val why: String)

  private final class PerEntry(val e: SessionEntry) {
    val byCall: Map[(String, String, String), MappedCall] = e.calls.map(c => (c.msg.from, c.msg.to, c.method) -> c).toMap
    val members = new ConcurrentHashMap[Active, Membership]
    // Every invitation made, oldest first; guarded by `this` (creations only, not messages).
    val invitations = scala.collection.mutable.ArrayBuffer.empty[Invitation]
    val extra = new ConcurrentLinkedQueue[ProtocolViolation]

    def created(o: Active, cls: String): Unit = {
      val roles = e.rolesOf(cls)
      if (roles.nonEmpty) synchronized {
        val inv = invitations.find(i => roles.forall(i.open.contains)).getOrElse {
          val i = e.sessionType.invite(); invitations += i; i
        }
        roles.foreach(r => inv.accept(r, o))
        members.put(o, new Membership(inv, roles))
      }
    }
  }

  private val per: List[PerEntry] = entries.map(new PerEntry(_))

  def created[T <: Active](o: T, cls: String): T = { per.foreach(_.created(o, cls)); o }

  /** In the main block's process, before the block (the runner calls it): its object takes the roles bound to `main`. */
  def mainBlockStarted(): Unit = created(Cogs.self, SessionEntry.MainBlock)

  /**
   * What a call of `method` from `sender` to `target` is: null if it is not a protocol message,
   * else the message (`c`, from `role`) with, in `why`, the reason it cannot go through its
   * session (null if it can). One lookup for asynchronous and synchronous calls.
   */
  private def route(sender: Active, target: Active, method: String): Route = {
    val it = per.iterator
    while (it.hasNext) {
      val p = it.next()
      val m = p.members.get(sender)
      if (m ne null) {
        val tm = if (target == null) null else p.members.get(target)
        if ((tm ne null) && (tm.inv eq m.inv)) {
          for (r1 <- m.roles; r2 <- tm.roles) {
            val c = p.byCall.getOrElse((r1, r2, method), null)
            if (c ne null) return new Route(p, m.inv, r1, c,
              if (m.inv.session.isDefined) null else s"the session has not started: role(s) ${m.inv.open.mkString(", ")} have no object yet")
          }
        } else if (tm ne null) {
          // The callee plays the receiving role, but in another session.
          for (r1 <- m.roles; r2 <- tm.roles) {
            val c = p.byCall.getOrElse((r1, r2, method), null)
            if (c ne null) return new Route(p, m.inv, r1, c,
              s"the callee ${target} plays $r2 in session ${tm.inv.id}, not in this one (where $r2 is ${m.inv.boundTo(r2).fold("not bound")(String.valueOf)})")
          }
        }
      }
    }
    null
  }

  /** An asynchronous call that may be a protocol message; `at`, its ABS position (null: unknown), is named by a violation. */
  def send[T <: Active, A](sender: Active, target: T, method: String, args: List[Any], at: String, call: T => Proc[A]): Fut[A] = {
    val r = route(sender, target, method)
    if (r eq null) Cogs.sendWithArgs(target, method, args, call)
    else if (r.why ne null) {
      val v = refuse(r, at)
      if (r.p.e.policy == Policy.LogAndContinue) Cogs.sendWithArgs(target, method, args, call)
      else Cogs.sendWithArgs(target, method, args, (_: T) => Proc.raise[A](v))
    } else r.inv.session.get.sendAt(r.c.msg, r.c.reply.orNull, args, call, at).asInstanceOf[Fut[A]]
  }

  /**
   * A synchronous call that may be a protocol message (see the class comment), as a step of the
   * caller's process. A message goes through its session's checked synchronous call: the
   * sender's machine when the step runs, the receiver's before the method runs, the reply (a
   * `reply-to`) against the return value when the method ends; a refused one fails the caller's
   * process with the [[ProtocolViolation]] (policy log runs the method). A call on the caller
   * itself (`this.m(..)` where the object plays both roles) is a message like any other; its
   * process has no synchronous-call node (see `Session.syncCall`), so that `Proc.now` can run it
   * where absc proved the method cannot suspend. `at` is the call's ABS position: a violation of
   * the call or of its reply names it.
   */
  def sync[T <: Active, A](sender: Active, target: T, method: String, args: List[Any], at: String, call: T => Proc[A]): Proc[A] = {
    val self = (target eq sender) && (target ne null)
    val r = route(sender, target, method)
    if (r eq null) plainSync(self, target, method, call)
    else if (r.why ne null) {
      val v = refuse(r, at)
      if (r.p.e.policy == Policy.LogAndContinue) plainSync(self, target, method, call) else Proc.raise[A](v)
    } else {
      val reply = r.c.reply.orNull
      r.inv.session.get.syncCall(r.c.msg, reply, args, call, java = false, self = self, at = at).asInstanceOf[Proc[A]]
    }
  }

  private def plainSync[T <: Active, A](self: Boolean, target: T, method: String, call: T => Proc[A]): Proc[A] =
    if (self) Proc.defer(call(target)) else Proc.sync(target, method)(call)

  /** A protocol message that cannot go through its session: recorded; the violation, for the policy to handle. */
  private def refuse(r: Route, at: String): ProtocolViolation = {
    val inv = r.inv
    // The sender's state, where there is one (a session that has not started has none: 0, its initial state).
    val state = inv.session.fold(0)(_.stateOf(r.role))
    val expected = inv.session.fold(List("the session to start"))(_.report.roles.find(_.role == r.role).fold(List.empty[String])(_.expected))
    val v = new ProtocolViolation(inv.id, r.p.e.protocol, r.role, state, expected, s"${r.c.msg.to}!${r.c.msg.label}(${r.c.msg.payload.mkString(", ")})",
      "sent", if (at eq null) r.why else s"${r.why}, at $at", afterEnd = false)
    r.p.extra.add(v)
    v
  }

  /** The end of the run: the sessions' reports. */
  def finish(): AbsSessions.Outcome = {
    val lines = Vector.newBuilder[String]
    val json = Vector.newBuilder[String]
    var violations = 0
    var unfinished = 0
    var sessions = 0
    per.foreach { p =>
      val invs = p.synchronized(p.invitations.toList)
      lines += s"  ${p.e.protocol} (${p.e.file}, policy ${p.e.policy}): ${invs.size} session${if (invs.size == 1) "" else "s"}"
      invs.foreach { inv =>
        sessions += 1
        inv.session match {
          case Some(s) =>
            val r: SessionReport = s.end()
            violations += r.violations.size
            unfinished += r.unfinished.size
            r.render.linesIterator.foreach(l => lines += s"    $l")
            json += Json.obj("type" -> "session", "session" -> r.session, "protocol" -> r.protocol, "complete" -> r.complete,
              "roles" -> r.roles.map(rs => Json.obj("role" -> rs.role, "object" -> rs.boundTo, "state" -> rs.state,
                "final" -> rs.isFinal, "expected" -> rs.expected)).map(Json.Raw))
            r.violations.foreach(v => json += violationJson(v))
          case None =>
            unfinished += inv.open.size
            lines += s"    session ${inv.id} (${p.e.protocol}): never started: no object plays ${inv.open.mkString(", ")}"
            json += Json.obj("type" -> "session", "session" -> inv.id, "protocol" -> p.e.protocol, "complete" -> false,
              "never-started" -> true, "open-roles" -> inv.open)
        }
      }
      p.extra.asScala.foreach { v =>
        violations += 1
        lines += s"    ${v.getMessage}"
        json += violationJson(v)
      }
    }
    val failed = violations + unfinished
    val head = s"cogs sessions: $sessions session${if (sessions == 1) "" else "s"}, $violations violation${if (violations == 1) "" else "s"}, " +
      s"$unfinished role${if (unfinished == 1) "" else "s"} not finished"
    json += Json.obj("type" -> "sessions-result", "sessions" -> sessions, "violations" -> violations,
      "unfinished-roles" -> unfinished, "exit-status" -> (if (failed > 0) ProgramRunner.ExitMonitor else 0))
    val verdict = if (failed == 0) "sessions verdict: every session complete (exit status 0)"
      else s"sessions verdict: $violations violation(s), $unfinished role(s) not finished (exit status ${ProgramRunner.ExitMonitor})"
    AbsSessions.Outcome(failed > 0, (head +: lines.result() :+ verdict).mkString("", "\n", "\n"), json.result(), violations, unfinished)
  }

  private def violationJson(v: ProtocolViolation): String =
    Json.obj("type" -> "session-violation", "session" -> v.session, "protocol" -> v.protocol, "role" -> v.role,
      "state" -> v.state, "side" -> v.side, "received" -> v.received, "expected" -> v.expected, "reason" -> v.reason,
      "message" -> v.getMessage)
}

/**
 * What generated code calls. The sessions of the run in progress are in its [[RunContext]]: set
 * by the runner before the main block and cleared after the report; runs one after the other or
 * at once in one JVM (`absc test`) each see their own.
 */
object AbsSessions {
  // The sessions of the run whose process calls (its RunContext), or null.
  // (Only install puts sessions there, so the cast cannot fail; null stays null.)
  private def current: AbsSessions = RunContext.current.sessions.asInstanceOf[AbsSessions]

  private[absc] def install(rt: cogs.runtime.CogRuntime, s: AbsSessions): Unit = RunContext.of(rt).sessions = s
  private[absc] def uninstall(rt: cogs.runtime.CogRuntime): Unit = RunContext.of(rt).sessions = null

  /** `new C(..)` of a class that plays a role: the object is offered its roles; returns it. */
  def created[T <: Active](o: T, cls: String): T = {
    val s = current
    if (s eq null) o else s.created(o, cls)
  }

  /**
   * [[send]] as absc writes it: the method's name from the message (`cogs.absc.lib.AbsCall`),
   * the target checked last (the arguments were evaluated into names before it).
   */
  def send[T <: Active, A](sender: Active, target: T, args: List[Any], at: String)(call: T => Proc[A]): Fut[A] =
    send(sender, AbsCall.target(target, call, at), AbsCall.methodOf(call), args, at, call)

  /** [[sync]] as absc writes it (see the other [[send]]). */
  def sync[T <: Active, A](sender: Active, target: T, args: List[Any], at: String)(call: T => Proc[A]): Proc[A] =
    sync(sender, AbsCall.target(target, call, at), AbsCall.methodOf(call), args, at, call)

  /**
   * An asynchronous call that may be a protocol message (see the class comment), made at `at`
   * (its ABS position, which a violation of the call, on either side, or of its reply names).
   */
  def send[T <: Active, A](sender: Active, target: T, method: String, args: List[Any], at: String, call: T => Proc[A]): Fut[A] = {
    val s = current
    if (s eq null) Cogs.sendWithArgs(target, method, args, call) else s.send(sender, target, method, args, at, call)
  }

  /**
   * A synchronous call that may be a protocol message (see [[AbsSessions.sync]]): a step of the
   * caller's process. absc emits it for every synchronous call it cannot rule out as a message,
   * including calls on `this` that it compiles to a value (`Proc.now` of this step): a mapped
   * method that cannot suspend is checked all the same.
   */
  def sync[T <: Active, A](sender: Active, target: T, method: String, args: List[Any], at: String, call: T => Proc[A]): Proc[A] = {
    val s = current
    if (s ne null) s.sync(sender, target, method, args, at, call)
    else if ((target eq sender) && (target ne null)) Proc.defer(call(target))
    else Proc.sync(target, method)(call)
  }

  private[monitoring] final case class Outcome(failed: Boolean, summary: String, jsonLines: Vector[String], violations: Int, unfinished: Int)
}
