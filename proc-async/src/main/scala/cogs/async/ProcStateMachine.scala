package cogs.async

import scala.util.{Failure, Success, Try}

import cogs.runtime.Proc

/**
 * The base of the state machines that the `async` macro generates. scalac's async phase rewrites
 * the machine's `apply` into a loop over `state` and calls the hooks below by name (the phase's
 * structural contract: `state`, `state_=`, `completeSuccess`, `completeFailure`, `onComplete`,
 * `getCompleted`, `tryGet`). Public only because the generated subclass lives in user code.
 *
 * What the machine awaits is a `Proc` (`await(f)` of a future is `await(f.await)`): an ABS
 * `await f?`, a synchronous call that may suspend, anything the interpreter runs.
 * `getCompleted` never claims a result, so at every `await` the generated code stores the next
 * state, calls `onComplete(p)` (which only remembers `p`) and returns. `start`/`next` then give
 * the COG's interpreter `p.flatMap(re-enter the machine with p's value)`.
 *
 * Why this suspends without holding a thread, and why no wake-up can be lost: the machine never
 * registers a callback on a future, nor hands anything to another thread itself. If `p`
 * suspends (a pending future), it is the interpreter that parks the process, exactly as for an
 * `await` written with `flatMap`; whether the future is resolved before or after the process
 * parks is decided by the runtime's CAS on the future's word (FutCore) and on the process's state
 * word (ProcessCore), argued and stress-tested in module runtime. This class adds no hand-off of
 * its own. Its fields are only touched by the slices of its own process, one at a time; a slice
 * resumed on another worker sees the earlier slice's writes through that same hand-off.
 *
 * A failure of `p` is raised by the interpreter and fails the whole `async` process (its `Bind`),
 * with the original exception, as an ABS failure; the async phase allows no `try` around an
 * `await`, so nothing inside the block could have caught it.
 */
abstract class ProcStateMachine {
  private[this] var state$ = 0
  // What the machine stopped at, between `onComplete` and the next `apply`.
  private[this] var pending: Proc[AnyRef] = null
  // The block's outcome (a `done` or a `raise`), once it finished.
  private[this] var outcome: Proc[AnyRef] = null

  protected def state: Int = state$
  protected def state_=(s: Int): Unit = state$ = s

  /** Rewritten by the async phase: runs the block from the current state to its next `await` or its end. */
  def apply(tr$async: Try[AnyRef]): Unit

  protected def completeSuccess(value: AnyRef): Unit = outcome = Proc.done(value)

  protected def completeFailure(t: Throwable): Unit = {
    // The phase's catch-all also catches fatal errors; let the runtime's policy see those.
    if (ProcStateMachine.isFatal(t)) throw t
    outcome = Proc.raise(t)
  }

  protected def onComplete(p: Proc[AnyRef]): Unit = pending = p

  // Never known in advance: the interpreter runs `p` (a resolved future costs it no suspension).
  protected def getCompleted(p: Proc[AnyRef]): Try[AnyRef] = null

  protected def tryGet(tr: Try[AnyRef]): AnyRef = tr match {
    case Success(v) => v
    case Failure(e) => // not produced by this class (failures go through the interpreter); kept total
      completeFailure(e)
      this // the phase's sentinel: leave the dispatch loop, the block is finished
  }

  /** Called by the macro's expansion: run to the first `await` (or the end), then go on as a `Proc`. */
  final def start(): Proc[AnyRef] = {
    apply(ProcStateMachine.Started)
    next()
  }

  private def next(): Proc[AnyRef] = {
    val o = outcome
    if (o ne null) o
    else {
      val p = pending
      if (p eq null) throw new IllegalStateException("async state machine stopped without an await or an outcome")
      pending = null
      p.flatMap { v =>
        apply(Success(v))
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
