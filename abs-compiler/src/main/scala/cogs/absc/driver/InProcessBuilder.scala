package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import cogs.absc.diag.Diagnostic
import cogs.absc.emit.EmittedProgram

/**
 * The build in this JVM: ABS to Scala ([[Translator]]; diagnostics on the reporter's stream),
 * `--keep-generated`, scalac into the directory, scalac's errors mapped back to the model where
 * they come from a limit of the JVM. Writes `dir/failure` with the reason if it fails (read by the
 * JVM that forked this one) and, when `forked`, `dir/key`: the cache key of the sources as this
 * JVM read them (`keyOf`; see [[BuildCache]]).
 */
private[driver] final class InProcessBuilder(translator: Translator, generated: GeneratedSources, reporter: Reporter,
    monitor: Option[MonitorSetup], keyOf: List[SourceFile] => String, forked: Boolean = false) extends Builder {
  import reporter.{err, phase}

  def buildInto(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[BuildFailure, Unit] = {
    val result = translator.translate(sources).flatMap { case (emitted, warnings) =>
      generated.keep(keepGenerated, emitted.files).flatMap(_ => compileInto(dir, sources, emitted, warnings, ClassPath.entries, keepGenerated))
    }
    Files.createDirectories(dir)
    result match {
      case Left(f)   => Files.writeString(dir.resolve("failure"), s"${f.status} ${f.reason}", UTF_8)
      case Right(()) => if (forked) Files.writeString(dir.resolve("key"), keyOf(sources), UTF_8)
    }
    result
  }

  private val MethodTooLarge = """Method too large: (\S+)\.(\S+) """.r.unanchored

  /**
   * scalac's "Method too large" (the JVM's 64 KB of code per method) as ABS errors at the construct
   * it comes from; a closure of a method (`$anonfun$main$3`) counts as the method.
   */
  private def tooLarge(errors: List[ScalacError], emitted: EmittedProgram): List[Diagnostic] =
    errors.flatMap { e =>
      e.message match {
        case MethodTooLarge(cls, method) =>
          val name = method.stripPrefix("$anonfun$").replaceAll("""\$\d+$""", "")
          emitted.origins.get(s"$cls.$name").orElse(emitted.origins.get(s"$cls.$method")).map { case (pos, what) =>
            Diagnostic.error(pos, s"$what is too large for the JVM, which limits the code of one method to 64 KB: " +
              "split it into smaller methods or functions")
          }
        case _ => None
      }
    }.distinct

  private def compileInto(dir: Path, sources: List[SourceFile], emitted: EmittedProgram, warnings: String, classPath: List[Path],
      keepGenerated: Option[Path]): Either[BuildFailure, Unit] = {
    Files.createDirectories(dir)
    CompiledProgram.writeMetadata(dir, emitted, warnings)
    val userFiles = monitor.toList.flatMap(_.scalaFiles)
    val errors = phase("scalac") { ScalaCompiler.compile(emitted.files ++ userFiles, ClassPath.asString(classPath), dir.resolve("classes")) }
    val inMonitors = errors.filter(e => userFiles.exists(_.relativePath == e.file))
    if (errors.isEmpty) {
      // Next to the classes, so that the program's runner finds them with its class loader.
      emitted.lineTables.foreach { t =>
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
    } else if (tooLarge(errors, emitted).nonEmpty) {
      // A limit of the JVM, not a bug of absc: say which construct of the model exceeds it.
      Left(reporter.errors(sources, tooLarge(errors, emitted)))
    } else {
      err.println("absc: internal error: the Scala code absc generated for this program does not compile.")
      err.println("absc: this is a bug in absc, not in the model; scalac reported:")
      val shown = errors.take(InProcessBuilder.MaxScalacErrors)
      shown.foreach(e => err.println(e.render))
      if (errors.size > shown.size) err.println(s"absc: ... and ${errors.size - shown.size} more")
      keepGenerated match {
        case Some(d) => err.println(s"absc: the generated sources are in $d")
        case None    => err.println("absc: to inspect the generated sources, run again with --keep-generated DIR")
      }
      Left(BuildFailure(Exit.Compile, s"internal error: the generated Scala code does not compile (${errors.head.file}:${errors.head.line})"))
    }
  }
}

private[driver] object InProcessBuilder {
  private final val MaxScalacErrors = 20
}
