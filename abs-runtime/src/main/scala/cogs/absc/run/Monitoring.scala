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
private[absc] final class Monitoring private (pipeline: Pipeline, val runtime: CogRuntime, summaryHere: Boolean, maxViolations: Int,
    sessions: Option[AbsSessions], json: Option[java.nio.file.Path]) {
  /**
   * Called after the program's runtime was closed (so every event has been emitted): delivers
   * what is still buffered, ends the monitors, writes the configured reports.
   */
  def finish(err: PrintStream): Monitoring.Verdict = {
    val report = pipeline.finish()
    if (summaryHere) { err.print(report.summary(maxViolations)); err.flush() }
    // The sessions' report comes after the pipeline's, on the runner's error stream, and its JSON
    // lines are appended to the pipeline's file (which pipeline.finish has just written).
    val sessionOutcome = sessions.map { s =>
      AbsSessions.uninstall()
      val o = s.finish()
      err.print(o.summary); err.flush()
      json.foreach { p =>
        try java.nio.file.Files.write(p, o.jsonLines.mkString("", "\n", "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8),
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)
        catch { case e: java.io.IOException => err.println(s"absc: the sessions' JSON lines could not be written to $p: $e") }
      }
      o
    }
    val sessionProblems = sessionOutcome.filter(_.failed).map(o =>
      s"${o.violations} session violation(s), ${o.unfinished} role(s) not finished (see the sessions report)")
    if (report.ok && sessionProblems.isEmpty) Monitoring.Verdict(violated = false, "")
    else {
      val n = report.violations
      val props = if (n == 0) None else Some(s"${if (n == 1) "1 property violation" else s"$n property violations"} (see the monitor report)")
      Monitoring.Verdict(violated = true, (props.toList ++ sessionProblems).mkString("; "))
    }
  }
}

private[absc] object Monitoring {
  final case class Verdict(violated: Boolean, headline: String)

  /** The pipeline of `configText` (HOCON), monitor classes loaded by `loader`, and a runtime traced into it. */
  def start(configText: String, loader: ClassLoader): Monitoring = {
    val full = ConfigFactory.parseString(configText, ConfigParseOptions.defaults().setOriginDescription("the monitor configuration"))
    // The sessions section (protocol texts embedded by absc) is ours; the pipeline rejects keys it does not know.
    val entries = SessionConfig.parse(full, "the monitor configuration", None)
    val config = SessionConfig.withoutSessions(full)
    val settings = PipelineConfig.parse(config, PropertyRegistry.default, loader)
    val toErr = settings.output.summary == SummaryTarget.Stderr
    val pipeline = Pipeline(if (toErr) settings.copy(output = settings.output.copy(summary = SummaryTarget.None)) else settings)
    val sessions = if (entries.isEmpty) None else Some(new AbsSessions(entries))
    sessions.foreach(AbsSessions.install)
    new Monitoring(pipeline, CogRuntime.withTracing(pipeline.tracing), toErr, settings.output.maxViolations, sessions,
      settings.output.json)
  }
}
