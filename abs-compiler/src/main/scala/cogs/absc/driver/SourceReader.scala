package cogs.absc.driver

import java.io.IOException
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{AccessDeniedException, Files, NoSuchFileException, Path, Paths}

import cogs.absc.diag.Diagnostic
import cogs.absc.parse.SourceText

/**
 * Reads the sources of a command. `baseDir`: where relative file names are resolved; None, this
 * JVM's directory; in the compile server, the client's (a JVM cannot change its own). Names are
 * still printed as given.
 */
private[driver] final class SourceReader(reporter: Reporter, baseDir: Option[Path]) {
  import reporter.err

  def at(p: Path): Path = baseDir.fold(p)(_.resolve(p))

  /**
   * Reads every file, or reports the first that cannot be read (`absc: cannot read 'x.abs': ...`).
   * A file that is not valid UTF-8 is a compile error at the bad bytes (all such files are
   * reported, then `absc: N errors`).
   */
  def read(names: List[String]): Either[BuildFailure, List[SourceFile]] = {
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
}

private[driver] object SourceReader {
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
