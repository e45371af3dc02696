package cogs.absc.driver

import java.io.File
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.security.MessageDigest
import java.util.jar.JarFile

import scala.jdk.CollectionConverters._
import scala.util.Using

/**
 * The class path of the running absc, which is also the class path generated programs are
 * compiled against and run on (scala-library, the Cogs runtime, `cogs.absc.lib` and
 * `cogs.absc.run.ProgramRunner`).
 */
object ClassPath {

  /**
   * The entries of `java.class.path`, existing ones only; if it is a single jar, with the
   * `Class-Path` of its manifest expanded: launchers such as Maven Surefire and `java -jar` start
   * the JVM with a single (manifest-only) jar, and scalac does not read manifests.
   */
  lazy val entries: List[Path] = {
    val cp = System.getProperty("java.class.path", "")
    // Only a lone jar can be a manifest-only one; opening every jar of a long path costs time.
    if (cp.contains(File.pathSeparator)) cp.split(File.pathSeparator).iterator.filter(_.nonEmpty)
      .map(e => Paths.get(e).toAbsolutePath.normalize).filter(Files.exists(_)).toList.distinct
    else expand(cp)
  }

  def asString(paths: List[Path]): String = paths.map(_.toString).mkString(File.pathSeparator)

  private[driver] def expand(classPath: String): List[Path] = {
    val seen = scala.collection.mutable.LinkedHashSet.empty[Path]
    def add(p: Path): Unit = {
      val abs = p.toAbsolutePath.normalize
      if (Files.exists(abs) && seen.add(abs) && Files.isRegularFile(abs)) manifestClassPath(abs).foreach(add)
    }
    classPath.split(File.pathSeparator).iterator.filter(_.nonEmpty).foreach(e => add(Paths.get(e)))
    seen.toList
  }

  private def manifestClassPath(jar: Path): List[Path] =
    try
      Using.resource(new JarFile(jar.toFile)) { jf =>
        val attr = Option(jf.getManifest).flatMap(m => Option(m.getMainAttributes.getValue("Class-Path")))
        attr.toList.flatMap(_.trim.split("\\s+").toList).filter(_.nonEmpty).flatMap { ref =>
          // Entries are URLs relative to the jar's directory (or absolute file: URLs).
          try Some(Paths.get(jar.getParent.toUri.resolve(ref)))
          catch { case _: Exception => None }
        }
      }
    catch { case _: java.io.IOException => Nil }

  /**
   * A digest that changes whenever an entry changes: path, size and modification time of every jar,
   * and of every file under every directory. Part of the cache key, so that classes compiled
   * against an older runtime or by an older absc are never reused.
   */
  def fingerprint(paths: List[Path]): String = {
    val md = MessageDigest.getInstance("SHA-256")
    def put(s: String): Unit = { md.update(s.getBytes(UTF_8)); md.update(0.toByte) }
    for (p <- paths) {
      put(p.toString)
      if (Files.isDirectory(p)) {
        val files = Using.resource(Files.walk(p))(_.iterator.asScala.filter(Files.isRegularFile(_)).toVector)
        for (f <- files.sortBy(_.toString)) {
          put(p.relativize(f).toString)
          put(Files.size(f).toString)
          put(Files.getLastModifiedTime(f).toMillis.toString)
        }
      } else if (Files.isRegularFile(p)) {
        put(Files.size(p).toString)
        put(Files.getLastModifiedTime(p).toMillis.toString)
      }
    }
    Hex(md.digest())
  }
}

private[driver] object Hex {
  def apply(bytes: Array[Byte]): String = {
    val sb = new StringBuilder(bytes.length * 2)
    bytes.foreach(b => sb.append(f"${b & 0xff}%02x"))
    sb.result()
  }
}
