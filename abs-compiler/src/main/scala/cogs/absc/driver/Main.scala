package cogs.absc.driver

import java.io.{PrintStream, PrintWriter}
import java.nio.file.Path
import java.util.concurrent.Callable

import scala.jdk.CollectionConverters._

import picocli.CommandLine
import picocli.CommandLine.{Command, IVersionProvider, Mixin, Model, Option => Opt, Parameters, Spec}

import cogs.absc.lib.Out
import cogs.absc.run.{RunOptionText => T}

/**
 * The `absc` command:
 * {{{
 * absc check FILE|DIR...            parse and type-check only (also: absc FILE|DIR...)
 * absc dump [--after PHASE] FILE|DIR... run the phases up to PHASE (default: parse) and print its output
 * absc compile FILE|DIR... -d DIR    ABS to Scala sources under DIR
 * absc run FILE|DIR... [-- ARG...]   compile (cached) and run the main block in this JVM
 * absc test FILE|DIR...              run each file as a test: PASS/FAIL lines, then "N passed, N failed"
 * absc products FILE|DIR...          the products of a product line, one a line
 * }}}
 * Exit statuses: see [[Exit]]. `run(args, ...)` is the whole command without `System.exit`, for
 * tests and embedding.
 */
object Main {

  def main(args: Array[String]): Unit = {
    ClassData.writeOwnPlan()
    val status = run(args)
    Out.flush()
    System.out.flush()
    System.err.flush()
    System.exit(status)
  }

  /**
   * Runs absc with `args`: absc's own output to `out`, messages to `err`; the program's output
   * goes where [[cogs.absc.lib.Out]] writes. Returns the exit status.
   */
  def run(
      args: Array[String],
      out: PrintStream = System.out,
      err: PrintStream = System.err,
      backend: Backend = AbsBackend,
      env: String => Option[String] = sys.env.get,
      baseDir: Option[Path] = None): Int = {
    // Everything after the first `--` is the program's: picocli would take it as more FILEs.
    val (own, rest) = args.span(_ != "--")
    val programArgs = rest.drop(1)
    val ctx = new Context(out, err, backend, env, programArgs, rest.nonEmpty, baseDir)
    val cl = commandLine(ctx)
    cl.execute(asCheck(own): _*)
  }

  /**
   * `absc FILE...` is `absc check FILE...`, as with the reference toolchain's absc (which checks
   * when no back end is chosen): when the first argument is an ABS file or a directory, not a
   * command or an option.
   */
  private def asCheck(args: Array[String]): Array[String] = args.headOption match {
    case Some(a) if !a.startsWith("-") && !commandNames.contains(a) && a != "help" && a != "build-into" &&
        (a.endsWith(".abs") || isDirectory(a)) =>
      "check" +: args
    case _ => args
  }

  private def isDirectory(a: String): Boolean =
    try java.nio.file.Files.isDirectory(java.nio.file.Paths.get(a))
    catch { case _: java.nio.file.InvalidPathException => false }

  private[driver] def commandLine(ctx: Context): CommandLine = {
    val cl = new CommandLine(new Absc(ctx))
    cl.addSubcommand("check", new CheckCommand(ctx))
    cl.addSubcommand("dump", new DumpCommand(ctx))
    cl.addSubcommand("compile", new CompileCommand(ctx))
    cl.addSubcommand("run", new RunCommand(ctx))
    cl.addSubcommand("test", new TestCommand(ctx))
    cl.addSubcommand("package", new PackageCommand(ctx))
    cl.addSubcommand("products", new ProductsCommand(ctx))
    cl.addSubcommand("explore", new ExploreCommand(ctx))
    cl.addSubcommand("help", new CommandLine.HelpCommand)
    cl.addSubcommand("build-into", new BuildIntoCommand(ctx))
    cl.setOut(new PrintWriter(ctx.out, true))
    cl.setErr(new PrintWriter(ctx.err, true))
    // `absc run ... FILE... [-- ARG...]`: the usage line picocli generates, with the program's arguments.
    val run = cl.getSubcommands.get("run")
    run.getHelpSectionMap.put(Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS, (help: CommandLine.Help) =>
      help.synopsis(help.synopsisHeadingLength()).stripLineEnd + " [-- ARG...]" + System.lineSeparator())
    cl.setParameterExceptionHandler(usageError(ctx, _, _))
    cl.setExecutionExceptionHandler { (e: Exception, _: CommandLine, _: CommandLine.ParseResult) =>
      Out.flush()
      ctx.err.println(s"absc: internal error: $e")
      e.printStackTrace(ctx.err)
      Exit.Compile
    }
    cl
  }

  /** Commands a user can give (build-into is absc's own). */
  private[driver] val commandNames = List("check", "dump", "compile", "run", "test", "package", "products", "explore")

  /**
   * A bad command line: picocli's message, a suggestion if it has one, and where the usage is;
   * not the whole help, which buries the one line that matters.
   */
  private def usageError(ctx: Context, e: CommandLine.ParameterException, args: Array[String]): Int = {
    val cl = e.getCommandLine
    val name = cl.getCommandSpec.qualifiedName()
    e match {
      case u: CommandLine.UnmatchedArgumentException if cl.getCommandSpec.userObject.isInstanceOf[Absc] &&
          !u.getUnmatched.isEmpty && !u.getUnmatched.get(0).startsWith("-") =>
        ctx.err.println(s"absc: unknown command '${u.getUnmatched.get(0)}' (the commands: ${commandNames.mkString(", ")})")
      case u: CommandLine.UnmatchedArgumentException =>
        ctx.err.println(s"absc: ${e.getMessage}")
        val suggestions = u.getSuggestions.asScala.toList
        if (suggestions.nonEmpty) ctx.err.println(s"absc: did you mean ${suggestions.map(s => s"'$s'").mkString(" or ")}?")
      case _ =>
        ctx.err.println(s"absc: ${e.getMessage}")
    }
    ctx.err.println(s"absc: see '$name --help' for the usage")
    Exit.Compile
  }

  /** What the commands share: streams, the back end, the environment, the arguments after `--`. */
  private[driver] final class Context(
      val out: PrintStream,
      val err: PrintStream,
      val backend: Backend,
      val env: String => Option[String],
      val programArgs: Array[String],
      val sawDoubleDash: Boolean,
      /** The directory relative FILEs are read from (the compile server's client's); None: this JVM's. */
      val baseDir: Option[Path] = None)
}

private[driver] final class VersionProvider extends IVersionProvider {
  def getVersion: Array[String] =
    Array(s"absc ${Versions.absc} (Scala ${Versions.scalaVersion}, Java ${Versions.javaVersion})")
}

@Command(
  name = "absc",
  mixinStandardHelpOptions = true,
  versionProvider = classOf[VersionProvider],
  synopsisSubcommandLabel = "COMMAND",
  description = Array(
    "Translates ABS models to Scala programs on the Cogs runtime, and runs them.",
    ""),
  footer = Array(
    "",
    "Exit status: 0 normal end; 1 the program failed (uncaught exception, failed assert, deadlock) or a test failed; 2 compile errors, a bad command line or a bad monitor configuration; 3 a monitored property was violated (--monitor).",
    "",
    "Run 'absc COMMAND --help' for the options of a command. 'absc FILE|DIR...' without a command is 'absc check FILE|DIR...'."))
private[driver] final class Absc(ctx: Main.Context) extends Callable[Integer] {
  @Spec var spec: Model.CommandSpec = _

  def call(): Integer = {
    ctx.err.println(s"absc: a command is required: ${Main.commandNames.mkString(", ")}")
    ctx.err.println("absc: see 'absc --help' for the usage")
    Exit.Compile
  }
}

/** Options of every command. */
private[driver] final class CommonOptions {
  @Opt(names = Array("-v", "--verbose"),
    description = Array("Print the time of each phase (parse, flatten, check, entry, lower, instrument, limits, optimise, print: see 'absc dump --list'; then scalac, run) and the cache's decision to stderr; stack traces of failures. Twice (-vv): also the command line of the compiler JVM."))
  var verbosity: Array[Boolean] = Array.empty

  def verbose: Boolean = verbosity.length >= 1
  def debug: Boolean = verbosity.length >= 2
}

/** `--main-module`, for the commands that build one program. */
private[driver] final class MainModuleOptions {
  @Opt(names = Array("--main-module"), paramLabel = "MODULE",
    description = Array("Run the main block of MODULE (needed when several modules have one)."))
  var mainModule: String = _
}

/** `--workers`, for the commands that run programs. */
private[driver] final class WorkerOptions {
  @Opt(names = Array(T.Workers), paramLabel = T.WorkersLabel, description = Array(T.WorkersHelp))
  var workers: String = _ // checked by cogs.absc.run.OptionChecks, as a packaged program checks it
}

/** `--record`, `--replay`: the scheduling decisions of a run (see cogs.absc.run.ScheduleFile). */
private[driver] final class ScheduleOptions {
  @Opt(names = Array(T.Record), paramLabel = T.RecordLabel, description = Array(T.RecordHelp))
  var record: String = _
  @Opt(names = Array(T.RecordFormat), paramLabel = T.RecordFormatLabel, description = Array(T.RecordFormatHelp))
  var recordFormat: String = _
  @Opt(names = Array(T.Replay), paramLabel = T.ReplayLabel, description = Array(T.ReplayHelp))
  var replay: String = _
}

/** `-l`: Timed ABS's clock limit. */
private[driver] final class ClockOptions {
  @Opt(names = Array(T.ClockLimitShort, T.ClockLimit), paramLabel = T.ClockLimitLabel, description = Array(T.ClockLimitHelp))
  var limit: String = _
}

/** `-p/--product`: the product of a product line to build (see cogs.absc.spl). */
private[driver] final class ProductOptions {
  @Opt(names = Array("-p", "--product"), paramLabel = "PRODUCT",
    description = Array("Build PRODUCT of the model's product line: its deltas applied to the core (without it: the core alone)."))
  var product: String = _

  def selected: Option[String] = Option(product)
}

/** `--strict`, `--no-end-report`: the report of what a run left behind (see ProgramRunner.endOfRun). */
private[driver] final class EndReportOptions {
  @Opt(names = Array(T.Strict), description = Array(T.StrictHelp))
  var strict: Boolean = false
  @Opt(names = Array(T.NoEndReport), description = Array(T.NoEndReportHelp))
  var noEndReport: Boolean = false
}

/** `--port`, `--modelapi-index-file`: the Model API of `run` (see cogs.absc.modelapi). */
private[driver] final class ModelApiOptions {
  @Opt(names = Array(T.Port), paramLabel = T.PortLabel, description = Array(T.PortHelp))
  var port: String = _ // checked by cogs.absc.run.OptionChecks, as a packaged program checks it
  @Opt(names = Array(T.IndexFile), paramLabel = T.IndexFileLabel, description = Array(T.IndexFileHelp))
  var indexFile: String = _
  @Opt(names = Array(T.StaticDir), paramLabel = T.StaticDirLabel, description = Array(T.StaticDirHelp))
  var staticDir: String = _
  @Opt(names = Array(T.UrlPrefix), paramLabel = T.UrlPrefixLabel, description = Array(T.UrlPrefixHelp))
  var urlPrefix: String = _
}

/** `--foreign`, `--classpath`: Java or Scala classes that implement `[Foreign]` ABS classes (ABS.FLI). */
private[driver] final class ForeignOptions {
  @Opt(names = Array("--foreign"), paramLabel = "CLASS=IMPL",
    description = Array("Implement the [Foreign] ABS class CLASS (Module.Class) by the Java or Scala class IMPL: its public methods named as ABS methods replace them (see abs-compiler/README.md). Repeatable."))
  var foreign: java.util.List[String] = _
  @Opt(names = Array("--classpath"), paramLabel = "PATH",
    description = Array("Directories and jars, separated by ':', added to the program's class path (for --foreign classes)."))
  var classpath: String = _

  /** The bindings (ABS class -> implementation) and the class path entries, checked. */
  def parsed(spec: picocli.CommandLine.Model.CommandSpec): (Map[String, String], List[String]) = {
    val bindings = Option(foreign).map(_.asScala.toList).getOrElse(Nil).map { b =>
      b.split("=", 2) match {
        case Array(c, i) if c.trim.nonEmpty && i.trim.nonEmpty && c.contains('.') => c.trim -> i.trim
        case _ => throw new CommandLine.ParameterException(spec.commandLine,
          s"--foreign: '$b' is not MODULE.CLASS=JAVA_CLASS (e.g. Greeter.HelloImpl=my.pkg.HelloJava)")
      }
    }
    val entries = Option(classpath).toList.flatMap(_.split(java.io.File.pathSeparator)).filter(_.nonEmpty)
    entries.find(p => !java.nio.file.Files.exists(java.nio.file.Paths.get(p))).foreach { p =>
      throw new CommandLine.ParameterException(spec.commandLine, s"--classpath: no such file or directory: $p")
    }
    (bindings.toMap, entries)
  }
}

/** `--nodes`, `--node`, `--config`, `--deploy`, `--cluster-clock`: a model whose deployment components run on cluster nodes (see [[Nodes]]). */
private[driver] final class NodeOptions {
  @Opt(names = Array("--nodes"), paramLabel = "local:N",
    description = Array("Run the model on N JVMs of this machine (loopback, free ports): the node 'main' runs the main block, the nodes n1 .. n(N-1) serve the objects of the deployment components mapped to them (--deploy or --config). Their lines are prefixed with [n1] etc.; the exit status is the main node's."))
  var nodes: String = _
  @Opt(names = Array("--node"), paramLabel = "NAME",
    description = Array("Run one node of a cluster configured in --config FILE (every node's address in cogs.distributed.nodes): 'main' runs the main block, any other name serves; start each node, on its machine, with the same model and FILE."))
  var node: String = _
  @Opt(names = Array("--config"), paramLabel = "FILE",
    description = Array("The cluster's configuration (HOCON): cogs.distributed.deployment { Component = node, .. }, for --node cogs.distributed.nodes { main = \"host:port\", n1 = \"host:port\", .. }, and any cogs.distributed or pekko setting; every node reads it."))
  var config: String = _
  @Opt(names = Array("--deploy"), paramLabel = "COMPONENT=NODE",
    description = Array("Map the deployment component named COMPONENT (new DeploymentComponent(\"COMPONENT\", ..)) to NODE; comma-separated or repeated; overrides --config's mapping."))
  var deploy: java.util.List[String] = _
  @Opt(names = Array(T.ClusterClock), description = Array(T.ClusterClockHelp))
  var clusterClock: Boolean = false
  @Opt(names = Array(T.SpreadComponents), description = Array(T.SpreadComponentsHelp))
  var spreadComponents: Boolean = false

  /** The plan these options ask for (see [[Nodes.plan]]). */
  def plan: Either[String, Option[Nodes.Plan]] =
    Nodes.plan(Option(nodes), Option(node), Option(config), Option(deploy).map(_.asScala.toList).getOrElse(Nil),
      clusterClock, spreadComponents)
}

/** `--monitor`, for the commands that can build a monitored program. */
private[driver] final class MonitorOptions {
  @Opt(names = Array("--monitor"), paramLabel = "CONF",
    description = Array("Run the program under the monitor pipeline described in CONF (HOCON, section cogs.monitor; see monitor/README.md). Monitor sources (.scala FILEs) are compiled with the model. A violated property makes 'run' exit with status 3."))
  var config: String = _
}

/** Options of the commands that compile classes. */
private[driver] final class BuildOptions {
  @Opt(names = Array("--cache-dir"), paramLabel = "DIR",
    description = Array("Where compiled programs are cached (default: $XDG_CACHE_HOME/absc or ~/.cache/absc)."))
  var cacheDir: Path = _

  @Opt(names = Array("--no-cache"), description = Array("Compile in a temporary directory; neither read nor write the cache."))
  var noCache: Boolean = false

  @Opt(names = Array("--keep-generated"), paramLabel = "DIR",
    description = Array("Also write the generated Scala sources under DIR."))
  var keepGenerated: Path = _

  @Opt(names = Array("--no-server"),
    description = Array("Do not use the compile server (a JVM that stays warm between runs and compiles for them); also ABSC_NO_SERVER=1."))
  var noServer: Boolean = false

  def server(env: String => Option[String]): Option[ServerSettings] =
    if (noServer) None else ServerSettings.fromEnvironment(env)

  def policy(env: String => Option[String]): CachePolicy =
    if (noCache) CachePolicy.NoCache
    else CachePolicy.Cached(Option(cacheDir).getOrElse(ClassCache.defaultRoot(env)))
}

private[driver] abstract class AbscCommand(ctx: Main.Context) extends Callable[Integer] {
  @Spec var spec: Model.CommandSpec = _
  @Mixin var common: CommonOptions = _

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR",
    description = Array("ABS source files, or directories: every .abs file under one, in sorted order."))
  var files: java.util.List[String] = _

  /** The FILEs with directories expanded; a directory without .abs files is a usage error. */
  protected lazy val fileNames: List[String] =
    Driver.expandInputs(files.asScala.toList) match {
      case Right(names) => names
      case Left(message) => throw new CommandLine.ParameterException(spec.commandLine, message)
    }

  /** `--monitor`, if this command has it. */
  protected def monitorConfig: Option[String] = None

  /** `--main-module`, `--workers`, if this command has them. */
  protected def programOptions: ProgramOptions = ProgramOptions()

  protected def driver: Driver = new Driver(ctx.backend, ctx.err, common.verbose, program = programOptions, debug = common.debug)

  /** The driver for `monitor` (an instrumenting back end), or the plain one. */
  protected def driverFor(monitor: Option[MonitorSetup], fork: Option[CompilerJvm], server: Option[ServerClient] = None,
      fastRequest: Option[FastRun.Request] = None): Driver = monitor match {
    case None => new Driver(ctx.backend, ctx.err, common.verbose, fork, program = programOptions, debug = common.debug,
      server = server, fastRequest = fastRequest)
    case Some(m) =>
      val backend = if (ctx.backend eq AbsBackend) new AbsBackendWith(m.instrumentation) else ctx.backend
      new Driver(backend, ctx.err, common.verbose, fork, Some(m), programOptions, common.debug, server, fastRequest = fastRequest)
  }

  protected def workersOption(w: WorkerOptions): Option[Int] = Option(w.workers).map(checked(cogs.absc.run.OptionChecks.workers))

  /** The value, or the problem as a bad command line. */
  protected def checked[A](check: String => Either[String, A])(text: String): A =
    check(text).fold(problem => throw new CommandLine.ParameterException(spec.commandLine, problem), identity)

  protected def noProgramArgs(): Unit =
    if (ctx.sawDoubleDash)
      throw new CommandLine.ParameterException(spec.commandLine, s"'absc ${spec.name}' takes no arguments after '--' (only 'absc run' does)")

  protected def withSources(body: List[SourceFile] => Int): Int =
    driver.readSources(fileNames) match {
      case Left(f)        => f.status
      case Right(sources) => body(sources)
    }

  /**
   * The ABS sources and, with `--monitor`, the monitor setup (its configuration checked, the
   * `.scala` FILEs as monitor sources). A `.scala` FILE without `--monitor` is a usage error.
   */
  protected def withMonitoredSources(body: (List[SourceFile], Option[MonitorSetup]) => Int): Int = {
    val (scala, abs) = fileNames.partition(_.endsWith(".scala"))
    if (scala.nonEmpty && monitorConfig.isEmpty)
      throw new CommandLine.ParameterException(spec.commandLine,
        s"'${scala.head}' is a Scala source: monitor sources are only compiled with --monitor CONF")
    if (abs.isEmpty) throw new CommandLine.ParameterException(spec.commandLine, "no ABS source file given")
    driver.readSources(abs ++ scala) match {
      case Left(f) => f.status
      case Right(all) =>
        val (scalaSources, absSources) = all.partition(_.name.endsWith(".scala"))
        monitorConfig match {
          case None => body(absSources, None)
          case Some(conf) =>
            MonitorSetup.load(conf, scalaSources) match {
              case Left(message) => ctx.err.println(message); Exit.Compile
              case Right(m)      => body(absSources, Some(m))
            }
        }
    }
  }
}

@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("Parse and type-check the ABS FILEs (one program): print the errors and warnings, translate nothing."),
  footer = Array("", "Exit status: 0 if the program is correct (warnings allowed), 2 if not or on a bad command line."))
private[driver] final class CheckCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  @Mixin var products: ProductOptions = _
  @Opt(names = Array("--product-line"),
    description = Array("Check the whole product line: the feature model is satisfiable, and every product satisfies it, flattens (its deltas apply, in an unambiguous order) and is well-typed."))
  var productLine: Boolean = false
  override protected def programOptions: ProgramOptions = ProgramOptions(product = products.selected)

  def call(): Integer = {
    noProgramArgs()
    if (productLine && products.product != null)
      throw new CommandLine.ParameterException(spec.commandLine, "--product-line checks every product: it excludes -p")
    withMonitoredSources((sources, _) => if (productLine) driver.checkProductLine(sources, ctx.out) else driver.check(sources))
  }
}

@Command(name = "products", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("List the products the ABS FILEs declare, one a line with its features (product expressions evaluated): 'P(F, G{a = 1})'."),
  footer = Array("", "Exit status: 0, or 2 if the FILEs do not parse or their product line has errors."))
private[driver] final class ProductsCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  def call(): Integer = {
    noProgramArgs()
    withSources(sources => driver.products(sources, ctx.out))
  }
}

@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("Run absc's phases on the ABS FILEs (one program) up to PHASE and print its output to stdout, as scalac's -Xprint does: after parse (the default) and flatten, the model as ABS source (a '// FILE' line, then its modules), pretty-printed: comments and redundant parentheses are gone; after check and entry, the checked program's declarations and what the effect analysis decided; after lower and the IR passes, the IR; after print, the Scala files. 'absc dump --list' lists the phases."),
  footer = Array("", "Exit status: 0 if the phases up to PHASE succeed, 2 on an error of the model (reported as 'check' reports it), an unknown PHASE or a bad command line."))
private[driver] final class DumpCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  @Mixin var products: ProductOptions = _
  @Mixin var main: MainModuleOptions = _
  @Opt(names = Array("--after"), paramLabel = "PHASE",
    description = Array("Print the output of PHASE (default: parse, or flatten with -p); see --list."))
  var after: String = _
  // `help`: picocli then does not ask for FILEs.
  @Opt(names = Array("--list"), help = true, description = Array("List absc's phases, in order, with what each does, and exit."))
  var list: Boolean = false
  override protected def programOptions: ProgramOptions =
    ProgramOptions(Option(main.mainModule), None, mainModuleOption = true, product = products.selected)

  def call(): Integer = {
    noProgramArgs()
    val d = driver
    val phases = d.pipeline.phases
    if (list) {
      val width = phases.names.map(_.length).max
      phases.all.foreach(p => ctx.out.println(s"${p.name.padTo(width, ' ')}  ${p.does}"))
      ctx.out.flush()
      Exit.Ok
    } else {
      Option(after).filterNot(phases.names.contains).foreach { a =>
        throw new CommandLine.ParameterException(spec.commandLine, s"--after: unknown phase '$a' (the phases: ${phases.names.mkString(", ")})")
      }
      withSources(sources => d.dump(sources, ctx.out, Option(after)))
    }
  }
}

@Command(name = "compile", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("Translate ABS FILEs (one program) to Scala sources under DIR."),
  footer = Array("", "The sources compile against absc's class path (scala-library, cogs-runtime, absc's jar); the main object's main runs the program."))
private[driver] final class CompileCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  @Opt(names = Array("-d", "--output-dir"), required = true, paramLabel = "DIR",
    description = Array("Write the generated Scala sources under DIR (created if needed)."))
  var outputDir: Path = _

  @Mixin var monitor: MonitorOptions = _
  override protected def monitorConfig: Option[String] = Option(monitor.config)
  @Mixin var main: MainModuleOptions = _
  @Mixin var products: ProductOptions = _
  @Mixin var foreign: ForeignOptions = _
  override protected def programOptions: ProgramOptions = {
    val (bindings, classpath) = foreign.parsed(spec)
    ProgramOptions(Option(main.mainModule), None, mainModuleOption = true, product = products.selected,
      foreign = bindings, classpath = classpath)
  }

  def call(): Integer = {
    noProgramArgs()
    withMonitoredSources((sources, m) => driverFor(m, None).compileTo(sources, outputDir))
  }
}

@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("Compile the ABS FILEs (one program) and run its main block.",
    "Compiled programs are cached: a second run of unchanged sources skips compilation."),
  footer = Array("", "ARGs after '--' are passed to the program's main.",
    "At its end a run reports on stderr the processes that failed and whose future nobody read, and those still waiting (--no-end-report leaves it out).",
    "Exit status: the program's (0, or 1 on an uncaught exception, failed assert or deadlock); 2 if it does not compile; 3 a monitor's violation; 4 with --strict when the end-of-run report found something."))
private[driver] final class RunCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  @Mixin var build: BuildOptions = _
  @Mixin var monitor: MonitorOptions = _
  override protected def monitorConfig: Option[String] = Option(monitor.config)
  @Mixin var main: MainModuleOptions = _
  @Mixin var workers: WorkerOptions = _
  @Mixin var schedule: ScheduleOptions = _
  @Mixin var clock: ClockOptions = _
  @Mixin var modelApi: ModelApiOptions = _
  @Mixin var products: ProductOptions = _
  @Mixin var endReport: EndReportOptions = _
  @Mixin var foreign: ForeignOptions = _
  @Mixin var cluster: NodeOptions = _
  override protected def programOptions: ProgramOptions = {
    val (bindings, classpath) = foreign.parsed(spec)
    // The checks a packaged program makes of the same options (cogs.absc.run.ProgramCommandLine).
    import cogs.absc.run.OptionChecks
    def bad(problem: Option[String]): Unit = problem.foreach(p => throw new CommandLine.ParameterException(spec.commandLine, p))
    bad(OptionChecks.schedule(Option(schedule.record), Option(schedule.replay), Option(schedule.recordFormat)))
    val limit = Option(clock.limit).map(checked(OptionChecks.clockLimit))
    val port = Option(modelApi.port).map(checked(OptionChecks.port))
    bad(OptionChecks.modelApi(port, Option(modelApi.indexFile).map(java.nio.file.Paths.get(_)),
      Option(modelApi.staticDir).map(java.nio.file.Paths.get(_)), Option(modelApi.urlPrefix)))
    ProgramOptions(Option(main.mainModule), workersOption(workers), mainModuleOption = true,
      record = Option(schedule.record), replay = Option(schedule.replay), clockLimit = limit, port = port,
      modelApiIndexFile = Option(modelApi.indexFile), product = products.selected,
      strict = endReport.strict, endReport = !endReport.noEndReport,
      urlPrefix = Option(modelApi.urlPrefix), modelApiStaticDir = Option(modelApi.staticDir),
      recordFormat = Option(schedule.recordFormat), foreign = bindings, classpath = classpath)
  }

  def call(): Integer = {
    val plan = cluster.plan match {
      case Left(why) => throw new CommandLine.ParameterException(spec.commandLine, why)
      case Right(p) => p
    }
    plan.foreach { _ =>
      // What needs the whole run in one JVM (a recording of every COG, one Model API, one monitor pipeline).
      val single = List("--port" -> modelApi.port, "--record" -> schedule.record, "--replay" -> schedule.replay, "--monitor" -> monitor.config)
      single.find(_._2 != null).foreach { case (o, _) =>
        throw new CommandLine.ParameterException(spec.commandLine, s"$o is not supported with --nodes or --node (it needs the whole run in one JVM)")
      }
    }
    withMonitoredSources { (sources, m) =>
      val server = build.server(ctx.env).map(new ServerClient(_))
      val d = driverFor(m, CompilerJvm.fromSystemProperties, server, if (plan.isEmpty && plain) FastRun.request else None)
      plan match {
        case Some(p) =>
          val javaOptions = ctx.env("JAVA_OPTS").toList.flatMap(_.trim.split("\\s+")).filter(_.nonEmpty)
          d.runOnNodes(sources, build.policy(ctx.env), Option(build.keepGenerated), ctx.programArgs, p, javaOptions)
        case None =>
          d.run(sources, build.policy(ctx.env), Option(build.keepGenerated), ctx.programArgs)
      }
    }
  }

  /**
   * `absc run FILE.abs... [-- ARG...]` and nothing else: the only form the launcher's fast path
   * takes (an option would change what runs or how), so the only one it gets an index for.
   */
  private def plain: Boolean =
    common.verbosity.isEmpty && build.cacheDir == null && !build.noCache && build.keepGenerated == null &&
      monitor.config == null && main.mainModule == null && workers.workers == null &&
      schedule.record == null && schedule.replay == null && products.product == null &&
      !endReport.strict && !endReport.noEndReport &&
      files.asScala.forall(f => f.endsWith(".abs") && java.nio.file.Files.isRegularFile(java.nio.file.Paths.get(f)))
}

@Command(name = "explore", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("Run the ABS FILEs' main block under every schedule (or many sampled ones): every choice of which process a COG runs next and which COG acts next is the explorer's. Reports each distinct outcome (normal end with its output, deadlock, failure, clock limit) with a count, and for each failure a witness schedule that 'absc run --replay' reproduces. See docs/explore.md."),
  footer = Array("", "Exit status: 0 if no schedule deadlocked or failed; 1 if one did; 2 if the program does not compile or on a bad command line."))
private[driver] final class ExploreCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  @Opt(names = Array("--strategy"), paramLabel = "S", defaultValue = "dpor",
    description = Array("dpor (every schedule up to the reordering of independent steps: dynamic partial-order reduction; the default), exhaustive (every schedule, depth first), random (uniformly random choices) or pct (probabilistic concurrency testing)."))
  var strategy: String = _
  @Opt(names = Array("--max-schedules"), paramLabel = "N", defaultValue = "100000", description = Array("Stop after N schedules (default 100000)."))
  var maxSchedules: Long = _
  @Opt(names = Array("--max-depth"), paramLabel = "D", description = Array("exhaustive: branch only at the first D choice points of a schedule (the later ones take their first step)."))
  var maxDepth: Integer = _
  @Opt(names = Array("--max-steps"), paramLabel = "N", defaultValue = "100000", description = Array("A schedule still running after N steps is stopped and counted apart (default 100000)."))
  var maxSteps: Int = _
  @Opt(names = Array("--seed"), paramLabel = "S", defaultValue = "0", description = Array("Seed of random and pct, and of the model's 'random' (default 0)."))
  var seed: Long = _
  @Opt(names = Array("--pct-depth"), paramLabel = "D", defaultValue = "3", description = Array("pct: the depth of the bugs it aims at (D - 1 priority changes per schedule; default 3)."))
  var pctDepth: Int = _
  @Opt(names = Array("--witness-dir"), paramLabel = "DIR", defaultValue = "explore-witnesses",
    description = Array("Where the witness schedules of failures are written (default: explore-witnesses)."))
  var witnessDir: Path = _
  @Mixin var build: BuildOptions = _
  @Mixin var main: MainModuleOptions = _
  @Mixin var clock: ClockOptions = _
  override protected def programOptions: ProgramOptions = ProgramOptions(Option(main.mainModule), None, mainModuleOption = true)

  def call(): Integer = {
    noProgramArgs()
    def bad(message: String) = throw new CommandLine.ParameterException(spec.commandLine, message)
    if (!cogs.absc.explore.Explorer.Strategies.contains(strategy))
      bad(s"--strategy must be one of ${cogs.absc.explore.Explorer.Strategies.mkString(", ")}, not '$strategy'")
    if (maxSchedules < 1) bad(s"--max-schedules must be at least 1, not $maxSchedules")
    if (maxSteps < 1) bad(s"--max-steps must be at least 1, not $maxSteps")
    if (pctDepth < 1) bad(s"--pct-depth must be at least 1, not $pctDepth")
    Option(maxDepth).foreach(d => if (d < 0) bad(s"--max-depth must be at least 0, not $d"))
    val limit = Option(clock.limit).map(checked(cogs.absc.run.OptionChecks.clockLimit)).map(cogs.absc.run.OptionChecks.clockLimitTime)
    val options = cogs.absc.explore.Explorer.Options(strategy, maxSchedules, Option(maxDepth).map(_.intValue).getOrElse(Int.MaxValue),
      maxSteps, seed, pctDepth, limit)
    withSources { sources =>
      val d = driver
      d.build(sources, build.policy(ctx.env), None) match {
        case Left(f) => f.status
        case Right(built) =>
          try built.program.mainObject match {
            case None =>
              ctx.err.println("absc: nothing to explore: the program has no main block")
              Exit.Compile
            case Some(mainObject) =>
              cogs.absc.explore.Explore.run(built.program.classes, mainObject, options, witnessDir, fileNames.mkString(" "),
                ctx.err, common.verbose)
          } finally built.close()
      }
    }
  }
}

@Command(name = "package", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("Compile the ABS FILEs (one program) into a directory that runs without absc: OUT/bin/NAME (a launcher script) and OUT/lib (the program's jar and the jars it runs on).",
    "The launcher passes its arguments to the program, which takes --workers, --clock-limit, --port, --url-prefix, --modelapi-index-file, --modelapi-static-dir, --record, --record-format, --replay, --strict and --no-end-report (checked as 'absc run' checks them; OUT/bin/NAME --help lists them), and its own arguments after '--'; 'java -jar OUT/lib/NAME.jar' takes the same command line."),
  footer = Array("", "Exit status: 0 when the package was written; 2 if the program does not compile, has no main block, or OUT holds other files."))
private[driver] final class PackageCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  @Opt(names = Array("-o", "--output"), required = true, paramLabel = "OUT",
    description = Array("The directory to write (created if needed; an earlier package there is replaced; any other content is refused)."))
  var output: Path = _

  @Opt(names = Array("--name"), paramLabel = "NAME",
    description = Array("The launcher's and the jar's name (default: the first FILE's name, lower-case)."))
  var name: String = _

  @Opt(names = Array("--cluster"),
    description = Array("Also package the module cogs-distributed and write OUT/bin/run, which runs one node of the model on a cluster: 'OUT/bin/run --node NAME --config FILE' (as 'absc run --node')."))
  var cluster: Boolean = false

  @Opt(names = Array("--model-api"),
    description = Array("Also package the Model API (module cogs-abs-modelapi: the HTTP server and chart page of the launcher's --port). A model with [HTTPName] objects gets it without this option; any other model is packaged without it, and its launcher's --port then says so."))
  var modelApi: Boolean = false

  @Mixin var build: BuildOptions = _
  @Mixin var main: MainModuleOptions = _
  @Mixin var products: ProductOptions = _
  @Mixin var foreign: ForeignOptions = _
  override protected def programOptions: ProgramOptions = {
    val (bindings, classpath) = foreign.parsed(spec)
    ProgramOptions(Option(main.mainModule), None, mainModuleOption = true, product = products.selected,
      foreign = bindings, classpath = classpath)
  }

  def call(): Integer = {
    noProgramArgs()
    val n = Option(name).getOrElse(Packager.defaultName(fileNames.head))
    if (!Packager.validName(n))
      throw new CommandLine.ParameterException(spec.commandLine, s"--name: '$n' is not a name (letters, digits, '.', '_' and '-', not first)")
    Packager.refusal(output) match {
      case Some(why) => ctx.err.println(s"absc: $why"); Exit.Compile
      case None =>
        withSources { sources =>
          val d = new Driver(ctx.backend, ctx.err, common.verbose, CompilerJvm.fromSystemProperties, program = programOptions, debug = common.debug)
          d.packageTo(sources, build.policy(ctx.env), output, n, cluster, modelApi)
        }
    }
  }
}

@Command(name = "test", mixinStandardHelpOptions = true, versionProvider = classOf[VersionProvider],
  description = Array("Run each FILE as a test program.",
    "The main block of each must declare 'Bool testresult', which must be True when the program ends. Prints 'PASS FILE' or 'FAIL FILE: reason' for each, then 'N passed, N failed'. A failing test's output is shown on stderr."),
  footer = Array("", "A test's end-of-run report (failed processes nobody read, processes still waiting) is shown with its output when it fails, or with -v; with --strict such a report fails the test.",
    "Exit status: 0 if every test passed, 1 if one failed, 2 on a bad command line."))
private[driver] final class TestCommand(ctx: Main.Context) extends AbscCommand(ctx) {
  @Mixin var build: BuildOptions = _
  @Mixin var workers: WorkerOptions = _
  @Mixin var products: ProductOptions = _
  @Mixin var endReport: EndReportOptions = _
  override protected def programOptions: ProgramOptions = ProgramOptions(None, workersOption(workers), product = products.selected,
    strict = endReport.strict, endReport = !endReport.noEndReport)

  @Opt(names = Array("--timeout"), paramLabel = "SECONDS", defaultValue = "0",
    description = Array("Fail a test still running after SECONDS (0: no limit; the default)."))
  var timeoutSeconds: Double = 0
  @Mixin var cluster: NodeOptions = _

  // One file: build it in a compiler JVM (as `run` does). Several: in this JVM, where scalac warms up.
  override protected def driver: Driver = {
    val one = fileNames.size == 1
    new Driver(ctx.backend, ctx.err, common.verbose, if (one) CompilerJvm.fromSystemProperties else None,
      program = programOptions, debug = common.debug, server = if (one) build.server(ctx.env).map(new ServerClient(_)) else None)
  }

  def call(): Integer = {
    noProgramArgs()
    if (timeoutSeconds < 0) throw new CommandLine.ParameterException(spec.commandLine, "--timeout must be 0 or more")
    val plan = cluster.plan match {
      case Left(why) => throw new CommandLine.ParameterException(spec.commandLine, why)
      case Right(Some(_: Nodes.One)) => throw new CommandLine.ParameterException(spec.commandLine,
        "absc test runs a test's nodes on this machine only: use --nodes local:N (--node is for absc run)")
      case Right(p) => p
    }
    withSources { sources =>
      plan match {
        case Some(p) =>
          val javaOptions = ctx.env("JAVA_OPTS").toList.flatMap(_.trim.split("\\s+")).filter(_.nonEmpty)
          driver.testOnNodes(sources, ctx.out, build.policy(ctx.env), Option(build.keepGenerated), (timeoutSeconds * 1000).toLong, p, javaOptions)
        case None =>
          driver.test(sources, ctx.out, build.policy(ctx.env), Option(build.keepGenerated), (timeoutSeconds * 1000).toLong)
      }
    }
  }
}

/**
 * Internal: `absc build-into DIR [-v] [--keep-generated D] -- FILE...` translates and compiles one
 * program into DIR, the layout of a cache entry; run by `absc run` in a compiler JVM (see
 * [[CompilerJvm]]). Exit status 0 or 2; on failure DIR/failure holds the status and reason.
 */
@Command(name = "build-into", hidden = true)
private[driver] final class BuildIntoCommand(ctx: Main.Context) extends Callable[Integer] {
  @Mixin var common: CommonOptions = _

  @Parameters(index = "0", paramLabel = "DIR")
  var dir: Path = _

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "FILE")
  var files: java.util.List[String] = new java.util.ArrayList[String]

  @Opt(names = Array("--keep-generated"), paramLabel = "DIR")
  var keepGenerated: Path = _

  @Opt(names = Array("--monitor"), paramLabel = "CONF")
  var monitorConfig: String = _

  @Opt(names = Array("--main-module"), paramLabel = "MODULE")
  var mainModule: String = _

  @Opt(names = Array("--product"), paramLabel = "PRODUCT")
  var product: String = _

  def call(): Integer = {
    val program = ProgramOptions(Option(mainModule), None, mainModuleOption = true, product = Option(product))
    val plain = new Driver(ctx.backend, ctx.err, common.verbose, program = program, debug = common.debug, baseDir = ctx.baseDir)
    val names = files.asScala.toList ++ ctx.programArgs
    def failed(status: Int, reason: String): Int = {
      java.nio.file.Files.createDirectories(dir)
      java.nio.file.Files.writeString(dir.resolve("failure"), s"$status $reason")
      status
    }
    plain.readSources(names) match {
      case Left(f) => failed(f.status, f.reason)
      case Right(all) =>
        val (scalaSources, sources) = all.partition(_.name.endsWith(".scala"))
        val monitor = Option(monitorConfig).map(c => MonitorSetup.load(c, scalaSources))
        monitor match {
          case Some(Left(message)) => ctx.err.println(message); failed(Exit.Compile, message)
          case _ =>
            val m = monitor.map(_.toOption.get)
            val d = m.fold(plain) { setup =>
              val backend = if (ctx.backend eq AbsBackend) new AbsBackendWith(setup.instrumentation) else ctx.backend
              new Driver(backend, ctx.err, common.verbose, None, Some(setup), program, common.debug, baseDir = ctx.baseDir)
            }
            d.buildHere(dir, sources, Option(keepGenerated), forked = true).fold(_.status, _ => Exit.Ok)
        }
    }
  }
}
