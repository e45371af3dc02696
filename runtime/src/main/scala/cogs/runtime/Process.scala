package cogs.runtime

import cogs.runtime.internal.{Frame, FrameCall}

/**
 * One process: an asynchronous call being served (or the main block), with the rest of its work
 * as data: the next [[Proc]] node to interpret and a stack of continuation frames (the
 * synchronous call stack). A suspended process holds no thread.
 *
 * A process is its own node in its COG's inbox, its own waiter on a future, and the future of its
 * call: `send` hands the process itself to the caller, typed as a `Fut` (one object per call;
 * docs/runtime-design.md, section 2). A one-way call (`tell`) hands it to nobody, and then its
 * future word is never touched: ending it costs no CAS unless it asked for its [[destiny]].
 */
private[runtime] final class Process(
    private[runtime] val cog: Cog,
    target$ : Active,
    label$ : String,
    withFuture: Boolean,
    entry: Active => Proc[Any]
) extends ProcessCore(ProcessCore.QUEUED) with FutCore.Waiter with Scheduled with internal.Process {

  // A var only for `reuse`: a process is the call's label for its whole life.
  private[this] var label0: String = label$
  private[runtime] def label: String = label0

  /** [[Scheduled.method]]: the call's label. */
  def method: String = label

  // The callee, until the process ended successfully: a resolved future that a caller keeps (a
  // list of futures in a main block) must not keep the object alive. A failed process keeps it,
  // for the reports that name it.
  private[this] var callee: Active = target$
  def target: Active = callee

  // Whether anybody may hold this process as a future: a call with a future, or a process that
  // asked for its destiny. Written before the call is queued or by the running process itself.
  private[this] var handedOut: Boolean = withFuture

  // What few calls need (a recording, a deadline, a simulated clock, a re-raised failure), off the
  // common path: allocated on first write, null until then. A process is allocated per call and a
  // suspended one stays alive. Written before the call is queued (the inbox's exchange publishes
  // it with the process, as it did the fields) or by the COG's main task; read by the COG's main
  // task only.
  private[this] var extra: Process.Extra = null
  private def extraForWrite: Process.Extra = {
    var x = extra
    if (x eq null) { x = new Process.Extra(this); extra = x }
    x
  }

  /** In a recorded or replayed run, the call's name (see ScheduleTrace); null otherwise. */
  def scheduleName: String = { val x = extra; if (x eq null) null else x.scheduleName }
  private[runtime] def scheduleName_=(n: String): Unit = extraForWrite.scheduleName = n

  /** The absolute simulated time by which the call should finish (ABS `[Deadline: d]`); null: none. */
  override def deadline: SimTime = { val x = extra; if (x eq null) null else x.deadline }
  private[runtime] def deadline_=(t: SimTime): Unit = extraForWrite.deadline = t

  /**
   * `await duration` (Proc.AwaitTime): the clock keeps this process through its side object (see
   * SimClock, "One object per wait"); `timeUp` says the clock has woken it. Reset here, on the
   * COG's main task, before the process is parked and handed to the clock.
   */
  private[runtime] def startTimeWait(): Unit = extraForWrite.timeUp = false
  /** The clock woke this process from its `await duration` (read by its COG's main task). */
  private[runtime] def timeUp: Boolean = { val x = extra; (x ne null) && x.timeUp }
  private[runtime] def timeWaitSlot: Process.Extra = extra

  /** The simulated time of the call; set only in a runtime that has a clock (null reads as zero). */
  private[runtime] def arrivedAt: SimTime = { val x = extra; if (x eq null) null else x.arrivedAt }
  private[runtime] def arrivedAt_=(t: SimTime): Unit = extraForWrite.arrivedAt = t
  override def arrival: SimTime = { val t = arrivedAt; if (t eq null) SimTime.Zero else t }

  // Fut: the runtime is the COG's; the producer is the process itself until it has ended.
  private[runtime] def runtime: CogRuntime = cog.runtime
  private[runtime] def producer: Process = if (isResolved) null else this

  /** The future this process resolves (itself); null for a one-way call that never asked for its destiny. */
  private[runtime] def fut: Fut[Any] = if (handedOut) asFut else null
  private def asFut: Fut[Any] = this.asInstanceOf[Fut[Any]]

  /**
   * ABS `destiny`: the process itself, as a future. A one-way call makes it its future here, on
   * first use: the process may hand it on (`o ! m(destiny)`) and others may await it, exactly as
   * with a call whose caller dropped the future. Only the running process calls this, on its COG's
   * thread, and only that thread resolves it (at the end of the process), so a plain field is
   * enough for the flag.
   */
  def destiny: Fut[Any] = { handedOut = true; asFut }

  /**
   * Before the process starts: the call to make on `target` (a function). Afterwards: the next
   * `Proc` node to interpret. One field for both keeps a queued call small.
   */
  private[this] var slot: AnyRef = entry

  private[runtime] def started: Boolean = slot.isInstanceOf[Proc[_]] || (slot eq null)
  private[runtime] def current: Proc[Any] = slot.asInstanceOf[Proc[Any]]
  private[runtime] def current_=(p: Proc[Any]): Unit = slot = p
  private[runtime] def takeEntry(): Active => Proc[Any] = { val e = slot.asInstanceOf[Active => Proc[Any]]; slot = null; e }

  // The synchronous call stack: continuation frames, on the heap. While the process has never had
  // two frames at once, `stack` is its one frame itself (or null), not an array: a process that
  // waits under one frame (a method in frame form suspended in `await duration`, a `Proc` with one
  // `map`) then costs no 48-byte array. The first time a second frame comes, the array is made
  // and kept. A frame is never an Array[AnyRef] (frames are Proc nodes, continuations and
  // Frame objects), so the type test tells the two apart.
  private[this] var stack: AnyRef = null
  private[this] var sp: Int = 0

  private[runtime] def hasFrames: Boolean = sp > 0
  /** Frames on the stack (ScaleTest checks that loops keep it constant). */
  def depth: Int = sp

  private[runtime] def push(frame: AnyRef): Unit = {
    stack match {
      case a: Array[AnyRef] =>
        var s = a
        if (sp == s.length) { s = java.util.Arrays.copyOf(s, sp * 2); stack = s }
        s(sp) = frame
        sp += 1
      case null => stack = frame; sp = 1
      case one =>
        // 8, not 4: a chain of frame-form methods suspended under a few levels of calls (Listing
        // 5: six frames) or a Proc method with a few maps and binds fills 4 at once, and growing
        // costs the first array and a copy (docs/runtime-design.md, "Step 4, continued").
        val s = new Array[AnyRef](8)
        s(0) = one
        s(1) = frame
        stack = s
        sp = 2
    }
  }

  /** The process failed: its computation and call stack are garbage (what `describe` needs is kept). */
  private[runtime] def dropFrames(): Unit = {
    stack = null
    sp = 0
    if (started) slot = null
  }

  private[runtime] def pop(): AnyRef = {
    stack match {
      case s: Array[AnyRef] =>
        sp -= 1
        val f = s(sp)
        s(sp) = null
        f
      case one =>
        stack = null
        sp = 0
        one
    }
  }

  /** Frame code entered at stack depth `base` threw: the frames it linked on the way out are garbage. */
  private[runtime] def dropTo(base: Int): Unit =
    stack match {
      case s: Array[AnyRef] => while (sp > base) { sp -= 1; s(sp) = null }
      case _                => if (sp > base) { stack = null; sp = 0 }
    }

  /**
   * Frame code entered at stack depth `base` returned [[Frame.Suspended]]: it pushed its frames
   * innermost first, on the way out; reversed, the innermost is on top, where the interpreter pops
   * it first. (A linked list built inside out, as the design first proposed, needs two more fields
   * on the process or the COG for the list's ends; the array is there anyway, and a segment is
   * reversed once, in as many swaps as frames were pushed.) One frame alone needs no reversing.
   */
  private[runtime] def reverseFrom(base: Int): Unit =
    stack match {
      case s: Array[AnyRef] =>
        var i = base
        var j = sp - 1
        while (i < j) { val t = s(i); s(i) = s(j); s(j) = t; i += 1; j -= 1 }
      case _ =>
    }

  // ---------------------------------------------------------------- the frame form (for code generators, see Frame)
  // Called by methods in frame form while this process runs, on its COG's main task only. Each
  // names the scheduling point in the slot (free while the process runs: runSlice has taken its
  // content) and returns Frame.Suspended, which the method returns after linking its frame.

  /** Link `f` (the frame of a method that suspends) on the way out; returns [[Frame.Suspended]]. */
  def suspendedIn(f: Frame): AnyRef = { push(f); Frame.Suspended }

  private def point(next: Proc[_]): AnyRef = { slot = next; Frame.Suspended }

  /**
   * Any other computation (a loop, a try, a call, written as a `Proc`) run by the interpreter from
   * frame code: the process goes on with `next` and the frame resumes with its value.
   */
  def run(next: Proc[_]): AnyRef = point(next)

  /** `await f?` and then the value of `f` (its failure is raised): the frame resumes with the value. */
  def awaitFut(f: Fut[_]): AnyRef = point(new Proc.AwaitFut(f))

  /** `await g`: the frame resumes (with `()`) once the guard holds. */
  def awaitGuard(g: Guard): AnyRef = point(new Proc.Await(g))

  /** `suspend`: let the COG run the others that are enabled, then resume (with `()`). */
  def yieldNow(): AnyRef = point(Proc.Suspend)

  /** `f.get`: block the COG until `f` is resolved; the frame resumes with its value. */
  def getFut(f: Fut[_]): AnyRef = point(new Proc.Get(f))

  // Scheduling points that may go on at once: unlike the ones above, which always name the point
  // and return Frame.Suspended, these return the point's value when it need not wait (the future
  // is resolved, the guard holds), so that frame code links no frame then; the caller tests the
  // result for Frame.Suspended. When it must wait, the point is named as above and the process
  // parks exactly as `Proc.await`, `Proc.awaitResolved` and `getAt` do (Cog.park, Cog.block): no
  // new hand-off. A run whose reads are watched (a controlled run, a recorded or replayed
  // schedule, a traced process) always goes through the slice loop, which notes every read.

  /**
   * `f.get` at ABS position `at` (null: unknown, for deadlock reports): the value of `f` if it is
   * resolved (its failure is raised here), else Frame.Suspended, and the COG blocks until `f` is
   * resolved; the frame then resumes with the value, or the failure is raised to it.
   */
  def getValue(f: Fut[_], at: String): Any = {
    val o = if (cog.watchesReads(this)) null else f.outcome()
    if (o eq null) point(if (at eq null) new Proc.Get(f) else new Proc.GetAt(f, at))
    else o match {
      case v: Fut.Value  => v.value
      case x: Fut.Failed => reraises(x); throw x.error
    }
  }

  /** `await f?`: `()` if `f` is resolved, else Frame.Suspended; the frame resumes with `()` once it is. */
  def awaitResolved(f: Fut[_]): Any =
    if (f.isResolved && !cog.watchesReads(this)) () else point(new Proc.Await(f))

  /**
   * `await g`: `()` if `g` holds now, else Frame.Suspended; the frame resumes with `()` once it
   * holds (a condition is evaluated again whenever the COG's state may have changed). When it does
   * not hold, the slice loop evaluates it once more before parking: a cost of the path that
   * suspends only, and conditions have no effects.
   */
  def awaitUntil(g: Guard): Any =
    if (!cog.watchesReads(this) && g.enabled) () else point(new Proc.Await(g))

  /**
   * A synchronous call of a `Proc` method (`o.m()` where `m` is written with `Proc`): it always
   * goes through the interpreter, so the caller suspends here and its frame resumes with the
   * callee's value. On an object of another COG it is a send and a `get`, as `Proc.sync` is.
   */
  def callProc[T <: Active](target: T, label: String, call: T => Proc[Any]): AnyRef =
    point(new Proc.Sync[T, Any](target, label, call))

  /**
   * A synchronous call of a method in frame form given as data: on this COG's object it runs now,
   * a plain JVM call (or a pending call if too deep, see [[enter]]); on another COG's object it is
   * a send and a `get` (the frame resumes with the value).
   */
  def callFrames(target: Active, label: String, call: FrameCall): Any = {
    if (target == null) throw new NullPointerException(s"synchronous call ${Option(label).getOrElse("")} on null")
    if (target.cog ne cog) point(new Proc.Get(cog.runtime.send(target, label, call)))
    else if (!enter()) pendingCall(target, call)
    else try call.run(this, target) finally exit()
  }

  /**
   * Before a plain synchronous call in frame form (`this.m(p, ..)`): true if it may be made on the
   * JVM stack (then [[exit]] after it, also when it throws); false at [[Frame.MaxDepth]] nested
   * calls, when the call site returns [[pendingCall]] instead, so that a million-deep recursion
   * unwinds into frames and goes on from an empty JVM stack (the trampoline).
   */
  def enter(): Boolean = {
    val c = cog
    if (c.frameDepth >= Frame.MaxDepth) false
    else { c.frameDepth += 1; true }
  }

  def exit(): Unit = cog.frameDepth -= 1

  /** The call the slice loop makes next, on an empty JVM stack; the caller links its frame. */
  def pendingCall(target: Active, call: FrameCall): AnyRef = point(new Proc.CallFrames(target, call))

  // ---------------------------------------------------------------- what it waits for
  // Everything below is touched only by the COG's main task, except `epoch` (see WakeToken).

  private[this] var guard$ : Guard = null
  private[this] var waitsFor$ : Fut[_] = null
  private[this] var epoch$ : Int = 0

  /** The guard of the await this process is suspended in, or null. */
  private[runtime] def guard: Guard = guard$

  /**
   * The future this process is registered on as a waiter: for a simple guard (futures only), the
   * one that keeps it disabled; for `get`, the future that blocks its COG. Null otherwise.
   */
  private[runtime] def waitsFor: Fut[_] = waitsFor$

  /**
   * Incremented at every resume, so that stale wake-ups of an older await can be told apart.
   * Wake tokens read it from other threads without synchronisation: a stale read only causes a
   * spurious wake-up, which the COG absorbs by re-checking the guard.
   */
  private[runtime] def epoch: Int = epoch$

  /** The process suspends in `await g` (which did not hold). */
  private[runtime] def awaits(g: Guard): Unit = guard$ = g

  /** The await is over: forget its guard and future; its wake tokens become stale. */
  private[runtime] def resumed(): Unit =
    if (guard$ ne null) {
      guard$ = null
      waitsFor$ = null
      epoch$ += 1
    }

  /** A simple guard waits for `f` now. True if the process is not yet registered on it (the caller registers it). */
  private[runtime] def waitFor(f: Fut[_]): Boolean = {
    val fresh = f ne waitsFor$
    waitsFor$ = f
    fresh
  }

  /** `get` of pending `f`: the process blocks its COG until `f` resolves. */
  private[runtime] def blockOn(f: Fut[_]): Unit = waitsFor$ = f

  /** `get` returns: the future resolved. */
  private[runtime] def unblocked(): Unit = waitsFor$ = null

  /** A guard of several futures or with a condition registers one wake token per future, once per await: true the first time. */
  private[runtime] def needsWakeTokens(): Boolean = {
    // The epoch of the last registration lives in `extra`: only processes awaiting a guard of
    // several futures or with a condition need it (a Process is 8 bytes smaller without it).
    val x = extraForWrite
    if (x.tokensEpoch == epoch$) false
    else { x.tokensEpoch = epoch$; true }
  }

  // ---------------------------------------------------------------- the COG's bookkeeping

  // Where the COG keeps it while suspended: one of Cog.NOWHERE/COND/FUT, and the index there.
  private[this] var waitList$ : Byte = 0
  private[this] var waitIndex$ : Int = -1
  // The COG's slice count when the guard was last evaluated.
  private[this] var checkedAt: Int = -1
  private[this] var traceMode$ : Byte = 0

  private[runtime] def waitList: Byte = waitList$
  private[runtime] def waitIndex: Int = waitIndex$
  private[runtime] def placedAt(list: Byte, index: Int): Unit = { waitList$ = list; waitIndex$ = index }

  /** The guard was evaluated in slice `slice`: no need to evaluate it again before another slice ran. */
  private[runtime] def markChecked(slice: Int): Unit = checkedAt = slice
  private[runtime] def checkedIn(slice: Int): Boolean = checkedAt == slice

  /**
   * The failed future whose exception this process re-raised last (await or get), so that if it
   * dies of that same exception its own failure names where the exception came from. Raising it
   * is reading it: the failure is observed (see Fut.Failed).
   */
  private[runtime] def raisedFrom: Fut.Failed = { val x = extra; if (x eq null) null else x.raisedFrom }
  private[runtime] def reraises(f: Fut.Failed): Unit = { f.observe(); extraForWrite.raisedFrom = f }

  /** TraceHooks.Traced once a Started event was emitted for this process; then its other events are too. */
  private[runtime] def traceMode: Byte = traceMode$
  private[runtime] def setTraceMode(m: Byte): Unit = traceMode$ = m

  /**
   * The process ended (DONE is its final state: wakers act only on PARKED, so none can take it
   * out again). A late wake-up that had already moved it to QUEUED is dropped when the COG takes
   * it from the inbox or, for a wake-up on the COG's own thread, from the ready queue.
   */
  private[runtime] def hasEnded: Boolean = state() == ProcessCore.DONE
  private[runtime] def finish(): Unit = setStateRelaxed(ProcessCore.DONE)

  /** Wake from a future: only if parked, and then exactly once (see ProcessCore). */
  def onResolved(f: FutCore): Unit = wake()

  /**
   * Whoever wins the CAS out of PARKED owns the wake-up (ProcessCore). A waker on another thread
   * hands the process over through the COG's inbox; the COG's own main task, waking it from inside
   * a slice (a process of the COG resolved the future), puts it straight into the ready queue
   * (see Cog.wakeLocal for why that loses nothing).
   */
  private[runtime] def wake(): Unit =
    if (casState(ProcessCore.PARKED, ProcessCore.QUEUED)) {
      val c = cog
      if (SchedulerCounters.ON) c.runtime.countMessage(c, call = false)
      if (c.inSliceHere) c.wakeLocal(this) else c.enqueueAndSchedule(this)
    }

  /**
   * Whether this process, just ended, may serve the next one-way call of its COG ([[reuse]]): it
   * ended with a value (a failed one is kept by reports), nobody can hold it as a future (it never
   * asked for its `destiny`), it has no side object (no recording, deadline, clock, re-raised
   * failure or wake-token epoch) and no frames, and it was never traced. The caller also knows it
   * ran in one slice, so it never parked, blocked or yielded, and so never registered as a waiter
   * anywhere: no future or clock can wake it later.
   */
  private[runtime] def reusable: Boolean =
    (callee eq null) && !handedOut && (extra eq null) && sp == 0 && traceMode$ == 0 && hasEnded

  /**
   * Make this ended process the process of a new one-way call on the same COG (see
   * [[reusable]]): as if it had been made by `new Process(cog, target, label, false, entry)` and
   * queued. Only the COG's main task calls it, on a process that no other thread can reach.
   */
  private[runtime] def reuse(target: Active, label: String, entry: Active => Proc[Any]): Unit = {
    callee = target
    label0 = label
    slot = entry
    guard$ = null
    waitsFor$ = null
    epoch$ += 1
    waitList$ = 0
    waitIndex$ = -1
    checkedAt = -1
    // The array of a stack that once held two frames stays (empty: sp == 0), as it would have.
    if (!stack.isInstanceOf[Array[AnyRef]]) stack = null
    setStateRelaxed(ProcessCore.QUEUED)
  }

  /** The call ended with a value: what it computed is garbage now (see `callee`). */
  private[runtime] def ended(): Unit = {
    setStateRelaxed(ProcessCore.DONE)
    callee = null
  }

  def describe: String = {
    val m = if (label eq null) "(asynchronous call)" else label
    callee match {
      case null => s"(an ended call).$m"
      case o: ActiveObject =>
        val site = o.creationSite
        if (site eq null) s"$o.$m"
        else {
          val n = if (o.cog eq null) 1 else o.cog.runtime.siteOrdinal(o, site)
          s"${o.traceName}.$m (object ${if (n > 1) s"#$n " else ""}created at $site)"
        }
      case t => s"$t.$m"
    }
  }
}

private[runtime] object Process {
  /**
   * The fields of a [[Process]] that few calls use; see `Process.extra`. It is also the process's
   * place in the simulated clock while it waits in `await duration` (a [[SimClock.TimeSlot]]):
   * a process of a timed runtime has this object anyway, for its arrival time, so a wait for time
   * allocates nothing more.
   */
  private[runtime] final class Extra(val process: Process) extends SimClock.TimeSlot {
    // Set by the clock's advance (before its CAS out of PARKED), reset by the COG before the
    // process is handed to the clock; read by the COG (SimClock.wake says why nothing is lost).
    @volatile var timeUp: Boolean = false
    var arrivedAt: SimTime = _
    // See Process.needsWakeTokens: the epoch whose await registered its wake tokens.
    var tokensEpoch: Int = -1
    // The rarest fields (a recorded or replayed schedule, a deadline, a re-raised failure) one
    // object further: every process of a timed runtime has this object, for its arrival time and
    // its place in the clock, and with them here it was 64 bytes instead of 56.
    private[this] var rare: Rare = null
    private def rareForWrite: Rare = { var r = rare; if (r eq null) { r = new Rare; rare = r }; r }
    def scheduleName: String = { val r = rare; if (r eq null) null else r.scheduleName }
    def scheduleName_=(n: String): Unit = rareForWrite.scheduleName = n
    def deadline: SimTime = { val r = rare; if (r eq null) null else r.deadline }
    def deadline_=(t: SimTime): Unit = rareForWrite.deadline = t
    def raisedFrom: Fut.Failed = { val r = rare; if (r eq null) null else r.raisedFrom }
    def raisedFrom_=(f: Fut.Failed): Unit = rareForWrite.raisedFrom = f
  }

  private final class Rare {
    var scheduleName: String = _
    var deadline: SimTime = _
    var raisedFrom: Fut.Failed = _
  }

}

/**
 * A one-way call on its way to its COG (`tell`, ABS `o!m()` whose future nobody reads), in the
 * runtimes where nothing is kept per process from the send on (CogRuntime.tellArgs): 32 bytes in
 * the inbox instead of an 80-byte process. Its COG makes it a process when it takes it from the
 * inbox (Cog.acceptInbox), before anything else sees it. A producer that sends far faster than
 * the COG serves (Savina's Counting: a million calls in one slice) leaves a long inbox alive
 * through young collections, which copy every node in it: smaller nodes, less to copy.
 *
 * Published by the inbox's exchange like a process (its fields are final, and written before the
 * exchange), taken by the COG's main task only: no new hand-off.
 */
private[runtime] final class OneWayCall(val target: Active, val label: String, val entry: Active => Proc[Any]) extends Node

/** Wakes a process for one await only: guards with several futures register one per future. */
private[runtime] final class WakeToken(p: Process, epoch: Int) extends FutCore.Waiter {
  def onResolved(f: FutCore): Unit =
    // A stale token (the process has moved on) may still wake it: the COG re-checks the guard
    // and parks it again, so a spurious wake-up costs time, never correctness.
    if (p.epoch == epoch) p.wake()
}
