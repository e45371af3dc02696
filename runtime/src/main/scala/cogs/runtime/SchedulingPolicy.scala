package cogs.runtime

/**
 * A process as a [[SchedulingPolicy]] sees it when it picks the next one to run. Only valid during
 * the `choose` call that received it; keep nothing of it beyond the call.
 */
trait Scheduled {
  /** The method the process runs (the label of the call), or null for an unnamed call. */
  def method: String

  /** The object the call was made on. */
  def target: Active

  /** The future the process resolves (created on first use for a one-way call). */
  def destiny: Fut[Any]

  /** The simulated time at which the call was made (zero in a runtime without a clock then). */
  def arrival: SimTime = SimTime.Zero

  /** The absolute simulated time of the call's deadline, or null if it has none. */
  def deadline: SimTime = null
}

/**
 * Chooses which process of a COG runs next (ABS's user-defined schedulers, `[Scheduler: f(queue)]`).
 * Without a policy a COG runs the processes that may run in the order they became ready.
 *
 * `choose` is called on the COG's thread, between two slices, whenever the COG picks a process and
 * at least one may run; `queue` holds exactly those that may run now (their guards hold), in the
 * order they became ready (those woken by one change of state, such as
 * a condition that now holds, in no particular order), and is never empty. It must return one of them. It may read the state
 * of the COG's objects (no process of the COG runs meanwhile) but must not call into the runtime.
 * A policy that throws, or returns something not in `queue`, is a fatal error of the COG (see
 * `cogs.on-fatal-error`): the runtime cannot tell which process should run instead.
 *
 * A process whose guard throws is picked before the policy is asked: it only raises the exception.
 *
 * Cost: each pick offers the whole ready queue (as ABS offers a scheduler function the whole
 * queue), so a COG with a policy pays time proportional to its queue's length per pick; a COG
 * with ten thousand calls waiting pays that much per call. COGs without a policy do not.
 */
trait SchedulingPolicy {
  def choose(queue: java.util.List[Scheduled]): Scheduled
}

/** A [[SchedulingPolicy]] failed: it threw, or chose a process that was not offered. */
final class SchedulingPolicyException(message: String, cause: Throwable) extends RuntimeException(message, cause)
