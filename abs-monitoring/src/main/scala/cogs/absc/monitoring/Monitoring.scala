package cogs.absc.monitoring

import java.io.PrintStream

import com.typesafe.config.{ConfigFactory, ConfigParseOptions}

import cogs.monitor.pipeline.{OutputSettings, Pipeline, PipelineConfig, PropertyRegistry, SummaryTarget}
import cogs.absc.run.{MonitoredRun, ProgramRunner, RunContext}
import cogs.runtime.CogRuntime

/**
 * A program compiled with `--monitor` runs on a traced runtime whose events feed the pipeline
 * described by the embedded configuration; after the program, the pipeline's verdicts decide
 * whether the run passed.
 *
 * @param output the configured reports (the pipeline itself was given only those it may write alone)
 */
private[monitoring] final class Monitoring private (pipeline: Pipeline, val runtime: CogRuntime, output: OutputSettings,
    sessions: Option[AbsSessions]) extends MonitoredRun {
  /**
   * Called after the program's runtime was closed (so every event has been emitted): delivers
   * what is still buffered, ends the monitors, writes the configured reports.
   */
  def finish(err: PrintStream): MonitoredRun.Verdict = {
    val report = pipeline.finish()
    // With sessions, the pipeline wrote no report (see start): the run's status is known only once
    // the sessions are ended, and the pipeline's summary and `result` JSON line must give that
    // status, not the properties' alone. The sessions' report follows the pipeline's, on the
    // runner's error stream, and its JSON lines follow the pipeline's in the same file.
    val sessionOutcome = sessions.map { s => AbsSessions.uninstall(runtime); s.finish() }
    val status = if (sessionOutcome.exists(_.failed)) ProgramRunner.ExitMonitor else report.exitStatus
    if (sessions.isEmpty) { if (output.summary == SummaryTarget.Stderr) { err.print(report.summary(output.maxViolations)); err.flush() } }
    else {
      val text = report.summary(output.maxViolations, status)
      output.summary match {
        case SummaryTarget.None    => ()
        case SummaryTarget.Stdout  => System.out.print(text); System.out.flush()
        case SummaryTarget.Stderr  => err.print(text); err.flush()
        case SummaryTarget.File(p) => write(err, p, text, "summary")
      }
      sessionOutcome.foreach { o => err.print(o.summary); err.flush() }
      output.json.foreach(p => write(err, p, (report.jsonLinesWithStatus(status) ++ sessionOutcome.fold(Vector.empty[String])(_.jsonLines)).mkString("", "\n", "\n"), "JSON lines"))
    }
    val sessionProblems = sessionOutcome.filter(_.failed).map(o =>
      s"${o.violations} session violation(s), ${o.unfinished} role(s) not finished (see the sessions report)")
    if (report.ok && sessionProblems.isEmpty) MonitoredRun.Verdict(violated = false, "")
    else {
      val n = report.violations
      val props = if (n == 0) None else Some(s"${if (n == 1) "1 property violation" else s"$n property violations"} (see the monitor report)")
      MonitoredRun.Verdict(violated = true, (props.toList ++ sessionProblems).mkString("; "))
    }
  }

  private def write(err: PrintStream, p: java.nio.file.Path, text: String, what: String): Unit =
    try {
      val parent = p.toAbsolutePath.getParent
      if (parent ne null) java.nio.file.Files.createDirectories(parent)
      java.nio.file.Files.write(p, text.getBytes(java.nio.charset.StandardCharsets.UTF_8))
    } catch { case e: java.io.IOException => err.println(s"absc: the monitor report's $what could not be written to $p: $e") }
}

private[monitoring] object Monitoring {

  /**
   * The pipeline of `configText` (HOCON), monitor classes loaded by `loader`, and a runtime traced
   * into it, whose program context is `context`.
   */
  def start(configText: String, loader: ClassLoader, context: RunContext): Monitoring = {
    val full = ConfigFactory.parseString(configText, ConfigParseOptions.defaults().setOriginDescription("the monitor configuration"))
    // The sessions section (protocol texts embedded by absc) is ours; the pipeline rejects keys it does not know.
    val entries = SessionConfig.parse(full, "the monitor configuration", None)
    val config = SessionConfig.withoutSessions(full)
    val settings = PipelineConfig.parse(config, PropertyRegistry.default, loader)
    val sessions = if (entries.isEmpty) None else Some(new AbsSessions(entries))
    // The summary on standard error is printed by finish (inside `absc run` the runner's stream is
    // not the JVM's); with sessions, finish writes every report (the run's status needs them).
    val output = settings.output
    val pipeline = Pipeline(settings.copy(output =
      if (sessions.nonEmpty) output.copy(summary = SummaryTarget.None, json = None)
      else if (output.summary == SummaryTarget.Stderr) output.copy(summary = SummaryTarget.None)
      else output))
    val rt = context.options.runtimeConfig.fold(CogRuntime.withTracing(pipeline.tracing))(CogRuntime.withTracing(pipeline.tracing, _))
    rt.context = context
    sessions.foreach(AbsSessions.install(rt, _))
    new Monitoring(pipeline, rt, output, sessions)
  }
}

/** The `java.util.ServiceLoader` service (`META-INF/services/cogs.absc.run.MonitoredRun$Provider`). */
final class MonitoringProvider extends MonitoredRun.Provider {
  def start(configText: String, loader: ClassLoader, context: RunContext): MonitoredRun = Monitoring.start(configText, loader, context)
}
