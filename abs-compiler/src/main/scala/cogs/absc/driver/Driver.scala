package cogs.absc.driver

import java.io.{IOException, PrintStream}
import java.nio.file.Path

import cogs.absc.emit.EmittedProgram
import cogs.absc.lib.Out
import cogs.absc.run.ProgramRunner

/**
 * What the commands of absc share, put together from the parts that do the work:
 * [[SourceReader]] (reading), [[Translator]] (absc's phases, [[Pipeline]], with their reports),
 * a [[Builder]] (in this JVM, in a compiler JVM when `fork` is given, on the compile server when
 * `server` is given too), [[BuildCache]], [[Runner]] (a [[RunConfig]] value), [[TestRunner]] and
 * [[ProgramPackager]]. Every message for the user goes to `err` (see [[Reporter]]). Everything is
 * fixed at construction: `baseDir` is where relative file names are resolved (the compile server's
 * client's; None: this JVM's), `fastRequest` the launcher's request for a fast-path index
 * (see [[FastRun]]).
 */
final class Driver(backend: Backend, err: PrintStream, verbose: Boolean, fork: Option[CompilerJvm] = None,
    monitor: Option[MonitorSetup] = None, program: ProgramOptions = ProgramOptions(), debug: Boolean = false,
    server: Option[ServerClient] = None, baseDir: Option[Path] = None, fastRequest: Option[FastRun.Request] = None) {

  /** A compiled program ready to run (kept here for `Driver#Built` in other modules' code). */
  type Built = cogs.absc.driver.Built

  private val reporter = new Reporter(err, verbose, debug)
  private val reader = new SourceReader(reporter, baseDir)
  private val generated = new GeneratedSources(reporter, reader)

  /** absc's phases (see [[Pipeline]]). */
  val pipeline: Pipeline = new Pipeline(backend, program)

  private val translator = new Translator(pipeline, reporter, generated, monitor, program)
  private val key: List[SourceFile] => String = BuildCache.key(_, monitor, program)
  private val inProcess = new InProcessBuilder(translator, generated, reporter, monitor, key)
  private val builder: Builder = fork match {
    case None => inProcess
    case Some(jvm) =>
      val args = new BuildIntoArgs(reporter, monitor, program)
      val forked = new ForkedBuilder(jvm, args, reporter, inProcess)
      // A monitored program is built by the compiler JVM: the server knows no monitor.
      server.filter(_ => monitor.isEmpty).fold[Builder](forked)(s => new ServerBuilder(s, args, reporter, forked, inProcess))
  }
  private val cache = new BuildCache(builder, reporter, generated, key)
  private val config = RunConfig(program, verbose, baseDir)
  private val runner = new Runner(config, reporter)

  def readSources(names: List[String]): Either[BuildFailure, List[SourceFile]] = reader.read(names)

  def products(sources: List[SourceFile], out: PrintStream): Int = translator.products(sources, out)
  def checkProductLine(sources: List[SourceFile], out: PrintStream): Int = translator.checkProductLine(sources, out)
  def dump(sources: List[SourceFile], out: PrintStream, after: Option[String] = None): Int = translator.dump(sources, out, after)
  def check(sources: List[SourceFile]): Int = translator.check(sources)
  def translate(sources: List[SourceFile]): Either[BuildFailure, (EmittedProgram, String)] = translator.translate(sources)
  def compileTo(sources: List[SourceFile], outDir: Path): Int = translator.compileTo(sources, outDir)

  /** Translates and compiles, or finds the program in the cache (see [[BuildCache]]). */
  def build(sources: List[SourceFile], cache: CachePolicy, keepGenerated: Option[Path]): Either[BuildFailure, Built] =
    this.cache.build(sources, cache, keepGenerated)

  /**
   * `absc build-into`: the build in this JVM, into `dir`, for a JVM that forked this one (which
   * reads `dir/failure` or `dir/key`; see [[InProcessBuilder]]).
   */
  def buildHere(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path], forked: Boolean = false): Either[BuildFailure, Unit] =
    new InProcessBuilder(translator, generated, reporter, monitor, key, forked).buildInto(dir, sources, keepGenerated)

  /** See [[Runner.execute]]. */
  def execute(built: Built, args: Array[String], programErr: PrintStream, timeoutMillis: Long = 0L,
      output: cogs.absc.lib.Output = Out.stdout): ProgramRunner.Outcome =
    runner.execute(built, args, programErr, timeoutMillis, output)

  /** `absc run`: build, run, and the program's exit status. */
  def run(sources: List[SourceFile], cache: CachePolicy, keepGenerated: Option[Path], args: Array[String]): Int =
    build(sources, cache, keepGenerated) match {
      case Left(f) => f.status
      case Right(built) =>
        try {
          if (built.program.mainObject.isEmpty) {
            err.println("absc: nothing to run: the program has no main block")
            Exit.Compile
          } else {
            recordFastPath(built, sources)
            execute(built, args, err).status
          }
        } finally built.close()
    }

  /**
   * `absc run --nodes local:N` / `--node NAME`: build (through the cache), then run the model's
   * nodes as JVMs on its classes and the distributed module's class path (see [[Nodes]]).
   */
  private[driver] def runOnNodes(sources: List[SourceFile], cache: CachePolicy, keepGenerated: Option[Path], args: Array[String],
      plan: Nodes.Plan, javaOptions: List[String]): Int =
    Nodes.distributedClassPath match {
      case Left(why) => err.println(s"absc: $why"); Exit.Compile
      case Right(distributed) =>
        build(sources, cache, keepGenerated) match {
          case Left(f) => f.status
          case Right(built) =>
            try built.program.mainObject match {
              case None =>
                err.println("absc: nothing to run: the program has no main block")
                Exit.Compile
              case Some(mainObject) =>
                val classPath = (built.program.classes.toAbsolutePath.toString :: config.extraClassPath.map(_.toString)) ++ distributed
                reporter.phase("run") { Nodes.run(plan, classPath, mainObject, config.commandLine(args), config.properties, javaOptions, err) }
            } finally built.close()
        }
    }

  /** `absc package`: see [[ProgramPackager]]. */
  def packageTo(sources: List[SourceFile], cache: CachePolicy, out: Path, name: String, cluster: Boolean = false,
      modelApi: Boolean = false): Int =
    new ProgramPackager(this.cache, reporter, program).packageTo(sources, cache, out, name, cluster, modelApi)

  /** `absc test`: see [[TestRunner]]. */
  def test(files: List[SourceFile], out: PrintStream, cache: CachePolicy, keepGenerated: Option[Path],
      timeoutMillis: Long): Int =
    new TestRunner(this.cache, runner, reporter).test(files, out, cache, keepGenerated, timeoutMillis)

  /** `absc test --nodes local:N`: each test's nodes as JVMs (see [[TestRunner.testOnNodes]]). */
  private[driver] def testOnNodes(files: List[SourceFile], out: PrintStream, cache: CachePolicy, keepGenerated: Option[Path],
      timeoutMillis: Long, plan: Nodes.Plan, javaOptions: List[String]): Int =
    Nodes.distributedClassPath match {
      case Left(why) => err.println(s"absc: $why"); Exit.Compile
      case Right(distributed) =>
        new TestRunner(this.cache, runner, reporter).testOnNodes(files, out, cache, keepGenerated, timeoutMillis) { (built, resultFile) =>
          built.program.mainObject match {
            case None => Left("the program has no main block")
            case Some(mainObject) =>
              val classPath = (built.program.classes.toAbsolutePath.toString :: config.extraClassPath.map(_.toString)) ++ distributed
              Right(Nodes.run(plan, classPath, mainObject, config.commandLine(Array.empty),
                config.properties :+ (ProgramRunner.TestResultFileProperty -> resultFile.toString), javaOptions, err,
                timeoutMillis, outputToErr = true))
          }
        }
    }

  /** The launcher's index for the next run of these sources (see [[FastRun]]); never fails the run. */
  private def recordFastPath(built: Built, sources: List[SourceFile]): Unit =
    for (req <- fastRequest; root <- built.cacheRoot) {
      val files = sources.map(s => s.name -> s.digest)
      if (files.forall(_._2.nonEmpty))
        try {
          val written = reporter.phase("fast index") { FastRun.record(req, built.program, files, root) }
          reporter.note(if (written) s"fast path: wrote ${req.index}" else "fast path: no index (a source, absc's jars or the JDK changed during the run, or the launcher's java is not this one)")
        } catch {
          // The index only saves time: whatever goes wrong with it, the program runs.
          case e @ (_: IOException | _: java.io.UncheckedIOException | _: SecurityException) =>
            reporter.note(s"fast path: cannot write ${req.index} ($e)")
        }
    }
}

object Driver {
  /** See [[SourceReader.expandInputs]]. */
  def expandInputs(names: List[String]): Either[String, List[String]] = SourceReader.expandInputs(names)
}
