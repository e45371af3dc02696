package cogs.absc.driver

import cogs.absc.emit.{EmittedFile, EmittedProgram}

import java.io.IOException
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths, StandardCopyOption}
import java.nio.file.attribute.FileTime
import java.security.MessageDigest

import scala.jdk.CollectionConverters._
import scala.util.Using

/**
 * A source file as absc read it: the name it was given on the command line and its text; and the
 * SHA-256 of the bytes read, in hex, when absc read it from a file (for the launcher's fast path,
 * [[FastRun]]; not part of equality).
 */
final case class SourceFile(name: String, text: String) {
  private[driver] var digest: String = ""
}

/**
 * The compiled form of a program, in a directory:
 * {{{
 * classes/      the class files scalac wrote
 * src/          the generated Scala sources (for --keep-generated on a cache hit)
 * main          the main object's name (empty: the program has no main block)
 * warnings      absc's warnings about the program, rendered (shown again on a cache hit)
 * }}}
 */
final class CompiledProgram(val dir: Path) {
  def classes: Path = dir.resolve("classes")
  def sources: Path = dir.resolve("src")
  def mainObject: Option[String] = Some(read("main").trim).filter(_.nonEmpty)
  def warnings: String = read("warnings")

  /** The generated sources, read back. */
  def generatedFiles: List[EmittedFile] =
    if (!Files.isDirectory(sources)) Nil
    else
      Using.resource(Files.walk(sources)) { s =>
        s.iterator.asScala.filter(Files.isRegularFile(_)).toList.sortBy(_.toString).map { f =>
          EmittedFile(sources.relativize(f).toString.replace(java.io.File.separatorChar, '/'), Files.readString(f, UTF_8))
        }
      }

  private def read(name: String): String = {
    val f = dir.resolve(name)
    if (Files.isRegularFile(f)) Files.readString(f, UTF_8) else ""
  }
}

object CompiledProgram {

  /** Writes everything but the classes (scalac writes those into `classes`). */
  def writeMetadata(dir: Path, generated: EmittedProgram, warnings: String): Unit = {
    Files.createDirectories(dir.resolve("classes"))
    writeSources(dir.resolve("src"), generated.files)
    Files.writeString(dir.resolve("warnings"), warnings, UTF_8)
    Files.writeString(dir.resolve("main"), generated.mainObject.getOrElse(""), UTF_8)
  }

  /** Writes generated files under `root`, refusing paths that would leave it. */
  def writeSources(root: Path, files: List[EmittedFile]): List[Path] = {
    val base = root.toAbsolutePath.normalize
    files.map { f =>
      val target = base.resolve(f.relativePath).normalize
      if (!target.startsWith(base) || target == base)
        throw new IOException(s"generated file '${f.relativePath}' is not inside the output directory")
      Files.createDirectories(target.getParent)
      Files.writeString(target, f.text, UTF_8)
      target
    }
  }
}

/**
 * absc's cache of compiled programs, one directory per program under `root`, named by a
 * SHA-256 of everything the class files depend on: the ABS sources (names and texts), absc's
 * version, Scala's version, the Java version, scalac's options and a fingerprint of absc's class
 * path (so a rebuilt absc or runtime never reuses old classes). A hit skips parsing, checking,
 * emission and scalac.
 *
 * Entries are built in a private temporary directory and renamed into place, so concurrent absc
 * runs never see a half-written entry; if two build the same entry, one rename wins and the other
 * copy is dropped. The cache keeps the [[MaxEntries]] most recently used entries.
 */
final class ClassCache(val root: Path) {
  import ClassCache._

  def entryDir(key: String): Path = root.resolve(key)

  /** The entry for `key`, if it was completed; marks it as recently used. */
  def lookup(key: String): Option[CompiledProgram] = {
    val dir = entryDir(key)
    if (Files.isRegularFile(dir.resolve("main")) && Files.isDirectory(dir.resolve("classes"))) {
      try Files.setLastModifiedTime(dir, FileTime.fromMillis(System.currentTimeMillis()))
      catch { case _: IOException => () } // a read-only cache still works
      Some(new CompiledProgram(dir))
    } else None
  }

  /** A fresh directory to build an entry in; hand it to [[commit]]. */
  def newTempDir(key: String): Path = {
    Files.createDirectories(root)
    Files.createTempDirectory(root, s"tmp-${key.take(16)}-")
  }

  /** Moves a complete entry into place and returns it (another run's entry if it was faster). */
  def commit(key: String, temp: Path): CompiledProgram = {
    val dir = entryDir(key)
    try Files.move(temp, dir, StandardCopyOption.ATOMIC_MOVE)
    catch {
      case e: IOException =>
        // Another run committed the same entry first (rename(2) fails with EEXIST or ENOTEMPTY).
        deleteTree(temp)
        if (lookup(key).isEmpty) throw e
    }
    prune()
    new CompiledProgram(dir)
  }

  /** Keeps the most recently used entries; removes temporary directories left by killed runs. */
  def prune(): Unit = try {
    val children = Using.resource(Files.list(root))(_.iterator.asScala.toList)
    val now = System.currentTimeMillis()
    val (temps, entries) = children.partition(_.getFileName.toString.startsWith("tmp-"))
    temps.filter(t => now - Files.getLastModifiedTime(t).toMillis > StaleTempMillis).foreach(deleteTree)
    val complete = entries.filter(d => Files.isDirectory(d) && d.getFileName.toString.length == 64)
    if (complete.size > MaxEntries)
      complete.sortBy(d => -Files.getLastModifiedTime(d).toMillis).drop(MaxEntries).foreach(deleteTree)
    // The launcher's fast-path indexes were here (format absc-fast-1); they are in abs-compiler/target now.
    if (Files.isDirectory(root.resolve("fast"))) deleteTree(root.resolve("fast"))
  } catch { case _: IOException => () } // another run may be pruning too

  /** Removes every entry. */
  def clear(): Unit = if (Files.isDirectory(root)) {
    Using.resource(Files.list(root))(_.iterator.asScala.toList).foreach(deleteTree)
  }
}

object ClassCache {

  final val MaxEntries = 64
  private final val StaleTempMillis = 60L * 60 * 1000

  /** Bumped when the layout of an entry changes. */
  private final val Format = "absc-cache-1"

  /** `$XDG_CACHE_HOME/absc`, or `~/.cache/absc`. */
  def defaultRoot(env: String => Option[String] = sys.env.get): Path =
    env("XDG_CACHE_HOME").filter(_.nonEmpty) match {
      case Some(xdg) => Paths.get(xdg, "absc")
      case None      => Paths.get(System.getProperty("user.home"), ".cache", "absc")
    }

  /** The key of a program: see the class comment. */
  def key(sources: List[SourceFile], abscVersion: String, classPathFingerprint: String): String = {
    val md = MessageDigest.getInstance("SHA-256")
    def put(s: String): Unit = {
      val b = s.getBytes(UTF_8)
      md.update(s"${b.length}:".getBytes(UTF_8)) // length-prefixed: no two lists hash alike
      md.update(b)
    }
    put(Format)
    put(abscVersion)
    put(scala.util.Properties.versionNumberString)
    put(System.getProperty("java.specification.version", "?"))
    ScalaCompiler.Options.foreach(put)
    put(classPathFingerprint)
    put(sources.size.toString)
    for (s <- sources) { put(s.name); put(s.text) }
    Hex(md.digest())
  }

  def deleteTree(p: Path): Unit =
    if (Files.exists(p)) {
      val all = Using.resource(Files.walk(p))(_.iterator.asScala.toList)
      all.reverse.foreach(f => try Files.deleteIfExists(f) catch { case _: IOException => () })
    }
}
