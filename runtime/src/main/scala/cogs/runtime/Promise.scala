package cogs.runtime

/**
 * A future that code outside every COG resolves: the reply of a remote call, a timer, an I/O
 * completion. `promise.future` is an ordinary [[Fut]]: a process `await`s it (suspends, holds no
 * thread) or `get`s it (blocks its COG), exactly as the future of a local call.
 *
 * Until it is completed, a promise counts as outstanding work of its runtime: the runtime is not
 * quiescent, [[CogRuntime.run]] and [[CogRuntime.awaitQuiescence]] wait, and `join` does not
 * report a deadlock, because the outcome can still come. So a promise must be completed (with a
 * value or a failure) on every path, or its runtime never becomes quiescent: whoever creates one
 * owns that obligation (the distributed module fails its promises when the node they wait on is
 * lost). Deadlock reports name a process that waits on it by `description`
 * (`awaits the reply of Counter.inc from node pekko://cogs@127.0.0.1:25520`).
 *
 * `success` and `failure` may be called from any thread, any number of times: the first one wins.
 */
final class Promise[A] private (runtime: CogRuntime, val description: String, counted: Boolean) {

  /** The future this promise resolves. */
  val future: Fut[A] = { val f = new PlainFut[A](runtime); f.promise = this; f }

  /** Resolve with `value`; false if the promise was already completed. */
  def success(value: A): Boolean = {
    val won = future.resolve(value)
    if (won) release()
    won
  }

  /**
   * Fail with `error`; false if already completed. A process awaiting the future gets `error`
   * itself; `join` throws a [[CallFailedException]] that names `description` and has `error` as
   * its cause.
   */
  def failure(error: Throwable): Boolean = {
    if (error == null) throw new NullPointerException("Promise.failure(null)")
    val won = future.fail(error, description)
    if (won) release()
    won
  }

  /** True once completed. */
  def isCompleted: Boolean = future.isDone

  /**
   * Why no quiescence is seen too early: the count taken in the constructor is given back only
   * AFTER the future was resolved, and resolving wakes every waiter on the resolving thread: a
   * process parked on the future is pushed into its COG's inbox (or, when the resolving thread is
   * that COG's own, into its ready queue, the COG being scheduled already) and the COG is counted active
   * (CogCore.activate counts before its CAS) or was already scheduled, hence already counted.
   * So between "promise outstanding" and "its waiter scheduled" the runtime's count never drops
   * to zero, and a thread waiting for quiescence cannot take the program as finished while the
   * woken process still has to run. A thread in `join` is unparked by its own waiter.
   */
  // Only the winning completion gets here (Fut.complete's CAS decides it, and nothing else
  // resolves a promise's future), so the count is given back exactly once.
  private def release(): Unit = if (counted) runtime.cogIdle()

  override def toString: String = s"Promise($description, ${future.poll.getOrElse("pending")})"
}

object Promise {

  /**
   * A new pending promise of `runtime`, counted as outstanding work from now on.
   * `description` says who will complete it, for deadlock reports and failures.
   */
  def apply[A](runtime: CogRuntime, description: String): Promise[A] = {
    if (runtime == null) throw new NullPointerException("Promise: runtime is null")
    if (description == null) throw new NullPointerException("Promise: description is null")
    // Counted before the future exists, so no waiter can ever see it uncounted.
    runtime.cogActivated()
    new Promise[A](runtime, description, true)
  }

  /**
   * A promise that is not counted as outstanding work (internal: the replies of remote calls
   * under a cluster clock, issue 30). There the cluster's hold keeps the runtime from quiescence
   * instead (ClusterClockLink), and the reply in flight is counted by the cluster's termination
   * detection; counting it here too would make the waiting node look busy, and the cluster clock
   * could never advance while a call waits for a timed method on another node.
   */
  private[cogs] def uncounted[A](runtime: CogRuntime, description: String): Promise[A] = {
    if (runtime == null) throw new NullPointerException("Promise: runtime is null")
    if (description == null) throw new NullPointerException("Promise: description is null")
    new Promise[A](runtime, description, false)
  }
}
