package cogs.session.monitor

import java.util.concurrent.{ConcurrentHashMap, CopyOnWriteArrayList}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicInteger}

import scala.util.{Failure, Success}

import cogs.runtime.{Active, CallFailedException, CogRuntime, Cogs, Fut, Proc, Promise}

/**
 * Actor discovery for sessions, in the spirit of the paper's protocol mailboxes: objects
 * register for roles of protocols, and [[start]] makes a session by inviting one registered
 * object per role, so the code that starts a session need not know who will play it.
 *
 * An invitation to a role is a `join` call of the candidate object: it is queued at the object's
 * COG like any call and runs as one of its processes, so the object decides (and may `await`)
 * under its own scheduling, as the paper's overridable `join` handler does. A candidate that
 * declines (`false`) or whose join fails is passed over, and the role goes to the next one.
 * Candidates of a role are offered it round-robin across sessions (the paper's round-robin
 * exchange per actor type): successive sessions go to successive objects. One object may be
 * registered for several roles, of one protocol or of several, and play them in many sessions.
 *
 * The session's future resolves when every role has been accepted; it fails with
 * [[NoParticipantException]] when a role has no registered object, or every candidate declined.
 * The future is a runtime [[Promise]]: until it is completed the runtime is not quiescent.
 *
 * Concurrency: registrations are copy-on-write lists (a start takes a snapshot; a registration
 * cancelled meanwhile may still be offered a role by a start that took it before). Each role of a
 * start is offered to one candidate at a time, the next offer made by the completion of the
 * previous join, so no role is accepted twice; `Invitation.accept`'s CAS would refuse it anyway.
 * The promise is completed by the first of: the invitation's start callback (success) or a role
 * running out of candidates (failure); `Promise` lets only the first completion count.
 */
final class Directory(runtime: CogRuntime) {
  import Directory._

  if (runtime == null) throw new NullPointerException("Directory: runtime is null")

  private[this] val roles = new ConcurrentHashMap[Key, RoleEntry]

  private def entry(st: SessionType, role: String): RoleEntry = {
    if (!st.roles.contains(role))
      throw new NoSuchElementException(s"protocol ${st.name} has no role '$role' (its roles: ${st.roles.mkString(", ")})")
    roles.computeIfAbsent(new Key(st, role), _ => new RoleEntry)
  }

  /**
   * Register `obj` for `role` of `st`: when a session needs the role and `obj`'s turn has come,
   * `join(obj, offer)` runs as a call of `obj` and says whether it takes the role. Without `join`
   * the object takes every role it is offered.
   */
  def register[T <: Active](st: SessionType, role: String, obj: T, join: (T, Offer) => Proc[Boolean] = Directory.acceptAll): Registration = {
    if (obj == null) throw new NullPointerException(s"protocol ${st.name}: role $role registered for null")
    if (join == null) throw new NullPointerException(s"protocol ${st.name}: role $role registered with a null join")
    val e = entry(st, role)
    val c = new Candidate(obj, join.asInstanceOf[(Active, Offer) => Proc[Boolean]])
    e.candidates.add(c)
    new Registration(st, role, obj, () => e.candidates.remove(c))
  }

  /** How many objects are registered for `role` of `st` now. */
  def registered(st: SessionType, role: String): Int = entry(st, role).candidates.size

  /** A new session of `st` (named `Protocol#n`), its roles given to registered objects. */
  def start(st: SessionType): Fut[Session] = start(st.invite())

  /** A new session of `st` named `id`. */
  def start(st: SessionType, id: String): Fut[Session] = start(st.invite(id))

  private def start(inv: Invitation): Fut[Session] = {
    val st = inv.sessionType
    val promise = Promise[Session](runtime, s"the start of session ${inv.id} of ${st.name} (directory)")
    val snapshot = st.roleNames.map(r => r -> entry(st, r))
    snapshot.collectFirst { case (r, e) if e.candidates.isEmpty => r } match {
      case Some(r) =>
        promise.failure(new NoParticipantException(s"session ${inv.id} of ${st.name}: no object is registered for role $r"))
      case None =>
        inv.whenStarted(s => promise.success(s))
        val failed = new AtomicBoolean
        for ((r, e) <- snapshot) {
          val cands = e.candidates.toArray(new Array[Candidate](0))
          if (cands.isEmpty) // every registration was cancelled since the check above
            promise.failure(new NoParticipantException(s"session ${inv.id} of ${st.name}: no object is registered for role $r"))
          else {
            val first = Math.floorMod(e.turn.getAndIncrement(), cands.length)
            offer(inv, r, cands, first, 0, Nil, promise, failed)
          }
        }
    }
    promise.future
  }

  // Offer `role` to candidate number `first + tried` (mod n); the join's completion makes the next
  // offer, so one start has at most one offer of a role outstanding.
  private def offer(inv: Invitation, role: String, cands: Array[Candidate], first: Int, tried: Int, refusals: List[String],
      promise: Promise[Session], failed: AtomicBoolean): Unit =
    if (failed.get) () // another role found no taker: stop inviting for this session
    else if (tried == cands.length) {
      failed.set(true)
      promise.failure(new NoParticipantException(
        s"session ${inv.id} of ${inv.sessionType.name}: no object took role $role (${refusals.reverse.mkString("; ")})"))
    } else {
      val c = cands((first + tried) % cands.length)
      val o = new Offer(inv, role)
      val answer: Fut[Boolean] = Cogs.send[Active, Boolean](c.obj, "join", (t: Active) => Proc.defer(c.join(t, o)))
      answer.onComplete {
        case Success(true) =>
          // Only this start offers roles of `inv`, one at a time per role: the accept cannot lose.
          inv.accept(role, c.obj)
          ()
        case Success(false) =>
          offer(inv, role, cands, first, tried + 1, s"${c.obj} declined" :: refusals, promise, failed)
        case Failure(e) =>
          val why = e match { case w: CallFailedException if w.getCause != null => w.getCause; case other => other }
          offer(inv, role, cands, first, tried + 1, s"the join of ${c.obj} failed: $why" :: refusals, promise, failed)
      }
    }

  override def toString: String = s"Directory(${roles.size} roles registered)"
}

object Directory {
  private val Accept: Proc[Boolean] = Proc.done(true)

  /** The join of an object registered without one: it takes every role it is offered. */
  val acceptAll: (Any, Offer) => Proc[Boolean] = (_, _) => Accept

  private final class Key(val st: SessionType, val role: String) {
    override def equals(o: Any): Boolean = o match {
      case k: Key => (k.st eq st) && k.role == role
      case _      => false
    }
    override def hashCode: Int = System.identityHashCode(st) * 31 + role.hashCode
  }

  private final class Candidate(val obj: Active, val join: (Active, Offer) => Proc[Boolean])

  private final class RoleEntry {
    val candidates = new CopyOnWriteArrayList[Candidate]
    val turn = new AtomicInteger
  }
}

/**
 * What a registered object is offered: `role` of the session `invitation` will start. The
 * object may keep the invitation to act once the session has started (`whenStarted`).
 */
final class Offer private[monitor] (val invitation: Invitation, val role: String) {
  def sessionId: String = invitation.id
  def protocolName: String = invitation.sessionType.name
  override def toString: String = s"Offer(role $role of $sessionId)"
}

/** An object's registration for a role; [[cancel]] removes it from later starts. */
final class Registration private[monitor] (val sessionType: SessionType, val role: String, val obj: Active, remove: () => Boolean) {
  /** False if it was already cancelled. */
  def cancel(): Boolean = remove()
  override def toString: String = s"Registration($obj for role $role of ${sessionType.name})"
}

/** A session could not start: a role has no registered object, or every candidate declined it. */
final class NoParticipantException(message: String) extends RuntimeException(message)
