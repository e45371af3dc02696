package cogs.bench.monitor

import cogs.monitor.Monitor
import cogs.monitor.pipeline.{Pipeline, Report}
import cogs.runtime._
import cogs.trace.{FutRef, ObjRef, TraceEvent}
import cogs.trace.TraceEvent.{Completed, Started}
import com.typesafe.config.{Config, ConfigFactory, ConfigValueFactory}
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.LockSupport

/**
 * A worker of the RIARC-shaped system: serves a batch of requests, one at a time (each a little
 * arithmetic), then is released by `finish`. Each worker lives in a COG of its own.
 */
final class Worker(work: Int) extends ActiveObject {
  private[this] var x = 0x9E3779B97F4A7C15L
  private[this] var served = 0

  def request(i: Int): Proc[Long] = {
    var k = 0
    while (k < work) { x ^= x << 13; x ^= x >>> 7; x ^= x << 17; k += 1 }
    served += 1
    Proc.done(x + i)
  }

  def finish(): Proc[Int] = Proc.done(served)
}

/**
 * RIARC's master: on each `spawn` (one per arriving client, sent by the load generator) it creates
 * a worker, sends it the whole batch of requests at once, awaits the answers in order (serving other
 * spawns meanwhile: one process per worker), then releases the worker. The response time of each
 * request, from just before its call to the moment the master sees its answer, goes to `latencies`
 * (written by the master's COG alone, one process at a time).
 */
final class Master(batch: Int, work: Int, latencies: Array[Long]) extends ActiveObject {
  private[this] var recorded = 0
  private[this] var released = 0

  def spawn(): Proc[Unit] = {
    val w = Cogs.spawn(new Worker(work))
    val sent = new Array[Long](batch)
    val futs = new Array[Fut[Long]](batch)
    var i = 0
    while (i < batch) {
      sent(i) = System.nanoTime()
      val n = i
      futs(i) = w.send("request")(_.request(n))
      i += 1
    }
    Proc.repeat(batch) { j =>
      Proc.await(futs(j)).map { _ =>
        latencies(recorded) = System.nanoTime() - sent(j)
        recorded += 1
      }
    }.flatMap(_ => Proc.await(w.send("finish")(_.finish()))).map { served =>
      if (served != batch) throw new IllegalStateException(s"a worker served $served of $batch requests")
      released += 1
    }
  }

  def counts(): Proc[(Int, Int)] = Proc.done((recorded, released))
}

/**
 * The property each worker's trace must satisfy: it runs one request at a time, every request it
 * starts completes without failure, and when it is released (`finish` starts) it has served exactly
 * `batch` requests. Obligations are hot: a worker whose later events never reached the monitor
 * (its trace truncated) leaves a `Serving` or `Running` state open at the end, a violation, so
 * the property checks the tail of each worker's trace where the sequence numbers cannot (a gap is
 * visible only before an event that arrived).
 *
 * It looks at one worker's own events only (Started and Completed on the worker), so every mode can
 * check it, decentralised included, where each worker's events go to a chain of its own and its
 * caller's `CallSent` to another (`call-answered` relates the two, so it cannot be checked there).
 * Indexed by worker; the patterns compare the worker, so it means the same unindexed.
 */
final class RequestsServed(config: Config) extends Monitor[TraceEvent]("requests-served") {
  private[this] val batch = config.getInt("batch")

  case class Serving(w: ObjRef, served: Int) extends State {
    hot {
      case Started(`w`, _, _, "request", f) => Running(w, served, f)
      case Started(`w`, _, _, "finish", _)  => if (served == batch) ok else error(s"$w released after $served of $batch requests")
    }
  }

  case class Running(w: ObjRef, served: Int, f: FutRef) extends State {
    hot {
      case Started(`w`, _, _, m, _) => error(s"$w started $m while request $f runs")
      case Completed(`w`, _, _, "request", `f`, _, failure) =>
        if (failure eq null) Serving(w, served + 1) else error(s"request $f of $w failed: $failure")
    }
  }

  always {
    case Started(w, _, _, "request", f) if !exists { case Serving(`w`, _) => true; case Running(`w`, _, _) => true } =>
      Running(w, 0, f)
  }

  override protected def relevant(e: TraceEvent): Boolean =
    (e.obj.cls eq RequestsServed.WorkerClass) && (e.isInstanceOf[Started] || e.isInstanceOf[Completed])
  override protected def indexKey(e: TraceEvent): Any = e.obj
}

object RequestsServed {
  // Trace names are the classes' simple names; interned literals, so `eq` is enough for the filter.
  final val WorkerClass = "Worker"
}

/** The dispatch key of the RIARC configuration: the worker that emitted the event; other objects' events have none. */
final class WorkerKey extends (TraceEvent => Any) {
  def apply(e: TraceEvent): Any = if (e.obj.cls == RequestsServed.WorkerClass) e.obj else null
}

/**
 * One RIARC-shaped run: a load generator thread (RIARC's BenchCRV) sends `spawn` to the master at
 * the arrival times of a profile; each spawn creates a worker that serves a batch of requests.
 * Monitoring is off (`none`) or one of the pipeline's three modes, configured by the resource
 * `monitoring/riarc.conf` (its `mode` set per run), with the sequence check on.
 */
object Riarc {

  final case class Params(workers: Int = 2000, batch: Int = 100, loadSeconds: Double = 3.0, work: Int = 100, seed: Long = 1234L)

  val modes: List[String] = List("none", "inline", "centralised", "decentralised")
  val profiles: List[String] = List("steady", "pulse", "burst")

  /**
   * Arrival times (nanoseconds from the start, sorted) of `p.workers` workers over `p.loadSeconds`:
   *  - steady: a Poisson process of rate workers / loadSeconds (exponential gaps);
   *  - pulse: normal around the middle of the window, sigma = window / 8 (a rise and a fall);
   *  - burst: log-normal with median window / 20 and sigma 1 (most arrive in the first few tenths
   *    of a second, a tail follows), cut at the window's end.
   * RIARC's Table 4 parametrises the same three shapes (rate, spread, pinch).
   */
  def arrivals(profile: String, p: Params): Array[Long] = {
    val rnd = new java.util.Random(p.seed)
    val t = p.loadSeconds * 1e9
    val xs: Array[Double] = profile match {
      case "steady" =>
        var now = 0.0
        Array.fill(p.workers) { now += -math.log(1 - rnd.nextDouble()) * t / p.workers; now }
      case "pulse" => Array.fill(p.workers)(t / 2 + rnd.nextGaussian() * t / 8)
      case "burst" => Array.fill(p.workers)(math.exp(math.log(t / 20) + rnd.nextGaussian()))
      case other   => throw new IllegalArgumentException(s"unknown profile '$other' (known: ${profiles.mkString(", ")})")
    }
    val out = xs.map(x => math.max(0.0, math.min(t, x)).toLong)
    java.util.Arrays.sort(out)
    out
  }

  /** The monitor configuration of a mode (from the resource, with the batch size as the property's parameter). */
  def config(mode: String, p: Params): Config = {
    val base = ConfigFactory.parseResources(getClass.getClassLoader, "monitoring/riarc.conf")
    if (base.isEmpty) throw new IllegalStateException("resource monitoring/riarc.conf not found")
    val modeName = mode match {
      case "inline"        => "inline"
      case "centralised"   => "outline-centralised"
      case "decentralised" => "outline-decentralised"
      case other           => throw new IllegalArgumentException(s"unknown mode '$other' (known: ${modes.mkString(", ")})")
    }
    val withMode = base.withValue("cogs.monitor.mode", ConfigValueFactory.fromAnyRef(modeName))
    // The monitor entry's parameters: the batch its property checks against.
    val monitors = withMode.getConfigList("cogs.monitor.monitors")
    val entries = new java.util.ArrayList[Object]
    monitors.forEach(m => entries.add(m.withValue("batch", ConfigValueFactory.fromAnyRef(Int.box(p.batch))).root.unwrapped))
    withMode.withValue("cogs.monitor.monitors", ConfigValueFactory.fromIterable(entries)).withFallback(ConfigFactory.load())
  }

  final case class Outcome(programNanos: Long, latencies: Array[Long], report: Option[Report]) {
    def events: Long = report.map(_.delivered).getOrElse(0L)
    def problem: Option[String] = report.flatMap { r =>
      if (!r.sound) Some(s"trace not sound: losses ${r.losses}, order ${r.order.missing} missing / ${r.order.disordered} disordered")
      else if (!r.ok) Some(s"${r.violations} violations: ${r.verdicts.take(3).map(_.finding.message).mkString("; ")}")
      else None
    }
  }

  /** The runtime and pipeline for one run; created before the clock starts. */
  final class Setup(mode: String, p: Params) {
    val pipeline: Option[Pipeline] = if (mode == "none") None else Some(Pipeline.fromConfig(config(mode, p)))
    val rt: CogRuntime = pipeline match {
      case Some(pl) => CogRuntime.withTracing(pl.tracing)
      case None     => CogRuntime()
    }
    val latencies = new Array[Long](p.workers * p.batch)
    val master: Master = rt.spawn(new Master(p.batch, p.work, latencies))
  }

  /** Run the load of `arrivals` through `s`: until the program is quiescent, then until the pipeline finished. */
  def run(s: Setup, arrivals: Array[Long], p: Params): Outcome = {
    val t0 = System.nanoTime()
    var k = 0
    while (k < arrivals.length) {
      val due = t0 + arrivals(k)
      var now = System.nanoTime()
      while (due - now > 0) { LockSupport.parkNanos(due - now); now = System.nanoTime() }
      s.master.send("spawn")(_.spawn())
      k += 1
    }
    if (!s.rt.awaitQuiescence(10, TimeUnit.MINUTES)) throw new IllegalStateException("the program did not finish in 10 minutes")
    val program = System.nanoTime() - t0
    // Before finish: the call's events are then part of the checked trace, not late ones.
    val (recorded, released) = s.master.send("counts")(_.counts()).join()
    val report = s.pipeline.map(_.finish())
    if (recorded != s.latencies.length || released != p.workers)
      throw new IllegalStateException(s"$released of ${p.workers} workers released, $recorded of ${s.latencies.length} answers")
    Outcome(program, s.latencies, report)
  }
}
