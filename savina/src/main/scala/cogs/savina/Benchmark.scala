package cogs.savina

import cogs.monitor.pipeline.{Pipeline, Report => MonitorReport}
import cogs.runtime.CogRuntime
import cogs.trace.{ObjRef, Tracer, Tracing}
import com.typesafe.config.{Config, ConfigFactory}
import java.nio.file.Path
import org.apache.pekko.actor.ActorSystem

/** A benchmark's answer differed from the independently computed one. */
final class VerificationFailed(message: String) extends RuntimeException(message)

/**
 * One timed, verified run of one benchmark on one runtime.
 *
 * @param nanos  the time of the implementation alone: from before its first object or actor is
 *               created until its answer is in hand and every object or actor it created has
 *               finished (Cogs: the main block's runtime is quiescent; Pekko: every actor stopped),
 *               as Savina's runner measures it. Computing the expected answer and comparing are
 *               not included.
 * @param answer the verified answer, for people
 */
final case class Result(benchmark: String, runtime: String, quick: Boolean, nanos: Long, answer: String,
                        monitor: Option[MonitoredIteration] = None) {
  def millis: Double = nanos / 1e6
}

/**
 * What the monitor pipeline said about one iteration (`--monitor`): the program's own time (until
 * its answer was in hand), the events the monitors checked, whether the trace was sound (nothing
 * lost, every object's events complete and in order) and the violations found. The iteration's
 * `nanos` includes finishing the pipeline: the time until every event was checked.
 */
final case class MonitoredIteration(programNanos: Long, events: Long, sound: Boolean, violations: Int, summary: String) {
  def ok: Boolean = sound && violations == 0
}

/**
 * Monitoring for a JVM's Cogs runtime: one `Tracing`, installed when the runtime is created, in
 * front of a fresh [[Pipeline]] per iteration.
 *
 * Why a pipeline per iteration: its verdicts, sequence check and finish then belong to one run,
 * and finishing it (delivering the backlog, ending the monitors) can be timed with that run, so an
 * outline pipeline's lag is not pushed into the next iteration or left out. Why one runtime: a
 * monitored run then differs from a plain one by monitoring alone, not by a fresh runtime (cold
 * threads) as well. This works because every benchmark creates its objects afresh in each
 * iteration, and an object's tracer is chosen when it is created: each object reports to the
 * pipeline of the iteration that made it. The one object older than every iteration, `outside`
 * (calls from outside every process), is therefore never traced here.
 */
final class IterationMonitor(file: Path) {
  private[this] val config: Config = ConfigFactory.parseFile(file.toFile).withFallback(ConfigFactory.load())
  // Parse now, so that a bad file fails before the first iteration and names its line.
  Pipeline.fromConfig(config).finish()
  @volatile private[this] var current: Pipeline = _

  val tracing: Tracing = new Tracing {
    def observes(cls: String): Boolean = (cls != ObjRef.OutsideClass) && (current ne null) && current.tracing.observes(cls)
    override def observesMethod(cls: String, method: String): Boolean = current.tracing.observesMethod(cls, method)
    override def timestamps: Boolean = (current eq null) || current.tracing.timestamps
    def tracerFor(obj: ObjRef, creator: ObjRef, creatorTracer: Tracer): Tracer = current.tracing.tracerFor(obj, creator, creatorTracer)
  }

  /** Before an iteration's clock starts: its pipeline (and the pipeline's own runtime). */
  def begin(): Unit = current = Pipeline.fromConfig(config)

  /** After the program's answer is in hand, inside the clock: deliver, check, end the monitors. */
  def end(): MonitorReport = current.finish()
}

/** The runtimes a JVM keeps for all the iterations it runs: created on first use, closed at the end. */
final class Runtimes(val threads: Int, monitorFile: Option[Path] = None) extends AutoCloseable {
  require(threads >= 1, s"threads must be at least 1, got $threads")
  private[this] var cogsRt: CogRuntime = _
  private[this] var pekkoSys: ActorSystem = _

  /** Monitoring of the Cogs runtime, with `--monitor`. */
  val monitor: Option[IterationMonitor] = monitorFile.map(new IterationMonitor(_))

  /** A Cogs runtime with `threads` workers (`cogs.executor.parallelism`), other keys at their defaults; traced with `--monitor`. */
  def cogs: CogRuntime = synchronized {
    if (cogsRt eq null) cogsRt = monitor match {
      case None    => CogRuntime.withOverrides(s"cogs.executor.parallelism = $threads")
      case Some(m) => CogRuntime.withTracing(m.tracing, ConfigFactory.parseString(s"cogs.executor.parallelism = $threads").withFallback(ConfigFactory.load()))
    }
    cogsRt
  }

  /** A Pekko actor system whose default dispatcher has `threads` threads (see [[PekkoSupport]]). */
  def pekko: ActorSystem = synchronized {
    if (pekkoSys eq null) pekkoSys = PekkoSupport.newSystem(threads)
    pekkoSys
  }

  def close(): Unit = synchronized {
    if (cogsRt ne null) { cogsRt.close(); cogsRt = null }
    if (pekkoSys ne null) { PekkoSupport.terminate(pekkoSys); pekkoSys = null }
  }
}

object Runtimes {
  /** The runtimes a benchmark can run on, in the order the harness and its reports use. */
  val names: List[String] = List("cogs", "pekko")

  /** One worker thread per available processor, for both runtimes. */
  def defaultThreads: Int = Runtime.getRuntime.availableProcessors
}

/**
 * A Savina benchmark: its name in the suite, its parameters, and one implementation per runtime.
 * [[run]] runs one iteration and checks the answer against an expected one computed
 * independently of both implementations (sequentially, or from a known closed form).
 */
trait Benchmark {
  /** Savina's short name, e.g. `nqueenk`: the folder of the benchmark in the Savina repository. */
  def name: String

  /** What it is, e.g. `N-Queens (first K solutions)`. */
  def title: String

  /** The parameters of the full run (Savina's defaults) or the quick one, for people. */
  def describe(quick: Boolean): String

  /** Run one iteration on `runtime` (`cogs` or `pekko`) and verify its answer; throws [[VerificationFailed]] if wrong. */
  def run(runtime: String, quick: Boolean, env: Runtimes): Result
}

/**
 * The usual shape of a benchmark: a case class `P` of parameters with Savina's defaults and a
 * quick set, an answer of type `A`, its expected value, and the two implementations.
 */
abstract class SavinaBenchmark[P, A] extends Benchmark {
  /** Savina's default parameters. */
  def defaults: P

  /** Parameters that run in well under a second on either runtime (tests, `--quick`). */
  def quick: P

  /** The right answer for `p`, computed without either runtime. */
  def expected(p: P): A

  def runCogs(rt: CogRuntime, p: P): A
  def runPekko(system: ActorSystem, p: P): A

  /** None when `actual` is right; otherwise what is wrong. Override for answers with tolerances. */
  def check(p: P, expected: A, actual: A): Option[String] =
    if (expected == actual) None else Some(s"expected ${show(expected)}, got ${show(actual)}")

  /** The answer for people. */
  def show(a: A): String = a match {
    case arr: Array[_] => arr.mkString("[", ", ", "]")
    case other         => String.valueOf(other)
  }

  final def params(quick: Boolean): P = if (quick) this.quick else defaults

  def describe(quick: Boolean): String = params(quick).toString

  // Expected answers are computed once per parameter set per JVM.
  private[this] val expectedCache = new java.util.concurrent.ConcurrentHashMap[Any, Any]()

  final def expectedFor(p: P): A =
    expectedCache.computeIfAbsent(p, _ => expected(p)).asInstanceOf[A]

  final def run(runtime: String, quick: Boolean, env: Runtimes): Result = {
    val p = params(quick)
    val exp = expectedFor(p)
    // The runtime exists before the clock starts (creating an actor system takes a while).
    val impl: () => A = runtime match {
      case "cogs"  => val rt = env.cogs; () => runCogs(rt, p)
      case "pekko" => val sys = env.pekko; () => runPekko(sys, p)
      case other   => throw new IllegalArgumentException(s"unknown runtime '$other' (known: ${Runtimes.names.mkString(", ")})")
    }
    val monitor = if (runtime == "cogs") env.monitor else None
    monitor.foreach(_.begin())
    val start = System.nanoTime()
    val actual = impl()
    val program = System.nanoTime() - start
    val report = monitor.map(_.end())
    val nanos = System.nanoTime() - start
    check(p, exp, actual).foreach { problem =>
      throw new VerificationFailed(s"$name on $runtime${if (quick) " (quick)" else ""} gave a wrong answer: $problem (parameters $p)")
    }
    Result(name, runtime, quick, nanos, show(actual),
      report.map(r => MonitoredIteration(program, r.delivered, r.sound, r.violations, r.summary())))
  }
}
