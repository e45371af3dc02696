package cogs.absc.run

import java.io.PrintStream

import cogs.runtime.CogRuntime

/**
 * A run under the monitor pipeline (a program compiled with `--monitor`), as the runner sees it.
 * This module has neither the pipeline nor the session checker: they live in the module
 * `cogs-abs-monitoring` (`cogs.absc.monitoring`), found with `java.util.ServiceLoader` only when a
 * program embeds a monitor configuration, as [[ModelApi]] finds the Model API. A model compiled
 * without `--monitor` (every packaged one) carries none of it.
 */
trait MonitoredRun {
  /** The traced runtime the program runs on; its events feed the pipeline. */
  def runtime: CogRuntime

  /**
   * Called after the program's runtime was closed (every event emitted): ends the monitors and
   * the sessions, writes the configured reports, and says whether the run is to fail.
   */
  def finish(err: PrintStream): MonitoredRun.Verdict
}

object MonitoredRun {

  /** The artifact that implements monitored runs, for the messages that ask for it. */
  final val Module = "cogs-abs-monitoring"

  /** `violated`: the run fails with exit status 3 (`ProgramRunner.ExitMonitor`), `headline` says why. */
  final case class Verdict(violated: Boolean, headline: String)

  /** Starts monitored runs; implemented by `cogs-abs-monitoring`. */
  trait Provider {
    /**
     * The pipeline of `configText` (HOCON, as absc embedded it), monitor classes loaded by
     * `loader`, and a runtime traced into it whose program context is `context`. Throws on a bad
     * configuration or a monitor class that is not there (the user's input).
     */
    def start(configText: String, loader: ClassLoader, context: RunContext): MonitoredRun
  }

  /**
   * The session protocols of a run, as the runner sees them ([[RunContext.sessions]]): the main
   * block's process takes the roles bound to `main` before the block runs.
   */
  trait Sessions {
    def mainBlockStarted(): Unit
  }

  /** The provider on `loader`'s class path, or why there is none (said to the user as it is). */
  def provider(loader: ClassLoader): Either[String, Provider] = {
    val it = java.util.ServiceLoader.load(classOf[Provider], loader).iterator()
    if (it.hasNext) Right(it.next())
    else Left(s"this program was compiled with a monitor configuration (--monitor) and needs the module $Module, " +
      s"which is not on its class path: run it with 'absc run --monitor', or add $Module and its dependencies " +
      "(cogs-monitor, cogs-session) to the class path")
  }
}
