package cogs.absc.run

import cogs.absc.lib.{AbsRandom, Identity, Output, Out}
import cogs.absc.modelapi.HttpObjects
import cogs.runtime.CogRuntime

/**
 * What one run of an ABS program keeps for itself: the program context. The runner
 * ([[ProgramRunner]]) makes one for every run, attaches it to the run's [[CogRuntime]]
 * (`CogRuntime.context`) before the first object exists, and the library finds it from any
 * process of the run through [[RunContext.current]] (the runtime of the COG running on this
 * thread): generated code does not pass it around, and nothing of a run lives in a JVM-wide
 * static, so two runs in one JVM (`absc test`, one model after the other) share nothing:
 *
 *  - `output`: where `print`/`println` go ([[cogs.absc.lib.Out]] writes to the current run's);
 *  - `random`: the generator of `random(n)`, seeded or not ([[cogs.absc.lib.AbsRandom]]);
 *  - `identities`: the small numbers that name and order objects ([[cogs.absc.lib.Identity]]);
 *  - `placement`: the deployment components on cluster nodes ([[RemotePlacement]]), if any;
 *  - `sessions`: the session protocols of a monitored run (`cogs.absc.monitoring.AbsSessions`), if any;
 *  - `modelStart`: when the model started (`ms_since_model_start()`);
 *  - `options`: the run's options ([[RunOptions]]: seed, clock limit, schedule file, Model API,
 *    foreign bindings, ...), a value the runner was given or built;
 *  - `httpObjects`: the objects the model named with `[HTTPName]`, which its Model API serves.
 *
 * Code outside every run (a user of the library, its unit tests, `absc explore`, whose controlled
 * runs have no context) gets [[RunContext.outside]], whose output is standard output.
 */
final class RunContext private[absc] (val output: Output, val options: RunOptions) {
  val random: AbsRandom.Source = new AbsRandom.Source(options.seed)
  val httpObjects: HttpObjects = new HttpObjects
  val identities: Identity.Table = new Identity.Table
  @volatile private[absc] var placement: RemotePlacement = _
  @volatile private[absc] var sessions: MonitoredRun.Sessions = _
  @volatile private[absc] var modelStartNanos: Long = System.nanoTime()
}

object RunContext {
  /** The context of code outside every run: standard output, the options of the system properties. */
  lazy val outside: RunContext = new RunContext(Out.stdout, RunOptions.fromSystemProperties())

  /** The context of the run whose process runs on this thread, or [[outside]]. */
  def current: RunContext = CogRuntime.contextHere match {
    case c: RunContext => c
    case _ => outside
  }

  /** The context attached to `rt`, or [[outside]]. */
  private[absc] def of(rt: CogRuntime): RunContext = rt.context match {
    case c: RunContext => c
    case _ => outside
  }
}
