package cogs.runtime

/**
 * A COG blocked in `get` (ABS: the whole COG waits for one future), as inspection tools see it
 * from outside the runtime ([[CogRuntime.inspectBlocked]]): which process blocks it, for which
 * future, since which simulated time. Made by the COG when the `get` blocks; a fresh one per
 * blocking `get`, so that two reads of the same one mean the COG did not move in between.
 */
final class BlockedGet private[runtime] (process: Process, fut: Fut[_], val since: SimTime) {
  /** The process that blocks the COG, as reports name it (`Object#id.method`). */
  def blockedProcess: String = process.describe

  /** What it waits for, as deadlock reports say it (`the future of Object#id.method`, ...). */
  def waitingFor: String = fut.describeFuture

  override def toString: String = s"$blockedProcess blocks its COG in get since time $since, waiting for $waitingFor"
}
