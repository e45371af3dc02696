package cogs.absc.driver

import java.io.IOException
import java.nio.file.{Files, Path, Paths}

/**
 * How to start the JVM that builds programs for `absc run` (see [[ForkedBuilder]]). The launcher
 * sets `-Dabsc.compiler.jvm.options=...` (options separated by spaces) and, optionally,
 * `-Dabsc.compiler.jvm.archive=FILE`: a dynamic class-data-sharing archive, dumped by the first
 * compiler JVM and mapped by the next ones ([[ClassData.forCompiler]]; none under `ABSC_NO_CDS`).
 */
final case class CompilerJvm(javaCommand: String, options: List[String], archive: Option[Path],
    mainClass: String = "cogs.absc.driver.Main") {

  /** The options for the archive (the choice is [[ClassData]]'s), and the temporary file a dump goes to (renamed on success). */
  def archiveOptions(): (List[String], Option[Path]) = archive match {
    case None => (Nil, None)
    case Some(_) if !ClassPath.entries.forall(Files.isRegularFile(_)) => (Nil, None) // CDS takes jars only
    case Some(a) =>
      ClassData.forCompiler(a).options(Files.isRegularFile(a) && Files.size(a) > 0, ProcessHandle.current().pid())
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
        sys.props.get("absc.compiler.jvm.archive").filter(_.nonEmpty).filterNot(_ => ClassData.disabled(sys.env.get)).map(Paths.get(_)),
        sys.props.getOrElse("absc.compiler.jvm.main", "cogs.absc.driver.Main"))
    }
}
