package cogs.absc.driver

import java.io.IOException
import java.nio.file.{Files, Path}

/**
 * Runs `absc build-into` in another JVM with the options of [[CompilerJvm]] (the launcher uses C1
 * only and a class-data archive there: scalac on a cold JVM runs about twice as fast, while the
 * program itself gets the full JIT of this JVM). Its messages are copied to the reporter's stream.
 * If it cannot start, or dies without saying why, `here` builds in this JVM.
 */
private[driver] final class ForkedBuilder(jvm: CompilerJvm, args: BuildIntoArgs, reporter: Reporter, here: Builder)
    extends Builder {
  import reporter.{err, note}

  def buildInto(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[BuildFailure, Unit] =
    try reporter.phase("build JVM") { buildInJvm(dir, sources, keepGenerated) }
    catch {
      case e: IOException =>
        note(s"cannot start a compiler JVM ($e); compiling in this one")
        here.buildInto(dir, sources, keepGenerated)
    }

  private def buildInJvm(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[BuildFailure, Unit] = {
    val (archiveOptions, archiveTemp) = jvm.archiveOptions()
    val command = List(jvm.javaCommand) ++ jvm.options ++ archiveOptions ++
      List("-cp", System.getProperty("java.class.path"), jvm.mainClass) ++ args(dir, sources, keepGenerated)
    if (reporter.debug) note(s"compiler JVM: ${command.mkString(" ")}")
    err.flush()
    val process = new ProcessBuilder(command: _*)
      .redirectInput(ProcessBuilder.Redirect.from(new java.io.File(if (java.io.File.separatorChar == '/') "/dev/null" else "NUL")))
      .redirectOutput(ProcessBuilder.Redirect.INHERIT)
      .start()
    process.getErrorStream.transferTo(err) // its diagnostics, as if this JVM had printed them
    err.flush()
    val status = process.waitFor()
    if (status == Exit.Ok) archiveTemp.foreach(jvm.commitArchive) else archiveTemp.foreach(t => Files.deleteIfExists(t))
    Builder.afterRemote(status, dir, sources, keepGenerated, "the compiler JVM", reporter, here)
  }
}
