package cogs.monitor.pipeline

import cogs.runtime.CogRuntime
import cogs.trace.{ObjRef, TraceEvent, Tracer, Tracing}
import com.typesafe.config.{Config, ConfigFactory}
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.util.concurrent.atomic.LongAdder

/** A tracer that hands events to a sink; `owner` tells a pipeline its own tracers from others. */
final class SinkTracer private[pipeline] (val sink: EventSink[TraceEvent], private[pipeline] val owner: AnyRef) extends Tracer {
  def event(e: TraceEvent): Unit = sink.emit(e)
  override def toString: String = s"tracer ${sink.name}"
}

/**
 * A runtime-verification pipeline built from configuration: the [[Tracing]] to install in the
 * observed runtime, the sinks (inline, or buffers with dispatcher and monitor actors) behind it,
 * and [[finish]], which delivers what is buffered, ends the monitors and writes the reports.
 *
 * {{{
 * val pipeline = Pipeline.fromConfig(ConfigFactory.parseFile(new File("monitor.conf")).withFallback(ConfigFactory.load()))
 * val rt = CogRuntime().withTracing(pipeline.tracing)   // or however the runtime installs a Tracing
 * rt.run { ... }
 * val report = pipeline.finish()
 * sys.exit(report.exitStatus)
 * }}}
 *
 * == Why the pipeline has a runtime of its own ==
 * Dispatchers and monitor actors are Cogs actors, but never in the observed runtime:
 *  - quiescence: the observed runtime's `run`/`awaitQuiescence` wait until nothing is scheduled;
 *    monitors still working through a backlog would keep the program "busy", and the program's
 *    deadlock report would list monitor actors as waiting processes;
 *  - tracing: the observed runtime traces what it runs; monitor actors there would emit events
 *    about themselves into their own buffers (events to monitors about monitoring, without end);
 *  - threads: under backpressure the observed program's threads wait for buffer room; if the
 *    dispatcher needed one of those same threads to make room, a full buffer would stop both.
 *    With its own executor the pipeline always has threads to drain with;
 *  - lifetime: the pipeline is finished (and its runtime closed) after the program, on its own terms.
 * Emitting threads reach it by ordinary asynchronous calls: a Cogs call into another runtime's
 * object is queued on that object's COG and scheduled on that runtime's executor.
 *
 * == Decentralised tracing and sound traces ==
 * RIARC attaches tracers to processes after the fact and must re-route events that reached the
 * wrong tracer meanwhile. Cogs chooses an object's tracer synchronously when the object is created
 * ([[Tracing.tracerFor]]), before it can emit anything, and never changes it. So each object's
 * whole trace goes to one buffer, from its first event, in its own order: every chain's trace is
 * sound for the objects it traces (checked by the sequence numbers, see `check-sequence`). What a
 * chain does not see are other chains' objects; a property over objects of two chains cannot be
 * checked there. The `Created` event of an object that starts a chain belongs to its creator's
 * trace (it is the creator's action) and goes to the creator's chain.
 */
final class Pipeline private (val settings: PipelineSettings) {
  private[this] val specs: Seq[MonitorSpec[TraceEvent]] = settings.monitors.map(_.spec)
  private[this] val collector = new StatsCollector(settings.statistics.maxActorLines)
  private[this] val runtime: CogRuntime =
    if (settings.mode == Mode.Inline) null
    else CogRuntime(ConfigFactory.empty().withValue("cogs", settings.runtime.root))
  private[this] val sinks = new java.util.concurrent.ConcurrentLinkedQueue[EventSink[TraceEvent]]
  private[this] val lateAfterFinish = new LongAdder
  @volatile private[this] var finishing = false
  @volatile private[this] var report: Report = _

  private def sinkSettings(capacity: Int): SinkSettings[TraceEvent] = SinkSettings[TraceEvent](
    capacity = capacity,
    overload = settings.overload,
    batch = settings.batch,
    order = if (settings.checkSequence) () => new OrderCheck[TraceEvent](_.obj, _.seq) else null,
    eventTime = _.nanos,
    stats = settings.statistics,
    finishTimeoutNanos = settings.finishTimeoutNanos,
    maxDelayNanos = settings.maxDelayNanos)

  private def newSink(name: String, capacity: Int): Tracer = synchronized {
    if (finishing) Pipeline.lateTracer(lateAfterFinish)
    else {
      val sink: EventSink[TraceEvent] =
        if (settings.mode == Mode.Inline) new InlineSink[TraceEvent](name, specs, sinkSettings(capacity))
        else new Chain[TraceEvent](name, specs, sinkSettings(capacity), runtime, collector)
      sinks.add(sink)
      new SinkTracer(sink, this)
    }
  }

  private[this] val main: Tracer = settings.mode match {
    case Mode.Inline        => newSink("inline", settings.capacity)
    case Mode.Centralised   => newSink("central", settings.capacity)
    case Mode.Decentralised => newSink("root", settings.decentralisedCapacity)
  }

  // Events need a time only for the dispatchers' emission-to-dispatch statistic and for monitors
  // that may read it; otherwise the runtime is spared a clock read per event (events carry 0).
  private[this] val needsTime: Boolean = settings.statistics.dispatcher || settings.monitors.exists(_.timed)

  /** The [[Tracing]] to install in the observed runtime. Its `close` finishes the pipeline, if not done yet. */
  val tracing: Tracing = new Tracing {
    override def timestamps: Boolean = needsTime
    def observes(cls: String): Boolean = settings.observe.observes(cls)
    override def observesMethod(cls: String, method: String): Boolean = settings.observe.observesMethod(cls, method)

    def tracerFor(obj: ObjRef, creator: ObjRef, creatorTracer: Tracer): Tracer =
      if (settings.mode != Mode.Decentralised) main
      else if (settings.ownTracer(obj.cls)) newSink(obj.toString, settings.decentralisedCapacity)
      else if (creator eq null) main
      else creatorTracer match {
        case t: SinkTracer if t.owner eq Pipeline.this => t
        case _                                          => main
      }

    override def close(): Unit = { finish(); () }
  }

  /** The chains (or the inline sink) created so far. */
  def sinkNames: Seq[String] = { import scala.jdk.CollectionConverters._; sinks.asScala.toList.map(_.name) }

  /** Every route's state now, after the sinks delivered what they hold. For tests and tools. */
  def status(): Seq[(String, Vector[RouteStatus])] = { import scala.jdk.CollectionConverters._; sinks.asScala.toList.map(s => s.name -> s.status()) }

  /**
   * Deliver what is buffered, end every monitor, gather verdicts and statistics, write the
   * summary and the JSON lines where configured, and close the pipeline's runtime. Call it after
   * the observed program is done (its events after this are counted as late), from a thread
   * outside every Cogs runtime. A second call returns the same report.
   */
  def finish(): Report = synchronized {
    if (report eq null) {
      finishing = true
      import scala.jdk.CollectionConverters._
      val results = try sinks.asScala.toList.map(_.finish()) finally if (runtime ne null) runtime.close()
      val r = Report.of(settings.mode, settings.monitors, results, lateAfterFinish.sum, collector.result())
      report = r
      write(r)
    }
    report
  }

  /** The report, once [[finish]] made it. */
  def result: Option[Report] = Option(report)

  private def write(r: Report): Unit = {
    val out = settings.output
    out.summary match {
      case SummaryTarget.None    => ()
      case SummaryTarget.Stdout  => System.out.print(r.summary(out.maxViolations)); System.out.flush()
      case SummaryTarget.Stderr  => System.err.print(r.summary(out.maxViolations)); System.err.flush()
      case SummaryTarget.File(p) => writeFile(p, r.summary(out.maxViolations))
    }
    out.json.foreach(p => writeFile(p, r.jsonLines.mkString("", "\n", "\n")))
  }

  private def writeFile(p: java.nio.file.Path, text: String): Unit = {
    val parent = p.toAbsolutePath.getParent
    if (parent ne null) Files.createDirectories(parent)
    Files.write(p, text.getBytes(StandardCharsets.UTF_8))
  }
}

object Pipeline {

  /** From the `cogs.monitor` section of `config` (over reference.conf); throws [[MonitorConfigException]] for a bad one. */
  def fromConfig(config: Config = ConfigFactory.load(), registry: PropertyRegistry = PropertyRegistry.default): Pipeline =
    new Pipeline(PipelineConfig.parse(config, registry))

  /** From settings made in code. */
  def apply(settings: PipelineSettings): Pipeline = {
    if (settings.mode == Mode.Inline)
      settings.monitors.find(m => DispatchKind.needsActors(m.dispatcher.kind)).foreach { m =>
        throw new MonitorConfigException(s"monitor ${m.name}: '${m.dispatcher.kind}' needs monitor actors, which inline mode has not")
      }
    new Pipeline(settings)
  }

  /** Chains asked for after finish began: their events are counted, not checked. */
  private def lateTracer(late: LongAdder): Tracer = new Tracer {
    def event(e: TraceEvent): Unit = late.increment()
  }
}
