package cogs.monitor.pipeline

import cogs.runtime.CogRuntime
import cogs.trace.{FutRef, ObjRef, TraceEvent}
import cogs.trace.TraceEvent._
import com.typesafe.config.Config
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._

/** A plain event for the generic parts: who emitted it, its number among that emitter's events, a key. */
final case class Ev(emitter: String, seq: Long, key: String, last: Boolean = false)

/**
 * A checker factory that remembers every instance it made and what each saw, so tests can check
 * routing and order from the outside. Reading after `finish` is safe: the instances' last calls
 * happen before the finish future resolves.
 */
final class Recording[E] {
  final class Rec(val id: Int) extends Checker[E] {
    val seen = new ArrayBuffer[E]
    @volatile var ended = 0
    @volatile var seenWhenEnded = -1
    def name = "rec"
    def verify(e: E): Unit = seen += e
    def end(): Unit = { ended += 1; seenWhenEnded = seen.size }
    def violations: Seq[Finding] = Nil
  }
  private[this] val ids = new AtomicInteger
  private[this] val made = new ConcurrentLinkedQueue[Rec]
  val factory: Checker.Factory[E] = () => { val r = new Rec(ids.incrementAndGet()); made.add(r); r }
  def instances: List[Rec] = made.asScala.toList
}

object TestSupport {
  def withRuntime[A](f: CogRuntime => A): A = {
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 2\ncogs.executor.thread-name-prefix = test-monitor")
    try f(rt) finally rt.close()
  }

  def chain[E <: AnyRef](rt: CogRuntime, specs: Seq[MonitorSpec[E]], settings: SinkSettings[E] = SinkSettings[E](),
                         collector: StatsCollector = null): Chain[E] =
    new Chain[E]("test", specs, settings, rt, collector)

  def evSpec(kind: DispatchKind, make: Checker.Factory[Ev], poolSize: Int = 4, assign: Assign = Assign.RoundRobin,
             unkeyed: Unkeyed = Unkeyed.Skip, name: String = "m"): MonitorSpec[Ev] =
    MonitorSpec(name, make, DispatchSettings[Ev](kind, e => e.key, e => e.last, poolSize, assign, unkeyed))

  /** `n` events for each of `keys` keys, interleaved, from one emitter. */
  def interleaved(keys: Int, n: Int): Vector[Ev] = {
    var seq = 0L
    (for (i <- 0 until n; k <- 0 until keys) yield { seq += 1; Ev("e", seq, s"k$k") }).toVector
  }

  /** Trace events built by hand (the runtime is not needed: ObjRef and FutRef can be made by any consumer of the SPI). */
  final class Objects {
    private[this] var nextObj = 0L
    private[this] var nextFut = 0L
    private[this] val seqs = scala.collection.mutable.Map.empty[ObjRef, Long]
    def obj(cls: String): ObjRef = { nextObj += 1; new ObjRef(cls, nextObj) }
    def fut(): FutRef = { nextFut += 1; new FutRef(nextFut) }
    private def seq(o: ObjRef): Long = { val s = seqs.getOrElse(o, 0L) + 1; seqs(o) = s; s }
    def call(from: ObjRef, to: ObjRef, method: String, args: Any*): CallSent =
      CallSent(from, seq(from), System.nanoTime(), to, method, args.toVector, fut())
    def started(o: ObjRef, method: String, f: FutRef): Started = Started(o, seq(o), System.nanoTime(), method, f)
    def completed(o: ObjRef, method: String, f: FutRef, v: Any): Completed = Completed(o, seq(o), System.nanoTime(), method, f, v, null)
    def resolved(o: ObjRef, f: FutRef, v: Any): FutureResolved = FutureResolved(o, seq(o), System.nanoTime(), f, v, null)
    def created(o: ObjRef, child: ObjRef): Created = Created(o, seq(o), System.nanoTime(), child, newCog = true)
    def user(o: ObjRef, name: String, payload: Any*): User = User(o, seq(o), System.nanoTime(), name, payload.toVector)
  }

  /**
   * A property for the report tests: every call to a method named `method` (a parameter) must have
   * its future resolved before the end of the trace. Indexes internally by future, so any dispatch works.
   */
  final class Answered(name0: String, method: String) extends Checker[TraceEvent] {
    private[this] val open = new java.util.LinkedHashMap[FutRef, (Long, String)]
    private[this] var n = 0L
    private[this] val found = Vector.newBuilder[Finding]
    def name: String = name0
    def verify(e: TraceEvent): Unit = {
      n += 1
      e match {
        case c: CallSent if c.method == method => open.put(c.fut, (n, c.toString))
        case r: FutureResolved                 => open.remove(r.fut)
        case _                                 => ()
      }
    }
    def end(): Unit = open.forEach { (f, at) =>
      found += Finding(name0, s"call ${method} with $f was never answered", 0L, List(s"#${at._1} ${at._2}"))
    }
    def violations: Seq[Finding] = found.result()
  }

  def answeredFactory: (String, Config) => Checker[TraceEvent] =
    (name, params) => new Answered(name, if (params.hasPath("method")) params.getString("method") else "request")
}

/** A checker named by class in configuration tests (public, no-arg constructor). */
final class CountingChecker extends Checker[TraceEvent] {
  var n = 0L
  def name = "counting"
  def verify(e: TraceEvent): Unit = n += 1
  def end(): Unit = ()
  def violations: Seq[Finding] = Nil
}

/** A class with a Config constructor. */
final class ConfiguredChecker(config: Config) extends Checker[TraceEvent] {
  val limit: Int = if (config.hasPath("limit")) config.getInt("limit") else 1
  private[this] var n = 0
  private[this] val found = Vector.newBuilder[Finding]
  def name = "configured"
  def verify(e: TraceEvent): Unit = { n += 1; if (n == limit + 1) found += Finding(name, s"more than $limit events", n.toLong, List(e.toString)) }
  def end(): Unit = ()
  def violations: Seq[Finding] = found.result()
}

/** Not a Checker. */
final class NotAChecker

/** A key function named by class. */
final class ClassKey extends (TraceEvent => Any) {
  def apply(e: TraceEvent): Any = e.obj.cls
}
