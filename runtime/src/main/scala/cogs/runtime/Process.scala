package cogs.runtime

/**
 * One process: an asynchronous call being served (or the main block), with the rest of its work
 * as data: the next [[Proc]] node to interpret and a stack of continuation frames (the
 * synchronous call stack). A suspended process holds no thread.
 *
 * A process is its own node in its COG's inbox, and its own waiter on a future.
 *
 * `fut` is the future the process resolves, or null for a one-way call (`tell`): nobody holds
 * its future, so none is allocated unless the process asks for its [[destiny]].
 */
private[runtime] final class Process(
    val cog: Cog,
    val target: Active,
    val label: String,
    private[this] var fut$ : Fut[Any],
    entry: Active => Proc[Any]
) extends ProcessCore(ProcessCore.QUEUED) with FutCore.Waiter {

  /** The future this process resolves; null for a one-way call that never asked for its destiny. */
  def fut: Fut[Any] = fut$

  /**
   * ABS `destiny`. A one-way call gets its future here, on first use: the process may hand it on
   * (`o ! m(destiny)`) and others may await it, exactly as with a call whose caller dropped the
   * future. Only the running process calls this, on its COG's thread, and only that thread
   * resolves it (at the end of the process), so a plain field is enough.
   */
  def destiny: Fut[Any] = {
    var f = fut$
    if (f eq null) { f = new Fut[Any](cog.runtime, this); fut$ = f }
    f
  }

  /**
   * Before the process starts: the call to make on `target` (a function). Afterwards: the next
   * `Proc` node to interpret. One field for both keeps a queued call small.
   */
  private[this] var slot: AnyRef = entry

  def started: Boolean = slot.isInstanceOf[Proc[_]] || (slot eq null)
  def current: Proc[Any] = slot.asInstanceOf[Proc[Any]]
  def current_=(p: Proc[Any]): Unit = slot = p
  private[runtime] var stack: Array[AnyRef] = null
  private[runtime] var sp: Int = 0

  /** The guard of the await this process is suspended in, or null. */
  var guard: Guard = null
  /** For a simple guard: the future it is registered on; for `get`: the future that blocks the COG. */
  var parkedOn: Fut[_] = null
  def blockedOn: Fut[_] = parkedOn
  def blockedOn_=(f: Fut[_]): Unit = parkedOn = f
  /**
   * Incremented at every resume, so that stale wake-ups of an older await can be told apart.
   * Wake tokens read it from other threads without synchronisation: a stale read only causes a
   * spurious wake-up, which the COG absorbs by re-checking the guard.
   */
  var epoch: Int = 0
  /** The epoch for which wake tokens have been registered (complex guards only). */
  var tokensEpoch: Int = -1
  /** Where the COG keeps it while suspended: one of Cog.NOWHERE/COND/FUT, and the index there. */
  var waitList: Byte = 0
  /** The COG's slice count when the guard was last evaluated: no need to evaluate it again before another slice ran. */
  var checkedAt: Int = -1
  /**
   * The failed future whose exception this process re-raised last (await or get), so that if it
   * dies of that same exception its own failure names where the exception came from.
   */
  var raisedFrom: Fut.Failed = null
  /** Set by the COG when the process ended; a late wake-up of a finished process is dropped. */
  var finished: Boolean = false
  var waitIndex: Int = -1
  /** TraceHooks.Traced once a Started event was emitted for this process; then its other events are too. */
  var traceMode: Byte = 0

  def takeEntry(): Active => Proc[Any] = { val e = slot.asInstanceOf[Active => Proc[Any]]; slot = null; e }

  def push(frame: AnyRef): Unit = {
    var s = stack
    if (s eq null) { s = new Array[AnyRef](4); stack = s }
    else if (sp == s.length) { s = java.util.Arrays.copyOf(s, sp * 2); stack = s }
    s(sp) = frame
    sp += 1
  }

  def pop(): AnyRef = {
    sp -= 1
    val f = stack(sp)
    stack(sp) = null
    f
  }

  /** Wake from a future: only if parked, and then exactly once (see ProcessCore). */
  def onResolved(f: FutCore): Unit = wake()

  def wake(): Unit =
    if (casState(ProcessCore.PARKED, ProcessCore.QUEUED)) cog.enqueueAndSchedule(this)

  def describe: String = {
    val m = if (label eq null) "(asynchronous call)" else label
    s"$target.$m"
  }

  override def toString: String = s"Process($describe)"
}

/** Wakes a process for one await only: guards with several futures register one per future. */
private[runtime] final class WakeToken(p: Process, epoch: Int) extends FutCore.Waiter {
  def onResolved(f: FutCore): Unit =
    // A stale token (the process has moved on) may still wake it: the COG re-checks the guard
    // and parks it again, so a spurious wake-up costs time, never correctness.
    if (p.epoch == epoch) p.wake()
}
