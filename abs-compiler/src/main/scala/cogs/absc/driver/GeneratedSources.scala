package cogs.absc.driver

import java.io.IOException
import java.nio.file.Path

import cogs.absc.emit.EmittedFile

/** Writes generated Scala sources where the user asked (`compile -d`, `--keep-generated`). */
private[driver] final class GeneratedSources(reporter: Reporter, sources: SourceReader) {

  def write(dir: Path, files: List[EmittedFile]): Either[BuildFailure, List[Path]] =
    try Right(CompiledProgram.writeSources(sources.at(dir), files))
    catch {
      case e: IOException =>
        reporter.err.println(s"absc: cannot write the generated sources to '$dir': $e")
        Left(BuildFailure(Exit.Compile, s"cannot write to '$dir'"))
    }

  /** `--keep-generated DIR`, if given: the files under DIR. */
  def keep(dir: Option[Path], files: => List[EmittedFile]): Either[BuildFailure, Unit] = dir match {
    case None => Right(())
    case Some(d) => write(d, files).map(w => reporter.note(s"kept ${w.size} generated file(s) under $d"))
  }
}
