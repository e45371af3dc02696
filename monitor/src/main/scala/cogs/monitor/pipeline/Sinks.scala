package cogs.monitor.pipeline

import cogs.runtime._
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.{AtomicInteger, LongAdder}
import java.util.concurrent.locks.LockSupport

/** What a trace buffer does when it is full. */
sealed trait Overload
object Overload {
  /**
   * The emitting thread waits for room: spins briefly, then parks with a growing pause (up to 1 ms),
   * for at most `maxWaitNanos`; an event that still finds no room is counted as lost (`timedOut`).
   *
   * The wait is bounded because an unbounded one can deadlock: a monitor that calls back into the
   * observed program and waits for an answer (a join, a synchronous call) while the program's threads
   * wait for buffer room that only that monitor's progress would make. Bounded, the program slows
   * down and the report says how many events were lost, instead of hanging. It also never holds a
   * Cogs worker forever, so the observed runtime keeps its threads.
   */
  final case class Backpressure(maxWaitNanos: Long) extends Overload
  /** A full buffer loses the event at once; losses are counted and reported. */
  case object Drop extends Overload
}

/** Which pipeline actors keep statistics, and how often the mailbox is sampled. */
final case class StatsSettings(dispatcher: Boolean, monitor: Boolean, sampleEvery: Int = 100, maxActorLines: Int = 1000)
object StatsSettings {
  val off: StatsSettings = StatsSettings(dispatcher = false, monitor = false)
}

/**
 * The settings of a sink (inline, or a buffer and its dispatcher).
 *
 * @param capacity   trace buffer slots (rounded up to a power of two)
 * @param batch      events a dispatcher takes per call before it lets other actors run
 * @param order      a fresh sequence check per sink, or null for none
 * @param eventTime  an event's emission time (`System.nanoTime`), for the emission-to-dispatch statistic; null if unknown
 * @param finishTimeoutNanos how long `finish` waits for a dispatcher and its monitors
 */
final case class SinkSettings[E](
    capacity: Int = 65536,
    overload: Overload = Overload.Backpressure(TimeUnit.SECONDS.toNanos(10)),
    batch: Int = 256,
    order: () => OrderCheck[E] = null,
    eventTime: E => Long = null,
    stats: StatsSettings = StatsSettings.off,
    finishTimeoutNanos: Long = TimeUnit.SECONDS.toNanos(60),
    maxDelayNanos: Long = 0L
) {
  require(batch >= 1, s"batch must be at least 1, got $batch")
  require(maxDelayNanos >= 0, s"maxDelayNanos must be 0 or more, got $maxDelayNanos")
}

/**
 * Events that did not reach the monitors, by cause.
 *
 * @param dropped   a full buffer under the `drop` policy
 * @param timedOut  a full buffer under `backpressure`, after the longest wait
 * @param late      emitted after `finish` began
 * @param reentrant inline mode: emitted by a monitor's own code while it was checking an event
 */
final case class Losses(dropped: Long = 0, timedOut: Long = 0, late: Long = 0, reentrant: Long = 0) {
  def total: Long = dropped + timedOut + late + reentrant
  def merge(o: Losses): Losses = Losses(dropped + o.dropped, timedOut + o.timedOut, late + o.late, reentrant + o.reentrant)
}

/** What a sink delivered and to whom. `dispatcher` is its dispatcher's statistics, or null. */
final case class SinkResult(name: String, delivered: Long, routes: Vector[RouteResult], losses: Losses, order: OrderReport, dispatcher: StatsSnapshot)

/** Where events go: a sink hands them to its monitors' routes, inline or through a dispatcher actor. */
trait EventSink[E] {
  def name: String
  /** Called on the emitting thread. */
  def emit(e: E): Unit
  /** Deliver what is buffered, end every monitor, and collect the results. Call from outside every runtime. */
  def finish(): SinkResult
  /** The routes' state now (after delivering what is buffered). For tests and tools. */
  def status(): Vector[RouteStatus]
}

/**
 * Inline: the monitors run on the emitting thread, before the emitting object goes on. Objects on
 * different COGs emit concurrently, so one lock serialises them; each object's events are emitted by
 * its COG, one at a time, so they reach the monitors in order.
 *
 * Deadlock risk: a monitor that waits for another thread of the observed program (a join, a latch)
 * while that thread waits for this lock to emit never finishes. Monitors must not block. A monitor
 * whose own code emits an event on this thread (re-entering the lock) would see it in the middle of
 * another event: such events are not delivered, and counted (`reentrant`).
 */
final class InlineSink[E](val name: String, specs: Seq[MonitorSpec[E]], settings: SinkSettings[E]) extends EventSink[E] {
  private[this] val lock = new java.util.concurrent.locks.ReentrantLock
  private[this] val ctx = new RouteContext(name, null, null, null)
  private[this] val routes: Array[Route[E]] = specs.map(Route(_, ctx)).toArray
  private[this] val order = if (settings.order eq null) null else settings.order()
  private[this] var delivered = 0L
  private[this] var inside = false
  private[this] var finished = false
  private[this] var late, reentrant = 0L
  private[this] var result: SinkResult = _

  def emit(e: E): Unit = {
    lock.lock()
    try {
      if (inside) reentrant += 1
      else if (finished) late += 1
      else {
        inside = true
        try {
          delivered += 1
          if (order ne null) order.check(e)
          var i = 0
          while (i < routes.length) { routes(i).route(e); i += 1 }
        } finally inside = false
      }
    } finally lock.unlock()
  }

  def finish(): SinkResult = {
    lock.lock()
    try {
      if (!finished) {
        finished = true
        val rs = routes.iterator.map(r => Proc.now(r.finish())).toVector
        result = SinkResult(name, delivered, rs, Losses(), if (order eq null) OrderReport.empty else order.report, null)
      }
      result.copy(losses = Losses(late = late, reentrant = reentrant))
    } finally lock.unlock()
  }

  def status(): Vector[RouteStatus] = {
    lock.lock()
    try routes.iterator.map(_.status).toVector
    finally lock.unlock()
  }
}

/**
 * Outline: a bounded [[EventBuffer]] filled by the emitting threads and drained, in batches, by a
 * [[Dispatcher]] actor in the pipeline's own runtime, which routes each event to its monitors.
 * The emitting thread only stores a reference (and rarely sends one wake-up call), so a slow
 * monitor delays the program only when the buffer fills.
 *
 * == Waking the dispatcher without losing a wake-up ==
 * `wake` is IDLE or SCHEDULED; SCHEDULED means a `drain` call is queued or running. Whoever moves it
 * IDLE to SCHEDULED (a CAS) sends the one `drain`; only the dispatcher moves it back, when a batch
 * found the buffer empty:
 * {{{
 *   emitter (emit)                              dispatcher (end of a drain)
 *   P1 store the event in its slot [volatile]   C1 wake = IDLE                      [volatile]
 *   P2 read wake; if IDLE, CAS to SCHEDULED     C2 read the next slot (ready?)      [volatile]
 *      and, if the CAS won, send drain          C3 if ready, CAS IDLE to SCHEDULED, and if won, send drain
 * }}}
 * The four accesses are volatile, hence in one total order. If P2 comes before C1, the emitter saw
 * SCHEDULED and sent nothing, but then P1 precedes C2, so the dispatcher sees the event and C3
 * reschedules. If P2 comes after C1, the emitter sees IDLE and its CAS races only with C3: exactly
 * one wins and sends. An emitter that claimed a slot but has not stored it yet (P1 pending) is the
 * first case's mirror: C2 sees null, so P1 and P2 come after C1 and that emitter sends the drain.
 * Either way no event is left in the buffer with nobody scheduled to take it, and at most one drain
 * is ever queued. (This is the argument of the runtime's own `CogCore`, one level up.)
 * `ChainStressTest` forces the critical interleaving (an event stored between the dispatcher's last
 * poll and C1) and checks under load that every event is delivered exactly once, per emitter in order.
 *
 * A drain takes at most `batch` events and then, if there may be more, sends itself another
 * drain instead of looping: the monitor actors it feeds share the pipeline's threads with it.
 */
final class Chain[E <: AnyRef] private[pipeline] (
    val name: String,
    specs: Seq[MonitorSpec[E]],
    val settings: SinkSettings[E],
    runtime: CogRuntime,
    collector: StatsCollector
) extends EventSink[E] {
  import Chain._

  private[pipeline] val buffer = new EventBuffer[E](settings.capacity)
  private[this] val wake = new AtomicInteger(IDLE)
  private[this] val dropped, timedOut, late = new LongAdder
  @volatile private[this] var closed = false
  @volatile private[this] var result: SinkResult = _

  private[this] val dstats: ActorStats =
    if (settings.stats.dispatcher) new ActorStats("dispatcher", name, settings.stats.sampleEvery) else null
  private[this] val ctx = new RouteContext(
    name, runtime,
    if (settings.stats.monitor) (label: String) => new ActorStats("monitor", s"$name:$label", settings.stats.sampleEvery) else null,
    collector)
  private[pipeline] val dispatcher: Dispatcher[E] =
    runtime.spawn(new Dispatcher[E](this, specs, ctx, settings, dstats))

  // Lazy wake-up (maxDelayNanos > 0): an emitter wakes the dispatcher only once a batch is
  // waiting; a ticker wakes it for what is left at most maxDelayNanos later. Waking an idle
  // dispatcher is a call into another runtime (a thread to unpark), which for small bursts of
  // events costs far more than handling them. No event can be stranded: the ticker runs until
  // finish, and finish drains the buffer itself.
  private[this] val wakeAt: Long = if (settings.maxDelayNanos > 0) math.min(settings.batch, buffer.capacity / 2).max(1).toLong else 1L
  private[this] val ticker: java.util.concurrent.ScheduledFuture[_] =
    if (settings.maxDelayNanos > 0)
      Chain.Ticker.scheduleAtFixedRate(() => if (!closed && buffer.ready) signal(),
        settings.maxDelayNanos, settings.maxDelayNanos, TimeUnit.NANOSECONDS)
    else null

  // Emitters that will not signal store their event with release only (no fence), in lazy mode.
  // Why no event is stranded by that: such an emitter never reads `wake`, so it takes no part in
  // the P1/P2 Dekker pair (below) that makes a wake-up prompt; its event becomes visible to the
  // dispatcher without a fence (a release store is eventually visible, and publishes the event's
  // fields to the dispatcher's acquiring read of the slot). From there it is taken by the next
  // drain: one a later emitter's wake-up schedules (its own store stays volatile, so P1/P2 holds
  // for it), or one the ticker schedules within maxDelayNanos (it reads the slot at head with
  // acquire), or finish's, which waits for claimed slots to fill. That is the same guarantee lazy
  // mode gave before this change: an emitter below wakeAt never signalled, so its event already
  // relied on a later wake-up or the ticker. Eager chains (no ticker) keep every store volatile.
  // `ChainStressTest.lazyChainsStrandNoEventBetweenWakeUps` checks it under load, and fails when
  // the ticker is taken away.
  private[this] val quietBelow: Long = if (ticker ne null) wakeAt else 0L

  def emit(e: E): Unit = {
    if (closed) { late.increment(); return }
    // `waiting` may count events the dispatcher has taken meanwhile (never fewer than wait): at
    // worst an early wake-up, never a missed one; with wakeAt == 1 every event still signals.
    // Below wakeAt it is counted from the producers' copy of the dispatcher's position, so an
    // emitter reads the dispatcher's counter (a line the dispatcher writes at every event) only
    // when a wake-up may be due: a count that reaches wakeAt was checked against a fresh read.
    val waiting = buffer.offerCounting(e, wakeAt, quietBelow)
    if (waiting > 0) { if (waiting >= wakeAt) signal() }
    else settings.overload match {
      case Overload.Drop            => dropped.increment()
      case Overload.Backpressure(w) => waitForRoom(e, w)
    }
  }

  private def waitForRoom(e: E, maxWait: Long): Unit = {
    // A full buffer has a drain scheduled (it was non-empty when its first event was stored), so
    // nothing to wake; signal anyway, it costs one read.
    signal()
    val deadline = System.nanoTime() + maxWait
    var spins = 0
    var pause = 1000L
    while (true) {
      if (closed) { late.increment(); return }
      if (buffer.offer(e)) { signal(); return }
      if (System.nanoTime() - deadline >= 0) { timedOut.increment(); return }
      if (spins < 100) { spins += 1; Thread.onSpinWait() }
      else {
        LockSupport.parkNanos(this, pause)
        if (pause < 1000000L) pause *= 2
      }
    }
  }

  /** P2: wake the dispatcher if it went idle. */
  private def signal(): Unit =
    if (wake.get == IDLE && wake.compareAndSet(IDLE, SCHEDULED)) sendDrain()

  private[pipeline] def sendDrain(): Unit = {
    val t = if (dstats ne null) dstats.sending() else 0L
    dispatcher.send("drain")(_.drain(t))
  }

  /** C1-C3, by the dispatcher at the end of a drain that emptied the buffer: true if it must drain again. */
  private[pipeline] def rest(): Boolean = {
    wake.set(IDLE)
    buffer.ready && wake.compareAndSet(IDLE, SCHEDULED)
  }

  /** Dispatcher, after finish: events that got in anyway are counted, not checked. */
  private[pipeline] def discardLate(): Int = {
    var n = 0
    while (buffer.poll() ne null) n += 1
    late.add(n)
    n
  }

  def status(): Vector[RouteStatus] =
    dispatcher.send("status")(_.status()).join(settings.finishTimeoutNanos, TimeUnit.NANOSECONDS)

  def finish(): SinkResult = synchronized {
    if (result eq null) {
      // From here emitters count their events as late instead of adding them; the dispatcher then
      // takes what is in the buffer, including events of emitters that passed the test just before.
      closed = true
      if (ticker ne null) ticker.cancel(false)
      val t = if (dstats ne null) dstats.sending() else 0L
      val f = dispatcher.send("finish")(_.finish(t))
      result =
        try f.join(settings.finishTimeoutNanos, TimeUnit.NANOSECONDS)
        catch {
          case e: Exception =>
            val msg = e match {
              case _: java.util.concurrent.TimeoutException =>
                s"the dispatcher of $name and its monitors did not finish within ${TimeUnit.NANOSECONDS.toMillis(settings.finishTimeoutNanos)} ms: verdicts are missing"
              case _ => s"the dispatcher of $name failed to finish ($e): verdicts are missing"
            }
            SinkResult(name, 0L, Vector(RouteResult("pipeline", name, DispatchKind.Single, 0, 0, 0, 0, 1,
              Vector(Verdict("pipeline", name, "-", Finding("pipeline", msg, 0L, Nil))))), Losses(), OrderReport.empty, null)
        }
      if ((result.dispatcher ne null) && (collector ne null)) collector.add(result.dispatcher)
    }
    result.copy(losses = Losses(dropped = dropped.sum, timedOut = timedOut.sum, late = late.sum + buffer.size))
  }

  override def toString: String = s"chain $name"
}

object Chain {
  private[pipeline] final val IDLE = 0
  private[pipeline] final val SCHEDULED = 1

  // One daemon thread wakes every lazily woken chain's dispatcher for its leftovers.
  private[pipeline] lazy val Ticker: java.util.concurrent.ScheduledExecutorService = {
    val ex = new java.util.concurrent.ScheduledThreadPoolExecutor(1, { (r: Runnable) =>
      val t = new Thread(r, "cogs-monitor-ticker")
      t.setDaemon(true)
      t
    }: java.util.concurrent.ThreadFactory)
    ex.setRemoveOnCancelPolicy(true) // finished chains leave nothing behind
    ex
  }

  /**
   * A chain (bounded buffer, dispatcher actor, monitors) for events of any type `E`, on `runtime`
   * (which must not be the observed program's): the generic building block `Pipeline` uses for
   * trace events, for programs that monitor events of their own.
   */
  def apply[E <: AnyRef](name: String, specs: Seq[MonitorSpec[E]], settings: SinkSettings[E], runtime: CogRuntime,
      collector: StatsCollector): EventSink[E] =
    new Chain[E](name, specs, settings, runtime, collector)
}

/**
 * The dispatcher actor of a [[Chain]]: drains its buffer and routes every event to each monitor's
 * route. It is the only consumer of the buffer; the COG runs one of its calls at a time.
 */
private[pipeline] final class Dispatcher[E <: AnyRef](
    chain: Chain[E],
    specs: Seq[MonitorSpec[E]],
    ctx: RouteContext,
    settings: SinkSettings[E],
    stats: ActorStats
) extends ActiveObject {
  private[this] val routes: Array[Route[E]] = specs.map(Route(_, ctx)).toArray
  private[this] val order = if (settings.order eq null) null else settings.order()
  private[this] val eventTime = settings.eventTime
  private[this] val batch = settings.batch
  private[this] var delivered = 0L
  private[this] var sinceSample = 0
  private[this] var finished = false

  def drain(sentAt: Long): Proc[Unit] = Proc.delay {
    val t0 = if (stats ne null) stats.start(sentAt) else 0L
    if ((stats ne null) && stats.sampling) stats.sampleBacklog(chain.buffer.size)
    val n = if (finished) chain.discardLate() else { val k = take(batch); flushRoutes(); k }
    if (stats ne null) stats.stop(t0, n)
    if (n < batch && (testHookBeforeRest ne null)) testHookBeforeRest.run()
    if (n >= batch || chain.rest()) chain.sendDrain()
  }

  /**
   * Tests only: runs after a drain found the buffer empty and before the dispatcher goes idle, the
   * window in which an emitter's event must not be stranded. Set before the first event.
   */
  private[pipeline] var testHookBeforeRest: Runnable = null

  def status(): Proc[Vector[RouteStatus]] = Proc.delay {
    if (!finished) { take(Int.MaxValue); flushRoutes() }
    routes.iterator.map(_.status).toVector
  }

  /** Called once, after the chain closed: take the rest of the buffer, then end every monitor. */
  def finish(sentAt: Long): Proc[SinkResult] = Proc.defer {
    val t0 = if (stats ne null) stats.start(sentAt) else 0L
    val n = takeAll()
    flushRoutes()
    finished = true
    if (stats ne null) stats.stop(t0, n)
    val ending = routes.map(_.finish()) // actor routes send their end calls now, all at once
    val results = Vector.newBuilder[RouteResult]
    Proc.foreach(ending.toList)(p => p.map(r => { results += r; () })).map { _ =>
      SinkResult(chain.name, delivered, results.result(), Losses(),
        if (order eq null) OrderReport.empty else order.report,
        if (stats eq null) null else stats.snapshot())
    }
  }

  private def take(max: Int): Int = {
    val buffer = chain.buffer
    var n = 0
    var e: E = null.asInstanceOf[E]
    while (n < max && { e = buffer.poll(); e ne null }) {
      handle(e)
      n += 1
    }
    n
  }

  /**
   * Everything, including events whose emitter claimed a slot and has not stored it yet (a few
   * instructions, unless that thread was descheduled): wait for those a little, never forever.
   */
  private def takeAll(): Int = {
    var n = take(Int.MaxValue)
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1)
    while (!chain.buffer.isEmpty && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(50000L)
      n += take(Int.MaxValue)
    }
    n
  }

  private def handle(e: E): Unit = {
    delivered += 1
    if (order ne null) order.check(e)
    if ((stats ne null) && (eventTime ne null)) {
      sinceSample += 1
      if (sinceSample >= stats.sampleEvery) {
        sinceSample = 0
        stats.sampleLatency(System.nanoTime() - eventTime(e))
      }
    }
    var i = 0
    while (i < routes.length) { routes(i).route(e); i += 1 }
  }

  private def flushRoutes(): Unit = {
    var i = 0
    while (i < routes.length) { routes(i).flush(); i += 1 }
  }

  override def toString: String = s"dispatcher ${chain.name}"
}

