package cogs.runtime

import java.util.PriorityQueue
import java.util.concurrent.atomic.AtomicInteger

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
 *    back: a process waiting in `await duration` is pushed into its COG's inbox (alone, or with
 *    the others of its COG in one [[SimClock.Wakes]] node) by `enqueueAndSchedule`, in this
 *    thread, which activates the COG (CogCore counts before it schedules) before `advance`
 *    returns; resolving a time future (a guard, `Cogs.timer`, `duration`) does the same through
 *    the future's waiters (Fut.complete runs them in this thread). See [[wake]]. When an
 *    advance wakes many, the pushes happen in chunks on the pool's workers, and then each chunk
 *    is counted active in this thread, before `advance` returns, and gives its count up only
 *    after the COGs it woke are counted (see `wakeInChunks` and [[SimClock.WakeChunk]]).
 * So `active` reaches zero again only after every COG woken by one advance has run until none
 * of its processes can go on: that is the barrier between two advances. A COG activated from
 * outside the runtime (a thread calling `send` or resolving a promise) while the token is held
 * is simply concurrent with the advance, as an external event has no place in simulated time.
 * The token is given back with a CAS from one to zero only when there is nothing to advance to;
 * if the CAS fails, something became active meanwhile, and the holder just uncounts itself.
 *
 * The clock's own state (waiting entries, the time) is guarded by `lock`: entries are added by
 * running processes while an advance may be waking others. `now` is a volatile read.
 *
 * ==Times as longs==
 * Internally a time is a `long` numerator over the clock's common denominator `den` (1 until a
 * duration with another denominator comes: then `den` becomes the least common multiple and
 * every kept time is multiplied, which keeps the heaps' order). Comparing and adding two times
 * is then a `long` operation instead of `SimTime`'s `BigInteger`s. When a time, a denominator or
 * a rescaling no longer fits in a long (`Math.*Exact` throws), the clock goes over, once and for
 * good, to the exact path: `Entry`s with `SimTime` keys in two priority queues, as before.
 *
 * ==One object per wait==
 * A waiter is a [[SimClock.TimeSlot]]: a process in `await duration` is waited for through its
 * own side object (`Process.Extra`, which a process of a timed runtime has anyway for its
 * arrival time), so waiting allocates nothing but the `Proc` node; a time future (`waitFor`) has
 * a [[SimClock.FutSlot]].
 *
 * ==Groups of equal times==
 * In the long path the slots wait in groups of equal minimum and maximum times. Only a group's
 * first slot (its head) is in the two array heaps, by minimum (whom to wake: only ever taken from
 * the top) and by maximum (where to jump: a head woken through the minimum heap leaves it by its
 * index, `iMax`); the others are in the head's [[SimClock.Followers]] array, made when a second
 * slot joins (a slot alone costs nothing more: the field fits in the padding of the process's side
 * object). A model's processes wait the same few durations from the same instants (every object
 * of TimedBench waits one unit at each instant), so a wait nearly always joins an open group, found
 * through a small cache of the groups opened last ([[groupHead]]): an array append instead of a
 * heap insert. An advance takes a whole group off the heaps at once and copies its followers as
 * references, without touching them, instead of sifting each slot out of two heaps of ten
 * thousand (the heaps' removals were a seventh of TimedBench's profile). A wait that misses the
 * cache opens a new group, even if another with its times is in the heaps: two groups of equal
 * times are woken by the same advance, as two slots were.
 * `StressSimClockTest` runs thousands of processes at random durations on several workers and
 * checks that every process wakes exactly at a time within its bounds, that time never moves
 * while a process could run, and that the clock makes exactly the advances the waiters need.
 */
private[runtime] final class SimClock(rt: CogRuntime) extends QuiescenceHook {
  import SimClock._

  // A monitor, not a ReentrantLock: the sections are short (usually an append to an open group
  // of equal times, see "Groups of equal times"), and the COGs on every worker enter
  // them at each `await duration`. A monitor spins a little before it parks a thread; the lock
  // parked the second worker at once, and its unlock's unpark cost a tenth of TimedBench.
  private[this] val lock = new AnyRef
  // The time, as the public sees it: rebuilt at each advance from `nowUnits` / `den`.
  @volatile private[this] var now$ : SimTime = SimTime.Zero
  @volatile private[runtime] var limit: SimTime = _
  @volatile private[runtime] var limitReached: Boolean = false
  // Bumped (under `lock`, after `limit`) each time the limit is raised from outside: see `idle`.
  @volatile private[this] var limitVersion: Long = 0
  @volatile private[this] var advances$ : Long = 0

  // ---- the long path (under `lock`): times are numerators over `den`
  private[this] var den: Long = 1L
  private[this] var nowUnits: Long = 0L
  private[this] val mins = new SlotHeap(byMax = false)
  private[this] val maxs = new SlotHeap(byMax = true)
  private[this] var heads = 0 // of both heaps: they hold the same slots, one per group
  private[this] var size = 0 // slots waiting on the long path, in all groups
  // The heads of the groups opened last, by a hash of their times. An entry is always the head of
  // a group in the heaps: `pollMin` clears the entry of a group it takes, and a rescale or the
  // exact path clears them all (a key's index changes with its times).
  private[this] val groupHead = new Array[TimeSlot](Groups)

  // ---- the exact path, once a time did not fit in a long (under `lock`); null until then.
  // Entries by minimum time (whom to wake) and by maximum time (where to jump); an entry woken
  // through one queue is dropped lazily from the other.
  private[this] var xByMin: PriorityQueue[Entry] = _
  private[this] var xByMax: PriorityQueue[Entry] = _

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
    lock.synchronized { add(new FutSlot(f), min, max) }
    f
  }

  /**
   * Process `x.process`, parked (PARKED published) in `await duration(min, max)` with `min`
   * positive, waits here until the time is at least `now + min` (at the latest `now + max`):
   * then [[advance]] sets `x.timeUp` and wakes it (see [[wake]]). Its COG's main task only.
   */
  def sleep(x: Process.Extra, w: Proc.AwaitTime): Unit = {
    lock.synchronized {
      if (!w.whole) add(x, w.min, w.max)
      else if (xByMin eq null) {
        // Whole durations: no SimTime at all on the long path.
        try {
          val lo = Math.addExact(nowUnits, Math.multiplyExact(w.minUnits, den))
          val hi = Math.max(lo, Math.addExact(nowUnits, Math.multiplyExact(w.maxUnits, den)))
          x.tMin = lo
          x.tMax = hi
          insert(x)
        } catch { case _: ArithmeticException => goExact(); add(x, w.min, w.max) }
      } else add(x, w.min, w.max)
    }
  }

  /** `s` waits from now for `min`..`max`; under `lock`. */
  private def add(s: TimeSlot, min: SimTime, max0: SimTime): Unit = {
    val max = if (max0 < min) min else max0
    if (xByMin eq null) {
      try {
        scaleFor(min)
        scaleFor(max)
        val lo = Math.addExact(nowUnits, units(min))
        val hi = Math.addExact(nowUnits, units(max))
        s.tMin = lo
        s.tMax = hi
        insert(s)
        return
      } catch { case _: ArithmeticException => goExact() }
    }
    val t = now$
    val e = new Entry(t + min, t + max, s)
    xByMin.add(e)
    xByMax.add(e)
  }

  // ---------------------------------------------------------------- the long path

  /** Make `den` a multiple of `t`'s denominator, rescaling every kept time; throws ArithmeticException if it does not fit. */
  private def scaleFor(t: SimTime): Unit = {
    val d = t.denominator
    if (d.bitLength > 62) throw new ArithmeticException("denominator too large")
    val q = d.longValue
    if (den % q != 0) {
      val nd = Math.multiplyExact(den / gcd(den, q), q)
      val f = nd / den
      // Check everything first, then rescale: a rescale that failed halfway would leave mixed scales.
      Math.multiplyExact(nowUnits, f)
      var i = 0
      // A group's slots share its head's times: checking the heads checks them all.
      while (i < heads) { val s = mins.a(i); Math.multiplyExact(s.tMin, f); Math.multiplyExact(s.tMax, f); i += 1 }
      i = 0
      while (i < heads) {
        val h = mins.a(i)
        h.tMin *= f
        h.tMax *= f
        val g = h.followers
        if (g ne null) { var j = 0; while (j < g.n) { val s = g.a(j); s.tMin *= f; s.tMax *= f; j += 1 } }
        i += 1
      }
      nowUnits *= f
      den = nd
      clearGroups()
    }
  }

  /** `t` in clock units (`den` is a multiple of its denominator); throws ArithmeticException if it does not fit. */
  private def units(t: SimTime): Long = {
    val n = t.numerator
    if (n.bitLength > 63) throw new ArithmeticException("time too large")
    Math.multiplyExact(n.longValue, den / t.denominator.longValue)
  }

  private def time(u: Long): SimTime = if (den == 1L) SimTime.of(u) else SimTime.of(u, den)

  /** Leave the long path for good: every slot becomes an exact Entry. Under `lock`. */
  private def goExact(): Unit = {
    xByMin = new PriorityQueue[Entry](math.max(16, size), (a: Entry, b: Entry) => a.min.compare(b.min))
    xByMax = new PriorityQueue[Entry](math.max(16, size), (a: Entry, b: Entry) => a.max.compare(b.max))
    var i = 0
    def exact(s: TimeSlot): Unit = {
      val e = new Entry(time(s.tMin), time(s.tMax), s)
      xByMin.add(e)
      xByMax.add(e)
    }
    while (i < heads) {
      val h = mins.a(i)
      h.iMax = -1
      exact(h)
      val g = h.followers
      if (g ne null) { h.followers = null; var j = 0; while (j < g.n) { exact(g.a(j)); j += 1 } }
      mins.a(i) = null
      maxs.a(i) = null
      i += 1
    }
    heads = 0
    size = 0
    clearGroups()
  }

  /** `s` (its times set) joins the open group of its times, or opens one. */
  private def insert(s: TimeSlot): Unit = {
    size += 1
    val g = group(s.tMin, s.tMax)
    val h = groupHead(g)
    if ((h ne null) && h.tMin == s.tMin && h.tMax == s.tMax) {
      var f = h.followers
      if (f eq null) { f = new Followers; h.followers = f }
      f.add(s)
    } else {
      if (heads == mins.a.length) { mins.grow(); maxs.grow() }
      val n = heads
      heads = n + 1
      mins.up(s, n)
      maxs.up(s, n)
      groupHead(g) = s
    }
  }

  private def group(tMin: Long, tMax: Long): Int =
    (java.lang.Long.hashCode((tMin * 31 + tMax) * 0x9E3779B97F4A7C15L) >>> 16) & (Groups - 1)

  private def clearGroups(): Unit = {
    java.util.Arrays.fill(groupHead.asInstanceOf[Array[AnyRef]], null)
  }

  /** Take the group at the top of the minimum heap out of both heaps (its head; the rest are its followers). `heads` > 0. */
  private def pollMin(): TimeSlot = {
    val top = mins.a(0)
    val n = heads - 1
    heads = n
    mins.remove(0, n)
    // Out of the maximum heap by its index, wherever it is there.
    maxs.remove(top.iMax, n)
    top.iMax = -1
    val g = group(top.tMin, top.tMax)
    if (groupHead(g) eq top) groupHead(g) = null
    top
  }
  /** Greatest common divisor of two positive longs. */
  private def gcd(a0: Long, b0: Long): Long = {
    var a = a0
    var b = b0
    while (b != 0) { val t = a % b; a = b; b = t }
    a
  }

  // ---------------------------------------------------------------- reports

  /** A future resolved when the time reaches the next whole unit (resources refill then). */
  def nextTimeUnit(): Fut[Unit] = {
    lock.synchronized {
      var u = nextUnit
      if (u eq null) { u = new PlainFut[Unit](rt); nextUnit = u }
      u
    }
  }

  /** What `f` waits for, if it is one of this clock's futures (for reports). */
  def describe(f: Fut[_]): Option[String] = {
    lock.synchronized {
      if (f eq nextUnit) Some(s"the next time unit (now ${now$})")
      else findSlot {
        case s: FutSlot => s.fut eq f
        case _          => false
      }
    }
  }

  /** What the process of `x` waits for in `await duration` (for reports). */
  def describeWait(x: Process.Extra): String = {
    lock.synchronized {
      val found = findSlot(_ eq x)
      if (found.isDefined) found.get else s"the clock (now ${now$})" // not getOrElse: its closure would expose now$
    }
  }

  // Under `lock`.
  private def findSlot(which: TimeSlot => Boolean): Option[String] = {
    def text(min: SimTime, max: SimTime) = s"the clock to reach $min (at the latest $max; now ${now$})"
    if (xByMin eq null) {
      var i = 0
      while (i < heads) {
        val h = mins.a(i)
        if (which(h)) return Some(text(time(h.tMin), time(h.tMax)))
        val g = h.followers
        if (g ne null) {
          var j = 0
          while (j < g.n) { if (which(g.a(j))) return Some(text(time(h.tMin), time(h.tMax))); j += 1 }
        }
        i += 1
      }
      None
    } else {
      val it = xByMin.iterator()
      while (it.hasNext) {
        val e = it.next()
        if (which(e.slot)) return Some(text(e.min, e.max))
      }
      None
    }
  }

  /** Number of processes waiting for time (including resources); for reports. */
  def waiting: Int = {
    lock.synchronized { (if (xByMin eq null) size else xByMin.size) + (if (nextUnit ne null) 1 else 0) }
  }

  /**
   * Called by a COG whose batch ended with nothing left to run, instead of uncounting itself.
   * See the class comment for the token argument. Returns true if the runtime became quiescent
   * (the count reached zero) through this call.
   */
  def idle(active: AtomicInteger): Boolean = {
    // A clock driven by the cluster (ClusterClockLink) never advances here: see that class.
    val l = link
    if (l ne null) return l.idle(active)
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
    lock.synchronized {
      val l = limit
      if (l eq null) None
      else {
        val raised = l + by
        limit = raised
        limitReached = false
        limitVersion += 1
        Some(raised)
      }
    }
  }

  // Set once, before the simulation starts, when a cluster clock drives this one (issue 30).
  @volatile private[runtime] var link: ClusterClockLink = _

  /**
   * Where this clock would advance to now (the smallest maximum time of its waiters, or the next
   * whole unit if a process waits for resources), without moving; null if nothing waits for time.
   * For a cluster clock, which advances every node to the smallest of these.
   */
  private[runtime] def nextTarget: SimTime = lock.synchronized { target() }

  /** [[nextTarget]], under `lock`. */
  private def target(): SimTime = {
    var at: SimTime =
      if (xByMin eq null) { if (heads == 0) null else time(maxs.a(0).tMax) }
      else if (xByMax.isEmpty) null
      else xByMax.peek().max
    if (nextUnit ne null) {
      val boundary = now$.floor + SimTime.One
      if ((at eq null) || boundary < at) at = boundary
    }
    at
  }

  /**
   * Advance to `at`, decided by a cluster clock (at most this clock's [[nextTarget]]: no waiter's
   * maximum is passed), waking what it reaches exactly as [[advance]] does: every woken COG is
   * counted active before this returns. The caller holds the count that keeps the runtime from
   * quiescence (the cluster's hold, ClusterClockLink), in the role of [[advance]]'s token. The
   * number of waiters woken.
   */
  private[runtime] def advanceTo(at: SimTime): Int = {
    var woken: Slots = null
    val unitFut = lock.synchronized {
      if (at < now$) throw new IllegalStateException(s"the cluster clock cannot go back from ${now$} to $at")
      woken = takeList()
      reach(at, woken)
    }
    val n = woken.size
    reached(woken, unitFut)
    n
  }

  // The list an advance collects its woken slots in, kept between advances: growing a fresh one
  // to 10,000 slots at each advance (TimedBench) was a seventh of its profile. Only the token
  // holder (or the cluster's hold) advances, so one list is enough; taking it under the lock
  // makes a second one only if that ever changed.
  private[this] var spare: Slots = _

  /** The kept list, or a new one; under `lock`. */
  private def takeList(): Slots = {
    val l = spare
    if (l eq null) new Slots else { spare = null; l }
  }

  /** Give the list back, empty, for the next advance. */
  private def giveList(l: Slots): Unit = {
    l.clear()
    lock.synchronized { spare = l }
  }

  /** One advance, by the token holder. False if no process waits for time or the limit is reached. */
  private def advance(): Boolean = {
    var woken: Slots = null
    val unitFut = lock.synchronized {
      val at = target()
      if (at eq null) return false
      val lim = limit
      if ((lim ne null) && at > lim) { limitReached = true; return false }
      woken = takeList()
      reach(at, woken)
    }
    reached(woken, unitFut)
    true
  }

  /**
   * The one way time moves, for [[advance]] and [[advanceTo]]: under `lock`, set the time to `at`
   * (not before now), take into `woken` every waiter whose minimum it reaches, out of both heaps,
   * and return the next unit's future if `at` passed a whole unit (null otherwise). A time that
   * does not fit the long path moves the clock to the exact path first (nothing has moved then).
   */
  private def reach(at: SimTime, woken: Slots): Fut[Unit] = {
    val before = now$
    if (xByMin eq null) {
      try {
        scaleFor(at)
        val target = units(at)
        nowUnits = target
        while (heads > 0 && mins.a(0).tMin <= target) {
          val h = pollMin()
          woken.add(h)
          size -= 1
          // The rest of its group, in the order the slots came, copied as references.
          val g = h.followers
          if (g ne null) { h.followers = null; woken.addAll(g.a, g.n); size -= g.n }
        }
      } catch { case _: ArithmeticException => goExact() } // thrown before anything moved
    }
    if (xByMin ne null) {
      while (!xByMin.isEmpty && xByMin.peek().min <= at) {
        val e = xByMin.poll()
        e.woken = true
        woken.add(e.slot)
      }
      while (!xByMax.isEmpty && xByMax.peek().woken) xByMax.poll()
    }
    now$ = at
    advances$ += 1
    val unit = nextUnit
    if ((unit ne null) && at.floor > before.floor) { nextUnit = null; unit } else null
  }

  /**
   * After [[reach]], outside the lock (a waiter may ask the clock again) and inside the token (or
   * the cluster's hold): wake what it took, then tell the runtime.
   */
  private def reached(woken: Slots, unitFut: Fut[Unit]): Unit = {
    wake(woken)
    giveList(woken)
    if (unitFut ne null) unitFut.resolve(())
    rt.timeAdvanced()
  }

  /**
   * Wake what one advance reached, in this thread, before the token can go back (many waiters:
   * in chunks on the pool, each counted here, see [[wakeInChunks]]).
   *
   * A time future is resolved: its waiters run here and activate their COGs (Fut.complete).
   *
   * A process in `await duration` gets `timeUp` (a volatile write) and then the clock takes it
   * out of PARKED with a CAS, as any waker does (ProcessCore). The processes it took are grouped
   * by COG and each COG gets one inbox node: the process itself if it is alone, else a
   * [[Wakes]] node with all of them. `enqueueAndSchedule` pushes the node and, if the COG is
   * idle, activates it: `active` is incremented here, in this thread, before this method returns
   * and so before the token holder looks at `active` again or gives the token back. That is the
   * barrier of the class comment: no second advance can happen before every process woken by
   * this one has run (the stress test `StressSimClockTest.thousandsAtOneInstant...` would see a
   * process wake early, or its count short, if a batch were activated later by its own COG).
   *
   * Why no wake-up is lost when the CAS fails: the only other way out of PARKED is a stale waker
   * (a future the process once waited for directly, resolving late) or the COG's own re-check.
   * The COG, holding the process, checks `timeUp` before it lets it resume, and before it parks
   * it again it publishes PARKED (a volatile store) and reads `timeUp` again (Cog.parkTime). The
   * clock writes `timeUp` before its CAS; its CAS saw a state other than PARKED, so it precedes
   * the COG's next store of PARKED, which precedes the COG's re-read: that re-read sees `timeUp`
   * and takes the process back itself (a CAS PARKED to RUNNING, which nobody contends any more).
   * This is the Dekker pair of Cog.sleep, with `timeUp` in the role of the future's state.
   */
  private def wake(woken: Slots): Unit = {
    val n = woken.size
    if (n >= ChunkedWakeFrom && (rt.control eq null)) { wakeInChunks(woken); return }
    // The COGs that got a process, in the order of their first one; each COG's node is built in
    // its `clockWoken` field (a field, not a map: an advance of TimedBench wakes 10,000 processes
    // on 10,000 COGs, and hashing them was a tenth of its time).
    var cogs: java.util.ArrayList[Cog] = null
    var single: Process = null
    var i = 0
    while (i < n) {
      val p = release(woken.get(i))
      if (p ne null) {
        // Most advances wake one process, or one per COG: no list for one.
        if ((single eq null) && (cogs eq null)) single = p
        else {
          if (cogs eq null) {
            cogs = new java.util.ArrayList[Cog](math.max(16, n - i + 1))
            gather(cogs, single)
            single = null
          }
          gather(cogs, p)
        }
      }
      i += 1
    }
    if (single ne null) push(single.cog, single)
    else if (cogs ne null) {
      // Each field is cleared before its COG is pushed (the COG's main task never reads it; the
      // next advance's holder finds them all null).
      val m = cogs.size
      var j = 0
      while (j < m) { val c = cogs.get(j); val node = c.clockWoken; c.clockWoken = null; push(c, node); j += 1 }
    }
  }

  /**
   * [[wake]] for many processes (TimedBench wakes 10,000 per advance): the token holder only
   * copies the references and hands them to the pool in chunks ([[WakeChunk]]) of [[WakeChunkSize]],
   * which wake their processes and run their COGs on whichever worker takes them. Waking in this
   * thread touched three objects per process (its side object, the process, its COG) one after
   * the other while every other worker waited for the advance: that serial walk, bound by cache
   * misses, was half of TimedBench's wall time, and every COG it woke was then pushed to the pool
   * and run elsewhere, its lines cold again.
   *
   * The barrier holds: each chunk is counted in `active` here, before any chunk is submitted and
   * so before the token goes back, and a chunk gives its count up only after every COG it woke is
   * counted (see [[WakeChunk]]). So until every process of this advance is in its COG's inbox and
   * that COG counted, `active` cannot reach the token's last count, and no second advance can
   * come before all of them have run. A controlled run wakes in this thread: its controller, not
   * the pool, decides which COG runs.
   */
  private def wakeInChunks(woken: Slots): Unit = {
    val n = woken.size
    val all = java.util.Arrays.copyOf(woken.a, n)
    rt.countActive((n + WakeChunkSize - 1) / WakeChunkSize)
    var i = 0
    while (i < n) {
      val end = math.min(n, i + WakeChunkSize)
      rt.submitTask(new WakeChunk(rt, all, i, end))
      i = end
    }
  }

  /** Add `p` to the node being built for its COG (see `wake`); the token holder only. */
  private def gather(cogs: java.util.ArrayList[Cog], p: Process): Unit = {
    val c = p.cog
    c.clockWoken match {
      case null       => c.clockWoken = p; cogs.add(c)
      case q: Process => c.clockWoken = new Wakes(q, p)
      case w: Wakes   => w.add(p)
    }
  }

  private def push(c: Cog, n: Node): Unit = {
    if (SchedulerCounters.ON) rt.countMessage(c, call = false)
    c.enqueueAndSchedule(n)
  }
}

private[runtime] object SimClock {
  /**
   * Wake one waiter whose time came: resolve its time future, or mark its process's time up and
   * take it out of PARKED (the Dekker pair with its COG described at `wake`). The process its COG
   * must now be given, or null (a future, or a process its COG took back itself).
   */
  private def release(slot: TimeSlot): Process = slot match {
    case f: FutSlot => f.fut.resolve(()); null
    case x: Process.Extra =>
      x.timeUp = true
      val p = x.process
      if (p.casState(ProcessCore.PARKED, ProcessCore.QUEUED)) p else null
  }

  /** An advance that wakes at least this many waiters wakes them in chunks (`wakeInChunks`). */
  private final val ChunkedWakeFrom = 128
  /** Waiters per chunk: the pool's cost is per chunk, and both workers still get many chunks. */
  private final val WakeChunkSize = 64

  /**
   * Wakes `slots(from until to)` of one advance and runs the COGs it activated, on the worker that
   * takes it. Counted in `active` by the token holder before it was submitted ([[wakeInChunks]]).
   *
   * Each waiter is woken as `wake` does it (a time future resolved; a process gets `timeUp`, then
   * the CAS out of PARKED, the same Dekker pair with its COG), and consecutive processes of one COG
   * go into one inbox node. A COG is then claimed (`CogCore.enqueueAndClaim`: the push and the CAS
   * from IDLE to SCHEDULED of `enqueueAndSchedule`, without the submission), not submitted: this
   * chunk runs the COGs it claimed itself, one after the other, right after waking them, while their
   * lines are in this core's cache. A claimed COG is counted when the wake loop ends, and only then
   * is the chunk's own count given up: handed to the first claimed COG (so one atomic add of k - 1
   * for k COGs), or, if it claimed none (every COG was already scheduled, or another producer won
   * the CAS and counted its own), given back as a COG's batch would be (`cogIdle`: the clock may
   * advance from here, as from any COG that goes idle last). Why counting after the claim is safe
   * here when `activate` must count before its CAS: a claimed COG is SCHEDULED and uncounted only
   * while this chunk still holds its own count, so `active` cannot be zero meanwhile; and nobody
   * else can run it, since only this chunk submits it. Every claimed COG runs exactly once: in the
   * loop, or, if the loop is left by a throwable (the scheduler's own failure), submitted to the
   * pool in the `finally`.
   */
  private final class WakeChunk(rt: CogRuntime, slots: Array[TimeSlot], from: Int, to: Int)
      extends java.util.concurrent.ForkJoinTask[Void] with Runnable {
    def run(): Unit = {
      val claimed = new Array[Cog](to - from)
      var k = 0
      // The COG whose node is being built, and the node (a process, or a Wakes of several).
      var c: Cog = null
      var node: Node = null
      try {
        var i = from
        while (i < to) {
          val p = release(slots(i))
          if (p ne null) {
            val pc = p.cog
            if (pc eq c) node = node match {
              case q: Process => new Wakes(q, p)
              case w: Wakes   => w.add(p); w
              case other      => other
            }
            else {
              if ((c ne null) && claim(c, node)) { claimed(k) = c; k += 1 }
              c = pc
              node = p
            }
          }
          i += 1
        }
        if ((c ne null) && claim(c, node)) { claimed(k) = c; k += 1 }
      } finally {
        if (k > 0) rt.countActive(k - 1) else rt.cogIdle()
        runAll(claimed, k)
      }
    }

    private def claim(c: Cog, node: Node): Boolean = {
      if (SchedulerCounters.ON) rt.countMessage(c, call = false)
      c.enqueueAndClaim(node)
    }

    private def runAll(cogs: Array[Cog], k: Int): Unit = {
      var j = 0
      try {
        while (j < k) { val x = cogs(j); j += 1; x.run() }
      } finally {
        while (j < k) { rt.executeFair(cogs(j)); j += 1 }
      }
    }

    override def getRawResult: Void = null
    override protected def setRawResult(v: Void): Unit = ()
    override protected def exec(): Boolean = { run(); true }
  }

  /**
   * One waiter of the clock: its minimum and maximum time in clock units (the long path), its
   * index in the maximum heap (a group's head only) and the next slot of its group. Written under
   * the clock's lock only.
   */
  private[runtime] abstract class TimeSlot {
    private[runtime] var tMin: Long = 0L
    private[runtime] var tMax: Long = 0L
    private[runtime] var iMax: Int = -1
    // The other slots of the group this slot heads (see "Groups of equal times"); null while alone.
    private[runtime] var followers: Followers = _
  }

  /** The slots of a group after its head, in the order they came. Under the clock's lock. */
  private[runtime] final class Followers {
    var a: Array[TimeSlot] = new Array[TimeSlot](4)
    var n = 0
    def add(s: TimeSlot): Unit = {
      if (n == a.length) a = java.util.Arrays.copyOf(a, n * 2)
      a(n) = s
      n += 1
    }
  }

  /**
   * The slots one advance woke, kept between advances (see `takeList`): an array that grows and
   * takes a group's followers with one copy.
   */
  private[runtime] final class Slots {
    var a: Array[TimeSlot] = new Array[TimeSlot](16)
    var n = 0
    def size: Int = n
    def get(i: Int): TimeSlot = a(i)
    def add(s: TimeSlot): Unit = {
      if (n == a.length) a = java.util.Arrays.copyOf(a, n * 2)
      a(n) = s
      n += 1
    }
    def addAll(xs: Array[TimeSlot], k: Int): Unit = {
      if (n + k > a.length) a = java.util.Arrays.copyOf(a, math.max(n + k, n * 2))
      System.arraycopy(xs, 0, a, n, k)
      n += k
    }
    def clear(): Unit = { java.util.Arrays.fill(a.asInstanceOf[Array[AnyRef]], 0, n, null); n = 0 }
  }

  /** Entries of the cache of open groups (a power of two). */
  private final val Groups = 16

  /**
   * An array binary heap of slots, by minimum or by maximum time; the maximum heap keeps each
   * slot's index in it (`iMax`) so that a slot woken through the minimum heap leaves it at once.
   * Its size is the clock's `heads` (both heaps hold the same slots, the heads of the groups).
   * Under the clock's lock.
   */
  private final class SlotHeap(byMax: Boolean) {
    var a: Array[TimeSlot] = new Array[TimeSlot](16)
    def grow(): Unit = a = java.util.Arrays.copyOf(a, a.length * 2)
    private def key(s: TimeSlot): Long = if (byMax) s.tMax else s.tMin
    private def put(s: TimeSlot, i: Int): Unit = { a(i) = s; if (byMax) s.iMax = i }

    /** Place `s` at `at` or above it. */
    def up(s: TimeSlot, at: Int): Unit = {
      var i = at
      val k = key(s)
      while (i > 0) {
        val parent = (i - 1) >>> 1
        val q = a(parent)
        if (key(q) <= k) { put(s, i); return }
        put(q, i)
        i = parent
      }
      put(s, i)
    }

    /** Place `s` at `at` or below it, in a heap of `n` slots. */
    def down(s: TimeSlot, at: Int, n: Int): Unit = {
      var i = at
      val k = key(s)
      val half = n >>> 1
      while (i < half) {
        var c = 2 * i + 1
        val r = c + 1
        if (r < n && key(a(r)) < key(a(c))) c = r
        val q = a(c)
        if (k <= key(q)) { put(s, i); return }
        put(q, i)
        i = c
      }
      put(s, i)
    }

    /** Remove the slot at `i` from a heap that had `n + 1` slots: the last one takes its place. */
    def remove(i: Int, n: Int): Unit = {
      val last = a(n)
      a(n) = null
      if (i != n) {
        down(last, i, n)
        if (a(i) eq last) up(last, i)
      }
    }
  }

  /** A time future's slot (`waitFor`: guards, `Cogs.timer`, `duration`). */
  private final class FutSlot(val fut: PlainFut[Unit]) extends TimeSlot

  /** A waiter on the exact path. */
  private final class Entry(val min: SimTime, val max: SimTime, val slot: TimeSlot) {
    var woken = false
  }

  /**
   * The processes of one COG woken by one advance, as one inbox node (see `wake`). Built and
   * pushed by the token holder; after the push only the COG's main task reads it (the inbox's
   * release/acquire publishes the array).
   */
  private[runtime] final class Wakes(a: Process, b: Process) extends Node {
    private[runtime] var procs: Array[Process] = { val x = new Array[Process](4); x(0) = a; x(1) = b; x }
    private[runtime] var count = 2
    def add(p: Process): Unit = {
      if (count == procs.length) procs = java.util.Arrays.copyOf(procs, count * 2)
      procs(count) = p
      count += 1
    }
  }
}
