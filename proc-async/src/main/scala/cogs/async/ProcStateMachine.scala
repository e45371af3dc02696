package cogs.async

import scala.util.{Failure, Success, Try}

import cogs.runtime.{Fut, Proc}

/**
 * The base of the state machines that the `async` macro generates. scalac's async phase rewrites
 * the machine's `apply` into a loop over `state` and calls the hooks below by name (the phase's
 * structural contract: `state`, `state_=`, `completeSuccess`, `completeFailure`, `onComplete`,
 * `getCompleted`, `tryGet`). Public only because the generated subclass lives in user code.
 *
 * How it suspends without holding a thread: the machine never registers a callback on a future
 * itself. When the generated code meets a pending future it calls `onComplete(f)`, which only
 * remembers `f`, and `apply` returns. `start`/`next` then hand the COG's interpreter a
 * `Proc.awaitResolved(f)` followed by "re-enter the machine with `f`'s outcome": the process parks
 * on `f` exactly as an ABS `await f?` does. So no wake-up can be lost here for the same reason none
 * is lost for any `await`: whether `f` is resolved before or after the process parks is decided by
 * the runtime's single CAS on the future's word (FutCore) and on the process's state word
 * (ProcessCore), argued and stress-tested in module runtime; this class adds no hand-off of its
 * own. The machine's fields are touched only by the process's current slice, and a slice that
 * resumes on another worker sees the previous slice's writes through that same hand-off (the
 * CAS/inbox publication orders them).
 */
abstract class ProcStateMachine {
  private[this] var state$ = 0
  // The future the machine stopped at, between `onComplete` and the next `apply`.
  private[this] var pending: Fut[AnyRef] = null
  // The block's outcome (a `done` or a `raise`), once it finished.
  private[this] var outcome: Proc[AnyRef] = null

  protected def state: Int = state$
  protected def state_=(s: Int): Unit = state$ = s

  /** Rewritten by the async phase: runs the block from the current state to its next pending `await` or its end. */
  def apply(tr$async: Try[AnyRef]): Unit

  protected def completeSuccess(value: AnyRef): Unit = outcome = Proc.done(value)

  protected def completeFailure(t: Throwable): Unit = {
    // The phase's catch-all would also catch a fatal error; let the runtime's policy see it.
    if (ProcStateMachine.isFatal(t)) throw t
    outcome = Proc.raise(t)
  }

  protected def onComplete(f: Fut[AnyRef]): Unit = pending = f

  protected def getCompleted(f: Fut[AnyRef]): Try[AnyRef] =
    if (f.isDone) f.poll.get else null

  protected def tryGet(tr: Try[AnyRef]): AnyRef = tr match {
    case Success(v) => v
    case Failure(wrapped) =>
      // Every Try here comes from `Fut.poll`, which wraps the failure in a fresh
      // CallFailedException (the view from outside the runtime) whose cause is the exception the
      // producer failed with. Inside a process ABS sees the raw one (as `Proc.await` raises it),
      // so that a `catch` matches its type: unwrap exactly that one layer.
      completeFailure(wrapped.getCause)
      this // the phase's sentinel: leave the dispatch loop, the block is finished
  }

  /** Called by the macro's expansion: run to the first pending await (or the end), then go on as a `Proc`. */
  final def start(): Proc[AnyRef] = {
    apply(ProcStateMachine.Started)
    next()
  }

  private def next(): Proc[AnyRef] = {
    val o = outcome
    if (o ne null) o
    else {
      val f = pending
      if (f eq null) throw new IllegalStateException("async state machine stopped without a pending await or an outcome")
      pending = null
      // awaitResolved, not await: a failed `f` must reach the machine (tryGet) rather than raise here.
      Proc.awaitResolved(f).flatMap { _ =>
        apply(f.poll.get)
        next()
      }
    }
  }
}

private object ProcStateMachine {
  // The argument of the first `apply`; state 0 does not read it.
  private val Started: Try[AnyRef] = Success(null)

  // As the runtime's Cog.isFatal (private to it): what must not become an ABS failure.
  def isFatal(t: Throwable): Boolean = t match {
    case _: StackOverflowError => false
    case _: VirtualMachineError | _: LinkageError => true
    case _ => false
  }
}
