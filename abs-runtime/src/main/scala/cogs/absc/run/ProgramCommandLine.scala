package cogs.absc.run

import java.io.{PrintWriter, StringWriter}
import java.nio.file.Paths

import scala.jdk.CollectionConverters._

import picocli.CommandLine
import picocli.CommandLine.Model.{CommandSpec, OptionSpec, PositionalParamSpec}

/**
 * The command line of a compiled program started on its own: its package's launcher (which
 * passes its arguments through unchanged), `java -jar NAME.jar`, `java -cp ... P.Main`:
 *
 * {{{
 * NAME [--workers N] [--clock-limit T] [--port PORT [Model API options]]
 *      [--record FILE [--record-format F] | --replay FILE] [--strict] [--no-end-report] [-- ARG...]
 * }}}
 *
 * Parsed by picocli, as absc's own command line; each value is checked by [[OptionChecks]], the
 * checks `absc run` makes. Relative file names are resolved against the program's working
 * directory. The run's options come only from here: the system properties give workers (the
 * runtime's own key), the seed and the `--foreign` bindings ([[RunOptions.fromSystemProperties]]),
 * which the command line's `--workers` overrides.
 *
 * A command line without options (none, or only `--` and the program's arguments: every run of
 * `absc run`'s fast path and most packaged runs) is not handed to picocli at all, so that such a
 * run loads none of its classes.
 */
private[absc] object ProgramCommandLine {

  sealed trait Parsed
  /** Run with these options; `programArgs`: what came after `--`. */
  final case class Run(options: RunOptions, programArgs: List[String]) extends Parsed
  /** `-h`, `--help`: print [[usage]] and end with status 0. */
  case object Help extends Parsed
  /** A bad command line: the message (exit status 2). */
  final case class Bad(message: String) extends Parsed

  /** `args` over `base` (what the system properties give: workers, seed, foreign bindings). */
  def parse(args: Array[String], base: RunOptions): Parsed = {
    val given = Option(args).getOrElse(Array.empty[String])
    if (given.isEmpty || given(0) == "--") checked(base, None, given.drop(1).toList)
    else WithPicocli.parse(given, base)
  }

  /** What `NAME --help` prints. */
  def usage(name: String): String = WithPicocli.usage(name)

  /** The checks of the options together (`port`: as given). */
  private[run] def checked(o: RunOptions, port: Option[String], programArgs: List[String]): Parsed = {
    val checks = List[() => Option[String]](
      () => o.clockLimit.flatMap(OptionChecks.clockLimit(_).left.toOption),
      () => port.flatMap(OptionChecks.port(_).left.toOption),
      () => OptionChecks.schedule(o.record, o.replay, o.recordFormat),
      () => OptionChecks.modelApi(port.flatMap(OptionChecks.port(_).toOption), o.indexFile, o.staticDir, o.urlPrefix))
    checks.iterator.map(_()).collectFirst { case Some(problem) => problem } match {
      case Some(problem) => Bad(problem)
      case None => Run(o.copy(clockLimit = o.clockLimit.map(_.trim), port = port.flatMap(OptionChecks.port(_).toOption)), programArgs)
    }
  }
}

/**
 * The part of [[ProgramCommandLine]] that uses picocli, in an object of its own: the JVM's
 * verifier loads the exception classes a method catches when it links the class that holds the
 * method, so picocli's would be loaded by every run if this code were in `ProgramCommandLine`.
 */
private object WithPicocli {
  import ProgramCommandLine._

  def parse(given: Array[String], base: RunOptions): Parsed = {
    val spec = commandSpec("")
    try {
      val r = new CommandLine(spec).parseArgs(given: _*)
      if (r.isUsageHelpRequested) Help
      else {
        // picocli takes a word before `--` as a positional parameter too: only what follows `--` is the program's.
        val positional = r.matchedPositionalValue[java.util.List[String]](0, java.util.Collections.emptyList[String]()).asScala.toList
        val k = positional.size
        val afterDoubleDash = k == 0 || (given.length > k && given(given.length - k - 1) == "--" && given.takeRight(k).toList == positional)
        if (!afterDoubleDash) Bad(s"unexpected argument '${positional.head}' (the program's arguments go after '--')")
        else {
          def text(name: String): Option[String] = Option(r.matchedOptionValue[String](name, null))
          def path(name: String) = text(name).map(f => Paths.get(f).toAbsolutePath.normalize)
          def flag(name: String) = r.hasMatchedOption(name)
          val workers = text(RunOptionText.Workers).map(OptionChecks.workers)
          workers.flatMap(_.left.toOption) match {
            case Some(problem) => Bad(problem)
            case None =>
              val o = base.copy(
                workers = workers.flatMap(_.toOption).orElse(base.workers),
                clockLimit = text(RunOptionText.ClockLimit).orElse(base.clockLimit),
                record = path(RunOptionText.Record).orElse(base.record),
                replay = path(RunOptionText.Replay).orElse(base.replay),
                recordFormat = text(RunOptionText.RecordFormat).orElse(base.recordFormat),
                indexFile = path(RunOptionText.IndexFile).orElse(base.indexFile),
                staticDir = path(RunOptionText.StaticDir).orElse(base.staticDir),
                urlPrefix = text(RunOptionText.UrlPrefix).orElse(base.urlPrefix),
                strict = base.strict || flag(RunOptionText.Strict),
                endReport = base.endReport && !flag(RunOptionText.NoEndReport))
              checked(o, text(RunOptionText.Port), positional)
          }
        }
      }
    } catch {
      case e: CommandLine.UnmatchedArgumentException =>
        val what = e.getUnmatched.asScala.headOption.getOrElse("")
        Bad(if (what.startsWith("-")) s"unknown option '$what'" else s"unexpected argument '$what' (the program's arguments go after '--')")
      case e: CommandLine.MissingParameterException =>
        val name = e.getMissing.asScala.collectFirst { case o: OptionSpec => o.longestName }
        Bad(name.fold(e.getMessage)(n => s"option $n needs a value"))
      case e: CommandLine.ParameterException => Bad(e.getMessage)
    }
  }

  def usage(name: String): String = {
    val out = new StringWriter
    new CommandLine(commandSpec(name)).usage(new PrintWriter(out), CommandLine.Help.Ansi.OFF)
    out.toString
  }

  private def commandSpec(name: String): CommandSpec = {
    val spec = CommandSpec.create().name(name)
    // `--workers N` in the usage, as the option is written (picocli also takes `--workers=N`).
    spec.parser().separator(" ")
    // The last of an option given twice counts, as in a shell script's defaults overridden by a later word.
    spec.parser().overwrittenOptionsAllowed(true)
    val u = spec.usageMessage()
    u.synopsisHeading("usage: ")
    u.customSynopsis(s"$name [--workers N] [--clock-limit T] [--port PORT [Model API options]]",
      s"${" " * name.length} [--record FILE [--record-format F] | --replay FILE] [--strict] [--no-end-report] [-- ARG...]")
    u.sortOptions(false)
    u.footer("  ARGs after '--' are passed to the program.",
      "Exit status: 0, or 1 on an uncaught exception, failed assert or deadlock; 2 on a bad command line;",
      "4 with --strict when the end-of-run report found something.")
    u.width(100)
    def valued(label: String, description: String, names: String*) =
      spec.addOption(OptionSpec.builder(names.toArray).paramLabel(label).`type`(classOf[String]).description(description).build())
    def flag(description: String, names: String*) =
      spec.addOption(OptionSpec.builder(names.toArray).`type`(classOf[Boolean]).description(description).build())
    import RunOptionText._
    // The program's own `-p` for --port (absc's `-p` is --product).
    valued(WorkersLabel, WorkersHelp, Workers)
    valued(ClockLimitLabel, ClockLimitHelp, ClockLimitShort, ClockLimit)
    valued(PortLabel, PortHelp, "-p", Port)
    valued(UrlPrefixLabel, UrlPrefixHelp, UrlPrefix)
    valued(IndexFileLabel, IndexFileHelp, IndexFile)
    valued(StaticDirLabel, StaticDirHelp, StaticDir)
    valued(RecordLabel, RecordHelp, Record)
    valued(RecordFormatLabel, RecordFormatHelp, RecordFormat)
    valued(ReplayLabel, ReplayHelp, Replay)
    flag(StrictHelp, Strict)
    flag(NoEndReportHelp, NoEndReport)
    spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("print this help and exit").build())
    spec.addPositional(PositionalParamSpec.builder().arity("0..*").`type`(classOf[java.util.List[_]])
      .auxiliaryTypes(classOf[String]).paramLabel("ARG").hidden(true).build())
    spec
  }
}
