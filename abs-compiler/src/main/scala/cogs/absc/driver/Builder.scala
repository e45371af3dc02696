package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

/** Why a program could not be built: the exit status and a one-line reason (for `absc test`). */
final case class BuildFailure(status: Int, reason: String)

/**
 * Translates and compiles one program into a directory laid out as a cache entry
 * ([[CompiledProgram]]); diagnostics go to the user as the build finds them. Three ways:
 * [[InProcessBuilder]] (in this JVM), [[ForkedBuilder]] (`absc build-into` in a compiler JVM,
 * falling back to this JVM if that one cannot start or dies) and [[ServerBuilder]] (on the
 * compile server, falling back to a compiler JVM). Whichever builds, the directory and the
 * messages are the same.
 */
private[driver] trait Builder {
  def buildInto(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[BuildFailure, Unit]
}

private[driver] object Builder {

  /**
   * After `build-into` in another process (`who`): success, its reported failure (`dir/failure`),
   * or (it died before it could say why) the build in this JVM by `here`.
   */
  def afterRemote(status: Int, dir: Path, sources: List[SourceFile], keepGenerated: Option[Path], who: String,
      reporter: Reporter, here: Builder): Either[BuildFailure, Unit] =
    if (status == Exit.Ok) Right(())
    else {
      val failure = dir.resolve("failure")
      if (Files.isRegularFile(failure)) {
        val text = Files.readString(failure, UTF_8)
        val (code, reason) = text.span(_ != ' ')
        Left(BuildFailure(code.toIntOption.getOrElse(Exit.Compile), reason.trim))
      } else {
        reporter.err.println(s"absc: $who ended with status $status; compiling in this JVM")
        here.buildInto(dir, sources, keepGenerated)
      }
    }
}

/**
 * The command line of `absc build-into` for a build in another process (the compiler JVM's and the
 * compile server's): the same program options, monitor and verbosity as this one.
 */
private[driver] final class BuildIntoArgs(reporter: Reporter, monitor: Option[MonitorSetup], program: ProgramOptions) {
  def apply(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path], quiet: Boolean = false): List[String] =
    List("build-into", dir.toAbsolutePath.toString) ++
      (if (quiet) Nil else if (reporter.debug) List("-v", "-v") else if (reporter.verbose) List("-v") else Nil) ++
      keepGenerated.toList.flatMap(d => List("--keep-generated", d.toString)) ++
      monitor.toList.flatMap(m => List("--monitor", m.configFile)) ++
      program.mainModule.toList.flatMap(m => List("--main-module", m)) ++
      program.product.toList.flatMap(p => List("--product", p)) ++
      List("--") ++ sources.map(_.name) ++ monitor.toList.flatMap(_.scalaSources.map(_.name))
}
