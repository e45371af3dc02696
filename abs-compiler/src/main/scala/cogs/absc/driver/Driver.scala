package cogs.absc.driver

import cogs.absc.run.ProgramRunner

import cogs.absc.emit.{EmittedFile, EmittedProgram}

import java.io.{ByteArrayOutputStream, IOException, PrintStream}
import java.lang.reflect.{InvocationTargetException, Modifier}
import java.net.URLClassLoader
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{AccessDeniedException, Files, NoSuchFileException, Path, Paths}

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.lib.Out
import cogs.absc.parse.SourceText
import cogs.absc.spl.Flatten

/** Exit statuses of absc (see the README, "The absc command"). */
object Exit {
  final val Ok = 0
  /** The program failed: an uncaught exception (a failed `assert` too) or a deadlock; a test failed. */
  final val Failure = 1
  /** The program does not compile (or absc could not translate it), or a bad command line. */
  final val Compile = 2
  /** A monitored property was violated (`--monitor`). */
  final val Monitor = ProgramRunner.ExitMonitor
}

/** Why a program could not be built: the exit status and a one-line reason (for `absc test`). */
final case class BuildFailure(status: Int, reason: String)

/** Where compiled classes go: a cache, or a temporary directory deleted after the run. */
sealed trait CachePolicy
object CachePolicy {
  final case class Cached(root: Path) extends CachePolicy
  case object NoCache extends CachePolicy
}

/**
 * What the command line says about the program itself: which module's main block runs
 * (`--main-module`; `mainModuleOption` says whether the command offers that option, for the
 * hint when a choice is needed), how many worker threads its runtime has (`--workers`), and
 * whether the run records its scheduling decisions into a file or replays them from one
 * (`--record`, `--replay`; see cogs.absc.run.ScheduleFile), where Timed ABS's simulated clock
 * stops (`--clock-limit`), whether it serves the Model API (`--port`,
 * `--modelapi-index-file`; see cogs.absc.modelapi), which product of a product line is built
 * (`-p`; None: the core; see cogs.absc.spl.Flatten), and what the end-of-run report does
 * (`--strict`: a non-zero status when it finds something; `--no-end-report`: no report).
 */
final case class ProgramOptions(mainModule: Option[String] = None, workers: Option[Int] = None,
    mainModuleOption: Boolean = false, record: Option[String] = None, replay: Option[String] = None,
    clockLimit: Option[String] = None, port: Option[Int] = None, modelApiIndexFile: Option[String] = None,
    product: Option[String] = None, strict: Boolean = false, endReport: Boolean = true,
    urlPrefix: Option[String] = None, modelApiStaticDir: Option[String] = None, recordFormat: Option[String] = None,
    foreign: Map[String, String] = Map.empty, classpath: List[String] = Nil)

/**
 * What the commands of absc share: reading sources, running absc's phases ([[Pipeline]]), scalac
 * and its cache, running. Every message for the user goes to `err`; diagnostics are rendered with the
 * source line and a caret. `verbose` adds the time of each phase and stack traces; `debug`
 * (`-vv`) also the command line of the compiler JVM.
 */
final class Driver(backend: Backend, err: PrintStream, verbose: Boolean, fork: Option[CompilerJvm] = None,
    monitor: Option[MonitorSetup] = None, program: ProgramOptions = ProgramOptions(), debug: Boolean = false) {

  // ------------------------------------------------------------------ phases and their timing

  private def phase[A](name: String)(body: => A): A = {
    val t0 = System.nanoTime()
    try body
    finally if (verbose) {
      val ms = (System.nanoTime() - t0) / 1e6
      err.println(f"absc: $name%-10s $ms%9.1f ms")
    }
  }

  private def note(message: String): Unit = if (verbose) err.println(s"absc: $message")

  /**
   * Where relative file names are resolved: None, this JVM's directory; in the compile server,
   * the client's (a JVM cannot change its own). Names are still printed as given.
   */
  private[driver] var baseDir: Option[Path] = None

  private def at(p: Path): Path = baseDir.fold(p)(_.resolve(p))

  /** The compile server, tried before the compiler JVM (set by `run` and `test`; see [[ServerClient]]). */
  private[driver] var server: Option[ServerClient] = None

  /** Set by `absc run` when the launcher asked for a fast-path index (see [[FastRun]]). */
  private[driver] var fastRequest: Option[FastRun.Request] = None

  // ------------------------------------------------------------------ reading

  /**
   * Reads every file, or reports the first that cannot be read (`absc: cannot read 'x.abs': ...`).
   * A file that is not valid UTF-8 is a compile error at the bad bytes (all such files are
   * reported, then `absc: N errors`).
   */
  def readSources(names: List[String]): Either[BuildFailure, List[SourceFile]] = {
    val read = List.newBuilder[SourceFile]
    var encodingErrors = 0
    val it = names.iterator
    while (it.hasNext) {
      val name = it.next()
      readSource(name) match {
        case Right(Right((text, digest))) =>
          val f = SourceFile(name, text)
          f.digest = digest
          read += f
        case Right(Left((diagnostics, text))) =>
          err.println(Diagnostic.renderAll(diagnostics, text))
          encodingErrors += diagnostics.size
        case Left(why) =>
          err.println(s"absc: cannot read '$name': $why")
          return Left(BuildFailure(Exit.Compile, s"cannot read '$name': $why"))
      }
    }
    if (encodingErrors > 0) {
      val summary = if (encodingErrors == 1) "1 error" else s"$encodingErrors errors"
      err.println(s"absc: $summary")
      Left(BuildFailure(Exit.Compile, s"does not compile ($summary)"))
    } else Right(read.result())
  }

  /** The text, and the SHA-256 of the bytes read (for the fast path; monitor sources get none). */
  private def readSource(name: String): Either[String, Either[(List[Diagnostic], String), (String, String)]] =
    try {
      val p = at(Paths.get(name))
      if (Files.isDirectory(p)) Left("Is a directory")
      else if (name.endsWith(".scala")) Right(Right((new String(Files.readAllBytes(p), UTF_8), ""))) // monitor sources: scalac's business
      else {
        val bytes = Files.readAllBytes(p)
        Right(SourceText.decode(name, bytes).map(text => (text, FastRun.sha256(bytes))))
      }
    } catch {
      case _: NoSuchFileException   => Left("No such file")
      case _: AccessDeniedException => Left("Permission denied")
      case e: java.nio.file.InvalidPathException => Left(s"bad file name (${e.getReason})")
      case e: IOException           => Left(Option(e.getMessage).getOrElse(e.getClass.getSimpleName))
    }

  // ------------------------------------------------------------------ ABS to Scala

  private def renderAll(sources: List[SourceFile], ds: List[Diagnostic]): String = {
    val texts = sources.map(s => s.name -> s.text).toMap
    ds.map(d => texts.get(d.pos.file).fold(d.header)(d.render)).mkString("\n")
  }

  private def reportErrors(sources: List[SourceFile], ds: List[Diagnostic]): BuildFailure = {
    err.println(renderAll(sources, ds))
    val n = ds.count(_.isError)
    val summary = if (n == 1) "1 error" else s"$n errors"
    err.println(s"absc: $summary")
    BuildFailure(Exit.Compile, s"does not compile ($summary)")
  }

  /** absc's phases (see [[Pipeline]]): this driver runs them, times them and reports what stops them. */
  val pipeline: Pipeline = new Pipeline(backend, program)

  /**
   * Runs the pipeline up to `last` (None: to the end). Prints what stops it (diagnostics with
   * their source lines, or one line) and the warnings of `check` as soon as it has them; gives
   * the last value with the phase that made it, and the warnings as printed. `what`: what absc
   * was doing, if it crashes.
   */
  private def runPipeline(sources: List[SourceFile], last: Option[String], what: String)
      : Either[BuildFailure, (Phase[_, _], Any, String)] = {
    var warnings = ""
    val step: (Phase[_, _], () => Either[Stop, Any]) => Either[Stop, Any] = { (p, run) =>
      val result = phase(p.name)(run())
      result match {
        case Right(c: CheckedProgram[_]) if p eq pipeline.check =>
          warnings = renderAll(sources, c.warnings)
          if (warnings.nonEmpty) err.println(warnings)
        case _ =>
      }
      result
    }
    val result =
      try pipeline.phases.runUntil(sources, last, step)
      catch { case e @ (_: Exception | _: StackOverflowError) => return Left(crashed(e, what)) }
    result match {
      case Left(Stop.Diagnostics(ds)) => Left(reportErrors(sources, ds))
      case Left(Stop.Refused(message)) =>
        err.println(s"absc: $message")
        Left(BuildFailure(Exit.Compile, message))
      case Right((p, value)) => Right((p, value, warnings))
    }
  }

  /** `absc products`: each declared product with its features, one a line on `out`; 0 or 2. */
  def products(sources: List[SourceFile], out: PrintStream): Int =
    runPipeline(sources, Some(pipeline.parse.name), "reading") match {
      case Left(f) => f.status
      case Right((_, units, _)) => Flatten.products(units.asInstanceOf[List[CompilationUnit]]) match {
        case Left(ds) => reportErrors(sources, ds).status
        case Right(ps) =>
          if (ps.isEmpty) err.println("absc: the model declares no products")
          ps.foreach(p => out.println(p.show))
          out.flush()
          Exit.Ok
      }
    }

  /**
   * `absc check --product-line`: the feature model, every product's flattening, delta order and
   * types (see [[cogs.absc.spl.Flatten.checkProductLine]]: it runs the `check` phase on each
   * product); a line per product on `out`; 0 or 2.
   */
  def checkProductLine(sources: List[SourceFile], out: PrintStream): Int =
    runPipeline(sources, Some(pipeline.parse.name), "reading") match {
      case Left(f) => f.status
      case Right((_, units, _)) =>
        try {
          val report = phase("product line") {
            Flatten.checkProductLine(units.asInstanceOf[List[CompilationUnit]], flat => pipeline.check.run(flat) match {
              case Left(Stop.Diagnostics(ds)) => ds
              case Left(Stop.Refused(message)) => throw new IllegalStateException(message) // check reports diagnostics only
              case Right(c) => c.warnings
            })
          }
          report.summary.foreach(out.println)
          out.flush()
          if (report.diagnostics.exists(_.isError)) reportErrors(sources, report.diagnostics).status
          else {
            if (report.diagnostics.nonEmpty) err.println(renderAll(sources, report.diagnostics))
            Exit.Ok
          }
        } catch { case e @ (_: Exception | _: StackOverflowError) => crashed(e, "checking").status }
    }

  private def crashed(e: Throwable, what: String): BuildFailure = {
    err.println(s"absc: internal error: absc crashed while $what the program: $e")
    if (verbose) e.printStackTrace(err) else err.println("absc: (run with -v for the stack trace)")
    BuildFailure(Exit.Compile, s"internal error: $e")
  }

  /**
   * `absc dump`: runs the phases up to `after` (default: `parse`, or `flatten` with `-p`) and
   * prints that phase's value on `out` as the phase shows it: the AST as ABS (each file after a
   * `// FILE` line, in the layout of [[cogs.absc.ast.AbsPrinter]]), the checked program's summary,
   * the IR, the Scala files. What stops a phase is reported as `check` reports it. 0 or 2.
   */
  def dump(sources: List[SourceFile], out: PrintStream, after: Option[String] = None): Int = {
    val last = after.getOrElse(if (program.product.isDefined) pipeline.flatten.name else pipeline.parse.name)
    runPipeline(sources, Some(last), "translating") match {
      case Left(f) => f.status
      case Right((p, value, _)) =>
        try {
          val text = phase("show") { AbsBackend.onLargeStack(pipeline.phases.show(p, value)) }
          out.print(if (text.endsWith("\n")) text else text + "\n")
          out.flush()
          Exit.Ok
        } catch { case e: Exception => crashed(e, "printing").status }
    }
  }

  /** `absc check`: parses and type-checks; prints every diagnostic; 0 or 2. */
  def check(sources: List[SourceFile]): Int =
    runPipeline(sources, Some(pipeline.check.name), "checking").fold(_.status, _ => Exit.Ok)

  /** Runs every phase; prints every diagnostic. The warnings come back rendered. */
  def translate(sources: List[SourceFile]): Either[BuildFailure, (EmittedProgram, String)] =
    runPipeline(sources, None, "translating").map { case (_, generated, warnings) => (generated.asInstanceOf[EmittedProgram], warnings) }

  /** `absc compile`: writes the generated sources under `outDir`. */
  def compileTo(sources: List[SourceFile], outDir: Path): Int =
    translate(sources) match {
      case Left(f) => f.status
      case Right((generated, _)) =>
        writeGenerated(outDir, generated.files ++ monitorFiles) match {
          case Left(f) => f.status
          case Right(written) =>
            note(s"wrote ${written.size} file(s) under $outDir")
            generated.mainObject.foreach(m => note(s"main object: $m"))
            Exit.Ok
        }
    }

  // Monitor sources go with the generated ones, under monitor/ by their file name.
  private def monitorFiles: List[EmittedFile] =
    monitor.toList.flatMap(_.scalaFiles).map(f => EmittedFile("monitor/" + Paths.get(f.relativePath).getFileName, f.text))

  private def writeGenerated(dir: Path, files: List[EmittedFile]): Either[BuildFailure, List[Path]] =
    try Right(CompiledProgram.writeSources(at(dir), files))
    catch {
      case e: IOException =>
        err.println(s"absc: cannot write the generated sources to '$dir': $e")
        Left(BuildFailure(Exit.Compile, s"cannot write to '$dir'"))
    }

  // ------------------------------------------------------------------ Scala to classes, with the cache

  /** A compiled program ready to run, and what to do when it is no longer needed. */
  final class Built(val program: CompiledProgram, val cacheHit: Boolean, cleanup: () => Unit,
      private[driver] val cacheRoot: Option[Path] = None) {
    def close(): Unit = cleanup()
  }

  /**
   * Translates and compiles, or finds the program in the cache. With `keepGenerated`, the
   * generated sources are also written there (from the cache entry on a hit).
   */
  def build(sources: List[SourceFile], cache: CachePolicy, keepGenerated: Option[Path]): Either[BuildFailure, Built] =
    cache match {
      case CachePolicy.Cached(root) =>
        val c = new ClassCache(root)
        val key = phase("cache key") { programKey(sources) }
        c.lookup(key) match {
          case Some(hit) =>
            note(s"cache hit: ${hit.dir}")
            if (hit.warnings.nonEmpty) err.println(hit.warnings)
            keep(keepGenerated, hit.generatedFiles).map(_ => new Built(hit, cacheHit = true, () => (), Some(root)))
          case None =>
            note(s"cache miss: ${c.entryDir(key)}")
            val temp =
              try Some(c.newTempDir(key))
              catch {
                case e: IOException =>
                  err.println(s"absc: warning: cannot write to the cache in $root ($e); compiling without it")
                  None
              }
            temp match {
              case None => build(sources, CachePolicy.NoCache, keepGenerated)
              case Some(temp) =>
                buildInto(temp, sources, keepGenerated) match {
                  case Left(f) => ClassCache.deleteTree(temp); Left(f)
                  case Right(()) =>
                    if (forkedKey(temp).forall(_ == key)) Right(new Built(c.commit(key, temp), cacheHit = false, () => (), Some(root)))
                    else {
                      // A source changed while the other JVM read it: run what it built, cache nothing.
                      note("a source changed during the build; the result is not cached")
                      Right(new Built(new CompiledProgram(temp), cacheHit = false, () => ClassCache.deleteTree(temp)))
                    }
                }
            }
        }
      case CachePolicy.NoCache =>
        val temp = Files.createTempDirectory("absc-")
        buildInto(temp, sources, keepGenerated) match {
          case Left(f) => ClassCache.deleteTree(temp); Left(f)
          case Right(()) => Right(new Built(new CompiledProgram(temp), cacheHit = false, () => ClassCache.deleteTree(temp)))
        }
    }

  private def programKey(sources: List[SourceFile]): String =
    ClassCache.key(sources ++ monitor.toList.flatMap(_.keyParts) ++ program.mainModule.map(m => SourceFile("--main-module", m)) ++
      program.product.map(p => SourceFile("--product", p)),
      Versions.absc, ClassPath.fingerprint(ClassPath.entries))

  /** Translates and compiles into `dir`: in this JVM, or in a compiler JVM if configured. */
  private def buildInto(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[BuildFailure, Unit] =
    fork match {
      case Some(f) =>
        val served = if (monitor.isEmpty) server.map(s => phase("build server") { buildOnServer(s, dir, sources, keepGenerated) }) else None
        val forked = served.flatMap(_.toOption) match {
          case some @ Some(_) => some
          case None =>
            try Some(phase("build JVM") { buildInJvm(f, dir, sources, keepGenerated) })
            catch {
              case e: IOException =>
                note(s"cannot start a compiler JVM ($e); compiling in this one")
                None
            }
        }
        val result = forked.getOrElse(buildHere(dir, sources, keepGenerated))
        // No server ran: start one now, after this build, so that its cold start and warm-up
        // (builds of these sources into a scratch directory) cost this run nothing but a spawn.
        if (result.isRight && served.contains(Left(Driver.NoServer)))
          server.foreach(_.startInBackground(scratch => buildIntoArgs(scratch, sources, None, quiet = true), Paths.get("").toAbsolutePath))
        result
      case None => buildHere(dir, sources, keepGenerated)
    }

  /**
   * The build itself, in this JVM: ABS to Scala (diagnostics on `err`), `--keep-generated`, scalac
   * into `dir`. Writes `dir/failure` with the reason if it fails (read by the JVM that forked this
   * one) and, if `forked`, `dir/key`: the cache key of the sources as this JVM read them.
   */
  def buildHere(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path],
      forked: Boolean = false): Either[BuildFailure, Unit] = {
    val result = translate(sources).flatMap { case (generated, warnings) =>
      keep(keepGenerated, generated.files).flatMap(_ => compileInto(dir, sources, generated, warnings, ClassPath.entries, keepGenerated))
    }
    Files.createDirectories(dir)
    result match {
      case Left(f)   => Files.writeString(dir.resolve("failure"), s"${f.status} ${f.reason}", UTF_8)
      case Right(()) => if (forked) Files.writeString(dir.resolve("key"), programKey(sources), UTF_8)
    }
    result
  }

  private def forkedKey(dir: Path): Option[String] = {
    val f = dir.resolve("key")
    if (Files.isRegularFile(f)) Some(Files.readString(f, UTF_8).trim) else None
  }

  /**
   * Runs `absc build-into` in another JVM with the options of [[CompilerJvm]] (the launcher uses C1
   * only and a class-data archive there: scalac on a cold JVM runs about twice as fast, while the
   * program itself gets the full JIT of this JVM). Its messages are copied to `err`.
   */
  /** The arguments of `absc build-into` for this build (the compiler JVM's and the server's). */
  private def buildIntoArgs(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path], quiet: Boolean = false): List[String] =
    List("build-into", dir.toAbsolutePath.toString) ++
      (if (quiet) Nil else if (debug) List("-v", "-v") else if (verbose) List("-v") else Nil) ++
      keepGenerated.toList.flatMap(d => List("--keep-generated", d.toString)) ++
      monitor.toList.flatMap(m => List("--monitor", m.configFile)) ++
      program.mainModule.toList.flatMap(m => List("--main-module", m)) ++
      program.product.toList.flatMap(p => List("--product", p)) ++
      List("--") ++ sources.map(_.name) ++ monitor.toList.flatMap(_.scalaSources.map(_.name))

  private def buildInJvm(f: CompilerJvm, dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[BuildFailure, Unit] = {
    val (archiveOptions, archiveTemp) = f.archiveOptions()
    val command = List(f.javaCommand) ++ f.options ++ archiveOptions ++
      List("-cp", System.getProperty("java.class.path"), f.mainClass) ++ buildIntoArgs(dir, sources, keepGenerated)
    if (debug) note(s"compiler JVM: ${command.mkString(" ")}")
    err.flush()
    val process = new ProcessBuilder(command: _*)
      .redirectInput(ProcessBuilder.Redirect.from(new java.io.File(if (java.io.File.separatorChar == '/') "/dev/null" else "NUL")))
      .redirectOutput(ProcessBuilder.Redirect.INHERIT)
      .start()
    process.getErrorStream.transferTo(err) // its diagnostics, as if this JVM had printed them
    err.flush()
    val status = process.waitFor()
    if (status == Exit.Ok) archiveTemp.foreach(f.commitArchive) else archiveTemp.foreach(t => Files.deleteIfExists(t))
    afterBuild(status, dir, sources, keepGenerated, "the compiler JVM")
  }

  /**
   * The build on the compile server: what it printed goes out here, as the compiler JVM's would,
   * and its status is read the same way. Left when the server did not build (after a one-line
   * message if it failed; `NoServer`, silently, if none runs): then the compiler JVM builds, so
   * no compile is ever lost to the server.
   */
  private def buildOnServer(s: ServerClient, dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[Driver.NotServed, Either[BuildFailure, Unit]] =
    s.build(buildIntoArgs(dir, sources, keepGenerated), Paths.get("").toAbsolutePath) match {
      case Left(problem) =>
        err.println(s"absc: $problem; compiling without it")
        Left(Driver.ServerFailed)
      case Right(None) =>
        note("no compile server runs yet: building in the compiler JVM, then starting one")
        Left(Driver.NoServer)
      case Right(Some(b)) =>
        note(s"built by the compile server (pid ${b.pid})")
        System.out.write(b.out); System.out.flush()
        err.write(b.err); err.flush()
        Right(afterBuild(b.status, dir, sources, keepGenerated, s"the compile server (pid ${b.pid})"))
    }

  /** After `build-into` elsewhere: success, its reported failure, or (it died first) a build here. */
  private def afterBuild(status: Int, dir: Path, sources: List[SourceFile], keepGenerated: Option[Path], who: String): Either[BuildFailure, Unit] =
    if (status == Exit.Ok) Right(())
    else {
      val failure = dir.resolve("failure")
      if (Files.isRegularFile(failure)) {
        val text = Files.readString(failure, UTF_8)
        val (code, reason) = text.span(_ != ' ')
        Left(BuildFailure(code.toIntOption.getOrElse(Exit.Compile), reason.trim))
      } else {
        // It died before it could say why (it could not start, or crashed): build here instead.
        err.println(s"absc: $who ended with status $status; compiling in this JVM")
        buildHere(dir, sources, keepGenerated)
      }
    }

  private def keep(dir: Option[Path], files: => List[EmittedFile]): Either[BuildFailure, Unit] = dir match {
    case None => Right(())
    case Some(d) => writeGenerated(d, files).map(w => note(s"kept ${w.size} generated file(s) under $d"))
  }

  private val MethodTooLarge = """Method too large: (\S+)\.(\S+) """.r.unanchored

  /**
   * scalac's "Method too large" (the JVM's 64 KB of code per method) as ABS errors at the construct
   * it comes from; a closure of a method (`$anonfun$main$3`) counts as the method.
   */
  private def tooLarge(errors: List[ScalacError], generated: EmittedProgram): List[Diagnostic] =
    errors.flatMap { e =>
      e.message match {
        case MethodTooLarge(cls, method) =>
          val name = method.stripPrefix("$anonfun$").replaceAll("""\$\d+$""", "")
          generated.origins.get(s"$cls.$name").orElse(generated.origins.get(s"$cls.$method")).map { case (pos, what) =>
            Diagnostic.error(pos, s"$what is too large for the JVM, which limits the code of one method to 64 KB: " +
              "split it into smaller methods or functions")
          }
        case _ => None
      }
    }.distinct

  private def compileInto(dir: Path, sources: List[SourceFile], generated: EmittedProgram, warnings: String, classPath: List[Path],
      keepGenerated: Option[Path]): Either[BuildFailure, Unit] = {
    Files.createDirectories(dir)
    CompiledProgram.writeMetadata(dir, generated, warnings)
    val userFiles = monitor.toList.flatMap(_.scalaFiles)
    val errors = phase("scalac") { ScalaCompiler.compile(generated.files ++ userFiles, ClassPath.asString(classPath), dir.resolve("classes")) }
    val inMonitors = errors.filter(e => userFiles.exists(_.relativePath == e.file))
    if (errors.isEmpty) {
      // Next to the classes, so that the program's runner finds them with its class loader.
      generated.lineTables.foreach { t =>
        val file = dir.resolve("classes").resolve(t.relativePath)
        Files.createDirectories(file.getParent)
        Files.writeString(file, t.text, UTF_8)
      }
      Right(())
    }
    else if (inMonitors.nonEmpty) {
      // The monitor sources are the user's: their errors are compile errors, not absc's bugs.
      inMonitors.foreach(e => err.println(e.render))
      val summary = if (inMonitors.size == 1) "1 error" else s"${inMonitors.size} errors"
      err.println(s"absc: $summary in the monitor sources")
      Left(BuildFailure(Exit.Compile, s"the monitor sources do not compile ($summary)"))
    } else if (tooLarge(errors, generated).nonEmpty) {
      // A limit of the JVM, not a bug of absc: say which construct of the model exceeds it.
      Left(reportErrors(sources, tooLarge(errors, generated)))
    } else {
      err.println("absc: internal error: the Scala code absc generated for this program does not compile.")
      err.println("absc: this is a bug in absc, not in the model; scalac reported:")
      val shown = errors.take(MaxScalacErrors)
      shown.foreach(e => err.println(e.render))
      if (errors.size > shown.size) err.println(s"absc: ... and ${errors.size - shown.size} more")
      keepGenerated match {
        case Some(d) => err.println(s"absc: the generated sources are in $d")
        case None    => err.println("absc: to inspect the generated sources, run again with --keep-generated DIR")
      }
      Left(BuildFailure(Exit.Compile, s"internal error: the generated Scala code does not compile (${errors.head.file}:${errors.head.line})"))
    }
  }

  // ------------------------------------------------------------------ running

  /**
   * Runs the program's main object in this JVM, in a fresh class loader, on a new thread, and
   * returns how it ended. `programErr` receives the runner's failure report; `output` the program's
   * text (standard output unless given). With a timeout, a program still running then is stopped
   * (`ProgramRunner.Session.stop`: its output takes nothing more, its runtime's workers are
   * interrupted and end at the next check point of the generated loops) and fails; if its threads
   * do not end (code without a check point), they are left behind as daemons and the failure says so.
   */
  def execute(built: Built, args: Array[String], programErr: PrintStream, timeoutMillis: Long = 0L,
      output: cogs.absc.lib.Output = Out.stdout): ProgramRunner.Outcome =
    built.program.mainObject match {
      case None => ProgramRunner.Outcome(Exit.Compile, None, Some("the program has no main block"))
      case Some(mainObject) =>
        // --classpath: the classes of --foreign implementations, found by the model's own loader.
        val extra = program.classpath.map(p => at(Paths.get(p)).toAbsolutePath.toUri.toURL)
        val loader = new URLClassLoader("absc-program", (built.program.classes.toUri.toURL :: extra).toArray, getClass.getClassLoader)
        val session = new ProgramRunner.Session(verbose, programErr, output)
        @volatile var result: ProgramRunner.Outcome = null
        val thread = new Thread(() => {
          result =
            try ProgramRunner.withSession(session)(invokeMain(loader, mainObject, args, session))
            catch {
              case e: Throwable => // an Error out of the program's main, outside the runner's reach
                output.flush()
                session.err.println(s"absc: the program failed: ${ProgramRunner.describe(e)}")
                if (verbose) e.printStackTrace(session.err)
                ProgramRunner.Outcome(Exit.Failure, None, Some(ProgramRunner.describe(e)))
            }
        }, "absc-main")
        thread.setDaemon(true)
        thread.setContextClassLoader(loader)
        withWorkers {
          phase("run") {
            thread.start()
            if (timeoutMillis > 0) thread.join(timeoutMillis) else thread.join()
          }
        }
        if (thread.isAlive) {
          val timedOut = s"timed out after ${timeoutMillis / 1000.0} s"
          // The runtime waits cogs.shutdown-timeout for its workers; the runner's thread returns
          // once its rt.run is woken, which the stop does last.
          val stopped = session.stop()
          thread.join(StopGraceMillis)
          if (stopped && !thread.isAlive) {
            loader.close()
            ProgramRunner.Outcome(Exit.Failure, None, Some(s"$timedOut (stopped)"))
          } else ProgramRunner.Outcome(Exit.Failure, None, Some(s"$timedOut; it could not be stopped (a process runs code " +
            "without a check point, e.g. a foreign class or a recursive function), so its threads keep running in this JVM"))
        } else {
          loader.close()
          result
        }
    }

  /**
   * `--workers N`, `--record FILE`, `--replay FILE`, `--port N`: the program's runtime is configured from the
   * system properties (through Typesafe Config, which caches them; the runner reads the schedule
   * ones), so the properties are set, and the caches dropped, for the run. The program runs in
   * this JVM and only one at a time, so that is all it affects.
   */
  private def withWorkers[A](body: => A): A = {
    val props = runProperties
    if (props.isEmpty) body
    else {
      val before = props.map { case (k, _) => k -> Option(System.getProperty(k)) }
      props.foreach { case (k, v) => System.setProperty(k, v) }
      com.typesafe.config.ConfigFactory.invalidateCaches()
      try body
      finally {
        before.foreach { case (k, b) => b.fold(System.clearProperty(k))(System.setProperty(k, _)) }
        com.typesafe.config.ConfigFactory.invalidateCaches()
      }
    }
  }

  /** The system properties that carry the run's options to the program's runtime (this JVM's, or a node's). */
  private def runProperties: List[(String, String)] =
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

  private def invokeMain(loader: ClassLoader, mainObject: String, args: Array[String],
      session: ProgramRunner.Session): ProgramRunner.Outcome = {
    def internal(message: String): ProgramRunner.Outcome = {
      session.err.println(s"absc: internal error: $message")
      ProgramRunner.Outcome(Exit.Compile, None, Some(s"internal error: $message"))
    }
    val main =
      try {
        val m = Class.forName(mainObject, true, loader).getMethod("main", classOf[Array[String]])
        if (Modifier.isStatic(m.getModifiers)) Right(m) else Left(s"$mainObject.main is not static")
      } catch {
        case e: ClassNotFoundException => Left(s"the main object $mainObject was not generated ($e)")
        case e: NoSuchMethodException  => Left(s"$mainObject has no main(Array[String]) ($e)")
        case e: LinkageError           => Left(s"$mainObject cannot be loaded: $e")
      }
    main match {
      case Left(message) => internal(message)
      case Right(m) =>
        try {
          m.invoke(null, args)
          Option(session.outcome).getOrElse(ProgramRunner.Outcome(Exit.Ok, None, None)) // a main without the runner
        } catch {
          case e: InvocationTargetException =>
            val cause = Option(e.getCause).getOrElse(e)
            session.output.flush()
            session.err.println(s"absc: the program failed: ${ProgramRunner.describe(cause)}")
            if (verbose) cause.printStackTrace(session.err)
            ProgramRunner.Outcome(Exit.Failure, None, Some(ProgramRunner.describe(cause)))
        }
    }
  }

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
                val extra = program.classpath.map(p => at(Paths.get(p)).toAbsolutePath.toString)
                val classPath = (built.program.classes.toAbsolutePath.toString :: extra) ++ distributed
                phase("run") { Nodes.run(plan, classPath, mainObject, args, runProperties, javaOptions, err) }
            } finally built.close()
        }
    }

  /** `absc package`: build (through the cache) and write the program's directory (see [[Packager]]). */
  def packageTo(sources: List[SourceFile], cache: CachePolicy, out: Path, name: String, cluster: Boolean = false): Int = {
    val distributed =
      if (!cluster) Right(Nil)
      else Nodes.distributedClassPath.map(_.map(Paths.get(_)).filter(p => Files.exists(p)))
    distributed match {
      case Left(why) => err.println(s"absc: $why"); Exit.Compile
      case Right(extra) => packageWith(sources, cache, out, name, extra, cluster)
    }
  }

  private def packageWith(sources: List[SourceFile], cache: CachePolicy, out: Path, name: String, distributed: List[Path],
      cluster: Boolean): Int =
    build(sources, cache, None) match {
      case Left(f) => f.status
      case Right(built) =>
        try built.program.mainObject match {
          case None =>
            err.println("absc: nothing to package: the program has no main block")
            Exit.Compile
          case Some(main) =>
            try {
              val libRoot = built.cacheRoot.getOrElse(built.program.dir)
              phase("package") {
                val own = FastRun.runClassPath(ClassPath.entries, libRoot)
                // The distributed module's jars that the program's class path does not have yet (by file name).
                // (scala-library: the program's is a copy named after its hash.)
                val names = own.map(_.getFileName.toString).toSet
                val library = names.exists(_.startsWith("scala-library"))
                val extra = distributed.filter { p =>
                  val n = p.getFileName.toString
                  Files.isRegularFile(p) && !names(n) && !(library && n.startsWith("scala-library"))
                }.distinct
                // --foreign/--classpath: the implementations' classes go into lib/ with the rest, and
                // the bindings into the launcher (the properties `absc run` sets around its run).
                val foreignClasses = program.classpath.map(p => Paths.get(p).toAbsolutePath.normalize)
                val foreignProps = program.foreign.toList.sorted.map { case (abs, impl) => cogs.absc.lib.Foreign.property(abs) -> impl }
                Packager.write(built.program, main, FastRun.programJar(built.program), own ++ extra, out, name, Versions.absc,
                  cluster, foreignClasses, foreignProps)
              }
              err.println(s"absc: wrote ${out.resolve("bin").resolve(name)} (run it; it needs only a Java 17 or newer)")
              if (cluster) err.println(s"absc: wrote ${out.resolve("bin").resolve("run")} (one node: run --node NAME --config FILE)")
              Exit.Ok
            } catch {
              case e @ (_: IOException | _: java.io.UncheckedIOException | _: SecurityException) =>
                err.println(s"absc: cannot write the package into $out: $e")
                Exit.Compile
            }
        } finally built.close()
    }

  /** The launcher's index for the next run of these sources (see [[FastRun]]); never fails the run. */
  private def recordFastPath(built: Built, sources: List[SourceFile]): Unit =
    for (req <- fastRequest; root <- built.cacheRoot) {
      val files = sources.map(s => s.name -> s.digest)
      if (files.forall(_._2.nonEmpty))
        try {
          val written = phase("fast index") { FastRun.record(req, built.program, files, root) }
          note(if (written) s"fast path: wrote ${req.index}" else "fast path: no index (the sources or absc changed since the launcher looked)")
        } catch {
          // The index only saves time: whatever goes wrong with it, the program runs.
          case e @ (_: IOException | _: java.io.UncheckedIOException | _: SecurityException) =>
            note(s"fast path: cannot write ${req.index} ($e)")
        }
    }

  /**
   * `absc test`: each file is a program of its own whose main block declares `Bool testresult`;
   * it passes if it ends normally with `testresult` True. One line per file on `out`, then
   * `N passed, N failed`. The output of a program, and the runner's report, are shown on `err`
   * only when it fails (always, with -v).
   */
  def test(files: List[SourceFile], out: PrintStream, cache: CachePolicy, keepGenerated: Option[Path],
      timeoutMillis: Long): Int = {
    var passed = 0
    var failed = 0
    for (file <- files) {
      val keepHere = keepGenerated.map(d => if (files.size > 1) d.resolve(testDirName(file.name)) else d)
      val verdict: Either[String, Unit] = build(List(file), cache, keepHere) match {
        case Left(f) => Left(f.reason)
        case Right(built) =>
          try {
            val report = new ByteArrayOutputStream
            val reportStream = new PrintStream(report, true, UTF_8)
            // An output of its own: a model stopped after a timeout writes nothing into the next one's.
            val captured = new ByteArrayOutputStream
            val programOut = new cogs.absc.lib.Output(captured, autoFlush = false, intervalNanos = 0L)
            val outcome = execute(built, Array.empty, reportStream, timeoutMillis, programOut)
            programOut.close()
            val output = captured.toString(UTF_8)
            val verdict =
              if (outcome.status != Exit.Ok) Left(outcome.failure.getOrElse(s"exit status ${outcome.status}"))
              else outcome.testResult match {
                case Some(true)  => Right(())
                case Some(false) => Left("testresult is False")
                case None        => Left("the main block declares no 'Bool testresult'")
              }
            if (verdict.isLeft || verbose) {
              if (output.nonEmpty) {
                err.print(output)
                if (!output.endsWith("\n")) err.println()
              }
              err.print(report.toString(UTF_8))
            }
            verdict
          } finally built.close()
      }
      verdict match {
        case Right(()) => passed += 1; out.println(s"PASS ${file.name}")
        case Left(why) => failed += 1; out.println(s"FAIL ${file.name}: $why")
      }
      out.flush()
      err.flush()
    }
    out.println(s"$passed passed, $failed failed")
    out.flush()
    if (failed == 0) Exit.Ok else Exit.Failure
  }

  private def testDirName(name: String): String =
    Paths.get(name).getFileName.toString.stripSuffix(".abs").replaceAll("[^A-Za-z0-9._-]", "_")

  private final val MaxScalacErrors = 20

  /** How long a stopped program's main thread may take to return after its runtime stopped. */
  private final val StopGraceMillis = 5000L
}

object Driver {
  /** Why the compile server did not build: none ran (one is started after the build), or it failed. */
  private[driver] sealed trait NotServed
  private[driver] case object NoServer extends NotServed
  private[driver] case object ServerFailed extends NotServed

  /**
   * The command line's FILEs with each directory replaced by the `.abs` files under it (at any
   * depth, sorted by path); a file named twice is read once. A directory without one is an error.
   */
  def expandInputs(names: List[String]): Either[String, List[String]] = {
    val expanded = List.newBuilder[String]
    for (name <- names) {
      val p = try Some(Paths.get(name)) catch { case _: java.nio.file.InvalidPathException => None }
      p.filter(Files.isDirectory(_)) match {
        case None => expanded += name // read (or reported as unreadable) later
        case Some(dir) =>
          val found =
            try {
              val walk = Files.walk(dir)
              try {
                import scala.jdk.CollectionConverters._
                walk.iterator.asScala.filter(f => f.getFileName.toString.endsWith(".abs") && Files.isRegularFile(f))
                  .map(_.toString).toList.sorted
              } finally walk.close()
            } catch {
              case e @ (_: IOException | _: java.io.UncheckedIOException) =>
                return Left(s"cannot read the directory '$name': ${Option(e.getMessage).getOrElse(e.getClass.getSimpleName)}")
            }
          if (found.isEmpty) return Left(s"no .abs file in the directory '$name'")
          expanded ++= found
      }
    }
    val seen = scala.collection.mutable.HashSet.empty[Path]
    Right(expanded.result().filter { n =>
      try seen.add(Paths.get(n).toAbsolutePath.normalize) catch { case _: java.nio.file.InvalidPathException => true }
    })
  }
}

/**
 * How to start the JVM that builds programs for `absc run` (see `Driver.buildInJvm`). The launcher
 * sets `-Dabsc.compiler.jvm.options=...` (options separated by spaces) and, optionally,
 * `-Dabsc.compiler.jvm.archive=FILE`: a dynamic class-data-sharing archive, dumped by the first
 * compiler JVM and mapped by the next ones.
 */
final case class CompilerJvm(javaCommand: String, options: List[String], archive: Option[Path],
    mainClass: String = "cogs.absc.driver.Main") {

  /** The options for the archive, and the temporary file a dump goes to (renamed on success). */
  def archiveOptions(): (List[String], Option[Path]) = archive match {
    case None => (Nil, None)
    case Some(_) if !ClassPath.entries.forall(Files.isRegularFile(_)) => (Nil, None) // CDS takes jars only
    case Some(a) if Files.isRegularFile(a) => (List(s"-XX:SharedArchiveFile=$a", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), None)
    case Some(a) =>
      val temp = a.resolveSibling(s"${a.getFileName}.${ProcessHandle.current().pid()}.tmp")
      (List(s"-XX:ArchiveClassesAtExit=$temp", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), Some(temp))
  }

  def commitArchive(temp: Path): Unit =
    if (Files.isRegularFile(temp) && archive.isDefined)
      try Files.move(temp, archive.get, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING)
      catch { case _: IOException => Files.deleteIfExists(temp) }
}

object CompilerJvm {
  def fromSystemProperties: Option[CompilerJvm] =
    sys.props.get("absc.compiler.jvm.options").map { opts =>
      val javaCommand = Paths.get(System.getProperty("java.home"), "bin", "java").toString
      CompilerJvm(javaCommand, opts.trim.split("\\s+").toList.filter(_.nonEmpty),
        sys.props.get("absc.compiler.jvm.archive").filter(_.nonEmpty).map(Paths.get(_)),
        sys.props.getOrElse("absc.compiler.jvm.main", "cogs.absc.driver.Main"))
    }
}

/** Versions shown by `absc --version` and used in the cache key. */
object Versions {

  /** From the jar's manifest; `dev` when absc runs from a classes directory (tests, IDE). */
  lazy val absc: String = Option(classOf[Driver].getPackage.getImplementationVersion).getOrElse("dev")

  def scalaVersion: String = _root_.scala.util.Properties.versionNumberString

  def runtimeVersion: String =
    Option(classOf[cogs.runtime.CogRuntime].getPackage.getImplementationVersion).getOrElse("dev")

  def javaVersion: String = s"${System.getProperty("java.version")} (${System.getProperty("java.vm.name")})"
}
