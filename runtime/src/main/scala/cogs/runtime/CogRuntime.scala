package cogs.runtime

import com.typesafe.config.{Config, ConfigFactory}
import java.util.concurrent.{ConcurrentHashMap, ForkJoinPool, ForkJoinTask, ForkJoinWorkerThread, TimeUnit, TimeoutException}
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import java.util.concurrent.locks.{LockSupport, ReentrantLock}
import cogs.runtime.internal.WorkerPool
import scala.jdk.CollectionConverters._
import System.Logger.Level

/**
 * A runtime instance (an ABS deployment component): one shared executor on which the main tasks
 * of all its COGs run, plus the bookkeeping that tells when the program is done (quiescence) and
 * which processes wait forever when it is not (deadlock).
 *
 * Create it from configuration (`CogRuntime()` reads `cogs { ... }` from `application.conf` /
 * `reference.conf`), create objects with [[spawn]], run a main block with [[run]], and close it.
 */
final class CogRuntime private (
    val settings: CogRuntime.Settings,
    private[runtime] val tracing: cogs.trace.Tracing,
    /** Whether scheduled COGs are kept near their worker for a grace time (see [[NearQueue]], [[defer]]). */
    private[runtime] val affinity: Boolean = CogRuntime.AffinityDefault)
    extends AutoCloseable {
  import CogRuntime._

  // Every worker this runtime made, kept only while the scheduler counts (see schedulerCounters).
  private[this] val countedWorkers: java.util.concurrent.ConcurrentLinkedQueue[Worker] =
    if (SchedulerCounters.ON) new java.util.concurrent.ConcurrentLinkedQueue[Worker] else null
  private[this] val outsideSubmits: java.util.concurrent.atomic.LongAdder =
    if (SchedulerCounters.ON) new java.util.concurrent.atomic.LongAdder else null

  // The executor: the runtime's own pool (cogs.scheduler.pool = own, the default; see WorkerPool)
  // or a fork-join pool (= forkjoin); exactly one of the two is made. The workers are named and made
  // daemons alike, and have the same uncaught-exception handler.
  private[this] val ownPool: WorkerPool =
    if (settings.pool != Settings.OwnPool) null
    else {
      val factory: WorkerPool.Factory = (p: WorkerPool, i: Int) => {
        val t = new OwnWorker(p, i, this)
        if (SchedulerCounters.ON) countedWorkers.add(t)
        t.setName(s"${settings.threadNamePrefix}-${i + 1}")
        t.setDaemon(true)
        t.setUncaughtExceptionHandler(uncaughtHandler)
        watchdog.workerCreated(t)
        t
      }
      new WorkerPool(settings.parallelism, factory)
    }

  private[this] val pool: ForkJoinPool =
    if (ownPool ne null) null
    else {
      val counter = new AtomicInteger
      val factory: ForkJoinPool.ForkJoinWorkerThreadFactory = (p: ForkJoinPool) => {
        val t = new FjWorker(p, this)
        if (SchedulerCounters.ON) countedWorkers.add(t)
        t.setName(s"${settings.threadNamePrefix}-${counter.incrementAndGet()}")
        t.setDaemon(true)
        watchdog.workerCreated(t)
        t
      }
      // Async (FIFO) mode: COGs are event-style tasks that are never joined.
      new ForkJoinPool(settings.parallelism, factory, uncaughtHandler, true)
    }

  /** Queue `cog` in the calling worker's own (stealable) queue: `fork` of the fork-join pool, the ring of the own pool. */
  @inline private[runtime] def fork(cog: Cog): Unit =
    if (ownPool eq null) cog.fork() else ownPool.execute(cog)

  private def poolExecute(cog: Cog): Unit = if (ownPool eq null) pool.execute(cog: Runnable) else ownPool.execute(cog)
  private def poolShutdown(): Unit = if (ownPool eq null) pool.shutdown() else ownPool.shutdown()
  private def poolShutdownNow(): Unit = if (ownPool eq null) pool.shutdownNow() else { ownPool.shutdownNow(); () }
  private def poolAwait(millis: Long): Boolean =
    if (ownPool eq null) pool.awaitTermination(millis, TimeUnit.MILLISECONDS) else ownPool.awaitTermination(millis, TimeUnit.MILLISECONDS)
  private def poolTerminated: Boolean = if (ownPool eq null) pool.isTerminated else ownPool.isTerminated
  /** Whether the current worker's queue or the shared one holds a COG (the affinity experiment's hint). */
  private def queuedHere: Boolean =
    if (ownPool eq null) ForkJoinTask.getQueuedTaskCount != 0 || pool.hasQueuedSubmissions else ownPool.hasQueuedHere

  private[runtime] val throughput: Int = settings.throughput

  // Made before the pool, whose thread factory tells it about each worker.
  private[runtime] lazy val watchdog: Watchdog =
    new Watchdog(this, settings.stuckAfter.toNanos, s"${settings.threadNamePrefix}-watchdog", settings.gcOverheadLimit)

  // Identities of traced objects and futures (only used when tracing is on).
  private[this] val traceIds = new AtomicLong
  private[runtime] def nextTraceId(): Long = traceIds.incrementAndGet()
  /** Whom events caused by code outside every process are attributed to (null: not traced). */
  private[runtime] val outside: TraceSlot =
    if ((tracing ne null) && tracing.observes(cogs.trace.ObjRef.OutsideClass)) {
      val o = new cogs.trace.ObjRef(cogs.trace.ObjRef.OutsideClass, 0L)
      new TraceSlot(o, tracing.tracerFor(o, null, null), tracing.timestamps)
    } else null

  // COGs that are scheduled or running. Zero means quiescence: nothing can make progress unless
  // a thread outside the runtime sends a message or resolves a future.
  private[this] val active = new AtomicInteger
  @volatile private[this] var quiescenceWaiters = 0
  private[this] val waitersLock = new ReentrantLock
  private[this] val waitersChanged = waitersLock.newCondition()
  // Threads blocked in Fut.join: woken at quiescence to report a deadlock.
  private[this] val joiners = ConcurrentHashMap.newKeySet[Thread]()

  // COGs that held suspended processes when they last went idle.
  private[runtime] val suspendedCogs = new SuspendedRegistry
  /** COGs whose last published `conds` was above zero (Cog.publishPending), for [[timeAdvanced]]. */
  private[runtime] val condCogs = new java.util.concurrent.atomic.AtomicInteger

  // Set (once) when a fatal error makes the runtime halt (cogs.on-fatal-error = shutdown), and
  // the halt, with its report, once the executor stopped. Waiters for quiescence and joiners wait
  // for `halt` whenever `halting` is set (see fatalError for why that cannot miss quiescence).
  @volatile private[this] var halting: Throwable = _
  @volatile private[this] var halt: Halted = _

  private[this] val failures = new AtomicLong
  @volatile private[this] var firstFailure$ : String = _
  @volatile private[this] var closed = false

  // ------------------------------------------------------------------ objects and calls

  /**
   * Create an active object in a new COG: `rt.spawn(new Account(100))`. The constructor (ABS init
   * block) runs now, on this thread; if the class defines `run()`, that method is then started as
   * the object's first process.
   */
  def spawn[T <: ActiveObject](make: => T): T = place(newCog(), newCog = true)(make)

  /**
   * [[spawn]] on a deployment component (ABS `[DC: dc] new C(..)`): the new COG's processes
   * consume `dc`'s resources, and objects they create land on `dc` too.
   */
  def spawnOn[T <: ActiveObject](dc: DeploymentComponent)(make: => T): T = {
    if ((dc ne null) && (dc.runtime ne this)) throw new IllegalArgumentException(s"$dc belongs to another runtime")
    val cog = new Cog(this)
    cog.dc = dc
    place(cog, newCog = true)(make)
  }

  /**
   * A deployment component of this runtime with these resources per time unit (a resource left
   * out is unlimited). Its creation time is now.
   */
  def deploymentComponent(name: String, resources: Map[Resource, SimTime]): DeploymentComponent = {
    val dc = new DeploymentComponent(this, name, resources)
    dcs.add(dc)
    dc
  }

  private[this] val dcs = new java.util.concurrent.CopyOnWriteArrayList[DeploymentComponent]

  /** The deployment components made so far, in creation order (for reports and the Model API). */
  def deploymentComponents: Seq[DeploymentComponent] = dcs.asScala.toSeq

  // A new COG on its creator's deployment component (none outside every process). In an init
  // block the creator is the object being constructed, not the process that called `new` on it.
  private def newCog(): Cog = {
    val cog = new Cog(this)
    val constructing = Constructing.get()
    val creator = if ((constructing ne null) && (constructing.runtime eq this)) constructing else senderCog()
    if (creator ne null) cog.dc = creator.dc
    cog
  }

  /**
   * [[spawn]] with a [[SchedulingPolicy]] for the new COG (ABS `[Scheduler: f(queue)] new C(..)`).
   * The policy is made from the new object when the COG first picks a process, so that it may read
   * the object's state: `rt.spawnScheduled((s: Server) => byPriority(s))(new Server)`.
   */
  def spawnScheduled[T <: ActiveObject](policy: T => SchedulingPolicy)(make: => T): T =
    spawnScheduledOn(null, policy)(make)

  /** [[spawnScheduled]] on a deployment component (null: the creator's). */
  def spawnScheduledOn[T <: ActiveObject](dc: DeploymentComponent, policy: T => SchedulingPolicy)(make: => T): T = {
    val cog = newCog()
    if (dc ne null) cog.dc = dc
    // The first object placed in the COG is its owner (ActiveObject's constructor): the `T` made here.
    cog.usePolicy(policy.asInstanceOf[Active => SchedulingPolicy])
    place(cog, newCog = true)(make)
  }

  // A recording or replay of scheduling decisions, or null. Set before the first COG exists (see
  // useSchedule), so every COG and worker sees it: a COG's first run follows its creation.
  private[this] var schedule$ : ScheduleTrace = _
  @volatile private[this] var placedAny = false

  /**
   * Record this runtime's scheduling decisions, or replay recorded ones (see [[ScheduleTrace]]).
   * Only before the first object is created.
   */
  def useSchedule(s: ScheduleTrace): Unit = {
    if (placedAny) throw new IllegalStateException("useSchedule: objects exist already; call it before the first spawn")
    schedule$ = s
  }

  /** The COG running the calling code if it belongs to this runtime, else null. */
  private def senderCog(): Cog = { val c = Cog.current(); if ((c ne null) && (c.runtime eq this)) c else null }

  private[runtime] def place[T <: ActiveObject](cog: Cog, newCog: Boolean)(make: => T): T = {
    if (!placedAny) placedAny = true
    val s = schedule$
    if ((s ne null) && newCog) s.cogCreated(cog, senderCog())
    val prev = Placement.get()
    val prevConstructing = Constructing.get()
    Placement.set(cog)
    val obj = try make finally { Placement.set(prev); Constructing.set(prevConstructing) }
    if (obj.cog ne cog) throw new IllegalStateException(s"$obj was not created by this spawn")
    if (s ne null) recordNew(obj)
    if (tracing ne null) TraceHooks.created(this, obj, newCog)
    ActiveObject.startRun(obj)
    obj
  }

  private[runtime] def send[T <: Active, A](target: T, label: String, call: T => Proc[A]): Fut[A] =
    sendArgs(target, label, Nil, call)

  private[runtime] def sendArgs[T <: Active, A](target: T, label: String, args: Seq[Any], call: T => Proc[A]): Fut[A] =
    sendTimed(target, label, args, null, call)

  /** [[sendArgs]] whose process has a deadline `deadline` after now (null: none). */
  private[runtime] def sendTimed[T <: Active, A](target: T, label: String, args: Seq[Any], deadline: SimTime, call: T => Proc[A]): Fut[A] = {
    if (target == null) throw new NullPointerException(s"asynchronous call ${Option(label).getOrElse("")} on null")
    val cog = target.cog
    // One object: the process is the future the caller gets (docs/runtime-design.md, section 2).
    val p = new Process(cog, target, label, true, call.asInstanceOf[Active => Proc[Any]])
    val clk = clock$
    if (clk ne null) {
      val t = clk.now
      p.arrivedAt = t
      if (deadline ne null) p.deadline = t + deadline
    } else if (deadline ne null) p.deadline = deadline
    val s = schedule$
    if (s ne null) named(s, cog, p)
    // Before the call is queued: in a shared trace the call precedes everything it causes.
    if (tracing ne null) TraceHooks.sent(this, target, label, args, p)
    enqueue(cog, p)
    afterSend()
    p.asInstanceOf[Fut[A]]
  }

  /**
   * A call of a recorded, replayed or controlled run gets its name in the schedule; a controlled
   * run's step also notes where it sent it (ControlledRun.Footprint). Ordinary runs never get here.
   */
  private def named(s: ScheduleTrace, cog: Cog, p: Process): Unit = {
    val sender = senderCog()
    p.scheduleName = s.callName(sender)
    if ((sender ne null) && sender.schedule.recording)
      sender.schedule.note(ScheduleTrace.Invocation, p.scheduleName, ScheduleTrace.methodOf(p), now)
    val c = control
    if (c ne null) c.sent(cog, p)
  }

  // A recording notes the objects a COG's processes create (ScheduleTrace.events); objects created
  // from outside the runtime's processes belong to no COG's story.
  private def recordNew(obj: ActiveObject): Unit = {
    val creator = senderCog()
    if ((creator ne null) && creator.schedule.recording)
      creator.schedule.noteNewObject(obj.getClass.getSimpleName, now)
  }

  /**
   * A one-way call: nobody gets the process as a future (`p.fut == null`), so ending it costs no
   * CAS on its future word; a call costs one allocation besides the caller's closure: a
   * [[OneWayCall]] when the callee's COG is busy (scheduled) in a runtime that keeps nothing per
   * process (no clock, recording, trace or controller) and the caller is not in a slice of that
   * COG; otherwise the process itself, which is also its inbox node and would be its future. A
   * node to an idle COG would gain nothing: the COG would make the process at once, with no
   * spare to reuse (runtime-design.md, "one-way calls as small nodes"). Everything else is as
   * for [[sendArgs]]: the same queueing (the inbox, or the ready queue for a self-call), so calls
   * of one sender keep their order across both kinds;
   * a failure is counted by [[processFailed]]; the process can still ask for its `destiny`.
   */
  private[runtime] def tellArgs[T <: Active](target: T, label: String, args: Seq[Any], call: T => Proc[Any]): Unit = {
    if (target == null) throw new NullPointerException(s"one-way call ${Option(label).getOrElse("")} on null")
    val cog = target.cog
    // A call to a busy COG travels as a 32-byte OneWayCall, and the COG makes it a process when
    // it takes it (usually the process its last one-way call ended in: see Cog.spare). Not to an
    // idle COG: the call starts a batch, which has no spare yet, so a node would only add an
    // object (chameneos, whose creatures get one call at a time, paid about 1.09x for it). Not in
    // a runtime that names, traces, controls or times its calls (each of those keeps something
    // per process from the moment of the send), nor for a call to the sender's own COG (it goes
    // to the ready queue, which holds processes). The status read may be stale either way: it
    // only chooses which of the two forms, both handled by the COG, the call takes.
    if ((clock$ eq null) && (schedule$ eq null) && (tracing eq null) && (control eq null) && !cog.inSliceHere && cog.isScheduled) {
      if (SchedulerCounters.ON) countMessage(cog, call = true)
      cog.enqueueAndSchedule(new OneWayCall(target, label, call.asInstanceOf[Active => Proc[Any]]))
      afterSend()
      return
    }
    val p = new Process(cog, target, label, false, call.asInstanceOf[Active => Proc[Any]])
    val clk = clock$
    if (clk ne null) p.arrivedAt = clk.now
    val s = schedule$
    if (s ne null) named(s, cog, p)
    if (tracing ne null) TraceHooks.sent(this, target, label, args, null)
    enqueue(cog, p)
    afterSend()
  }

  /**
   * Run `main` as the main block of a program: a process in a COG of its own. Returns its result
   * once the whole program is quiescent (no COG has anything to run). Throws
   * [[CallFailedException]] if the main block failed, and [[DeadlockException]], with every
   * waiting process named, if the main block itself can never finish.
   *
   * As in ABS, processes left waiting after the main block finished (a server object whose
   * `run` loop awaits requests that will not come) do not make the program fail; they are listed
   * by [[deadlockReport]].
   */
  def run[A](main: => Proc[A]): A = {
    val block = spawn(new MainBlock)
    block.cog.onSuspend = mainBlockSuspends
    val fut = send[MainBlock, A](block, "main", _ => main)
    awaitQuiescence()
    // A halt (fatal error) made awaitQuiescence throw; a main block that failed fatally itself
    // reports its own failure below only under cogs.on-fatal-error = continue.
    fut.poll match {
      case Some(scala.util.Failure(e)) => throw e
      case Some(scala.util.Success(v)) => v
      case None => throw new DeadlockException(deadlockReport(), unobservedFailures)
    }
  }

  /**
   * Run, on the main block's thread, each time the main block of [[run]] reaches a scheduling
   * point that suspends it (await, get, suspend), or null. absc's program runner flushes the
   * program's output there. Set before `run`.
   */
  @volatile private[cogs] var mainBlockSuspends: Runnable = _

  /**
   * Emit `TraceEvent.User(name, payload)` from code outside every process (a `main` thread),
   * attributed to `outside#0`; false (and nothing emitted) when `outside` is not traced. Inside a
   * process use [[Cogs.emit]].
   */
  def emit(name: String, payload: Any*): Boolean = TraceHooks.userOutside(this, name, payload)

  // ------------------------------------------------------------------ scheduling

  /**
   * Schedule a COG that a producer just woke. On one of our workers, inside a batch, the COG goes
   * into the worker's hand-off slot (if free) and runs on this thread right after the current
   * batch: a reply wakes its caller without a trip through the pool's queues or waking another
   * thread (the "LIFO slot" of Tokio, `runnext` of Go). `runOn` bounds the chain of hand-offs so
   * that COGs in the pool's queues are not starved.
   *
   * The slot is private to its worker: no other thread can steal from it. So it only pays while
   * "right after the current batch" is soon. When it is not, [[flushSlot]] moves the COG to the
   * worker's queue, where an idle worker can take it: when the batch goes on with another slice
   * (see `Cog.runBatch`), and when the running slice keeps sending ([[afterSend]]). Without that,
   * a producer's long slice kept its consumer in the slot until the slice ended: Counting's
   * million calls all waited in the counter's inbox (and survived young collections), and a
   * NQueens worker's batch of boards kept the master, which hands out the boards, from running.
   */
  private[runtime] def execute(cog: Cog): Unit = Thread.currentThread() match {
    case w: Worker if w.runtime eq this =>
      if (w.inBatch && (w.slot eq null)) {
        w.slot = cog; w.slotSends = 0
        if (SchedulerCounters.ON) w.counts.slotFills += 1
      } else if (affinity && w.inBatch) defer(w, cog)
      else {
        fork(cog) // this worker's own queue: no contention on the shared submission queue
        if (SchedulerCounters.ON) w.counts.forks += 1
      }
    case _ => submitOutside(cog)
  }

  /**
   * A COG scheduled from a thread that is not one of this runtime's workers: the pool's shared
   * queue, or, in a controlled run, the controller's list of COGs with work (never a worker there).
   */
  private def submitOutside(cog: Cog): Unit = {
    val c = control
    if (SchedulerCounters.ON) outsideSubmits.increment()
    if (c ne null) c.scheduled(cog) else poolExecute(cog)
  }

  /** The controller of a controlled run (see [[ControlledRun]]), or null: set at creation, never changed. */
  private[runtime] var control: ControlledRun = _

  /**
   * A call to a COG from inside one of that COG's own slices (a self-call, `this ! m()`) goes
   * straight into its ready queue, as a local wake-up does (see Cog.wakeLocal: the same argument
   * holds for a fresh process, which nobody else can reach yet); any other call through the inbox.
   */
  @inline private def enqueue(cog: Cog, p: Process): Unit = {
    if (SchedulerCounters.ON) countMessage(cog, call = true)
    if (cog.inSliceHere) cog.wakeLocal(p) else cog.enqueueAndSchedule(p)
  }

  /** After a call was queued: a slot whose COG has waited through [[SlotPatience]] sends is flushed. */
  @inline private def afterSend(): Unit = Thread.currentThread() match {
    case w: Worker =>
      if (w.slot ne null) {
        val n = w.slotSends + 1
        if (n >= SlotPatience) flushSlot(w) else w.slotSends = n
      }
      // A slice that keeps sending must not keep the COGs near this worker past their grace.
      if (affinity && !w.near.isEmpty) {
        val n = w.nearSends + 1
        if (n >= SlotPatience) { w.nearSends = 0; expireNear(w) } else w.nearSends = n
      }
    case _ =>
  }

  /** Give the COG in `w`'s slot to the pool (stealable, or near `w` for a grace time with affinity; it stays counted as active). */
  private def flushSlot(w: Worker): Unit = {
    val c = w.slot
    w.slot = null
    if (SchedulerCounters.ON) w.counts.flushes += 1
    if (affinity && w.inBatch) defer(w, c) else fork(c)
  }

  /** Schedule a COG that ran and has more to do: behind the others, never in the slot. */
  private[runtime] def executeFair(cog: Cog): Unit = Thread.currentThread() match {
    case w: Worker if w.runtime eq this =>
      if (SchedulerCounters.ON) w.counts.resubmits += 1
      if (affinity && w.inBatch) defer(w, cog) else fork(cog)
    case _ => submitOutside(cog)
  }

  // ------------------------------------------------------------------ affinity (step 3)
  //
  // With `affinity` on, a COG that a worker would fork into its pool queue (an activation while
  // the slot is taken, a flushed slot, a COG resubmitted after a full batch) goes into the
  // worker's NearQueue instead, where no other worker can steal it. The worker runs it after its
  // slot, in `runOn`'s chain; if it has waited `graceNanos` it is forked after all, so a busy
  // worker cannot keep it from the idle one. The measurement behind it: docs/runtime-design.md,
  // "Step 3".
  //
  // Why no wake-up can be lost: a COG enters the near queue only when it is SCHEDULED and counted
  // in `active`, where before it was forked; it does not change its status there, so a producer
  // that finds it SCHEDULED leaves its message in the inbox, as before. The queue is touched only
  // by its worker (thread-confined, no new hand-off between threads), and only while that worker
  // is inside `runOn` (`inBatch`; elsewhere the COG is forked as before). Every COG in it leaves
  // it on that worker: run by `runOn`'s chain, forked by `expireNear`, or forked by `runOn`'s
  // `finally` (also when a batch threw) before the worker goes back to the pool. So a COG in the
  // queue either runs on this worker or becomes an ordinary pool task: exactly once, as a
  // forked one did. The slot has the same argument.
  //
  // NOT starvation-free, and so not to be switched on: the grace is checked only by the owning
  // worker, at the end of every batch (`runOn`) and every SlotPatience calls a slice sends
  // (`afterSend`), and when a batch goes on with another slice the whole queue is forked
  // (`batchGoesOn`). So a COG near a worker waits for that worker's current slice, however long:
  // a slice that spins (StopTest's spinners: the first in the slot, the others near it) keeps the
  // COGs near its worker from the idle workers for ever. StopTest fails with affinity on. It is
  // usable only once other workers can take entries whose grace has passed (a CAS per entry: a
  // new lock-free hand-off, with its jcstress test; fix 4 of docs/runtime-design.md, section 4).

  /**
   * The batch on `w` goes on with another slice, which may run for any time: the COG in the slot
   * is given to the pool (it would wait for all of the batch), and so is every COG near `w`,
   * grace or not (SchedulingTest: a COG woken by one slice of a batch runs before the batch ends).
   */
  private[runtime] def batchGoesOn(w: Worker): Unit = {
    val c = w.slot
    if (c ne null) {
      w.slot = null
      fork(c)
      if (SchedulerCounters.ON) w.counts.flushes += 1
    }
    if (affinity && !w.near.isEmpty) {
      if (SchedulerCounters.ON) w.counts.expired += w.near.size
      w.near.drain(this)
    }
  }

  /** Keep `cog` (scheduled, counted active) near worker `w`, which is inside `runOn`. */
  private def defer(w: Worker, cog: Cog): Unit = {
    if (w.near.isEmpty) w.nearSends = 0
    w.near.add(cog, System.nanoTime())
    if (SchedulerCounters.ON) w.counts.defers += 1
  }

  /** Fork the COGs that waited near `w` for the grace time. */
  private[runtime] def expireNear(w: Worker): Unit = {
    val n = w.near.expire(System.nanoTime() - graceNanos, this)
    if (SchedulerCounters.ON) w.counts.expired += n
  }

  private[this] val graceNanos: Long = AffinityGraceNanos

  // ------------------------------------------------------------------ scheduler counters

  /**
   * Count a message (a call, or the wake-up of a parked process) to `cog`, sent from the current
   * thread, by where its target was when it was sent: the sender's own COG, the sender's hand-off
   * slot, idle (the message activates it), running on another worker right now (the two COGs are
   * apart: the hypothesis of docs/runtime-design.md, section 4), or scheduled and waiting in a
   * queue. Read before the message is queued (after, the target may be scheduled by it). The reads
   * of other workers' `current` race with those workers: a statistic, not a decision.
   */
  private[runtime] def countMessage(cog: Cog, call: Boolean): Unit = Thread.currentThread() match {
    case w: Worker if w.runtime eq this =>
      if (call) w.counts.calls += 1 else w.counts.wakes += 1
      if (w.current eq cog) w.counts.toSelf += 1
      else if (w.slot eq cog) w.counts.toSlot += 1
      else if (!cog.isScheduled) w.counts.toIdle += 1
      else if (runningElsewhere(cog, w)) w.counts.toApart += 1
      else w.counts.toQueued += 1
    case _ =>
  }

  private def runningElsewhere(cog: Cog, self: Worker): Boolean = {
    val it = countedWorkers.iterator()
    while (it.hasNext) { val o = it.next(); if ((o ne self) && (o.current eq cog)) return true }
    false
  }

  /**
   * What the scheduler did since this runtime started, summed over its workers, when the JVM was
   * started with `-Dcogs.scheduler.counters=true`; empty otherwise. For the Savina harness's
   * `--counters` (the names are explained in savina/README.md) and for diagnosing the scheduler,
   * not a stable API.
   */
  private[cogs] def schedulerCounters: Map[String, Long] =
    if (!SchedulerCounters.ON) Map.empty
    else {
      val sums = new Array[Long](CounterNames.size)
      countedWorkers.forEach { w =>
        val xs = w.counts.values()
        var i = 0
        while (i < xs.length) { sums(i) += xs(i); i += 1 }
      }
      CounterNames.zip(sums).toMap ++ Map(
        "outsideSubmits" -> outsideSubmits.sum(),
        "steals" -> (if (ownPool eq null) pool.getStealCount else ownPool.stealCount),
        "workers" -> countedWorkers.size.toLong)
    }

  /** Run `first`'s batch on worker `w`, then the COGs handed to `w`'s slot, a bounded number of them. */
  private[runtime] def runOn(w: Worker, first: Cog): Unit = {
    if (w.inBatch) { first.runBatch(w); return } // a foreign nesting; keep it simple
    w.inBatch = true
    var cog = first
    var hops = 0
    try {
      while (cog ne null) {
        cog.runBatch(w)
        cog = w.slot
        w.slot = null
        if (affinity && !w.near.isEmpty) {
          expireNear(w)
          if (cog eq null) cog = w.near.poll()
        }
        hops += 1
        if (SchedulerCounters.ON && (cog ne null)) w.counts.handOffs += 1
        if ((cog ne null) && hops >= MaxHandOffs) {
          // Let the queued COGs have this thread; with affinity, only if some are queued here or
          // submitted from outside (other workers' queues are theirs to run, or to steal from).
          if (affinity && !queuedHere) hops = 0
          else {
            fork(cog)
            cog = null
          }
        }
      }
    } finally {
      w.inBatch = false
      val left = w.slot
      if (left ne null) { w.slot = null; fork(left) }
      if (affinity) w.near.drain(this)
      val idled = w.idled
      if (idled > 0) { w.idled = 0; cogsIdle(idled) }
    }
  }

  /**
   * A COG is about to move from idle to scheduled: count it in `active` before its CAS (CogCore's
   * `activate`). On a worker inside [[runOn]] that holds decrements of COGs that went idle in its
   * chain ([[cogIdleOn]]), the activation takes one of them back instead: a held decrement and an
   * increment cancel, and neither touches the contended counter. Chameneos and pingpong activate
   * a COG for most messages, each right after another COG went idle on the same worker, so this
   * saves the one atomic add on a line shared by both workers that was left per message.
   *
   * Why it keeps the invariant of [[cogIdleOn]] (`active` is never lower than the number of COGs
   * scheduled or running): `active` = scheduled + H, where H is the sum of the decrements the
   * workers hold. Taking one back adds one scheduled COG and removes one from H, so `active` stays
   * where it is and stays at least the number of scheduled COGs (H stays at least zero). The held
   * count is the worker's own plain field, read and written only on its thread; the quiescence
   * argument (the held rest is added when `runOn` ends) is unchanged. If the CAS then loses,
   * [[activationLost]] holds the decrement again (or makes it, off a worker).
   */
  private[runtime] def cogActivated(): Unit = Thread.currentThread() match {
    case w: Worker if (w.idled > 0) && (w.runtime eq this) => w.idled -= 1
    case _                                               => active.incrementAndGet()
  }

  /** The activation counted by [[cogActivated]] lost its CAS: someone else scheduled the COG and counted it. */
  private[runtime] def activationLost(): Unit = Thread.currentThread() match {
    case w: Worker if w.runtime eq this => cogIdleOn(w)
    case _                              => cogIdle()
  }

  /**
   * A COG's batch ended and the COG went idle, on worker `w` (null: another thread). Inside
   * [[runOn]] of an untimed runtime the decrement of `active` waits in the worker until `runOn`
   * ends (then one atomic add for all the COGs that went idle in its chain of hand-offs), instead
   * of one contended atomic per batch. Why that cannot make anyone see quiescence too early, or
   * miss it:
   *  - only decrements wait, never increments: `active` is never lower than the number of COGs
   *    scheduled or running, so a thread that reads zero (a waiter, a joiner, a decrement that
   *    returns zero) reads the truth, as before;
   *  - the decrements a worker holds are added before its `runOn` returns (in its finally, so an
   *    error in a batch does not keep them), and the worker that brings `active` to zero calls
   *    `quiescent`, as the last `cogIdle` did: quiescence is seen at most one `runOn` later (a
   *    chain of at most MaxHandOffs batches that run anyway) than before, never missed;
   *  - with a clock, the last uncount must go through SimClock.idle (it advances time instead):
   *    an idle then is never held, and a held count from before the clock existed is added back
   *    through [[cogsIdle]], which lets SimClock.idle take the last one.
   */
  private[runtime] def cogIdleOn(w: Worker): Unit =
    if ((w ne null) && w.inBatch && (hook$ eq null)) w.idled += 1
    else cogIdle()

  /** `n` COGs went idle (held by a worker, see [[cogIdleOn]]). */
  private def cogsIdle(n: Int): Unit =
    if (hook$ eq null) { if (active.addAndGet(-n) == 0) quiescent() }
    else {
      // The others first: the count stays at least one (the last one's), so nobody sees zero early.
      if (n > 1) active.addAndGet(-(n - 1))
      cogIdle()
    }

  private[runtime] def cogIdle(): Unit = {
    val h = hook$
    // Untimed: one decrement. Timed: the last active COG advances the clock instead (SimClock.idle).
    if (if (h eq null) active.decrementAndGet() == 0 else h.idle(active)) quiescent()
  }

  private def quiescent(): Unit = {
    // Dekker pair with awaitQuiescence/blockUntil: they register, then read `active`.
    if (quiescenceWaiters > 0) {
      waitersLock.lock()
      try waitersChanged.signalAll()
      finally waitersLock.unlock()
    }
    wakeJoiners()
  }

  // ------------------------------------------------------------------ simulated time

  // Made at the first use of time (SimClock's comment says why the idle path then changes).
  @volatile private[this] var clock$ : SimClock = _
  // What the idle path calls instead of uncounting (QuiescenceHook): the clock, from its creation
  // on. Written with clock$, in the same critical section: the COG that made the clock reads its
  // own write when it goes idle, and until then keeps `active` above zero, so a worker that still
  // read null and uncounted its held COGs plainly cannot bring the count to zero past the clock.
  @volatile private[this] var hook$ : QuiescenceHook = _

  /** This runtime's simulated clock, made on first use. */
  private[runtime] def clock: SimClock = {
    val c = clock$
    if (c ne null) c else synchronized {
      if (clock$ eq null) { val nc = new SimClock(this); clock$ = nc; hook$ = nc }
      clock$
    }
  }

  private[runtime] def clockOrNull: SimClock = clock$

  /** The simulated time (Timed ABS `now()`); zero until some process waits for time. */
  def now: SimTime = { val c = clock$; if (c eq null) SimTime.Zero else c.now }

  /**
   * Stop the simulation at `limit`: the clock never advances beyond it. When the next advance
   * would pass it, the runtime becomes quiescent with the processes still waiting for time
   * ([[clockLimitReached]] tells), and `run` returns (ABS `-l`).
   */
  def limitClock(limit: SimTime): Unit = clock.limit = limit

  /**
   * A checked replay diverged (see [[ScheduleTrace]]): the clock stops where it is, so that a
   * simulation comes to rest instead of running on without the diverged COG. No clock: nothing.
   */
  private[runtime] def replayDiverged(): Unit = { val c = clock$; if (c ne null) c.limit = c.now }

  /** The clock's limit ([[limitClock]], [[extendClockLimit]]), if there is one. */
  def clockLimit: Option[SimTime] = { val c = clock$; if (c eq null) None else Option(c.limit) }

  /**
   * Raise the clock's limit by `by`, from any thread outside the runtime (the ABS Model API's
   * `/clock/advance?by=N`): the simulation goes on if it had stopped at the old limit, and `run`,
   * if it already returned there, is not told. The new limit; None (and no effect) if the clock
   * has no limit. See `SimClock.extendLimit` for why the raise is never lost.
   */
  def extendClockLimit(by: SimTime): Option[SimTime] = {
    val c = clock$
    if (c eq null) return None
    val raised = c.extendLimit(by)
    if (raised.isDefined) {
      // Counted as a COG activated from outside that at once has nothing to do: if it is the
      // only one counted, it holds the token and advances (SimClock.idle), as the last COG would.
      active.incrementAndGet()
      cogIdle()
    }
    raised
  }

  /**
   * Let a cluster clock drive this runtime's simulated clock (internal: the distributed module,
   * issue 30; see [[ClusterClockLink]]). Call before any process waits for time: the hold is
   * counted first, then the link is published, so a COG that goes idle in between sees at least
   * the hold and its own count (it only decrements, as SimClock.idle does above one), and from the
   * link's publication on every idle goes through the link. `onPassive` runs on the thread of the
   * COG that left only the hold counted.
   */
  private[cogs] def linkClusterClock(onPassive: Runnable): ClusterClockLink = {
    val c = clock
    c.synchronized {
      if (c.link ne null) throw new IllegalStateException("this runtime's clock is already linked to a cluster clock")
      active.incrementAndGet()
      val l = new ClusterClockLink(this, c, active, onPassive)
      c.link = l
      l
    }
  }

  /** True if the clock stopped at its limit with processes still waiting for time. */
  def clockLimitReached: Boolean = { val c = clock$; (c ne null) && c.limitReached }

  /** How many times the clock advanced (for benchmarks and reports). */
  def clockAdvances: Long = { val c = clock$; if (c eq null) 0L else c.advances }

  /**
   * Called by the clock's token holder after an advance, before it gives the token back: COGs
   * with processes waiting for a condition get a Tick (the condition may read the time), and
   * that activation, too, happens before the token goes back (the barrier of SimClock).
   */
  private[runtime] def timeAdvanced(): Unit = {
    // No COG has a process waiting for a condition: nothing to tick, and no walk over every
    // suspended COG (10,000 of them per advance in TimedBench). Why a zero here is not stale: a
    // COG changes the count at the end of its batch (Cog.publishPending), before it uncounts
    // itself from `active`; this runs in the holder of the clock's token, which saw every other
    // COG uncounted (an atomic it read after their decrements), so it sees their changes too.
    // COGs run by an advance concurrently with this are ticked after their own slices anyway.
    if (condCogs.get() == 0) return
    val it = suspendedCogs.snapshot().iterator()
    while (it.hasNext) {
      val c = it.next()
      if (c.conds > 0) c.tick()
    }
  }

  /**
   * Count `n` more active units: the simulated clock's wake chunks (SimClock.WakeChunk), each of
   * which holds a count, as a scheduled COG does, until the COGs it wakes are counted.
   */
  private[runtime] def countActive(n: Int): Unit = active.addAndGet(n): Unit

  /** Queue a task of the runtime's own: the calling worker's queue, or the pool's shared one from any other thread. */
  private[runtime] def submitTask(t: ForkJoinTask[Void] with Runnable): Unit = Thread.currentThread() match {
    case w: Worker if w.runtime eq this => if (ownPool eq null) t.fork() else ownPool.execute(t)
    case _                              => if (ownPool eq null) pool.execute(t: ForkJoinTask[Void]) else ownPool.execute(t)
  }

  /** True if no COG is scheduled or running. */
  def isQuiescent: Boolean = active.get() == 0

  /** Wait until no COG is scheduled or running. */
  def awaitQuiescence(): Unit = awaitQuiescence(Long.MaxValue, TimeUnit.NANOSECONDS): Unit

  /**
   * Wait at most `timeout`; returns false if the runtime was still busy. An interrupt of the
   * waiting thread throws `InterruptedException` (declared, so that Java callers can catch it).
   */
  @throws[InterruptedException]
  def awaitQuiescence(timeout: Long, unit: TimeUnit): Boolean = {
    if (Cog.current() != null) throw new IllegalStateException("awaitQuiescence from inside a process would never return")
    var nanos = unit.toNanos(timeout)
    waitersLock.lock()
    try {
      quiescenceWaiters += 1
      while (halt == null && (active.get() != 0 || halting != null)) {
        if (nanos <= 0) return false
        nanos = waitersChanged.awaitNanos(nanos)
      }
      val h = halt
      if (h ne null) throw h.exception(halting)
      true
    } finally {
      quiescenceWaiters -= 1
      waitersLock.unlock()
    }
  }

  /** Block a thread outside the runtime until `f` resolves; deadlock if the runtime goes quiet first. */
  private[runtime] def blockUntil(f: Fut[_], timeoutNanos: Long): Unit = {
    val me = Thread.currentThread()
    val w = new FutCore.Waiter { def onResolved(c: FutCore): Unit = LockSupport.unpark(me) }
    f.register(w)
    joiners.add(me)
    try {
      val deadline = if (timeoutNanos == Long.MaxValue) Long.MaxValue else System.nanoTime() + timeoutNanos
      while (!f.isDone) {
        val h = halt
        if (h ne null) throw h.exception(halting)
        if (active.get() == 0 && !f.isDone && halting == null) {
          // Quiescent and still pending: unless another outside thread resolves it, it never will.
          val e = new DeadlockException(s"the main thread waits for ${f.describeFuture}" :: deadlockReport(), unobservedFailures)
          if (Log.isLoggable(Level.DEBUG)) Log.log(Level.DEBUG, s"cogs: join found a deadlock: ${e.getMessage}")
          throw e
        }
        if (deadline == Long.MaxValue) LockSupport.park(this)
        else {
          val left = deadline - System.nanoTime()
          if (left <= 0) throw new TimeoutException(s"${f.describeFuture} did not resolve in time")
          LockSupport.parkNanos(this, left)
        }
      }
    } finally joiners.remove(me)
  }

  // ------------------------------------------------------------------ deadlock reports

  /**
   * Looks at `o` from outside the runtime (any thread): if `o`'s COG is blocked in `get`, runs
   * `read` (which should only read `o`'s fields) and returns what it read with the blocked `get`;
   * None if the COG is not blocked, or stopped being blocked while `read` ran (then what `read`
   * saw may be torn; ask again, or wait for the COG to reach a scheduling point).
   *
   * Why a read that returns is consistent (a sequence lock with the `BlockedGet` as its stamp,
   * as `StampedLock.validate` does it): the COG's main task writes the blocked `get` (a volatile
   * write) after every write of the slice that blocked, and clears it (another volatile write)
   * before the blocking process runs again; while it is set, no process of the COG runs, and only
   * processes of its COG write an object's fields. The first volatile read here happens after the
   * set, so `read` sees every write before it; the acquire fence keeps `read`'s loads before the
   * second volatile read; if that one still sees the same `BlockedGet` (a fresh one per blocking
   * `get`, so no ABA), the clear came after it, and no write after the clear was visible to
   * `read`. Costs the COG nothing unless a `get` blocks it (`InspectBlockedTest` checks both sides).
   */
  def inspectBlocked[A](o: Active)(read: => A): Option[(BlockedGet, A)] = {
    val cog = o.cog
    val before = cog.blockedInGet
    if (before eq null) return None
    val value = read
    java.lang.invoke.VarHandle.acquireFence()
    if (cog.blockedInGet eq before) Some((before, value)) else None
  }

  /**
   * The processes that still wait, one line each. Meaningful when the runtime is quiescent:
   * then every line is a process that nothing in the runtime can wake.
   */
  def deadlockReport(): List[String] = {
    suspendedCogs.snapshot().asScala.toList.map(_.asInstanceOf[Cog]).flatMap { c =>
      // Exact at quiescence. If a thread outside the runtime made the COG busy meanwhile, its
      // private state is moving under us: say so instead of failing.
      try c.waitingReport().map(line => s"$c: $line")
      catch { case e: RuntimeException => List(s"$c: (busy, cannot be inspected: $e)") }
    }
  }

  // ------------------------------------------------------------------ failures

  /**
   * Process `p` failed with `failed` (its outcome, which goes to its future unless it is a one-way
   * call). Counted, and kept for [[unobservedFailures]]: reading the failure later marks it
   * observed (Fut.Failed). This runs only when a process fails; a call that succeeds pays nothing
   * for the tracking (no field written, no record allocated).
   */
  private[runtime] def processFailed(p: Process, failed: Fut.Failed, oneWay: Boolean): Unit = {
    if (failures.getAndIncrement() == 0) firstFailure$ = s"${p.describe} failed: ${failed.error}"
    keepFailure(new FailureRecord(failed, oneWay))
  }

  // The failed processes, for the report of those whose failure nobody read. At most
  // MaxKeptFailures are kept: when full, the records read meanwhile are dropped (once every
  // MaxKeptFailures failures that found it full, so a program that keeps failing unobserved does
  // not sweep at every failure); what still does not fit is only counted.
  // Objects made by one creation site (a `new` in a loop) told apart in messages, `object #2
  // created at f.abs:7:9`: numbered lazily, in the order this run's messages first name them, so
  // that creating an object costs nothing; weakly, so that naming an object never keeps it alive.
  private[this] val siteNames = new java.util.WeakHashMap[ActiveObject, Integer]
  private[this] val siteCounts = new java.util.HashMap[String, Integer]

  /** 1 for the first object of `site` a message names, 2 for the next other one, ... */
  private[runtime] def siteOrdinal(o: ActiveObject, site: String): Int = siteNames.synchronized {
    val known = siteNames.get(o)
    if (known ne null) known.intValue
    else {
      val n = siteCounts.getOrDefault(site, 0).intValue + 1
      siteCounts.put(site, n)
      siteNames.put(o, n)
      n
    }
  }

  private[this] val failedLog = new java.util.concurrent.ConcurrentLinkedQueue[FailureRecord]
  private[this] val failedKept = new AtomicInteger
  private[this] val failuresNotKept = new AtomicLong

  private def keepFailure(r: FailureRecord): Unit = {
    if (failedKept.incrementAndGet() > MaxKeptFailures) {
      val missed = failuresNotKept.get()
      if (missed % MaxKeptFailures == 0) {
        val it = failedLog.iterator()
        while (it.hasNext) {
          val old = it.next()
          // remove(old) decides between two sweeps racing for the same record: counted once.
          if (old.failed.observed && failedLog.remove(old)) failedKept.decrementAndGet()
        }
      }
      if (failedKept.get() > MaxKeptFailures) {
        failedKept.decrementAndGet()
        failuresNotKept.incrementAndGet()
        return
      }
    }
    failedLog.add(r)
  }

  /** The kept failures nobody read, oldest first. */
  private def unobservedRecords: List[FailureRecord] =
    failedLog.asScala.iterator.filter(r => !r.failed.observed).toList

  /**
   * The processes that failed and whose failure nobody read, oldest first, one line each
   * (`Calc.div failed: java.lang.ArithmeticException: / by zero`; ` (a one-way call)` when the
   * call had no future, so nobody could read it). "Read" means a process `await`ed or `get` its
   * future, or a thread `join`ed, `poll`ed it or gave it an `onComplete` callback; a failure only
   * awaited with `Proc.awaitResolved` (ABS `await f?`) was not read. The last line says how many
   * more failures there were when more than the runtime keeps (1,000) were pending at once.
   * Meaningful at the end of a run (after `run`, at quiescence, or at `close`); before, a future
   * may still be read.
   */
  def unobservedFailures: List[String] = {
    val lines = unobservedRecords.map(_.line)
    val more = failuresNotKept.get()
    if (more == 0) lines else lines :+ s"($more more failed processes were not kept: their failures may or may not have been read)"
  }

  /**
   * The failed processes nobody read, as `(origin, exception, one-way)`, for absc's program runner
   * (which names the exception and its line the ABS way); they count as read from now on, so that
   * the runtime's own report at `close` does not repeat them.
   */
  private[cogs] def takeUnobservedFailures(): (List[(String, Throwable, Boolean)], Long) = {
    val rs = unobservedRecords
    rs.foreach(_.failed.observe())
    (rs.map(r => (r.failed.origin, r.failed.error, r.oneWay)), failuresNotKept.get())
  }

  /**
   * What a run leaves behind, for a report at its end: the failures nobody read
   * ([[unobservedFailures]]), then the processes still waiting ([[deadlockReport]]), each under a
   * heading line; empty when there is neither. Meaningful when the runtime is quiescent.
   */
  def endReport(): List[String] = {
    val failed = unobservedFailures
    val waiting = deadlockReport()
    val b = List.newBuilder[String]
    if (failed.nonEmpty) {
      b += s"${failed.size} process(es) failed and nobody read the failure:"
      b ++= failed.map("  " + _)
    }
    if (waiting.nonEmpty) {
      b += s"${waiting.size} process(es) still wait:"
      b ++= waiting.map("  " + _)
    }
    b.result()
  }

  /** Number of processes that ended with an exception (observed or not, one-way calls included). */
  def failedProcesses: Long = failures.get()

  /** The first process that ended with an exception and the exception (`Calc.div failed: ...`), if any. */
  def firstFailure: Option[String] = Option(firstFailure$)

  /**
   * A fatal error (see `Cog.isFatal`) was raised in `where`; the process that raised it has failed.
   * Called by the COG's main task at the end of its batch, while the COG still counts as active.
   *
   * The error goes to the current thread's uncaught-exception handler, as Pekko's mailbox rethrows
   * fatal errors to its dispatcher's threads. It is handed over by calling the handler rather than
   * by throwing: a throwable that leaves a ForkJoinTask's `exec` is recorded in the task (never
   * reaching the handler) and completes it, and a completed task is never run again, so the COG
   * would be dead. The handler of this runtime's workers is [[uncaughtHandler]], which applies
   * `cogs.on-fatal-error`; a thread of another executor gets its own handler, and the policy is
   * applied too. `halting` is set before this COG's batch ends, so no thread waiting for quiescence
   * can take the program as finished before the halt's report exists.
   */
  private[runtime] def fatalError(where: String, e: Throwable): Unit = {
    logQuietly(s"cogs: $where failed with a fatal error ($e); handing it to the worker's uncaught-exception handler", null)
    val t = Thread.currentThread()
    val h = t.getUncaughtExceptionHandler
    // A handler of another executor's thread may throw: that must not leave the COG's task.
    try { if (h ne null) h.uncaughtException(t, e) }
    catch { case x: Throwable => Log.log(Level.ERROR, s"cogs: the uncaught-exception handler of ${t.getName} threw", x) }
    if (h ne uncaughtHandler) applyFatalPolicy(e)
  }

  /** The handler of this runtime's workers: a fatal error, from a process (fatalError) or from the executor itself. */
  private[this] lazy val uncaughtHandler: Thread.UncaughtExceptionHandler = (t: Thread, e: Throwable) => {
    if (Cog.exhausted(e)) Cog.releaseReserve()
    // Out of memory again in here (building the log's closure, the halt's thread): the JVM would
    // print that the handler itself threw. The halt, once started, does not need this thread.
    try logQuietly(s"cogs: fatal error on ${t.getName} (cogs.on-fatal-error = ${settings.onFatalError})", e)
    catch { case _: VirtualMachineError => }
    try applyFatalPolicy(e)
    catch { case _: VirtualMachineError => }
  }

  // Logging a fatal error must not keep the policy from being applied: out of memory, building the
  // message or the record may throw again, and then the log is what is given up.
  private def logQuietly(message: => String, e: Throwable): Unit =
    try Log.log(Level.ERROR, message, e)
    catch { case _: VirtualMachineError | _: RuntimeException => }

  private def applyFatalPolicy(e: Throwable): Unit =
    if (settings.onFatalError == Settings.Shutdown) {
      val hook = fatalErrorHook
      if (hook ne null) try hook.run() catch { case _: VirtualMachineError | _: RuntimeException => }
      startHalt(e)
    } else Log.log(Level.WARNING, s"cogs: the runtime goes on after a fatal error ($e): cogs.on-fatal-error = continue")

  /**
   * Run (on the thread that met it) when a fatal error makes the runtime halt
   * (`cogs.on-fatal-error = shutdown`), before the halt starts, or null. It must not allocate: the
   * heap may be full. absc's program runner wakes its last-resort thread with it (`LastResort`),
   * which ends the JVM if the run cannot.
   */
  @volatile private[cogs] var fatalErrorHook: Runnable = _

  /**
   * Stop the executor after a fatal error: interrupt the workers, drop the COGs that wait in its
   * queues, and once it stopped (or `shutdown-timeout` passed) log which processes were left and
   * wake every thread waiting in `run`, `join` or `awaitQuiescence` with the report. On a thread of
   * its own: a worker cannot wait for its own pool to terminate.
   */
  private def startHalt(e: Throwable): Unit = {
    val first = synchronized { if (halting eq null) { halting = e; true } else false }
    if (!first) return
    watchdog.stop()
    // Out of memory, each step may fail again; the waiters are woken whatever happens (a halt that
    // died here left `run` waiting for ever). The report lists at most HaltReportLines processes: a
    // program that ran out of memory may leave millions waiting, and listing them all needs memory.
    try {
      val t = new Thread(() => haltNow(e), s"${settings.threadNamePrefix}-halt")
      t.setDaemon(true)
      t.start()
    } catch {
      // No thread to be had (or the lambda's first linkage failed): stop the pool without waiting
      // for it (a worker cannot wait for its own pool) and wake the waiters from here.
      case _: VirtualMachineError | _: LinkageError =>
        try poolShutdownNow() catch { case _: VirtualMachineError | _: RuntimeException => }
        halted(unreportedHalt)
    }
  }

  private def haltNow(e: Throwable): Unit = {
    var h: Halted = null
    try {
      poolShutdownNow()
      val stopped = poolAwait(settings.shutdownTimeout.toMillis)
      h = new Halted(e, leftWaiting(HaltReportLines), stopped)
      logQuietly(h.message, null)
    } catch { case _: VirtualMachineError | _: RuntimeException | _: InterruptedException | _: LinkageError => }
    try { if (tracing ne null) tracing.close() }
    catch { case _: VirtualMachineError | _: RuntimeException | _: LinkageError => }
    halted(if (h eq null) unreportedHalt else h)
  }

  /**
   * The end of a halt: `halt` set and every waiter woken. Nothing here may escape: this thread's
   * death left `run` waiting for ever, and on a heap still full (the workers that go on finishing
   * their batches after shutdownNow fill again what the reserves freed) the JVM printed
   * `OutOfMemoryError thrown from the UncaughtExceptionHandler` for the halt's thread when the
   * default handler could not print the error either. So the Halted is allocated up front when
   * there is no report, and waking allocates nothing it has not allocated before: no `lock()`,
   * which queues a node when contended, and the joiners are woken by a consumer made (its lambda
   * linked, which allocates much) when the companion object was initialised. What may still allocate (the lock's first queue head when
   * a waiter is signalled, the joiners' traverser) is retried while the stopping workers release
   * memory; a run whose halt still cannot end is ended by its caller's last resort (absc's
   * LastResort halts the JVM).
   */
  private def halted(h: Halted): Unit = {
    closed = true
    halt = h
    var tries = 0
    var woken = false
    while (!woken && tries < HaltWakeTries) {
      try {
        while (!waitersLock.tryLock()) Thread.onSpinWait()
        try waitersChanged.signalAll()
        finally waitersLock.unlock()
        wakeJoiners()
        woken = true
      } catch {
        case _: VirtualMachineError | _: RuntimeException | _: LinkageError =>
          tries += 1
          LockSupport.parkNanos(1000000L)
      }
    }
  }

  // Made up front (CogRuntime.Unpark): a halt only allocates the key set's traverser.
  private def wakeJoiners(): Unit = if (!joiners.isEmpty) joiners.forEach(CogRuntime.Unpark)

  // A halt without a report (there was no memory to make one), made while there is memory.
  private[this] val unreportedHalt = new Halted(null, null, stopped = false)

  /** The processes left waiting, at most `limit` of them, and a line that counts the others. */
  private def leftWaiting(limit: Int): List[String] = {
    val b = List.newBuilder[String]
    var n = 0
    var more = 0
    val it = suspendedCogs.snapshot().iterator()
    while (it.hasNext) {
      val c = it.next().asInstanceOf[Cog]
      if (n >= limit) more += 1
      else {
        val lines = try c.waitingReport() catch { case e: RuntimeException => List(s"(busy, cannot be inspected: $e)") }
        lines.foreach { l => if (n < limit) b += s"$c: $l" else more += 1; n += 1 }
      }
    }
    if (more > 0) b += s"... and processes of $more more COG(s)"
    b.result()
  }

  /** The runtime halted after a fatal error (cogs.on-fatal-error = shutdown), with its report. */
  def haltReport: Option[String] = Option(halt).map(_.message)

  // ------------------------------------------------------------------ lifecycle

  /**
   * Stop the executor. Suspended processes are abandoned. Processes that failed and whose failure
   * nobody read ([[unobservedFailures]], a one-way call to a method that threw among them) are
   * logged as a warning, unless `cogs.report-unobserved-failures = off`.
   */
  def close(): Unit = if (!closed && (halting eq null)) {
    closed = true
    watchdog.stop()
    poolShutdown()
    if (!poolAwait(settings.shutdownTimeout.toMillis)) {
      val left = watchdog.runningNow()
      Log.log(Level.WARNING, s"cogs: close: workers still running after cogs.shutdown-timeout (${settings.shutdownTimeout})" +
        (if (left.isEmpty) "" else left.mkString(", running ", ", ", "")))
    }
    if (tracing ne null) tracing.close()
    if (settings.reportUnobservedFailures && !failedLog.isEmpty) {
      val failed = unobservedFailures
      if (failed.nonEmpty)
        Log.log(Level.WARNING, s"cogs: close: ${failed.size} process(es) failed and nobody read the failure " +
          "(cogs.report-unobserved-failures = off silences this):\n" + failed.map("  " + _).mkString("\n"))
    }
    // Nothing is logged on a normal close: the logger is made on first use (see Log), and making it
    // starts java.util.logging, tens of milliseconds on the cold path of every ABS model run.
  }

  private[runtime] def isClosedOrHalting: Boolean = closed || (halting ne null)

  /**
   * Stop now, whatever runs (absc's `test --timeout`, which gives up on a model): the workers are
   * interrupted, the COGs queued in the executor dropped, and every thread waiting in [[run]],
   * `join` or `awaitQuiescence` is woken with an `IllegalStateException` saying the runtime was
   * stopped. A process in the middle of a slice cannot be stopped from outside its thread (the
   * JVM has no safe way): it ends at its next scheduling point or [[Cogs.stopPoint]] (absc puts
   * one in every loop it generates, and `Proc.loopWhile` has one), which throws
   * `CancellationException` on an interrupted worker of a stopped runtime. Waits at most
   * `cogs.shutdown-timeout` for the workers to end; true if they all did. Later calls (and a
   * `close` after it) do nothing and return whether the workers have ended.
   */
  private[cogs] def stop(): Boolean = {
    val first = synchronized { if (halting eq null) { halting = StopCause; closed = true; true } else false }
    if (!first) return poolTerminated
    watchdog.stop()
    poolShutdownNow()
    val ended =
      try poolAwait(settings.shutdownTimeout.toMillis)
      catch { case _: InterruptedException => Thread.currentThread().interrupt(); false }
    try { if (tracing ne null) tracing.close() } catch { case _: RuntimeException => }
    halted(new Halted(StopCause, null, ended))
    ended
  }

  /** True once [[stop]] was called: what the interrupt of a worker means (see [[Cogs.stopPoint]]). */
  private[cogs] def stopping: Boolean = halting eq StopCause

  /**
   * What the program running on this runtime keeps of its run (absc's program context: its output,
   * random numbers, Model API objects, ...), for the code of that program to find from any of its
   * processes ([[CogRuntime.contextHere]]); null if none. Set before the first object is created.
   */
  @volatile private[cogs] var context: AnyRef = _

  // ------------------------------------------------------------------ the watchdog

  /**
   * Who hears of a process that ran `cogs.watchdog.stuck-after` without reaching a scheduling point
   * (see [[Watchdog]]); null: the runtime's log, at WARNING, with the stack. Called on the
   * watchdog's thread. absc's program runner sets it to report in ABS terms.
   */
  @volatile private[cogs] var stuckReporter: StuckProcess => Unit = _

  /**
   * The watchdog found the heap full and the collector busy for a whole window without an
   * OutOfMemoryError (see Watchdog): treated as one, the fatal error of a worker.
   */
  private[runtime] def heapExhausted(message: String): Unit = {
    val e = new OutOfMemoryError(message)
    logQuietly(s"cogs: out of memory (cogs.on-fatal-error = ${settings.onFatalError})", e)
    applyFatalPolicy(e)
  }

  private[runtime] def reportStuck(s: StuckProcess): Unit = {
    val r = stuckReporter
    if (r ne null) r(s) else Log.log(Level.WARNING, s.message)
  }

  /** Same as `close`. */
  def shutdown(): Unit = close()

  override def toString: String = s"CogRuntime(parallelism=${settings.parallelism}, throughput=${settings.throughput})"
}

object CogRuntime {

  /** The `cogs` section of the configuration, checked. */
  final case class Settings(
      parallelism: Int,
      throughput: Int,
      threadNamePrefix: String,
      shutdownTimeout: java.time.Duration,
      onFatalError: String = Settings.Shutdown,
      reportUnobservedFailures: Boolean = true,
      stuckAfter: java.time.Duration = Settings.DefaultStuckAfter,
      gcOverheadLimit: Double = Settings.DefaultGcOverheadLimit,
      pool: String = Settings.OwnPool
  )

  object Settings {
    final val Shutdown = "shutdown"
    final val Continue = "continue"
    /** Values of `cogs.scheduler.pool`. */
    final val ForkJoin = "forkjoin"
    final val OwnPool = "own"
    private[runtime] val DefaultStuckAfter = java.time.Duration.ofSeconds(5)
    private[runtime] final val DefaultGcOverheadLimit = 0.0

    /**
     * What reference.conf says, without reading it (`CogRuntime()` when [[ConfigProbe]] finds
     * nothing that could override it). `ConfigTest` checks that the two agree.
     */
    private[runtime] def defaults: Settings = Settings(
      parallelism = Runtime.getRuntime.availableProcessors,
      throughput = 32,
      threadNamePrefix = "cogs-worker",
      shutdownTimeout = java.time.Duration.ofSeconds(10),
      onFatalError = Shutdown,
      reportUnobservedFailures = true,
      stuckAfter = DefaultStuckAfter,
      gcOverheadLimit = DefaultGcOverheadLimit,
      pool = OwnPool
    )

    def apply(config: Config): Settings = {
      val c = config.getConfig("cogs")
      val par = c.getInt("executor.parallelism")
      val cores = Runtime.getRuntime.availableProcessors
      val settings = Settings(
        parallelism = if (par <= 0) cores else par,
        throughput = c.getInt("throughput"),
        threadNamePrefix = c.getString("executor.thread-name-prefix"),
        shutdownTimeout = c.getDuration("shutdown-timeout"),
        onFatalError = c.getString("on-fatal-error"),
        reportUnobservedFailures = c.getBoolean("report-unobserved-failures"),
        stuckAfter = c.getDuration("watchdog.stuck-after"),
        gcOverheadLimit = c.getDouble("watchdog.gc-overhead-limit"),
        pool = c.getString("scheduler.pool")
      )
      require(settings.onFatalError == Shutdown || settings.onFatalError == Continue,
        s"cogs.on-fatal-error must be '$Shutdown' or '$Continue', got '${settings.onFatalError}'")
      require(settings.pool == ForkJoin || settings.pool == OwnPool,
        s"cogs.scheduler.pool must be '$ForkJoin' or '$OwnPool', got '${settings.pool}'")
      require(settings.gcOverheadLimit >= 0 && settings.gcOverheadLimit <= 1,
        s"cogs.watchdog.gc-overhead-limit must be from 0 (off) to 1, got ${settings.gcOverheadLimit}")
      require(!settings.stuckAfter.isNegative, s"cogs.watchdog.stuck-after must not be negative, got ${settings.stuckAfter}")
      require(settings.throughput >= 1, s"cogs.throughput must be at least 1, got ${settings.throughput}")
      require(settings.parallelism <= 32767, s"cogs.executor.parallelism is too large: ${settings.parallelism}")
      settings
    }
  }

  /**
   * A runtime configured from `application.conf` / `reference.conf` (section `cogs`) and `cogs.*`
   * system properties. When none of them can differ from the runtime's own reference.conf
   * ([[ConfigProbe]]), the configuration is not loaded at all: Typesafe Config costs some 95 ms
   * of every cold start.
   */
  def apply(): CogRuntime = {
    val loader = Thread.currentThread().getContextClassLoader
    if ((loader ne null) && !ConfigProbe.mayOverride(loader)) new CogRuntime(Settings.defaults, null)
    else new CogRuntime(ConfigLoading.settings(ConfigLoading.load()), null)
  }

  def apply(config: Config): CogRuntime = new CogRuntime(ConfigLoading.settings(config), null)

  /** The runtime of a [[ControlledRun]]: one slice per batch; its pool never gets a task. */
  private[runtime] def controlled(): CogRuntime = new CogRuntime(Settings.defaults.copy(parallelism = 1, throughput = 1), null)

  /**
   * A runtime that emits trace events (see [[cogs.trace.Tracing]]): objects of the classes
   * `tracing` observes get an identity in traces, and their events go to the tracer it chooses.
   */
  def withTracing(tracing: cogs.trace.Tracing, config: Config = ConfigFactory.load()): CogRuntime = {
    require(tracing ne null, "tracing is null")
    new CogRuntime(ConfigLoading.settings(config), tracing)
  }

  /** Convenience: override a few keys, e.g. `CogRuntime.withOverrides("cogs.throughput = 8")`. */
  def withOverrides(hocon: String): CogRuntime = new CogRuntime(ConfigLoading.settings(ConfigLoading.overrides(hocon)), null)

  /**
   * Every use of Typesafe Config's classes beyond the `Config` type itself, kept out of this object:
   * the verifier of a class that calls `withFallback` loads Config's interfaces when the class is
   * linked, which a run on the defaults must not pay for (ColdStartTest).
   */
  private object ConfigLoading {
    def load(): Config = ConfigFactory.load()
    def overrides(hocon: String): Config = ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load())
    def settings(config: Config): Settings = Settings(config.withFallback(ConfigFactory.defaultReference()))
  }

  /** Failed processes kept for [[CogRuntime.unobservedFailures]] (see keepFailure). */
  private final val MaxKeptFailures = 1000

  /** A failed process, kept until its failure is read or reported. */
  private final class FailureRecord(val failed: Fut.Failed, val oneWay: Boolean) {
    def line: String = s"${failed.origin} failed: ${failed.error}" + (if (oneWay) " (a one-way call)" else "")
  }

  /** How many times a halt tries to wake the waiters when memory runs short (about 1 ms apart; see halted). */
  private final val HaltWakeTries = 5000

  private val Unpark: java.util.function.Consumer[Thread] = t => LockSupport.unpark(t)

  /** Processes a halt's report lists at most (see startHalt). */
  private final val HaltReportLines = 20

  /** The per-worker counters, in the order schedulerCounters sums them. */
  private val CounterNames: List[String] = List("batches", "slices", "handOffs", "slotFills", "forks", "flushes", "resubmits",
    "calls", "wakes", "toSelf", "toSlot", "toIdle", "toApart", "toQueued", "defers", "expired")

  /**
   * Whether runtimes keep scheduled COGs near their worker (see `defer`): `-Dcogs.scheduler.affinity`,
   * read once. An experiment of step 3 (docs/runtime-design.md), not a configuration key yet.
   */
  private[runtime] val AffinityDefault: Boolean = java.lang.Boolean.getBoolean("cogs.scheduler.affinity")

  /** How long a COG stays near its worker before any worker may take it (`-Dcogs.scheduler.affinity.grace-us`, default 20). */
  private val AffinityGraceNanos: Long = java.lang.Long.getLong("cogs.scheduler.affinity.grace-us", 20L) * 1000L

  /** A runtime with affinity on or off, whatever the JVM's property says (for tests). */
  private[runtime] def withAffinity(on: Boolean, settings: Settings = Settings.defaults): CogRuntime =
    new CogRuntime(settings, null, on)

  /** Hand-offs a worker runs in a row before it goes back to the pool's queues. */
  private final val MaxHandOffs = 64

  /** Calls a slice may send while a COG waits in its worker's slot before that COG is flushed. */
  private final val SlotPatience = 32

  /**
   * A worker thread of a runtime: knows the COG it runs and holds the hand-off slot. A trait so
   * that both executors' threads have it: [[FjWorker]] (the fork-join pool's) and [[OwnWorker]]
   * (the runtime's own pool, `cogs.scheduler.pool = own`).
   */
  private[runtime] trait Worker extends Thread {
    val runtime: CogRuntime
    var current: Cog = _
    var slot: Cog = _
    /** Calls sent since `slot` was filled. */
    var slotSends = 0
    var inBatch = false
    /** COGs kept near this worker (affinity; see CogRuntime.defer), and calls sent since its grace was checked. */
    val near: NearQueue = if (runtime.affinity) new NearQueue else null
    var nearSends = 0
    /** COGs that went idle during this worker's current `runOn`, not yet taken off `active` (cogIdleOn). */
    var idled = 0
    // What the watchdog saw this worker run at its last sample (read and written by the watchdog's
    // thread only; see Watchdog).
    private[runtime] var seenCog: Cog = _
    private[runtime] var seenProcess: Process = _
    private[runtime] var seenSlices = 0
    private[runtime] var seenSince = 0L
    /** The scheduler's counts (see SchedulerCounters), written by this worker only; null unless counting. */
    private[runtime] val counts: SchedulerCounters.Counts = if (SchedulerCounters.ON) new SchedulerCounters.Counts else null

  }

  /** A worker of the fork-join pool (`cogs.scheduler.pool = forkjoin`). */
  private[runtime] final class FjWorker(pool: ForkJoinPool, val runtime: CogRuntime) extends ForkJoinWorkerThread(pool) with Worker {
    override protected def onTermination(exception: Throwable): Unit = {
      runtime.watchdog.workerEnded(this)
      super.onTermination(exception)
    }
  }

  /** A worker of the runtime's own pool (`cogs.scheduler.pool = own`, see [[WorkerPool]]). */
  private[runtime] final class OwnWorker(pool: WorkerPool, index: Int, val runtime: CogRuntime)
      extends WorkerPool.WorkerThread(pool, index) with Worker {
    override protected def exited(): Unit = runtime.watchdog.workerEnded(this)
  }

  /** The object that runs a program's main block. */
  private[runtime] final class MainBlock extends ActiveObject {
    override def toString = "main"
    // Monitor configurations name the main block `main`, as ABS modellers know it.
    override def traceName: String = "main"
  }

  private[runtime] val Placement = new ThreadLocal[Cog]

  /**
   * The COG of the object whose constructor (ABS init block) runs on this thread, or null: set by
   * ActiveObject's constructor, put back by `place` when the `new` returns. Objects that an init
   * block creates are created by that object (`new local` joins its COG, `new` makes a COG in its
   * runtime, on its component), not by the process that called `new`, and also where no process
   * runs at all: an object created for another node runs its init block on the thread that
   * serves the creation.
   */
  private[runtime] val Constructing = new ThreadLocal[Cog]

  /** Why a stopped runtime ([[CogRuntime.stop]]) halted: told apart from a fatal error by identity. */
  private[runtime] val StopCause: Throwable =
    new java.util.concurrent.CancellationException("the runtime was stopped")

  /** The [[CogRuntime.context]] of the runtime whose process runs on this thread; null outside every process. */
  private[cogs] def contextHere: AnyRef = {
    val c = Cog.current()
    if (c eq null) null else c.runtime.context
  }

  /**
   * The runtime's logger (System.Logger, so no logging library is imposed: the JDK routes it to
   * java.util.logging unless the application installs a LoggerFinder, e.g. SLF4J's bridge).
   * Levels: ERROR for fatal errors and halts, WARNING for what the runtime ignores or cannot do
   * (a throwing onComplete callback, workers that outlive close), DEBUG for its life cycle and
   * deadlock reports. A failed process is not logged: it is data (its future, failedProcesses).
   *
   * Made on first use, not with this object: System.getLogger starts java.util.logging (about
   * 85 ms of class loading and set-up on JDK 17), and a normal run logs nothing. A race between
   * two first uses makes two handles on the same named logger, which is harmless.
   */
  private[runtime] def Log: System.Logger =
    if (logSilenced) SilentLog
    else {
      val l = log$
      if (l ne null) l
      else { val n = System.getLogger("cogs.runtime"); log$ = n; n }
    }

  @volatile private[this] var log$ : System.Logger = _

  /**
   * Set by absc's program runner, which reports fatal errors and halts itself (one paragraph, not
   * the runtime's log with its stack traces) unless run with -v. Process-wide, as the logging
   * level it replaces was; while set, the runtime's logger is not even made.
   */
  @volatile private[cogs] var logSilenced = false

  private[this] object SilentLog extends System.Logger {
    def getName: String = "cogs.runtime"
    def isLoggable(level: Level): Boolean = false
    def log(level: Level, bundle: java.util.ResourceBundle, msg: String, thrown: Throwable): Unit = ()
    def log(level: Level, bundle: java.util.ResourceBundle, format: String, params: AnyRef*): Unit = ()
  }

  /** What a halt left behind: the fatal error, the processes that were left waiting, and whether the executor stopped in time. */
  private[runtime] final class Halted(val error: Throwable, left: List[String], stopped: Boolean) {
    val message: String =
      if (error eq StopCause) "cogs: the runtime was stopped" + (if (stopped) "" else "; some workers did not stop within cogs.shutdown-timeout")
      else if (left eq null) "cogs: the runtime halted after a fatal error" else {
      val b = new StringBuilder(s"cogs: the runtime halted after a fatal error ($error)")
      if (!stopped) b ++= "; some workers did not stop within cogs.shutdown-timeout"
      if (left.isEmpty) b ++= "; no process was left waiting"
      else b ++= s"; ${left.count(!_.startsWith("... and "))} process(es) were left:\n" ++= left.map("  " + _).mkString("\n")
      b.result()
    }
    /** `cause`: the runtime's fatal error, for a Halted made before it (without a report). */
    def exception(cause: Throwable): IllegalStateException = new IllegalStateException(message, if (error ne null) error else cause)
  }
}
