package cogs.monitor.pipeline

/** How events reach the instances of one monitor (MESA's dispatchers). */
sealed abstract class DispatchKind(val configName: String) {
  override def toString: String = configName
}

object DispatchKind {
  /** One instance sees every event (it indexes internally, if at all); it lives in the dispatcher actor. */
  case object Single extends DispatchKind("single")
  /** One instance per key, in a map held by the dispatcher actor itself. */
  case object Indexed extends DispatchKind("indexed")
  /** One monitor actor per key, created at the key's first event, ended at its completion event. */
  case object PerKey extends DispatchKind("per-key")
  /** A bounded pool of monitor actors; each key goes to one of them, whose instance indexes internally. */
  case object Pool extends DispatchKind("pool")

  val all: List[DispatchKind] = List(Single, Indexed, PerKey, Pool)

  /** Kinds that need monitor actors, hence an outline mode. */
  def needsActors(k: DispatchKind): Boolean = k == PerKey || k == Pool
}

/**
 * How a pool assigns a key it has not seen to one of its actors.
 *
 * `RoundRobin` (the default) is what MESA's bounded-concurrent dispatcher does: the next actor in
 * turn, remembered in a map. Key counts per actor then differ by at most one (3,215 call signs on
 * 250 actors gave 12 or 13 each in the seed), whatever the keys' hash codes. Its price is a map
 * entry per live key; the entry is dropped at the key's completion event, so keys that end (futures,
 * sessions) do not accumulate. `Hash` (hash mod N) needs no map and no state at all, for key spaces
 * that never end; its spread is only as even as the hash codes (a binomial spread around the mean).
 */
sealed abstract class Assign(val configName: String) { override def toString: String = configName }
object Assign {
  case object RoundRobin extends Assign("round-robin")
  case object Hash extends Assign("hash")
  val all: List[Assign] = List(RoundRobin, Hash)
}

/** What happens to an event for which the key function gives no key (null or None). */
sealed abstract class Unkeyed(val configName: String) { override def toString: String = configName }
object Unkeyed {
  /** Not given to any instance; counted per monitor and reported (nothing is dropped silently). */
  case object Skip extends Unkeyed("skip")
  /** Given to every live instance (parametric slicing's rule for events that match every slice). */
  case object Broadcast extends Unkeyed("broadcast")
  val all: List[Unkeyed] = List(Skip, Broadcast)
}

/**
 * The dispatch of one monitor.
 *
 * @param key        the index: events with equal keys go to the same instance, in order. Null or
 *                   `None` means "no key" (see `unkeyed`); `Some(k)` is unwrapped. Unused by `Single`.
 * @param completeOn an event after which its key's instance is ended (`end()` then dropped):
 *                   per-key and indexed; a pool only forgets the key's assignment
 * @param poolSize   actors of a pool
 */
final case class DispatchSettings[-E](
    kind: DispatchKind,
    key: E => Any = (_: Any) => null,
    completeOn: E => Boolean = (_: Any) => false,
    poolSize: Int = 16,
    assign: Assign = Assign.RoundRobin,
    unkeyed: Unkeyed = Unkeyed.Skip
) {
  require(poolSize >= 1, s"a pool needs at least one actor, got $poolSize")
}

/** One configured monitor: its name in reports, how to make an instance, how its events are dispatched. */
final case class MonitorSpec[E](name: String, make: Checker.Factory[E], dispatch: DispatchSettings[E])

/** A verdict as reported: which monitor, in which chain (tracer), which instance (key or actor), and the finding. */
final case class Verdict(monitor: String, chain: String, instance: String, finding: Finding)

/**
 * What one monitor did in one chain.
 *
 * @param events      events given to this monitor (an event broadcast to many instances counts once)
 * @param unkeyed     events without a key; with `unkeyed = skip` these reached no instance
 * @param instances   instances created (keys seen, or actors)
 * @param completed   instances ended by a completion event before the end of the trace
 * @param failed      instances that threw: their verdict says so, and they received nothing after it
 */
final case class RouteResult(
    monitor: String,
    chain: String,
    kind: DispatchKind,
    events: Long,
    unkeyed: Long,
    instances: Long,
    completed: Long,
    failed: Long,
    verdicts: Vector[Verdict]
)
