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

  /** The system properties that carry the run's options to the JVMs of cluster nodes ([[Nodes]]). */
  def properties: List[(String, String)] =
    program.workers.map(n => "cogs.executor.parallelism" -> n.toString).toList ++
      program.record.map(f => "cogs.absc.record" -> Paths.get(f).toAbsolutePath.toString) ++
      program.recordFormat.map(f => "cogs.absc.record-format" -> f) ++
      program.replay.map(f => "cogs.absc.replay" -> Paths.get(f).toAbsolutePath.toString) ++
      program.clockLimit.map(l => "cogs.absc.clock-limit" -> l) ++
      program.port.map(p => "cogs.absc.modelapi.port" -> p.toString) ++
      program.modelApiIndexFile.map(f => "cogs.absc.modelapi.index-file" -> Paths.get(f).toAbsolutePath.toString) ++
      (if (program.strict) List("cogs.absc.strict" -> "true") else Nil) ++
      (if (program.endReport) Nil else List("cogs.absc.end-report" -> "false")) ++
      program.urlPrefix.map(p => "cogs.absc.modelapi.url-prefix" -> p) ++
      program.modelApiStaticDir.map(d => "cogs.absc.modelapi.static-dir" -> Paths.get(d).toAbsolutePath.toString) ++
      program.foreign.map { case (abs, impl) => cogs.absc.lib.Foreign.property(abs) -> impl }
}
