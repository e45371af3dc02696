package cogs.absc.driver

import java.io.PrintStream
import java.nio.file.{Path, Paths}

import cogs.absc.ast.CompilationUnit
import cogs.absc.emit.{EmittedFile, EmittedProgram}
import cogs.absc.spl.Flatten

/**
 * absc's phases ([[Pipeline]]) as the commands run them: each phase timed, what stops one reported
 * (diagnostics with their source lines, or one line), the warnings of `check` printed as soon as
 * they are known. The commands that end with the pipeline's output (`check`, `dump`, `products`,
 * `check --product-line`, `compile`) are here; the others hand [[translate]]'s program to a
 * [[Builder]].
 */
private[driver] final class Translator(val pipeline: Pipeline, reporter: Reporter, generated: GeneratedSources,
    monitor: Option[MonitorSetup], program: ProgramOptions) {
  import reporter.{err, phase}

  /**
   * Runs the pipeline up to `last` (None: to the end). Prints what stops it and the warnings of
   * `check`; gives the last value with the phase that made it, and the warnings as printed.
   * `what`: what absc was doing, if it crashes.
   */
  private def runPipeline(sources: List[SourceFile], last: Option[String], what: String)
      : Either[BuildFailure, (Phase[_, _], Any, String)] = {
    var warnings = ""
    val step: (Phase[_, _], () => Either[Stop, Any]) => Either[Stop, Any] = { (p, run) =>
      val result = phase(p.name)(run())
      result match {
        case Right(c: CheckedProgram[_]) if p eq pipeline.check =>
          warnings = reporter.render(sources, c.warnings)
          if (warnings.nonEmpty) err.println(warnings)
        case _ =>
      }
      result
    }
    val result =
      try pipeline.phases.runUntil(sources, last, step)
      catch { case e @ (_: Exception | _: StackOverflowError) => return Left(reporter.crashed(e, what)) }
    result match {
      case Left(Stop.Diagnostics(ds)) => Left(reporter.errors(sources, ds))
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
        case Left(ds) => reporter.errors(sources, ds).status
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
          if (report.diagnostics.exists(_.isError)) reporter.errors(sources, report.diagnostics).status
          else {
            if (report.diagnostics.nonEmpty) err.println(reporter.render(sources, report.diagnostics))
            Exit.Ok
          }
        } catch { case e @ (_: Exception | _: StackOverflowError) => reporter.crashed(e, "checking").status }
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
        } catch { case e: Exception => reporter.crashed(e, "printing").status }
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
      case Right((emitted, _)) =>
        generated.write(outDir, emitted.files ++ monitorFiles) match {
          case Left(f) => f.status
          case Right(written) =>
            reporter.note(s"wrote ${written.size} file(s) under $outDir")
            emitted.mainObject.foreach(m => reporter.note(s"main object: $m"))
            Exit.Ok
        }
    }

  // Monitor sources go with the generated ones, under monitor/ by their file name.
  private def monitorFiles: List[EmittedFile] =
    monitor.toList.flatMap(_.scalaFiles).map(f => EmittedFile("monitor/" + Paths.get(f.relativePath).getFileName, f.text))
}
