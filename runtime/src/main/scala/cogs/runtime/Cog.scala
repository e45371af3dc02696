package cogs.runtime

import cogs.runtime.internal.{Frame, FrameCall, Pick, PolicyPick}

import java.util.ArrayDeque
import scala.util.control.ControlThrowable
import ProcessCore.{PARKED, RUNNING}

/**
 * A concurrent object group: the unit of scheduling. At most one process of a COG runs at a
 * time. The COG is its own main task on the runtime's executor (see [[CogCore]] for the inbox and
 * the status word): a message to an idle COG schedules it; it runs a batch of at most
 * `throughput` process slices and then reschedules itself or goes idle, holding no thread.
 *
 * Everything below is touched only by the running main task, one thread at a time; the hand-off
 * between consecutive runs of the task goes through the status word (a volatile write when the
 * task ends, a CAS before it starts again), which orders them.
 */
private[runtime] final class Cog(val runtime: CogRuntime) extends CogCore {
  import Cog._

  // Processes that may run, in arrival order (fresh calls, woken processes, suspend).
  private[this] var ready: ArrayDeque[Process] = _
  // Suspended processes whose guard has a condition: re-checked after the COG's state changed.
  private[this] var condWaiting: Array[Process] = EmptyProcs
  private[this] var condCount = 0
  // Suspended processes waiting for futures only: never looked at until a future wakes them.
  private[this] var futWaiting: Array[Process] = EmptyProcs
  private[this] var futCount = 0
  // A process that blocks the whole COG in `get`, and whether its future has resolved.
  private[this] var blocker: Process = _
  private[this] var blockerReady = false
  // A process ran since the conditions were last checked.
  private[this] var stateDirty = false
  // A fatal error (see Cog.isFatal) raised in this batch, and where, for the runtime's handler.
  private[this] var fatal: Throwable = _
  /**
   * How this COG picks its next process when not in the default order (a scheduling policy, a
   * recording, a replay: see [[Pick]]), or null for the default order. Chosen once, when the COG
   * is created ([[usePolicy]], [[useSchedule]]), before its first process is queued (the inbox CAS
   * publishes it); changed afterwards only by the COG's own main task (a policy that fails).
   */
  private[this] var pick: Pick = _
  // This COG's part of a recording or replay of scheduling decisions (ScheduleTrace), or null.
  private[this] var schedule$ : CogSchedule = _

  /** This COG's part of a recording or replay of scheduling decisions (ScheduleTrace), or null. */
  private[runtime] def schedule: CogSchedule = schedule$

  /** This COG records or replays its decisions in `s` (at creation: see ScheduleTrace.cogCreated). */
  private[runtime] def useSchedule(s: CogSchedule): Unit = {
    schedule$ = s
    pick = Pick.of(s, policyPick)
  }

  /**
   * This COG's processes are picked by the policy `maker` makes from its first object (at
   * creation, before the object exists: see CogRuntime.spawnScheduled); the policy is made on the
   * COG's own thread at its first pick, so that it may read the object's state.
   */
  private[runtime] def usePolicy(maker: Active => SchedulingPolicy): Unit =
    pick = Pick.of(schedule$, new PolicyPick(maker))

  /** This COG's scheduling policy, or null (the default order, or a policy that failed). */
  private[runtime] def policyPick: PolicyPick = { val k = pick; if (k eq null) null else k.policy }
  /**
   * Run after each slice of this COG that ends at a scheduling point, or null: the main block's
   * COG of a runtime given `CogRuntime.mainBlockSuspends`. Written before the COG's first process
   * is queued (the inbox CAS publishes it), never changed afterwards.
   */
  private[runtime] var onSuspend: Runnable = _
  /**
   * The controller of a controlled run, told of the futures each slice reads (see
   * [[ControlledRun.Footprint]]); null in every other run. Cached from the runtime, where it is
   * set before the first COG exists, so the interpreter tests a field of this object.
   */
  private[this] val control: ControlledRun = runtime.control
  /** The process running now (for traces and tests); null between slices. */
  private[runtime] var running: Process = _
  // Slices run so far (wraps around; only compared for equality). The watchdog reads it from its
  // own thread to tell one long slice from many short ones (see Watchdog).
  private[runtime] var slices = 0

  // An ended one-way process that the next one-way call taken from the inbox will run in (see
  // processOf); null outside a batch. Main task only.
  private[this] var spare: Process = _
  private[runtime] def spareProcess: Process = spare

  // Plain nested synchronous calls of frame code on this COG's JVM stack (Process.enter); its
  // main task only. Zero between slices: every enter is paired with an exit in a finally.
  private[runtime] var frameDepth = 0

  /**
   * Whether the reads of futures and guards by `p` are watched (a controlled run, a recorded or
   * replayed schedule, a traced process): then frame code's `get` and `await` go through the
   * slice loop, which notes each read, even where they could go on at once (Process.getValue).
   */
  private[runtime] def watchesReads(p: Process): Boolean =
    (control ne null) || (schedule ne null) || p.traceMode == TraceHooks.Traced

  private[runtime] def submit(): Unit = runtime.execute(this)
  private[runtime] def resubmit(): Unit = runtime.executeFair(this)
  private[runtime] def onActivated(): Unit = runtime.cogActivated()
  private[runtime] def onActivationLost(): Unit = runtime.activationLost()

  /** The main task, as the executor runs it: this COG's batch, then the COGs it handed on. */
  override def run(): Unit = Thread.currentThread() match {
    case w: CogRuntime.Worker if w.runtime eq runtime => runtime.runOn(w, this)
    case _                                             => runBatch(null)
  }

  /** One batch of this COG. `w` is the worker of this runtime running it, or null. */
  private[runtime] def runBatch(w: CogRuntime.Worker): Unit = {
    val tl = currentCog
    val prev = if (w ne null) w.current else tl.get()
    if (w ne null) w.current = this else tl.set(this)
    try {
      var n = 0
      val limit = runtime.throughput
      var p = if (n < limit) pickNext() else null
      while (p ne null) {
        runProcess(p)
        n += 1
        // After a fatal error the batch stops: the error goes to the handler now, not after 31 more slices.
        p = if (n < limit && (fatal eq null)) pickNext() else null
        // The batch goes on: a COG woken into the slot would wait for all of it (see execute).
        if ((p ne null) && (w ne null)) runtime.batchGoesOn(w)
      }
      if (SchedulerCounters.ON && (w ne null)) { w.counts.batches += 1; w.counts.slices += n }
    } catch {
      // Every throwable of user code is caught in runProcess; what arrives here was thrown by the
      // scheduler itself (or by a tracer), and the COG's bookkeeping may be inconsistent: it is
      // handled as a fatal error.
      case e: Throwable => noteFatal(s"the scheduler of $this", e)
    } finally {
      // An idle COG keeps no spare process (an idle object must stay small); a busy one makes
      // one process per batch for its one-way calls.
      spare = null
      if (w ne null) w.current = prev else tl.set(prev)
    }

    // Handed on while the COG is still SCHEDULED, so the runtime counts it active: a thread waiting
    // for quiescence cannot see the program finished before the policy (halt or go on) is applied.
    val f = fatal
    if (f ne null) {
      fatal = null
      val where = fatalWhere
      fatalWhere = null
      runtime.fatalError(where, f)
    }

    publishPending()
    // Stays SCHEDULED, for fairness, not idleness: work in the ready queue, or calls still in the
    // inbox (a pick takes one at a time, so a batch that used up its slices often leaves some).
    // Resubmitting without going IDLE is the same hand-off as for the ready queue: a producer that
    // reads SCHEDULED leaves its node to this COG, which runs again. It saves the IDLE store and
    // the CAS back, and spares producers a lost race for the activation.
    if (hasLocalWork || !inboxEmpty()) resubmit()
    else if (!idleOrReschedule()) runtime.cogIdleOn(w)
  }

  private def hasLocalWork: Boolean =
    if (blocker ne null) blockerReady
    else (ready != null && !ready.isEmpty && !replayWaits) || (stateDirty && condCount > 0)

  // A replay whose next process has not arrived: the COG idles until one arrives (accept).
  private def replayWaits: Boolean = { val k = pick; (k ne null) && k.waits }

  // ---------------------------------------------------------------- picking

  /**
   * The next process to run, or null. In the default order a pick takes at most `AcceptPerPick`
   * nodes from the inbox before it picks, and more only when that left nothing to run. It used to
   * take the whole inbox first, and a COG fed by a faster producer (Counting's counter, whose
   * producer sends a million calls in one slice) then spent the producer's whole slice moving
   * calls from the inbox to the ready queue without running one: every call stayed alive until
   * the producer was done, and each young collection copied all of them. The inbox and the ready
   * queue are both FIFO, so calls of one sender keep their order; but what enters the ready queue
   * directly (a self-call, a local wake-up, see `wakeLocal`) now overtakes more of the calls still
   * waiting in the inbox than when a pick took them all first. ABS leaves that order open.
   *
   * A COG blocked in `get`, or with a recording or replay, or with a scheduling policy (a `pick`),
   * still takes the whole inbox: the blocker's wake-up, the process a replay waits for, or the full
   * set of candidates a policy chooses from may be anywhere in it.
   *
   * The default order costs one null test of `pick` here and one below (where there were two tests
   * of `schedule` and `policyOf` before), then `pickFifo`, a method of this final class (a direct
   * call the JIT inlines, as it did `pickReady`): no virtual call, no allocation. Only a COG with a
   * pick calls `Pick.next`, whose call site sees the classes the run uses (usually one).
   */
  private def pickNext(): Process = {
    val limit = if ((blocker eq null) && (pick eq null)) AcceptPerPick else Int.MaxValue
    while (true) {
      val more = acceptInbox(limit)
      if (blocker ne null) {
        if (!blockerReady) return null
        val b = blocker
        blocker = null
        blockerReady = false
        // Before the blocker runs again: an inspection that still sees the old value afterwards
        // has read fields that this process may be changing, and CogRuntime.inspectBlocked's
        // second read tells it so.
        blockedGet = null
        b.unblocked()
        return b
      }
      if (stateDirty) {
        stateDirty = false
        if (condCount > 0) scanConditions()
      }
      val r = ready
      val k = pick
      val p =
        if (r eq null) null
        else if (k eq null) pickFifo(r)
        else k.next(this, r)
      // Nothing to run yet, and the inbox may hold more: take the next nodes (one more round per
      // `limit` nodes, so this ends when the inbox is empty).
      if ((p ne null) || !more) return p
    }
    null
  }

  /**
   * Take up to `limit` nodes from the inbox. True if it stopped at the limit (the inbox may hold
   * more), false once the inbox was empty.
   */
  private def acceptInbox(limit: Int): Boolean = {
    var taken = 0
    while (taken < limit) {
      val n = poll()
      if (n eq null) return false
      n match {
        case p: Process => accept(p)
        case c: OneWayCall => accept(processOf(c))
        case w: SimClock.Wakes => // processes of this COG woken by one clock advance (SimClock.wake)
          val ps = w.procs
          var i = 0
          while (i < w.count) { accept(ps(i)); i += 1 }
        case _          => // a Tick: the clock moved, so conditions may hold now; check them as after a slice
          stateDirty = true
          slices += 1
      }
      taken += 1
    }
    true
  }

  /**
   * The process of a one-way call taken from the inbox: the spare if there is one (the last
   * one-way process of this batch that ended as `reuse` requires), else a new one. In the default
   * order a pick takes one node from the inbox and then runs a process, so a COG served a stream
   * of one-way calls runs each in the process the one before it ended in: a batch allocates one.
   */
  private def processOf(c: OneWayCall): Process = {
    val s = spare
    if (s eq null) new Process(this, c.target, c.label, false, c.entry)
    else {
      spare = null
      s.reuse(c.target, c.label, c.entry)
      s
    }
  }

  /** The default order: the first ready process whose guard holds (or raises). */
  private[runtime] def pickFifo(r: ArrayDeque[Process]): Process = {
    var p = r.pollFirst()
    while (p ne null) {
      val c = if (p.guard eq null) Holds else checkGuard(p)
      if (c == Holds || c == Raises) {
        p.resumed()
        return p
      }
      if (c == Blocks) park(p, fresh = false) // Failed: the process has ended
      p = r.pollFirst()
    }
    null
  }

  // ---------------------------------------------------------------- controlled runs

  // The fields `dc`, `owner`, `blockedGet`, `fatalWhere`, `chosenNext` (a controlled run's choice
  // for the next slice, set only around runChosen), `forced` and `clockWoken` live in the padding
  // after the producers' fields (CogCorePadding): nothing touches them at a poll or a slice.

  /** A controlled run's choice for this COG's next slice, or null (see [[Pick]]: the recording's picks take it). */
  private[runtime] def chosen: Process = chosenNext
  /** The first object placed in this COG (a field of CogCorePadding, out of reach of subpackages). */
  private[runtime] def firstObject: Active = owner
  /**
   * A controlled run, on the controller's thread while this COG is SCHEDULED and between batches:
   * appends to `out` the processes this COG could run next (what `pickNext` would choose among).
   * It does what the start of `pickNext` does (take the inbox, re-check conditions, park the
   * processes whose guards no longer hold), so it changes nothing the COG's next batch would not.
   */
  private[runtime] def offer(out: java.util.List[Process]): Unit = {
    val tl = currentCog
    val prev = tl.get()
    tl.set(this)
    try {
      acceptInbox(Int.MaxValue)
      if (blocker ne null) { if (blockerReady) out.add(blocker); return }
      if (forced ne null) { out.add(forced); return }
      if (stateDirty) {
        stateDirty = false
        if (condCount > 0) scanConditions()
      }
      val r = ready
      if ((r eq null) || r.isEmpty) return
      val pp = policyPick
      if (pp ne null) {
        val p = pp.next(this, r)
        if (p ne null) { forced = p; out.add(p) }
        return
      }
      val candidates = new java.util.ArrayList[Scheduled](r.size)
      val raising = collectCandidates(r, candidates)
      if (raising ne null) { forced = raising; out.add(raising); return }
      putBack(r, candidates)
      var i = 0
      while (i < candidates.size) { out.add(candidates.get(i).asInstanceOf[Process]); i += 1 }
    } finally tl.set(prev)
  }

  /**
   * A controlled run: one batch of one slice (the runtime's throughput is 1) running `p`, one of
   * the processes [[offer]] gave since; null runs no process and lets the COG go idle (when
   * `offer` gave none).
   */
  private[runtime] def runChosen(p: Process): Unit = {
    chosenNext = p
    try runBatch(null)
    finally chosenNext = null
  }

  /** The process blocking this COG in `get`, or null (for a controlled run's reports). */
  private[runtime] def blockerOrNull: Process = blocker

  /** The pick of a controlled run: `c`, noted in the recording (a blocker never gets here: pickNext takes it). */
  private[runtime] def takeChosen(r: ArrayDeque[Process], c: Process, s: CogSchedule): Process = {
    chosenNext = null
    if (c eq forced) forced = null
    else {
      if (!r.remove(c)) throw new IllegalStateException(s"controlled run: $c is not ready on $this")
      c.resumed()
    }
    if (s.recorded ne null) s.record(c, runtime.now)
    c
  }

  /**
   * Moves the ready processes whose guards hold into `candidates`, in order, parking those whose
   * guards no longer hold. If one raises from its guard, it is returned (resumed) at once with the
   * others back in front of the ready queue: checking its guard replaced its continuation by the
   * exception, so it must run next, and it only raises.
   */
  private[runtime] def collectCandidates(r: ArrayDeque[Process], candidates: java.util.ArrayList[Scheduled]): Process = {
    var p = r.pollFirst()
    while (p ne null) {
      val c = if (p.guard eq null) Holds else checkGuard(p)
      if (c == Raises) {
        var i = candidates.size - 1
        while (i >= 0) { r.addFirst(candidates.get(i).asInstanceOf[Process]); i -= 1 }
        p.resumed()
        return p
      }
      if (c == Holds) candidates.add(p)
      else if (c == Blocks) park(p, fresh = false) // Failed: the process has ended
      p = r.pollFirst()
    }
    null
  }

  /**
   * A policy that failed is dropped: the failure is a fatal error of the COG, and if the runtime
   * goes on (`cogs.on-fatal-error = continue`) the COG runs in the default order instead of
   * failing again at every pick.
   */
  private[runtime] def dropPolicy(): Unit = pick = Pick.of(schedule$, null)

  /** Back into the (now empty) ready queue, in their order. */
  private[runtime] def putBack(r: ArrayDeque[Process], ps: java.util.ArrayList[Scheduled]): Unit = {
    var i = 0
    while (i < ps.size) { r.addLast(ps.get(i).asInstanceOf[Process]); i += 1 }
  }

  /** A process arrived through the inbox: new, or woken by a future. */
  private def accept(p: Process): Unit = {
    if (p.hasEnded) return // a wake-up that raced with the end of the process (see Process.finish)
    p.setStateRelaxed(RUNNING)
    val s = schedule
    if (s ne null) s.waiting = false // perhaps the one a replay waits for
    if (p eq blocker) {
      // Woken, but the COG is blocked on a future: only that future's resolution lets it run.
      if (sleep(p, p.waitsFor, register = false) == TakenBack) blockerReady = true
      return
    }
    removeFromWaitList(p)
    addReady(p)
  }

  /**
   * True only on the thread running this COG's main task, while it runs a slice. The thread test
   * comes first: `running` is a plain field of the main task, meaningful only to its own thread.
   */
  private[runtime] def inSliceHere: Boolean = (Cog.current() eq this) && (running ne null)

  /**
   * The local wake-up: `p`, of this COG, was taken out of PARKED (the CAS to QUEUED, won by the
   * caller) by this COG's own main task in the middle of a slice, because a process of this COG
   * resolved a future that `p` awaits. Instead of pushing `p` through the atomic inbox to itself,
   * the main task does at once what it would do when draining the inbox (`accept`).
   *
   * Why no wake-up is lost and nothing else races here:
   *  - the CAS out of PARKED is unchanged and still decides who owns the wake-up: against a waker
   *    on another thread (another future of the same guard) and against this COG's own re-check
   *    in `sleep` (same thread, so never at the same time). Only the winner gets here, once.
   *  - the ready queue and the wait lists are touched only by the main task (see the class
   *    comment); `inSliceHere` is true only on that task's thread, and only inside `runSlice`,
   *    where none of them is being iterated (the pick loops and `scanConditions` run with
   *    `running` null, so a wake-up during them, from a guard's code, still takes the inbox).
   *  - the COG is SCHEDULED while its main task runs, so no activation is needed: the batch
   *    either picks `p` in its next pick, or ends with `hasLocalWork` true and resubmits itself
   *    before it could go idle. No other thread ever needs to see `p` for it to run.
   * A process woken this way can run before a call that already waits in the inbox; ABS leaves
   * the order among enabled processes open, and recorded schedules name processes, not positions.
   */
  private[runtime] def wakeLocal(p: Process): Unit = accept(p)

  private def addReady(p: Process): Unit = {
    var r = ready
    if (r eq null) { r = new ArrayDeque[Process](8); ready = r }
    r.addLast(p)
  }

  /**
   * Evaluate `p`'s guard, outside a slice. A guard that throws does not block: the exception
   * replaces the rest of the process, which raises it in its next slice (where its handlers see
   * it, as they see a guard that throws at the `await` itself), unless it is fatal: then the
   * process has ended.
   */
  private def checkGuard(p: Process): Int =
    try {
      p.markChecked(slices)
      val g = p.guard
      // `await duration`: the clock says, through the process (see parkTime).
      if (g.isInstanceOf[Proc.AwaitTime]) { if (p.timeUp) Holds else Blocks }
      else if (g.enabled) Holds else Blocks
    } catch {
      case e: Throwable if isFatal(e) =>
        processThrew(p, e)
        Failed
      case e: Throwable =>
        p.current = new Proc.Raise(asFailure(e, p))
        Raises
    }

  private def scanConditions(): Unit = {
    var i = condCount - 1
    while (i >= 0) {
      val p = condWaiting(i)
      if (!p.checkedIn(slices)) {
        val c = checkGuard(p)
        // A wake token may be taking it at the same moment: whoever wins the CAS has it.
        if ((c == Holds || c == Raises) && p.casState(PARKED, RUNNING)) { removeFromWaitList(p); addReady(p) }
      }
      i -= 1
    }
  }

  // ---------------------------------------------------------------- parking

  /**
   * The PARKED hand-off, the one place where a process goes to sleep on futures:
   *  1. publish PARKED (a volatile store: a full fence),
   *  2. register on the future (or the guard's futures) if not registered yet,
   *  3. re-check: the future resolved, or (without `f`) the guard holds,
   *  4. if so, take the process back with a CAS PARKED to RUNNING.
   *
   * Why no wake-up is lost: a resolver first completes the future (a CAS on its state word) and
   * then wakes the process with a CAS PARKED to QUEUED (ProcessCore). Steps 1 and 3 against the
   * resolver's completion and its CAS are the Dekker shape, all volatile: either the re-check (3)
   * comes after the completion and sees it, or the resolver's CAS comes after step 1 and sees
   * PARKED. If both see, steps 4 and the resolver's CAS race on PARKED and exactly one wins: the
   * COG runs the process now, or the waker pushes it into the inbox (once: the inbox's invariant).
   * If the resolver completed before step 2, `register` finds the outcome and registers nothing,
   * and step 3 sees it. A guard of conditions only cannot change while the COG runs this, so it is
   * not re-checked (`JcstressProcessCore.ParkVsResolve` checks the protocol).
   *
   * @return TakenBack (the caller makes it ready), Parked (it waits; a waker will queue it), or
   *         Failed (re-checking its guard ended it: fatal error)
   */
  private def sleep(p: Process, f: Fut[_], register: Boolean): Int = {
    p.setState(PARKED)                                                        // 1
    if (register) {                                                           // 2
      if (f ne null) f.register(p)
      else {
        val epoch = p.epoch
        var fs = p.guard.pendingFutures(Nil)
        while (fs.nonEmpty) { fs.head.register(new WakeToken(p, epoch)); fs = fs.tail }
      }
    }
    val c =                                                                   // 3
      if (f ne null) { if (f.isResolved) Holds else Blocks }
      else if (p.guard.hasFutures) checkGuard(p)
      else Blocks
    if (c == Failed) Failed
    else if (c != Blocks && p.casState(PARKED, RUNNING)) TakenBack            // 4
    else Parked
  }

  /**
   * Suspend `p` on its guard, which did not hold: `fresh` when it just reached its `await` (a time
   * wait is then handed to the clock), false when it was woken and its guard no longer holds.
   */
  private def park(p: Process, fresh: Boolean): Unit = {
    val g = p.guard
    if (g.isInstanceOf[Proc.AwaitTime]) parkTime(p, g.asInstanceOf[Proc.AwaitTime], fresh)
    else if (g.isSimple) {
      val f = g.firstPending
      if (f eq null) { addReady(p); return } // resolved meanwhile
      if (sleep(p, f, register = p.waitFor(f)) == TakenBack) addReady(p) else addWait(p, FUT)
    } else {
      sleep(p, null, register = p.needsWakeTokens()) match {
        case TakenBack => addReady(p)
        case Parked    => addWait(p, if (g.hasCondition) COND else FUT)
        case _         => // Failed: ended
      }
    }
  }

  /**
   * `p` waits in `await duration` (Proc.AwaitTime), kept by the clock itself: the PARKED hand-off
   * of [[sleep]] with the process's `timeUp` flag in the place of the future's state.
   *  1. publish PARKED (a volatile store: a full fence),
   *  2. the first time, hand the process to the clock (under the clock's lock, so after 1: the
   *     clock's CAS out of PARKED can only see PARKED or a later state),
   *  3. re-read `timeUp`, and if the clock set it, take the process back with a CAS PARKED to
   *     RUNNING; else it waits in the FUT list (reports list it there) for the clock's wake-up.
   * The clock writes `timeUp` before its CAS PARKED to QUEUED (SimClock.wake). Either the re-read
   * comes after that write and sees it, or the clock's CAS comes after step 1 and sees PARKED; if
   * both, the two CASes race and exactly one wins. A stale waker (a future the process once waited
   * on directly) can take it out of PARKED first: the COG then checks `timeUp` (checkGuard) before
   * it lets the process resume, and parks it here again (not `fresh`: it is still in the clock).
   */
  private def parkTime(p: Process, w: Proc.AwaitTime, fresh: Boolean): Unit = {
    p.setState(PARKED)                                                      // 1
    if (fresh) runtime.clock.sleep(p.timeWaitSlot, w)                       // 2
    if (p.timeUp && p.casState(PARKED, RUNNING)) addReady(p)                // 3
    else addWait(p, FUT)
  }

  /** `p` reached `get` of pending `f`: it blocks the COG. */
  private def block(p: Process, f: Fut[_]): Unit = {
    blocker = p
    // After every write of the slice that blocked (program order): a thread that reads this
    // volatile sees the objects of this COG as they are while it stays blocked.
    blockedGet = new BlockedGet(p, f, runtime.now)
    blockerReady = sleep(p, f, register = true) == TakenBack
  }

  private def addWait(p: Process, where: Byte): Unit = {
    if (where == COND) {
      if (condCount == condWaiting.length) condWaiting = grow(condWaiting)
      condWaiting(condCount) = p
      p.placedAt(COND, condCount)
      condCount += 1
    } else {
      if (futCount == futWaiting.length) futWaiting = grow(futWaiting)
      futWaiting(futCount) = p
      p.placedAt(FUT, futCount)
      futCount += 1
    }
  }

  private def removeFromWaitList(p: Process): Unit = {
    val w = p.waitList
    if (w == NOWHERE) return
    val i = p.waitIndex
    if (w == COND) {
      condCount -= 1
      val last = condWaiting(condCount)
      condWaiting(i) = last
      last.placedAt(COND, i)
      condWaiting(condCount) = null
    } else {
      futCount -= 1
      val last = futWaiting(futCount)
      futWaiting(i) = last
      last.placedAt(FUT, i)
      futWaiting(futCount) = null
    }
    p.placedAt(NOWHERE, -1)
  }

  // ---------------------------------------------------------------- running

  private def runProcess(p: Process): Unit = {
    stateDirty = true // whatever runs may change the state that conditions read
    slices += 1
    running = p
    // Not started yet: if it ends in this slice, it never waited anywhere (see Process.reusable).
    val first = !p.started
    val outcome =
      try {
        if (p.target.traceSlot ne null) TraceHooks.beforeSlice(p, first = p.traceMode == 0)
        runSlice(p)
      } catch {
        // runSlice turns an ordinary failure into a Raise that the process's own handlers see; a
        // fatal error (rethrown by `raised`), or anything thrown by the interpreter or a tracer,
        // arrives here and ends the process without running more of its code.
        // The process ends: its frames go first, before anything here allocates. Out of memory, they
        // are usually what filled the heap (a deep synchronous recursion), and until they are
        // dropped every allocation fails again, in this handler and in the worker's.
        case e: Throwable => p.dropFrames(); processThrew(p, e); SliceDone
      } finally {
        // Even when a tracer throws out of processThrew: a `running` left set would let a later
        // guard evaluation or policy call (outside any slice) take the wakeLocal path while the
        // wait lists are being walked.
        running = null
      }
    if (p.traceMode == TraceHooks.Traced && outcome != SliceDone) traceSuspended(p, outcome)
    if (outcome != SliceDone && (onSuspend ne null)) suspended()
    val rec = schedule
    if ((rec ne null) && rec.recording)
      rec.note(if (outcome == SliceDone) ScheduleTrace.FutureWrite else ScheduleTrace.Suspend, p.scheduleName, ScheduleTrace.methodOf(p), runtime.now)
    outcome match {
      case SliceDone    =>
        p.finish()
        val s = schedule
        if ((s ne null) && (s.replay ne null)) s.callEnded(p.scheduleName)
        // A scheduling policy may keep the processes it was shown, a controlled run the ones it
        // chose or was offered: a process of theirs is never reused.
        else if (first && (s eq null) && (pick eq null) && (control eq null) && p.reusable) spare = p
      case SliceParked  => park(p, fresh = true)
      case SliceYielded =>
        // `suspend` lets every process that is enabled now run first, calls that wait in the
        // inbox included (a pick takes only a few of them, see pickNext): they go ahead of it.
        acceptInbox(Int.MaxValue)
        addReady(p)
      case SliceBlocked => block(p, p.waitsFor)
    }
  }

  // Whatever the hook throws must not break the scheduler: it is the hook's business.
  private def suspended(): Unit =
    try onSuspend.run()
    catch { case e: Exception => CogRuntime.Log.log(System.Logger.Level.WARNING, s"cogs: the suspension hook of $this threw", e) }

  private def traceSuspended(p: Process, outcome: Int): Unit =
    TraceHooks.suspended(p, outcome match {
      case SliceParked  => TraceHooks.guardText(runtime, p.guard)
      case SliceBlocked => s"get ${TraceHooks.futRef(runtime, p.waitsFor)}"
      case _            => "suspend"
    })

  /** Interpret `p` until it finishes or reaches a scheduling point that does not let it go on. */
  private def runSlice(p: Process): Int = {
    import Proc._
    // No `try` below may stand where scalac lifts it into a method of its own (the right-hand side
    // of an assignment, an expression whose value is used other than as a `val`'s): a local `var`
    // the lifted method touches becomes a heap `ObjectRef`, allocated at every slice. Whether the
    // JIT's escape analysis then removes it depends on what C2 inlined in that JVM: the 48 bytes
    // per Listing 5 call by which JVMs differed (docs/runtime-design.md, twentieth session).
    // So: `try x = a catch { case e => x = b }`, never `x = try a catch ..`.
    var value: Any = null
    var hasValue = false
    var cur: Proc[Any] = null
    if (p.started) cur = p.current
    else {
      val entry = p.takeEntry()
      entry match {
        case c: FrameCall =>
          // A process started from a method in frame form: no Proc node for its entry.
          p.current = null
          var threw: Throwable = null
          val r = try c.run(p, p.target) catch { case e: Throwable => threw = e; null }
          val next = landed(p, 0, r, threw)
          if (next eq null) { value = r; hasValue = true }
          cur = next
        case _ =>
          // Inline rather than Proc.safely: that would allocate a closure per process.
          try cur = entry(p.target)
          catch { case e: Throwable => cur = raised(e) }
      }
    }
    p.current = null
    while (true) {
      if (hasValue) {
        if (!p.hasFrames) {
          if (p.traceMode == TraceHooks.Traced) TraceHooks.completed(p, value, null)
          val f = p.fut
          if (f ne null) f.resolve(value) // null: a one-way call, nobody can read its result
          p.ended()
          return SliceDone
        }
        val top = p.pop()
        if (top.isInstanceOf[Frame]) {
          // A method in frame form resumes with the value of what it waited for.
          val base = p.depth
          var threw: Throwable = null
          val r = try top.asInstanceOf[Frame].resume(p, value) catch { case e: Throwable => threw = e; null }
          val next = landed(p, base, r, threw)
          if (next eq null) value = r else { cur = next; hasValue = false }
        } else {
        val frame = top.asInstanceOf[Proc[Any]]
        (frame.tag: @annotation.switch) match {
          case BIND =>
            val b = frame.asInstanceOf[Bind[Any, Any]]
            try cur = b.f(value) catch { case e: Throwable => cur = raised(e) }
            hasValue = false
          case MAP =>
            val m = frame.asInstanceOf[Map[Any, Any]]
            try value = m.f(value)
            catch { case e: Throwable => cur = raised(e); hasValue = false }
          case JMAP =>
            val m = frame.asInstanceOf[JMap[Any, Any]]
            try value = m.f.apply(value)
            catch { case e: Throwable => cur = raised(e); hasValue = false }
          case HANDLE => // success passes through a try/catch frame
          case ENSURE =>
            val v = value
            val fin = frame.asInstanceOf[Ensure[Any]].finalizer
            // Any, not Unit: a Java finalizer's process may end with a value, which is dropped here
            // (a Unit-typed lambda would cast it to BoxedUnit and fail).
            cur = new Bind[Any, Any](Proc.safely(fin), _ => new Pure(v))
            hasValue = false
        }
        }
      } else {
        (cur.tag: @annotation.switch) match {
          case PURE =>
            value = cur.asInstanceOf[Pure[Any]].value
            hasValue = true
          case DELAY =>
            try { value = cur.asInstanceOf[Delay[Any]].thunk(); hasValue = true }
            catch { case e: Throwable => cur = raised(e) }
          case DEFER =>
            cur = Proc.safely(cur.asInstanceOf[Defer[Any]].thunk)
          case BIND =>
            p.push(cur); cur = cur.asInstanceOf[Bind[Any, Any]].source
          case MAP =>
            p.push(cur); cur = cur.asInstanceOf[Map[Any, Any]].source
          case JMAP =>
            p.push(cur); cur = cur.asInstanceOf[JMap[Any, Any]].source
          case HANDLE =>
            p.push(cur); cur = cur.asInstanceOf[Handle[Any]].source
          case ENSURE =>
            p.push(cur); cur = cur.asInstanceOf[Ensure[Any]].source
          case RAISE =>
            var e = cur.asInstanceOf[Raise].error
            var handled = false
            while (!handled && p.hasFrames) {
              val top = p.pop()
              if (top.isInstanceOf[Frame]) {
                // Offered to the method in frame form: its catch runs, or it rethrows (the default),
                // and then the exception, or the one its handler threw, goes on outward.
                val base = p.depth
                var threw: Throwable = null
                val r = try top.asInstanceOf[Frame].fail(p, e) catch { case t: Throwable => threw = t; null }
                if (threw ne null) {
                  p.dropTo(base)
                  p.current = null
                  if (threw ne e) e = raised(threw).asInstanceOf[Raise].error // rethrows if fatal
                } else {
                  handled = true
                  val next = landed(p, base, r, null)
                  if (next eq null) { value = r; hasValue = true } else cur = next
                }
              } else {
              val frame = top.asInstanceOf[Proc[Any]]
              frame.tag match {
                case HANDLE =>
                  val err = e // a `val` for the closure: capturing the `var` would box it for every RAISE
                  cur = Proc.safely(() => frame.asInstanceOf[Handle[Any]].handler(err))
                  handled = true
                case ENSURE =>
                  val fin = frame.asInstanceOf[Ensure[Any]].finalizer
                  val err = e
                  cur = new Bind[Any, Any](Proc.safely(fin), _ => new Raise(err))
                  handled = true
                case _ => // frames of the failed computation are dropped
              }
              }
            }
            if (!handled) {
              fail(p, e)
              return SliceDone
            }
          case AWAIT =>
            val g = cur.asInstanceOf[Await].guard
            if (control ne null) control.readGuard(g)
            p.markChecked(slices)
            var threw: Throwable = null
            val holds =
              try g.enabled
              catch { case e: Throwable => threw = e; false }
            if (threw ne null) cur = raised(threw) // the process's handlers see it
            else if (holds) { value = (); hasValue = true }
            else {
              p.awaits(g)
              p.current = UnitPure
              return SliceParked
            }
          case AWAIT_FUT =>
            val f = cur.asInstanceOf[AwaitFut[Any]].fut
            if (control ne null) control.read(f)
            val o = f.outcome()
            if (o ne null) {
              if (schedule ne null) noteRead(ScheduleTrace.AwaitFuture, f)
              o match {
                case v: Fut.Value  => value = v.value; hasValue = true
                case x: Fut.Failed => cur = new Raise(x.error); p.reraises(x)
              }
            } else {
              p.awaits(f)
              p.current = cur // resuming re-reads the (then resolved) future
              return SliceParked
            }
          case SUSPEND =>
            p.current = UnitPure
            return SliceYielded
          case AWAIT_TIME =>
            val w = cur.asInstanceOf[AwaitTime]
            if (!w.positive) { value = (); hasValue = true }
            else {
              p.startTimeWait() // the clock has not woken it from this wait
              p.awaits(w)
              p.current = UnitPure
              return SliceParked // parkTime hands it to the clock
            }
          case BLOCK_TIME =>
            val w = cur.asInstanceOf[BlockTime]
            try cur = new Get(runtime.clock.waitFor(w.min, w.max)) catch { case e: Throwable => cur = raised(e) }
          case GET =>
            val f = cur.asInstanceOf[Get[Any]].fut
            if (control ne null) control.read(f)
            val o = f.outcome()
            if (o ne null) {
              // Emitted when get returns: a get that blocks first runs this case twice.
              if (p.traceMode == TraceHooks.Traced) TraceHooks.get(p, f)
              if (schedule ne null) noteRead(ScheduleTrace.FutureRead, f)
              o match {
                case v: Fut.Value  => value = v.value; hasValue = true
                case x: Fut.Failed => cur = new Raise(x.error); p.reraises(x)
              }
            } else {
              p.blockOn(f)
              p.current = cur
              return SliceBlocked
            }
          case SYNC =>
            val s = cur.asInstanceOf[Sync[Active, Any]]
            val t = s.target
            if (t eq null) cur = new Raise(new NullPointerException(s"synchronous call ${Option(s.label).getOrElse("")} on null"))
            // Inline rather than Proc.safely: that would allocate a closure per synchronous call.
            else if (t.cog eq this) { try cur = s.callOn(t) catch { case e: Throwable => cur = raised(e) } }
            else { try cur = new Get(runtime.send(t, s.label, s.asFunction)) catch { case e: Throwable => cur = raised(e) } }
          case CALL =>
            val c = cur.asInstanceOf[CallFrames]
            val base = p.depth
            var threw: Throwable = null
            val r = try c.call.run(p, c.target) catch { case e: Throwable => threw = e; null }
            val next = landed(p, base, r, threw)
            if (next eq null) { value = r; hasValue = true } else cur = next
        }
      }
    }
    throw new AssertionError("unreachable")
  }

  // A recording notes which call's future a process read or awaited (ScheduleTrace.events); a
  // future that is no call's (a promise, a timer) has no name in the schedule and is not noted.
  private def noteRead(kind: String, f: Fut[_]): Unit = {
    val s = schedule
    if (s.recording) f match {
      case q: Process if q.scheduleName ne null => s.note(kind, q.scheduleName, ScheduleTrace.methodOf(q), runtime.now)
      case _                                    =>
    }
  }

  /**
   * Frame code entered at stack depth `base` returned `r` or threw `threw`: null if `r` is its
   * value, else what the loop interprets next: the scheduling point it named (its frames, pushed
   * on the way out, are put innermost on top), or a Raise of what it threw (its frames dropped).
   */
  private def landed(p: Process, base: Int, r: Any, threw: Throwable): Proc[Any] =
    if (threw ne null) {
      p.dropTo(base)
      p.current = null
      raised(threw)
    } else if (r.asInstanceOf[AnyRef] eq Frame.Suspended) {
      p.reverseFrom(base)
      val next = p.current
      p.current = null
      if (next eq null) raised(new IllegalStateException(s"${p.describe}: frame code returned Frame.Suspended without naming a scheduling point"))
      else next
    } else null

  /**
   * `p` threw `e` outside its handlers' reach (a fatal error, a guard, a tracer): it fails with the
   * exception the process fails with, and a fatal error is kept for the end of the batch.
   */
  private def processThrew(p: Process, e: Throwable): Unit = {
    if (exhausted(e)) releaseReserve() // before anything below allocates
    if (isFatal(e)) noteFatal(p.describe, e)
    if (!p.hasEnded) fail(p, asFailure(e, p))
  }

  private def noteFatal(where: String, e: Throwable): Unit =
    if (fatal eq null) { fatal = e; fatalWhere = where }

  private def fail(p: Process, e: Throwable): Unit = {
    p.finish()
    // What it was computing is garbage now, even while the process is still referenced (until the
    // batch ends, or longer by a trace): after running out of memory, that is what frees it.
    p.dropFrames()
    removeFromWaitList(p)
    // An exception that came from another call keeps naming where it was first raised.
    val from = p.raisedFrom
    val origin = if ((from ne null) && (from.error eq e)) s"${from.origin} (via ${p.describe})" else p.describe
    if (p.traceMode == TraceHooks.Traced) TraceHooks.completed(p, null, e)
    // Counted whether or not anybody holds the future: a failed one-way call is reported here only.
    // Before the future fails, so that whoever sees the failure also sees it counted.
    val f = p.fut
    val failed = new Fut.Failed(e, origin)
    runtime.processFailed(p, failed, oneWay = f eq null)
    if (f ne null) f.failWith(failed)
  }

  // ---------------------------------------------------------------- reports

  /** Publish the number of suspended processes and join the registry if there are any. */
  private def publishPending(): Unit = {
    val n = condCount + futCount + (if (blocker ne null) 1 else 0) + (if (ready eq null) 0 else ready.size)
    runtime.suspendedCogs.publish(this, n)
    // Plain compare first: a volatile write only when the number changes (the clock reads it).
    if (condCount != condsSeen) {
      // The runtime's count of COGs with condition waiters lets a clock advance skip the walk over
      // every suspended COG when there are none (CogRuntime.timeAdvanced). Changed here, before the
      // COG can go idle, so a token holder that saw the other COGs idle sees it (its note there).
      if (condsSeen == 0) runtime.condCogs.incrementAndGet()
      else if (condCount == 0) runtime.condCogs.decrementAndGet()
      condsSeen = condCount
      conds = condCount
    }
  }
  private[this] var condsSeen = 0

  /** The suspended processes, for a deadlock report. Only when the COG is idle (quiescence). */
  private[runtime] def waitingReport(): List[String] = {
    val b = List.newBuilder[String]
    if (blocker ne null) {
      // A blocked process's current node is its Get (runSlice keeps it to re-read the future).
      val at = blocker.current match {
        case g: Proc.Get[_] if g.at ne null => s" at ${g.at}"
        case _                              => ""
      }
      b += s"${blocker.describe} blocks its COG in get$at, waiting for ${blocker.waitsFor.describeFuture}"
    }
    var i = 0
    while (i < futCount) {
      val p = futWaiting(i)
      val what = p.guard match {
        case _: Proc.AwaitTime => runtime.clock.describeWait(p.timeWaitSlot)
        case g                 => describeGuard(g)
      }
      b += s"${p.describe} awaits $what"
      i += 1
    }
    i = 0
    while (i < condCount) {
      val p = condWaiting(i)
      b += s"${p.describe} awaits ${describeGuard(p.guard)}"
      i += 1
    }
    val s = schedule
    if ((s ne null) && s.diverged) {
      b += s"the replay diverged here from its recording: ${s.trace.divergence.getOrElse("")}"
    } else if ((s ne null) && s.waiting) {
      b += s"the replayed schedule runs call ${s.expected} here next, but it never arrived (the run diverged from the recording)"
      if (ready ne null) ready.forEach(p => b += s"${p.describe} (call ${p.scheduleName}) is ready, waiting for its turn in the replay")
    } else if (ready ne null) ready.forEach { p =>
      b += s"${p.describe} is ready but the COG is blocked"
    }
    b.result()
  }

  /** The `get` this COG is blocked in, or null; from any thread (see CogRuntime.inspectBlocked). */
  private[runtime] def blockedInGet: BlockedGet = blockedGet

  override def toString: String = {
    val o = owner
    if (o eq null) "COG(empty)" else s"COG of $o"
  }
}

private[runtime] object Cog {
  private[runtime] final val NOWHERE: Byte = 0
  private[runtime] final val COND: Byte = 1
  private[runtime] final val FUT: Byte = 2

  private final val SliceDone = 0
  private final val SliceParked = 1
  private final val SliceYielded = 2
  private final val SliceBlocked = 3

  // Outcomes of checking a guard (checkGuard) and of the PARKED hand-off (sleep).
  private final val Holds = 0
  private final val Blocks = 1
  private final val Raises = 2 // the guard threw: the process raises it when it runs
  private final val Failed = 3 // the guard threw a fatal error: the process has ended
  private final val TakenBack = 4
  private final val Parked = 5

  /**
   * Inbox nodes a pick takes in the default order (see pickNext). One: with more, a long inbox
   * moves into the ready queue faster than the picks empty it, and the ready queue grows to the
   * inbox's size again (an array of a million entries in Counting).
   */
  private final val AcceptPerPick = 1

  /**
   * Memory for reporting that the heap is exhausted. Failing the process, describing it, logging,
   * halting the runtime (a thread) and the JVM's own handling of SIGTERM (a thread too) all
   * allocate; with the heap full they threw again: the uncaught-exception handler itself died, the
   * runtime never halted, and the JVM, deaf to SIGTERM, needed `kill -9`. Released at the first
   * `VirtualMachineError` a process or worker raises (once per JVM; the run ends after it).
   */
  @volatile private[this] var reserve: Array[Byte] = new Array[Byte](1 << 20)
  private[runtime] def releaseReserve(): Unit = reserve = null

  // Resolve the classes the fatal-error path tests for now: resolving them on first use allocates,
  // which fails when that first use is an OutOfMemoryError.
  locally {
    val probe = new LinkageError("resolving the classes of isFatal")
    isFatal(probe)
    exhausted(probe)
  }

  /** The JVM ran out of something (memory): the reserve goes. No allocation, once the class is resolved above. */
  private[runtime] def exhausted(e: Throwable): Boolean = e.isInstanceOf[VirtualMachineError]

  private val EmptyProcs = new Array[Process](0)
  private def grow(a: Array[Process]): Array[Process] =
    java.util.Arrays.copyOf(a, math.max(4, a.length * 2))

  /**
   * Errors after which the runtime does not trust itself to go on as if nothing happened: the JVM
   * may be out of memory or broken (`VirtualMachineError`: OutOfMemoryError, InternalError,
   * UnknownError), or the classes that run are not those the program was compiled against
   * (`LinkageError`: every other process that reaches the same code fails the same way, and a
   * half-initialised class stays broken). The process that raised one still fails like any other
   * (its future fails, a one-way call is counted), without running its handlers or finalizers
   * (user code must not swallow an OutOfMemoryError with a `case e: Throwable`); then the error
   * goes to the worker's uncaught-exception handler and `cogs.on-fatal-error` decides.
   *
   * Not fatal, and so ordinary failures of their process that its handlers may catch:
   * `StackOverflowError` (it unwound to the interpreter's frame, which is shallow: the JVM stack is
   * fine again, and ABS sees a failed method); `InterruptedException` (user code was interrupted
   * in a blocking call; the interrupt was consumed by the throw and is not re-asserted, or the next
   * process on this worker would see it); and a `ControlThrowable` (a non-local `return` or
   * `break` whose method had already returned when the closure ran), which is wrapped, see
   * [[asFailure]]. Scala's `NonFatal` treats the last two as fatal, which stranded the process.
   */
  private[runtime] def isFatal(e: Throwable): Boolean = e match {
    case _: StackOverflowError => false
    case _: VirtualMachineError | _: LinkageError => true
    case _ => false
  }

  /** The exception a process fails with when its code threw `e`. */
  private[runtime] def asFailure(e: Throwable, p: Process): Throwable = e match {
    case c: ControlThrowable =>
      val where = if (p eq null) "a process" else p.describe
      new IllegalStateException(
        s"$where: a non-local return (or another scala.util.control.ControlThrowable, ${c.getClass.getName}) " +
          "left a closure that ran after its method had returned; write the result as the closure's value instead", c)
    case other => other
  }

  /** What the interpreter does with `e` thrown by user code: a Raise for the process's handlers, or rethrow if fatal. */
  private[runtime] def raised(e: Throwable): Proc[Nothing] =
    if (isFatal(e)) throw e else new Proc.Raise(asFailure(e, currentProcess()))

  private def currentProcess(): Process = {
    val c = current()
    if (c eq null) null else c.running
  }

  private[runtime] def describeGuard(g: Guard): String = g match {
    case f: Fut[_] => f.describeFuture
    case null      => "nothing"
    case other     => other.toString
  }

  // For main tasks run by a thread that is not one of a runtime's workers (a foreign executor).
  private val currentCog = new ThreadLocal[Cog]

  /** The COG whose main task runs on this thread, or null outside every COG. */
  private[runtime] def current(): Cog = Thread.currentThread() match {
    case w: CogRuntime.Worker => w.current
    case _                    => currentCog.get()
  }
}
