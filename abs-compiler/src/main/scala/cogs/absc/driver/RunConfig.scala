package cogs.absc.driver

import java.nio.file.{Path, Paths}

/**
 * How a compiled program runs: the command line's options for the run (`program`), whether the
 * runner's reports carry stack traces (`verbose`), and where relative file names are resolved
 * (`baseDir`; None: this JVM's directory). A value: the [[Runner]] and the node launcher read it,
 * nothing changes it.
 */
final case class RunConfig(program: ProgramOptions, verbose: Boolean = false, baseDir: Option[Path] = None) {

  private def at(p: Path): Path = baseDir.fold(p)(_.resolve(p))

  /** `--classpath`: the classes of `--foreign` implementations, as absolute paths. */
  def extraClassPath: List[Path] = program.classpath.map(p => at(Paths.get(p)).toAbsolutePath)

  /**
   * The run's options as the runner takes them: a value handed to the program with the run (in
   * this JVM; see cogs.absc.run.RunOptions), never through system properties.
   */
  def runOptions: cogs.absc.run.RunOptions = cogs.absc.run.RunOptions(
    workers = program.workers,
    record = program.record.map(f => at(Paths.get(f)).toAbsolutePath),
    recordFormat = program.recordFormat,
    replay = program.replay.map(f => at(Paths.get(f)).toAbsolutePath),
    clockLimit = program.clockLimit,
    port = program.port,
    indexFile = program.modelApiIndexFile.map(f => at(Paths.get(f)).toAbsolutePath),
    urlPrefix = program.urlPrefix,
    staticDir = program.modelApiStaticDir.map(d => at(Paths.get(d)).toAbsolutePath),
    strict = program.strict,
    endReport = program.endReport,
    seed = Option(System.getProperty("cogs.absc.seed")).map(_.trim).filter(_.nonEmpty).map(_.toLong),
    foreign = program.foreign)

  /**
   * What every JVM of a cluster run ([[Nodes]]) is given as system properties: the runtime's worker
   * threads (its own configuration key, for the nodes that only serve as well) and the `--foreign`
   * bindings. The run's options go to the main node on its command line ([[commandLine]]).
   */
  def properties: List[(String, String)] =
    program.workers.map(n => "cogs.executor.parallelism" -> n.toString).toList ++
      program.foreign.map { case (abs, impl) => cogs.absc.lib.Foreign.property(abs) -> impl }

  /**
   * The command line of the program's main class in a JVM of its own (the main node of a cluster
   * run): the run's options as a packaged program takes them (cogs.absc.run.ProgramCommandLine,
   * files absolute), then `--` and the program's arguments.
   */
  def commandLine(args: Array[String]): Array[String] = {
    def abs(f: String) = at(Paths.get(f)).toAbsolutePath.toString
    def opt(name: String, value: Option[String]) = value.toList.flatMap(v => List(name, v))
    import cogs.absc.run.RunOptionText._
    (opt(Workers, program.workers.map(_.toString)) ++ opt(ClockLimit, program.clockLimit) ++
      opt(Record, program.record.map(abs)) ++ opt(RecordFormat, program.recordFormat) ++
      opt(Replay, program.replay.map(abs)) ++ opt(Port, program.port.map(_.toString)) ++
      opt(IndexFile, program.modelApiIndexFile.map(abs)) ++ opt(UrlPrefix, program.urlPrefix) ++
      opt(StaticDir, program.modelApiStaticDir.map(abs)) ++
      (if (program.strict) List(Strict) else Nil) ++ (if (program.endReport) Nil else List(NoEndReport)) ++
      (if (args.isEmpty) Nil else "--" :: args.toList)).toArray
  }
}
