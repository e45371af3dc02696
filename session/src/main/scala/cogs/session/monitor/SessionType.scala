package cogs.session.monitor

import java.util.concurrent.atomic.AtomicLong

import cogs.runtime.Active
import cogs.session.ProjectedProtocol
import cogs.session.fsm.Action

/**
 * A message of a protocol, resolved once to its interned id: what `Session.send` takes so that
 * checking a call costs no look-up by name. Get it from [[SessionType.message]].
 */
final class MessageRef private[monitor] (val sessionType: SessionType, val id: Int, val from: String, val to: String, val label: String,
    private[monitor] val fromRole: Int, private[monitor] val toRole: Int, val payload: List[String],
    // null: not checked at run time (a type declared with a schema other than <java>)
    private[monitor] val classes: Array[Class[_]]) {
  override def toString: String = s"$label(${payload.mkString(", ")}) from $from to $to"
}

/**
 * A protocol made ready for run-time checking: its messages interned (every (sender, receiver,
 * label) gets an id), each role's machine compiled to a [[Table]] indexed by those ids, payload
 * types resolved to classes. Built once; [[start]] then makes sessions of it.
 */
final class SessionType(val protocol: ProjectedProtocol, val policy: Policy) {
  private[monitor] val roles: Array[String] = protocol.roles.toArray
  private[this] val roleIndex: Map[String, Int] = roles.zipWithIndex.toMap

  private[this] val classOf: Map[String, Class[_]] = protocol.types.collect {
    case (alias, t) if t.schema == "java" =>
      val c =
        try Class.forName(t.target)
        catch {
          case _: ClassNotFoundException | _: LinkageError =>
            throw new IllegalArgumentException(s"${t.pos}: error: payload type $alias: class ${t.target} is not on the class path")
        }
      alias -> c
  }

  /** Every message of the protocol, in the order of first use in the role machines. */
  val messages: IndexedSeq[MessageRef] = {
    val keys = scala.collection.mutable.LinkedHashMap.empty[(String, String, String), List[String]]
    for (r <- protocol.roles; t <- protocol.fsm(r).transitions if t.action.send)
      keys.getOrElseUpdate((r, t.action.peer, t.action.label), t.action.payload)
    keys.toIndexedSeq.zipWithIndex.map { case (((f, to, l), pl), i) =>
      val cs = if (pl.forall(classOf.contains)) pl.map(classOf).toArray else null
      new MessageRef(this, i, f, to, l, roleIndex(f), roleIndex(to), pl, cs)
    }
  }
  private[this] val byKey: Map[(String, String, String), MessageRef] = messages.map(m => (m.from, m.to, m.label) -> m).toMap

  private[monitor] val tables: Array[Table] = roles.map { r =>
    Table(protocol.fsm(r), (a: Action) => if (a.send) byKey((r, a.peer, a.label)).id else byKey((a.peer, r, a.label)).id)
  }

  // Per role and state, what the role may do there, in the machine's order; built once (one pass
  // over each machine's transitions) so that a report, made per session at its end, allocates
  // nothing for it.
  private[this] val expectedText: Array[Array[List[String]]] = roles.map { r =>
    val fsm = protocol.fsm(r)
    val byState = Array.fill(fsm.states)(List.newBuilder[String])
    fsm.transitions.foreach(t => byState(t.from) += t.action.text)
    byState.map(_.result())
  }

  /** What role `role` may do in `state`, as `S!login(String)` / `B?quit()` (for reports; not on the checking path). */
  private[monitor] def expected(role: Int, state: Int): List[String] = expectedText(role)(state)

  private[monitor] def actionText(m: MessageRef, asSender: Boolean): String =
    if (asSender) s"${m.to}!${m.label}(${m.payload.mkString(", ")})" else s"${m.from}?${m.label}(${m.payload.mkString(", ")})"

  def name: String = protocol.name

  /** The message `label` from `from` to `to`; throws if the protocol has none. */
  def message(from: String, to: String, label: String): MessageRef = byKey.getOrElse((from, to, label),
    throw new NoSuchElementException(s"protocol ${protocol.name} has no message $label from $from to $to"))

  private[this] val counter = new AtomicLong

  /**
   * A new session of this protocol with each role played by an active object (one object may
   * play several roles, and take part in any number of sessions). Named `Protocol#n`.
   */
  def start(bindings: Map[String, Active]): Session = {
    val objs = new Array[Active](roles.length)
    var i = 0
    while (i < roles.length) { objs(i) = bindings.getOrElse(roles(i), null); i += 1 }
    if (bindings.size != roles.length || objs.contains(null)) start(s"${protocol.name}#${counter.incrementAndGet()}", bindings) // throws, naming what is wrong
    else new Session(this, null, counter.incrementAndGet(), objs)
  }

  /**
   * [[start]] from a Java map (the Java API): the objects are read from `bindings` once, with no
   * Scala map built per session (banking starts a session per transfer); a binding that is not
   * right gets the same error as [[start]].
   */
  private[session] def startJava(id: String, bindings: java.util.Map[String, _ <: Active]): Session = {
    val objs = new Array[Active](roles.length)
    var i = 0
    while (i < roles.length) { objs(i) = bindings.get(roles(i)); i += 1 }
    if (bindings.size != roles.length || objs.contains(null)) {
      import scala.jdk.CollectionConverters._
      val m: Map[String, Active] = bindings.asScala.toMap
      if (id eq null) start(m) else start(id, m) // throws, naming what is wrong
    } else new Session(this, id, if (id eq null) counter.incrementAndGet() else 0L, objs)
  }

  /**
   * A session of this protocol with every role open: objects accept roles one by one, and the
   * session starts when the last role is accepted (see [[Invitation]]). Named `Protocol#n`.
   */
  def invite(): Invitation = invite(s"${protocol.name}#${counter.incrementAndGet()}")

  def invite(id: String): Invitation = new Invitation(this, id)

  /** The protocol's roles, in the order of its declaration. */
  def roleNames: List[String] = roles.toList

  def start(id: String, bindings: Map[String, Active]): Session = {
    val unknown = bindings.keySet -- roles
    require(unknown.isEmpty, s"protocol ${protocol.name} has no role(s) ${unknown.mkString(", ")} (its roles: ${roles.mkString(", ")})")
    val missing = roles.filterNot(bindings.contains)
    require(missing.isEmpty, s"session $id of ${protocol.name}: no object plays role(s) ${missing.mkString(", ")}")
    val objs = roles.map(bindings)
    objs.zip(roles).foreach { case (o, r) => require(o != null, s"session $id of ${protocol.name}: role $r is bound to null") }
    new Session(this, id, objs.toArray[Active])
  }

  override def toString: String = s"SessionType(${protocol.name}, policy $policy)"
}
