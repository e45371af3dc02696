package cogs.session.monitor

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.{AtomicInteger, AtomicReferenceArray}

import cogs.runtime.Active

/**
 * The invitation step before a session, in the spirit of the paper's protocol mailboxes: a
 * session of a protocol is created with every role open, each role is offered to an object
 * ([[accept]]: the object takes the role if it is still open), and the session starts, with
 * every role bound, when the last open role is accepted. Code that wants the session waits for
 * it with [[whenStarted]] (a callback) instead of building the bindings itself, so the parties
 * can be found one by one (a registry, objects joining as they are created: absc's sessions bind
 * roles to objects this way).
 *
 * Concurrency: a role is taken by one compare-and-set from null, so two objects accepting one
 * role at once cannot both get it. The bound count is incremented after a successful CAS only,
 * so exactly one accept sees it reach the number of roles; that accept creates the [[Session]]
 * and publishes it in a volatile field before it runs the callbacks. Callbacks are taken from a
 * queue with `poll`, which hands each one to exactly one thread. No callback can be lost: one
 * registered by [[whenStarted]] is queued before that method reads the field; if it reads null,
 * the starter's write of the field comes later, so the starter's drain (which follows its write)
 * starts after the callback was queued and finds it; if it reads the session, it drains itself.
 * Either way the callback is polled, by one thread, once. `StressInvitationTest` races accepts
 * and callbacks from several threads.
 */
final class Invitation private[monitor] (val sessionType: SessionType, val id: String) {
  private[this] val roles = sessionType.roles
  private[this] val bound = new AtomicReferenceArray[Active](roles.length)
  private[this] val count = new AtomicInteger
  private[this] val callbacks = new ConcurrentLinkedQueue[Session => Unit]
  @volatile private[this] var started: Session = _

  private def index(role: String): Int = {
    val i = roles.indexOf(role)
    if (i < 0) throw new NoSuchElementException(s"protocol ${sessionType.name} has no role '$role' (its roles: ${roles.mkString(", ")})")
    i
  }

  /**
   * `obj` accepts `role`: true if the role was open and is now `obj`'s, false if another object
   * (or `obj` itself) took it first. The accept that binds the last open role starts the session
   * and runs the callbacks registered so far, on its own thread.
   */
  def accept(role: String, obj: Active): Boolean = {
    if (obj == null) throw new NullPointerException(s"invitation $id: role $role offered to null")
    val i = index(role)
    if (!bound.compareAndSet(i, null, obj)) false
    else {
      if (count.incrementAndGet() == roles.length) {
        val objs = Array.tabulate[Active](roles.length)(bound.get)
        started = new Session(sessionType, id, objs)
        drain()
      }
      true
    }
  }

  /** The object that accepted `role`, if one did. */
  def boundTo(role: String): Option[Active] = Option(bound.get(index(role)))

  /** The roles no object has accepted yet, in the protocol's order. */
  def open: List[String] = roles.indices.filter(bound.get(_) == null).map(roles(_)).toList

  def isStarted: Boolean = started != null

  /** The session, once every role is bound; None before. */
  def session: Option[Session] = Option(started)

  /**
   * Run `f` with the session when it starts: at once (on this thread) if it has started, else on
   * the thread of the accept that binds the last role. Each callback runs once.
   */
  def whenStarted(f: Session => Unit): Unit = {
    callbacks.add(f)
    if (started != null) drain()
  }

  private def drain(): Unit = {
    val s = started
    var f = callbacks.poll()
    while (f != null) { f(s); f = callbacks.poll() }
  }

  override def toString: String =
    if (isStarted) s"Invitation($id of ${sessionType.name}: started)" else s"Invitation($id of ${sessionType.name}: open ${open.mkString(", ")})"
}
