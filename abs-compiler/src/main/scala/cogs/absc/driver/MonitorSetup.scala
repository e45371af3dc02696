package cogs.absc.driver

import cogs.absc.emit.EmittedFile

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import com.typesafe.config.{ConfigException, ConfigFactory, ConfigParseOptions, ConfigRenderOptions}

import cogs.absc.lower.Instrumentation
import cogs.absc.monitoring.{SessionConfig, SessionConfigException}
import cogs.monitor.pipeline.{MonitorConfigException, PipelineConfig}

/**
 * `--monitor pipeline.conf` and the monitor sources (`.scala` files among the FILEs): what the
 * emitter instruments, the configuration the generated program runs its pipeline with, and the
 * Scala sources compiled together with the model.
 *
 * @param configText the configuration, resolved and rendered, so that the generated program does
 *                   not depend on the file, its includes or the directory it is started in
 */
final case class MonitorSetup(configFile: String, configText: String, instrumentation: Instrumentation,
    scalaSources: List[SourceFile]) {
  /** What the cache key must cover besides the ABS sources. */
  def keyParts: List[SourceFile] = SourceFile(s"monitor-config:$configFile", configText) :: scalaSources

  /** Monitor sources for scalac, named as given on the command line (so that errors point there). */
  def scalaFiles: List[EmittedFile] = scalaSources.map(s => EmittedFile(s.name, s.text))
}

object MonitorSetup {
  /**
   * Reads and checks `file` with the pipeline's own checks (so that a bad key is reported now, at
   * its line, not when the program starts). Errors are `file:line: error: message`, or
   * `file: error: message` without a position.
   *
   * Monitors named by class cannot be checked before the monitor sources are compiled: they are
   * checked when the program starts.
   */
  def load(file: String, scalaSources: List[SourceFile]): Either[String, MonitorSetup] = {
    val text =
      try Right(new String(Files.readAllBytes(Path.of(file)), UTF_8))
      catch { case e: java.io.IOException => Left(s"absc: cannot read '$file': ${Option(e.getMessage).getOrElse(e.toString)}") }
    text.flatMap { t =>
      try {
        val parsed = ConfigFactory.parseString(t, ConfigParseOptions.defaults().setOriginDescription(file)).resolve()
        if (!parsed.hasPath(PipelineConfig.Root)) Left(s"$file: error: no '${PipelineConfig.Root}' section (see monitor/README.md)")
        else {
          // The sessions (issue 11) are checked here (protocol file, protocol, roles, labels; the
          // classes and methods against the model by the back end) and are not the pipeline's.
          val sessions = SessionConfig.parse(parsed, file, Some(Option(Path.of(file).toAbsolutePath.getParent).getOrElse(Path.of("."))))
          val settings = PipelineConfig.parse(SessionConfig.withoutSessions(parsed), loader = null)
          val observe = settings.observe
          val rendered = SessionConfig.embed(parsed, sessions).root().render(ConfigRenderOptions.concise())
          Right(MonitorSetup(file, rendered,
            Instrumentation(observe.observes, observe.observesMethod, Some(rendered), sessions), scalaSources))
        }
      } catch {
        case e: SessionConfigException => Left(e.getMessage)
        case e: ConfigException        => Left(describe(file, e))
        case e: MonitorConfigException => Left(configError(file, e.getMessage))
      }
    }
  }

  // The pipeline says `file:12: key: message` (or `file: key: message`); absc says `file:12: error: key: message`.
  private def configError(file: String, message: String): String = {
    val prefix = java.util.regex.Pattern.quote(file)
    val withLine = s"^$prefix:(\\d+): (.*)$$".r
    val without = s"^$prefix: (.*)$$".r
    message match {
      case withLine(line, rest) => s"$file:$line: error: $rest"
      case without(rest)        => s"$file: error: $rest"
      case other                => s"$file: error: $other"
    }
  }

  private def describe(file: String, e: ConfigException): String = {
    val o = e.origin()
    val where = if ((o ne null) && o.lineNumber() > 0) s"$file:${o.lineNumber()}" else file
    // typesafe-config prefixes its messages with the origin, which is already in front.
    val msg = Option(e.getMessage).getOrElse(e.toString).replaceFirst("^.*?: \\d+: ", "").replaceFirst(s"^${java.util.regex.Pattern.quote(file)}: ", "")
    s"$where: error: $msg"
  }
}
