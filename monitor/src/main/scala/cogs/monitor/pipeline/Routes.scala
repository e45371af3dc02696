package cogs.monitor.pipeline

import cogs.runtime._
import scala.collection.mutable.ArrayBuffer
import scala.util.control.NonFatal
import scala.util.{Failure, Success}

/**
 * Where a route lives and what it may use: the chain's name (for reports), the pipeline's own
 * runtime (to spawn monitor actors; null for inline sinks, which have none), statistics (null
 * when off for monitor actors) and the collector of ended actors' statistics.
 */
private[pipeline] final class RouteContext(
    val chain: String,
    val runtime: CogRuntime,
    val monitorStats: String => ActorStats,
    val collector: StatsCollector
)

/** What tests and tools can ask a live route: instances alive now, and keys assigned per pool actor. */
final case class RouteStatus(monitor: String, kind: DispatchKind, events: Long, instances: Long, live: Int, keysPerActor: Vector[Int])

/**
 * The dispatch of one monitor inside one dispatcher (or inline sink): the state MESA's dispatcher
 * actors hold. A route is owned by one thread at a time (its dispatcher's COG, or the inline lock),
 * so it is plain mutable code.
 */
private[pipeline] abstract class Route[E](val spec: MonitorSpec[E], protected val ctx: RouteContext) {
  protected final val settings = spec.dispatch
  protected var events, unkeyed, instances, completed, failed = 0L
  protected val verdicts = Vector.newBuilder[Verdict]

  def dispatch(e: E): Unit

  private[this] var dispatchErrors = 0L

  /**
   * What dispatchers call: a key function or completion predicate that throws costs its event
   * (reported as a verdict of this monitor), not the dispatcher's drain.
   */
  final def route(e: E): Unit =
    try dispatch(e)
    catch {
      case t: Throwable if Instance.catchable(t) =>
        dispatchErrors += 1
        if (dispatchErrors <= Route.MaxDispatchErrors)
          verdicts += Verdict(spec.name, ctx.chain, "-", Finding(spec.name, s"dispatch failed (key function or completion event): $t", 0L, List(String.valueOf(e))))
    }
  /** Send what accumulated during a dispatcher batch (actor routes batch their calls). */
  def flush(): Unit = ()
  /** End every live instance and gather the results. Actor routes send their end calls now, when called. */
  def finish(): Proc[RouteResult]
  def status: RouteStatus

  protected final def keyOf(e: E): Any = settings.key(e) match {
    case None    => null
    case Some(k) => k
    case k       => k
  }

  protected final def newInstance(label: String): Instance[E] = {
    val checker =
      try spec.make()
      catch { case t: Throwable if Instance.catchable(t) => Route.broken[E](spec.name, t) }
    instances += 1
    new Instance[E](spec.name, label, checker)
  }

  protected final def absorb(r: InstanceResult): Unit = {
    if (r.failed) failed += 1
    r.findings.foreach(f => verdicts += Verdict(spec.name, ctx.chain, r.label, f))
    if ((r.stats ne null) && (ctx.collector ne null)) ctx.collector.add(r.stats)
  }

  protected final def result: RouteResult = {
    if (dispatchErrors > Route.MaxDispatchErrors)
      verdicts += Verdict(spec.name, ctx.chain, "-", Finding(spec.name, s"${dispatchErrors - Route.MaxDispatchErrors} more dispatch failures", 0L, Nil))
    RouteResult(spec.name, ctx.chain, settings.kind, events, unkeyed, instances, completed, failed, verdicts.result())
  }
}

private[pipeline] object Route {
  final val MaxDispatchErrors = 10

  def apply[E](spec: MonitorSpec[E], ctx: RouteContext): Route[E] = spec.dispatch.kind match {
    case DispatchKind.Single  => new SingleRoute(spec, ctx)
    case DispatchKind.Indexed => new IndexedRoute(spec, ctx)
    case DispatchKind.PerKey  => requireActors(spec, ctx); new PerKeyRoute(spec, ctx)
    case DispatchKind.Pool    => requireActors(spec, ctx); new PoolRoute(spec, ctx)
  }

  private def requireActors(spec: MonitorSpec[_], ctx: RouteContext): Unit =
    if (ctx.runtime eq null)
      throw new IllegalArgumentException(s"monitor ${spec.name}: dispatch '${spec.dispatch.kind}' needs monitor actors, which inline mode has not")

  /** Stands for an instance whose factory threw: the failure becomes the instance's verdict at its first event. */
  def broken[E](name0: String, cause: Throwable): Checker[E] = new Checker[E] {
    def name: String = name0
    def verify(e: E): Unit = throw new IllegalStateException(s"the monitor could not be created: $cause", cause)
    def end(): Unit = throw new IllegalStateException(s"the monitor could not be created: $cause", cause)
    def violations: Seq[Finding] = Nil
  }

  /** Spreads hash codes that differ only in high bits (as boxed longs and sequential ids do not, but others may). */
  def mix(h: Int): Int = { val x = h * 0x9E3779B9; x ^ (x >>> 16) }
}

/** `single`: one instance for everything, in the dispatcher. Created at once, so it is ended even if it saw no event. */
private[pipeline] final class SingleRoute[E](spec: MonitorSpec[E], ctx: RouteContext) extends Route[E](spec, ctx) {
  private[this] val inst = newInstance("all")

  def dispatch(e: E): Unit = { events += 1; inst.verify(e) }

  def finish(): Proc[RouteResult] = Proc.delay { absorb(inst.end()); result }

  def status: RouteStatus = RouteStatus(spec.name, settings.kind, events, instances, 1, Vector.empty)
}

/** `indexed`: one instance per key in the dispatcher's own map (MESA's dispatcher indexing). */
private[pipeline] final class IndexedRoute[E](spec: MonitorSpec[E], ctx: RouteContext) extends Route[E](spec, ctx) {
  private[this] val byKey = new java.util.HashMap[Any, Instance[E]]

  def dispatch(e: E): Unit = {
    events += 1
    val k = keyOf(e)
    if (k == null) {
      unkeyed += 1
      if (settings.unkeyed == Unkeyed.Broadcast) byKey.values.forEach(_.verify(e))
    } else {
      var inst = byKey.get(k)
      if (inst eq null) { inst = newInstance(s"key=$k"); byKey.put(k, inst) }
      inst.verify(e)
      if (settings.completeOn(e)) {
        byKey.remove(k)
        completed += 1
        absorb(inst.end())
      }
    }
  }

  def finish(): Proc[RouteResult] = Proc.delay {
    byKey.values.forEach(i => absorb(i.end()))
    byKey.clear()
    result
  }

  def status: RouteStatus = RouteStatus(spec.name, settings.kind, events, instances, byKey.size, Vector.empty)
}

/**
 * Routes whose instances live in monitor actors. Events for one actor are gathered during a
 * dispatcher batch and sent as one call at [[flush]]: a Cogs call allocates a process and a future,
 * so one per event would cost more than most checkers' work on it. Order is kept: a batch holds an
 * actor's events in dispatch order, and batches reach it in send order.
 */
private[pipeline] abstract class ActorRoute[E](spec: MonitorSpec[E], ctx: RouteContext) extends Route[E](spec, ctx) {

  protected final class Slot(val actor: MonitorActor[E], val label: String, val stats: ActorStats) {
    var pending: ArrayBuffer[E] = null
    var keys = 0
  }

  private[this] val dirty = new ArrayBuffer[Slot]
  // End calls of actors ended before the end of the trace; resolved ones are folded in now and then,
  // so that a long run with many completed keys holds only the ends still in flight.
  private[this] var ends = new ArrayBuffer[Fut[InstanceResult]]
  private[this] var compactAt = 64

  protected final def spawn(label: String): Slot = {
    val inst = newInstance(label)
    val stats = if (ctx.monitorStats eq null) null else ctx.monitorStats(s"${spec.name}/$label")
    new Slot(ctx.runtime.spawn(new MonitorActor[E](inst, stats)), label, stats)
  }

  protected final def enqueue(s: Slot, e: E): Unit = {
    if (s.pending eq null) {
      s.pending = new ArrayBuffer[E](16)
      dirty += s
    }
    s.pending += e
  }

  private def send(s: Slot): Unit = {
    val batch = s.pending
    s.pending = null
    val t = if (s.stats ne null) s.stats.sending() else 0L
    s.actor.send("verify")(_.verify(batch, t))
  }

  override final def flush(): Unit = {
    var i = 0
    while (i < dirty.length) {
      val s = dirty(i)
      if (s.pending ne null) send(s)
      i += 1
    }
    dirty.clear()
  }

  /** End an actor: its pending events first, then `end` (which it runs after them). */
  protected final def end(s: Slot): Fut[InstanceResult] = {
    if (s.pending ne null) send(s)
    val t = if (s.stats ne null) s.stats.sending() else 0L
    s.actor.send("end")(_.end(t))
  }

  protected final def endEarly(s: Slot): Unit = {
    completed += 1
    ends += end(s)
    if (ends.length >= compactAt) {
      val waiting = new ArrayBuffer[Fut[InstanceResult]]
      ends.foreach(f => f.poll match {
        case Some(Success(r)) => absorb(r)
        case Some(Failure(t)) => absorbLost(t)
        case None             => waiting += f
      })
      ends = waiting
      compactAt = math.max(64, waiting.length * 2)
    }
  }

  private def absorbLost(t: Throwable): Unit = {
    failed += 1
    verdicts += Verdict(spec.name, ctx.chain, "?", Finding(spec.name, s"a monitor actor failed: $t", 0L, Nil))
  }

  /** Actors alive at the end of the trace. */
  protected def liveSlots: Iterable[Slot]
  protected def forgetAll(): Unit

  final def finish(): Proc[RouteResult] = {
    flush()
    liveSlots.foreach(s => ends += end(s))
    forgetAll()
    val all = ends.toList
    ends = new ArrayBuffer
    Proc.foreach(all)(f => Proc.await(f).map(absorb).recover { case t: Throwable if NonFatal(t) => absorbLost(t) })
      .map(_ => result)
  }
}

/** `per-key`: one monitor actor per key, from its first event to its completion event (MESA's concurrent dispatcher). */
private[pipeline] final class PerKeyRoute[E](spec: MonitorSpec[E], ctx: RouteContext) extends ActorRoute[E](spec, ctx) {
  private[this] val byKey = new java.util.HashMap[Any, Slot]

  def dispatch(e: E): Unit = {
    events += 1
    val k = keyOf(e)
    if (k == null) {
      unkeyed += 1
      if (settings.unkeyed == Unkeyed.Broadcast) byKey.values.forEach(enqueue(_, e))
    } else {
      var s = byKey.get(k)
      if (s eq null) { s = spawn(s"key=$k"); s.keys = 1; byKey.put(k, s) }
      enqueue(s, e)
      if (settings.completeOn(e)) {
        byKey.remove(k)
        endEarly(s)
      }
    }
  }

  protected def liveSlots: Iterable[Slot] = { import scala.jdk.CollectionConverters._; byKey.values.asScala.toList }
  protected def forgetAll(): Unit = byKey.clear()

  def status: RouteStatus = RouteStatus(spec.name, settings.kind, events, instances, byKey.size, Vector.empty)
}

/**
 * `pool`: at most `poolSize` monitor actors, created as keys first need them; each key is assigned to
 * one actor for its life (see [[Assign]] for the two rules), so its events stay in order. The
 * instance in each actor sees several keys and indexes internally (MESA's bounded-concurrent system).
 */
private[pipeline] final class PoolRoute[E](spec: MonitorSpec[E], ctx: RouteContext) extends ActorRoute[E](spec, ctx) {
  private[this] val n = settings.poolSize
  private[this] val slots = new Array[AnyRef](n) // Slot; an Array[Slot] of a path-dependent type needs a ClassTag
  private[this] val assigned = new java.util.HashMap[Any, Slot]
  private[this] var next = 0

  private def slot(i: Int): Slot = {
    var s = slots(i).asInstanceOf[Slot]
    if (s eq null) { s = spawn(s"pool-$i"); slots(i) = s }
    s
  }

  private def created: List[Slot] = slots.iterator.filter(_ ne null).map(_.asInstanceOf[Slot]).toList

  def dispatch(e: E): Unit = {
    events += 1
    val k = keyOf(e)
    if (k == null) {
      unkeyed += 1
      if (settings.unkeyed == Unkeyed.Broadcast) created.foreach(enqueue(_, e))
    } else if (settings.assign == Assign.RoundRobin) {
      var s = assigned.get(k)
      if (s eq null) {
        s = slot(next)
        next = if (next + 1 == n) 0 else next + 1
        s.keys += 1
        assigned.put(k, s)
      }
      enqueue(s, e)
      if (settings.completeOn(e)) assigned.remove(k)
    } else {
      enqueue(slot(Math.floorMod(Route.mix(k.##), n)), e)
    }
  }

  protected def liveSlots: Iterable[Slot] = created
  protected def forgetAll(): Unit = { java.util.Arrays.fill(slots, null); assigned.clear() }

  def status: RouteStatus = {
    val cs = created
    RouteStatus(spec.name, settings.kind, events, instances, cs.size,
      if (settings.assign == Assign.RoundRobin) slots.iterator.map(s => if (s eq null) 0 else s.asInstanceOf[Slot].keys).toVector else Vector.empty)
  }
}
