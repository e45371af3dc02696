package cogs.runtime

import java.util.PriorityQueue
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.locks.ReentrantLock

/**
 * The simulated clock of a runtime (Timed ABS). Time stands still while anything can run; when
 * nothing can (every process waits for a future, a condition, time or resources), the clock
 * jumps to the earliest time at which some waiting process must be woken, the smallest of the
 * waiting processes' maximum times (and the next whole time unit, if a process waits for a
 * deployment component's resources to refill), and wakes every process whose minimum time has
 * been reached. Those processes run; when nothing can run again, the clock advances again.
 *
 * A runtime gets its clock when a process first asks for the time or waits for it
 * ([[CogRuntime.clock]]); until then the runtime's quiescence path pays one null check.
 *
 * ==Why the "idle" decision is race-free and why no wake-up is lost==
 * The runtime counts active COGs (scheduled or running) in `active`; a COG is counted before it
 * is scheduled and uncounted after its batch ended with nothing left to run (see CogCore: the
 * count is never lower than the number of SCHEDULED COGs). With a clock, the COG whose batch
 * ends while it is the only one counted (`active == 1`) does not uncount itself: it keeps its
 * count as a token and advances the clock ([[lastOneIdle]]). While it holds the token:
 *  - no other thread can see `active == 0`, so nobody concludes that the program is finished or
 *    deadlocked while an advance is still possible (awaitQuiescence, join and the deadlock
 *    report all need zero);
 *  - no other COG can be at the same decision: another COG reaches `lastOneIdle` only with
 *    `active == 1`, and the token keeps it at two or more until the token is given back;
 *  - every process woken by the advance has its COG counted active before the token is given
 *    back, because resolving a time future pushes the process into its COG's inbox and
 *    activates the COG synchronously, in this thread (Fut.complete runs the waiters; CogCore
 *    counts before it schedules).
 * So `active` reaches zero again only after every COG woken by one advance has run until none
 * of its processes can go on: that is the barrier between two advances. A COG activated from
 * outside the runtime (a thread calling `send` or resolving a promise) while the token is held
 * is simply concurrent with the advance, as an external event has no place in simulated time.
 * The token is given back with a CAS from one to zero only when there is nothing to advance to;
 * if the CAS fails, something became active meanwhile, and the holder just uncounts itself.
 *
 * The clock's own state (waiting entries, the time) is guarded by `lock`: entries are added by
 * running processes while an advance may be waking others. `now` is a volatile read.
 * `StressSimClockTest` runs thousands of processes at random durations on several workers and
 * checks that every process wakes exactly at a time within its bounds, that time never moves
 * while a process could run, and that the clock makes exactly the advances the waiters need.
 */
private[runtime] final class SimClock(rt: CogRuntime) {
  import SimClock._

  private[this] val lock = new ReentrantLock
  @volatile private[this] var now$ : SimTime = SimTime.Zero
  @volatile private[runtime] var limit: SimTime = _
  @volatile private[runtime] var limitReached: Boolean = false
  // Bumped (under `lock`, after `limit`) each time the limit is raised from outside: see `idle`.
  @volatile private[this] var limitVersion: Long = 0
  @volatile private[this] var advances$ : Long = 0
  // Entries by minimum time (whom to wake) and by maximum time (where to jump); an entry woken
  // through one queue is dropped lazily from the other.
  private[this] val byMin = new PriorityQueue[Entry](16, (a: Entry, b: Entry) => a.min.compare(b.min))
  private[this] val byMax = new PriorityQueue[Entry](16, (a: Entry, b: Entry) => a.max.compare(b.max))
  // Resolved when time reaches the next whole unit; null while nobody waits for it.
  private[this] var nextUnit: Fut[Unit] = _

  def now: SimTime = now$

  def advances: Long = advances$

  /**
   * A future resolved when the time is at least `now + min`, and at the latest when it reaches
   * `now + max` (ABS `duration(min, max)`). Already resolved if `min` is not positive.
   */
  def waitFor(min: SimTime, max: SimTime): Fut[Unit] = {
    val f = new PlainFut[Unit](rt)
    if (min.signum <= 0) { f.resolve(()); return f }
    lock.lock()
    try {
      val t = now$
      val e = new Entry(t + min, t + (if (max < min) min else max), f)
      byMin.add(e)
      byMax.add(e)
    } finally lock.unlock()
    f
  }

  /** A future resolved when the time reaches the next whole unit (resources refill then). */
  def nextTimeUnit(): Fut[Unit] = {
    lock.lock()
    try {
      var u = nextUnit
      if (u eq null) { u = new PlainFut[Unit](rt); nextUnit = u }
      u
    } finally lock.unlock()
  }

  /** What `f` waits for, if it is one of this clock's futures (for reports). */
  def describe(f: Fut[_]): Option[String] = {
    lock.lock()
    try {
      if (f eq nextUnit) Some(s"the next time unit (now ${now$})")
      else {
        val it = byMin.iterator()
        var found: Option[String] = None
        while (found.isEmpty && it.hasNext) {
          val e = it.next()
          if (e.fut eq f) found = Some(s"the clock to reach ${e.min} (at the latest ${e.max}; now ${now$})")
        }
        found
      }
    } finally lock.unlock()
  }

  /** Number of processes waiting for time (including resources); for reports. */
  def waiting: Int = {
    lock.lock()
    try byMin.size + (if (nextUnit ne null) 1 else 0)
    finally lock.unlock()
  }

  /**
   * Called by a COG whose batch ended with nothing left to run, instead of uncounting itself.
   * See the class comment for the token argument. Returns true if the runtime became quiescent
   * (the count reached zero) through this call.
   */
  def idle(active: AtomicInteger): Boolean = {
    while (true) {
      val a = active.get()
      if (a > 1) { if (active.compareAndSet(a, a - 1)) return false }
      else {
        val version = limitVersion
        if (!advance()) {
          if (active.compareAndSet(1, 0)) {
            // The limit was raised after this advance read it (extendLimit): its kick may have
            // seen our token and left the advance to us. Take the count back and advance again.
            if (limitVersion == version) return true
            active.incrementAndGet()
          }
        }
      }
      // advanced (woken COGs are counted now), the CAS lost, or the limit moved: look again
    }
    false
  }

  /**
   * Raise the limit by `by` (the Model API's `/clock/advance`), from any thread; the new limit, or
   * None if the clock has none. The caller then counts itself active and goes idle through
   * [[idle]] (CogRuntime.extendClockLimit), so that an advance the old limit stopped happens now.
   *
   * Why the raise cannot be lost: `idle` reads `limitVersion` before `advance` reads the limit
   * (under `lock`, where this writes both, the limit first). If it read the new version,
   * `advance` sees the new limit. If it read the old one and `advance` stopped at the old limit,
   * then either the caller's increment of `active` comes before the token holder's CAS from one
   * to zero (the CAS fails, or the caller saw `active > 1` and left the token holder to look
   * again, which re-reads the version after its CAS and sees the new one: it takes the count
   * back and advances), or after it: then the caller finds `active == 1`, holds the token itself
   * and advances under the new limit. `StressSimClockTest` raises a limit against a running
   * simulation many times and checks that it always reaches the last limit.
   */
  def extendLimit(by: SimTime): Option[SimTime] = {
    lock.lock()
    try {
      val l = limit
      if (l eq null) None
      else {
        val raised = l + by
        limit = raised
        limitReached = false
        limitVersion += 1
        Some(raised)
      }
    } finally lock.unlock()
  }

  /** One advance, by the token holder. False if no process waits for time or the limit is reached. */
  private def advance(): Boolean = {
    var woken: List[Fut[Unit]] = Nil
    lock.lock()
    try {
      val unit = nextUnit
      if (byMax.isEmpty && (unit eq null)) return false
      val t = now$
      var target: SimTime = if (byMax.isEmpty) null else byMax.peek().max
      if (unit ne null) {
        val boundary = t.floor + SimTime.One
        if ((target eq null) || boundary < target) target = boundary
      }
      val lim = limit
      if ((lim ne null) && target > lim) { limitReached = true; return false }
      now$ = target
      advances$ += 1
      while (!byMin.isEmpty && byMin.peek().min <= target) {
        val e = byMin.poll()
        e.woken = true
        woken = e.fut :: woken
      }
      while (!byMax.isEmpty && byMax.peek().woken) byMax.poll()
      if ((unit ne null) && target.floor > t.floor) { nextUnit = null; woken = unit :: woken }
    } finally lock.unlock()
    // Outside the lock (a waiter may ask the clock again), inside the token: each resolution
    // activates the waiting process's COG before we look at `active` again.
    var w = woken
    while (w ne Nil) { w.head.resolve(()); w = w.tail }
    rt.timeAdvanced()
    true
  }
}

private[runtime] object SimClock {
  private final class Entry(val min: SimTime, val max: SimTime, val fut: Fut[Unit]) {
    var woken = false
  }
}
