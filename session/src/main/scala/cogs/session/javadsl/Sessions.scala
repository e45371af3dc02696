package cogs.session.javadsl

import java.nio.file.Path
import java.util.function.{BiFunction, Function => JFunction}

import scala.annotation.varargs
import scala.jdk.CollectionConverters._

import cogs.javadsl
import cogs.runtime.{Active, Proc}
import cogs.session.{ProjectedProtocol, ProtocolModule}
import cogs.session.monitor.{Directory, Invitation, MessageRef, Offer, Policy, Registration, Session, SessionType}

/**
 * The Java API of sessions, as static methods:
 * {{{
 * ProtocolModule m = Sessions.load(Path.of("shop.scr"));
 * SessionType st = Sessions.sessionType(m.protocol("PingPong"), "reject");
 * Session s = Sessions.start(st, Map.of("A", a, "B", b));
 * MessageRef ping = st.message("A", "B", "ping");
 * Fut<Void> f = Sessions.send(s, ping, (Player p) -> p.ping(s, 3), 3);
 * }}}
 * Processes and futures are those of `cogs.javadsl`. Everything else (ProtocolModule,
 * SessionType.message, Session.end, reports) is used as is.
 */
object Sessions {

  /** Read and check a protocol file; throws ProtocolException (its message: the rendered errors). */
  def load(path: Path): ProtocolModule = ProtocolModule.load(path)

  /** Check protocol text named `file` in messages; throws ProtocolException. */
  def parse(file: String, text: String): ProtocolModule = ProtocolModule.parse(file, text)

  /** A protocol ready for sessions; `policy` is `reject`, `log`, `drop` or `end-session`. */
  def sessionType(protocol: ProjectedProtocol, policy: String): SessionType = new SessionType(protocol, Policy.parse(policy))

  /** A session with each role played by an active object. */
  def start(st: SessionType, bindings: java.util.Map[String, _ <: Active]): Session = st.startJava(null, bindings)

  /** [[start]] with a session name of the caller's choice. */
  def start(st: SessionType, id: String, bindings: java.util.Map[String, _ <: Active]): Session = {
    if (id == null) throw new NullPointerException("session id is null")
    st.startJava(id, bindings)
  }

  /** A session with every role open: objects accept roles (`Invitation.accept`) and it starts when all are bound. */
  def invite(st: SessionType): Invitation = st.invite()

  /** Run `f` with the session when the invitation's last role is accepted (at once if it has been). */
  def whenStarted(inv: Invitation, f: java.util.function.Consumer[Session]): Unit = inv.whenStarted(s => f.accept(s))

  /** The session of an invitation, or empty while roles are still open. */
  def sessionOf(inv: Invitation): java.util.Optional[Session] = inv.session.fold(java.util.Optional.empty[Session])(java.util.Optional.of(_))

  /** Send protocol message `msg` with payload `args` as the call `call` of the receiving role's object. */
  @varargs def send[T <: Active, A](s: Session, msg: MessageRef, call: JFunction[T, javadsl.Proc[A]], args: AnyRef*): javadsl.Fut[A] =
    s.sendJava(msg, args, call).asInstanceOf[javadsl.Fut[A]]

  /** A call whose future's resolution is the protocol message `reply` (see `Session.request`). */
  @varargs def request[T <: Active, A](s: Session, msg: MessageRef, reply: MessageRef, call: JFunction[T, javadsl.Proc[A]], args: AnyRef*): javadsl.Fut[A] =
    s.requestCall(msg, reply, args, call, java = true).asInstanceOf[javadsl.Fut[A]]

  /** A synchronous call as protocol message `msg` (see `Session.sync`): a process step of the caller. */
  @varargs def sync[T <: Active, A](s: Session, msg: MessageRef, call: JFunction[T, javadsl.Proc[A]], args: AnyRef*): javadsl.Proc[A] =
    s.syncCall(msg, null, args, call, java = true).asInstanceOf[javadsl.Proc[A]]

  /** A synchronous call whose return value is protocol message `reply` (see `Session.syncRequest`). */
  @varargs def syncRequest[T <: Active, A](s: Session, msg: MessageRef, reply: MessageRef, call: JFunction[T, javadsl.Proc[A]], args: AnyRef*): javadsl.Proc[A] =
    s.syncCall(msg, reply, args, call, java = true).asInstanceOf[javadsl.Proc[A]]

  // The overloads without a payload and with one payload element below: a Java call of a varargs
  // method makes an array, and the Scala side a sequence around it, for every message; these
  // overloads (which Java picks before the varargs ones) pass the shared empty sequence, or a
  // one-element list (one object instead of two) (docs/sessions.md).

  /** [[send]] of a message without payload. */
  def send[T <: Active, A](s: Session, msg: MessageRef, call: JFunction[T, javadsl.Proc[A]]): javadsl.Fut[A] =
    s.sendJava(msg, Nil, call).asInstanceOf[javadsl.Fut[A]]

  /** [[send]] of a message with one payload element. */
  def send[T <: Active, A](s: Session, msg: MessageRef, call: JFunction[T, javadsl.Proc[A]], arg: AnyRef): javadsl.Fut[A] =
    s.sendJava(msg, arg :: Nil, call).asInstanceOf[javadsl.Fut[A]]

  /** [[request]] of a message without payload. */
  def request[T <: Active, A](s: Session, msg: MessageRef, reply: MessageRef, call: JFunction[T, javadsl.Proc[A]]): javadsl.Fut[A] =
    s.requestCall(msg, reply, Nil, call, java = true).asInstanceOf[javadsl.Fut[A]]

  /** [[request]] of a message with one payload element. */
  def request[T <: Active, A](s: Session, msg: MessageRef, reply: MessageRef, call: JFunction[T, javadsl.Proc[A]], arg: AnyRef): javadsl.Fut[A] =
    s.requestCall(msg, reply, arg :: Nil, call, java = true).asInstanceOf[javadsl.Fut[A]]

  /** [[tell]] of a message without payload. */
  def tell[T <: Active](s: Session, msg: MessageRef, call: JFunction[T, _ <: javadsl.Proc[_]]): Unit =
    s.tellJava(msg, Nil, call)

  /** [[tell]] of a message with one payload element. */
  def tell[T <: Active](s: Session, msg: MessageRef, call: JFunction[T, _ <: javadsl.Proc[_]], arg: AnyRef): Unit =
    s.tellJava(msg, arg :: Nil, call)

  /** One-way form of [[send]]. */
  @varargs def tell[T <: Active](s: Session, msg: MessageRef, call: JFunction[T, _ <: javadsl.Proc[_]], args: AnyRef*): Unit =
    s.tellJava(msg, args, call)

  /** A directory of the runtime, for objects to register for roles and sessions to find them (see `Directory`). */
  def directory(rt: javadsl.CogRuntime): Directory = new Directory(rt.asScala())

  /** Register `obj` for `role` of `st`; it takes every role it is offered. */
  def register(dir: Directory, st: SessionType, role: String, obj: Active): Registration = dir.register(st, role, obj)

  /**
   * Register `obj` for `role` of `st`; `join.apply(obj, offer)` runs as a call of `obj` when it is
   * offered the role and returns whether it takes it.
   */
  def register[T <: Active](dir: Directory, st: SessionType, role: String, obj: T, join: BiFunction[T, Offer, javadsl.Proc[java.lang.Boolean]]): Registration = {
    if (join == null) throw new NullPointerException(s"protocol ${st.name}: role $role registered with a null join")
    dir.register[T](st, role, obj, (t: T, o: Offer) => Session.toProc(join.apply(t, o)).asInstanceOf[Proc[Boolean]])
  }

  /** A new session of `st` whose roles go to objects registered in `dir`; the future fails if a role finds no taker. */
  def start(dir: Directory, st: SessionType): javadsl.Fut[Session] = dir.start(st)
}
