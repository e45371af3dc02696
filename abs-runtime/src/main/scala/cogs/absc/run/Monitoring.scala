package cogs.absc.run

import java.io.PrintStream

import com.typesafe.config.{ConfigFactory, ConfigParseOptions}

import cogs.monitor.pipeline.{Pipeline, PipelineConfig, PropertyRegistry, SummaryTarget}
import cogs.runtime.CogRuntime

/**
 * A program compiled with `--monitor` runs on a traced runtime whose events feed the pipeline
 * described by the embedded configuration; after the program, the pipeline's verdicts decide
 * whether the run passed.
 *
 * @param summaryHere print the summary on the runner's error stream (the configuration asked for
 *                    standard error: inside `absc run` that is absc's stream, not the JVM's)
 */
private[absc] final class Monitoring private (pipeline: Pipeline, val runtime: CogRuntime, summaryHere: Boolean, maxViolations: Int) {
  /**
   * Called after the program's runtime was closed (so every event has been emitted): delivers
   * what is still buffered, ends the monitors, writes the configured reports.
   */
  def finish(err: PrintStream): Monitoring.Verdict = {
    val report = pipeline.finish()
    if (summaryHere) { err.print(report.summary(maxViolations)); err.flush() }
    if (report.ok) Monitoring.Verdict(violated = false, "")
    else {
      val n = report.violations
      Monitoring.Verdict(violated = true, s"${if (n == 1) "1 property violation" else s"$n property violations"} (see the monitor report)")
    }
  }
}

private[absc] object Monitoring {
  final case class Verdict(violated: Boolean, headline: String)

  /** The pipeline of `configText` (HOCON), monitor classes loaded by `loader`, and a runtime traced into it. */
  def start(configText: String, loader: ClassLoader): Monitoring = {
    val config = ConfigFactory.parseString(configText, ConfigParseOptions.defaults().setOriginDescription("the monitor configuration"))
    val settings = PipelineConfig.parse(config, PropertyRegistry.default, loader)
    val toErr = settings.output.summary == SummaryTarget.Stderr
    val pipeline = Pipeline(if (toErr) settings.copy(output = settings.output.copy(summary = SummaryTarget.None)) else settings)
    new Monitoring(pipeline, CogRuntime.withTracing(pipeline.tracing), toErr, settings.output.maxViolations)
  }
}
