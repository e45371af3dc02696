package cogs.absc.driver

import java.io.{BufferedOutputStream, IOException}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths, StandardCopyOption}
import java.nio.file.attribute.FileTime
import java.security.MessageDigest
import java.util.jar.{Attributes, JarEntry, JarFile, JarOutputStream, Manifest}

import scala.jdk.CollectionConverters._
import scala.util.Using

/**
 * The launcher's fast path: absc writes, the `absc` script only reads (issue 27, item 2).
 *
 * A cached `absc run FILE.abs... [-- ARG...]` (no options) should cost what the program costs, not
 * a JVM that loads picocli, the compiler and Typesafe Config before it even looks at the cache.
 * The script names an index file after the run it is asked for (its directory, user and
 * environment, `java`, absc's class path, the FILEs as given: `abs-compiler/target/fast/NAME`)
 * and passes that path to absc (`-Dabsc.fast.index`, with `-Dabsc.fast.java`, the `java` it
 * runs). After a build (hit or miss) this object writes the index: what the program is (the
 * entry's directory, main class, class path), the JVM options of its run (with the class-data
 * plan of [[ClassData]]), and what must not have changed for the index to apply: a `check` line
 * per file absc read or ran on (each FILE, every jar of absc's class path, the JDK's `release`
 * and `lib/modules`), as `stat -L -c '%s %i %.9Y %.9Z %n'` prints it: size, inode, modification
 * and status-change times to the nanosecond, name. The script runs that one `stat` over the
 * names and compares its output with the lines; any difference (or any doubt: a line it does
 * not know, an entry that is gone) takes the slow path, where absc reads the files, finds the
 * entry by their digest, and writes the index again.
 *
 * So the index's validity is absc's decision, not a text both sides build alike. A FILE's line
 * is taken before absc reads it again here, and kept only if the bytes read then have the digest
 * of the bytes the program was compiled from and the file's line did not change meanwhile. The
 * status-change time is what makes this sound: no user can set it, and every write changes it,
 * so an edit that keeps the size and puts the modification time back is still seen. The limit:
 * a write in the same tick of the file system's clock as absc's look at the file, that keeps
 * the size and the inode, would not be (the clock's tick is a few milliseconds at most on Linux).
 *
 * The index is text, one item a line (names with a newline are never indexed): the format line,
 * the entry's directory, the main class, the class path, then `check ...`, `opt OPTION`, and
 * for the class data `archive FILE`, `mapped OPTION`, `dump OPTION`, `make OPTION` (see
 * [[ClassData.Plan]]). Every file here is written to a temporary name and renamed into place, so
 * a concurrent run sees the old file or the new one, never part of one.
 */
private[driver] object FastRun {

  /** Bumped when the index's layout changes; the script reads only this one. */
  final val Format = "absc-fast-2"

  /**
   * What every program's JVM gets: stack (deep recursion in ABS functions runs on the workers'
   * stacks), and native access for the class path, which the SQLite driver uses to load its library
   * (from JDK 24 on the JVM warns on standard error otherwise; JDK 17 accepts the option too).
   */
  final val JvmOptions = List("-Xss256m", "--enable-native-access=ALL-UNNAMED")

  def sha256(bytes: Array[Byte]): String = Hex(MessageDigest.getInstance("SHA-256").digest(bytes))

  /**
   * What the script passed: where it will look for the index, the `java` it runs (resolved), and
   * the `check` lines of absc's jars and the JDK as this JVM saw them when it started.
   */
  final case class Request(index: Path, java: String, started: Option[List[String]])

  def request: Option[Request] =
    for {
      index <- sys.props.get("absc.fast.index").filter(_.nonEmpty)
      java <- sys.props.get("absc.fast.java").filter(_.nonEmpty)
    } yield Request(Paths.get(index), java, environmentChecks)

  /** The `check` lines of the JDK and of every jar of absc's class path; None if one cannot be had. */
  private def environmentChecks: Option[List[String]] = {
    val home = Paths.get(System.getProperty("java.home"))
    val jdk = List(home.resolve("release"), home.resolve("lib").resolve("modules")).filter(Files.isRegularFile(_))
    val all = (jdk ++ ClassPath.entries).map(p => check(p.toString))
    if (ClassPath.entries.forall(Files.isRegularFile(_)) && all.forall(_.isDefined)) Some(all.flatten) else None
  }

  /**
   * The line `stat -L -c '%s %i %.9Y %.9Z %n' -- name` prints for `name` (relative to this JVM's
   * directory, as the script's), or None when this JVM cannot tell (no `unix` attribute view).
   */
  def check(name: String): Option[String] =
    if (name.contains('\n')) None
    else
      try {
        val a = Files.readAttributes(Paths.get(name), "unix:size,ino,lastModifiedTime,ctime")
        def time(key: String): String = {
          val i = a.get(key).asInstanceOf[FileTime].toInstant
          f"${i.getEpochSecond}%d.${i.getNano}%09d"
        }
        Some(s"${a.get("size")} ${a.get("ino")} ${time("lastModifiedTime")} ${time("ctime")} $name")
      } catch {
        case _: IOException | _: UnsupportedOperationException | _: IllegalArgumentException | _: java.nio.file.InvalidPathException => None
      }

  /**
   * Writes the index for `program` (a committed cache entry with a main object) if what the
   * index would say is what this JVM ran on: `java` is this JVM's, absc's jars and the JDK are
   * as they were when it started, and each of `files` (names as given, SHA-256 of the bytes the
   * program was compiled from) still has those bytes, read between two equal `check` lines.
   * Returns whether it did. `env`: for `ABSC_NO_CDS`.
   */
  def record(req: Request, program: CompiledProgram, files: List[(String, String)], cacheRoot: Path,
      env: String => Option[String] = sys.env.get): Boolean = {
    val entries = ClassPath.entries
    val main = program.mainObject
    val thisJava = Paths.get(System.getProperty("java.home"), "bin", "java")
    val sameJava = try Paths.get(req.java).toRealPath() == thisJava.toRealPath() catch { case _: IOException => false }
    if (main.isEmpty || !sameJava || req.started.isEmpty || environmentChecks != req.started) return false
    val fileChecks = files.map { case (name, digest) =>
      val before = check(name)
      val same = before.isDefined && sha256(Files.readAllBytes(Paths.get(name))) == digest
      if (same && check(name) == before) before else None
    }
    if (!fileChecks.forall(_.isDefined)) return false
    val jar = programJar(program)
    val cp = ClassPath.asString(runClassPath(entries, cacheRoot) :+ jar)
    val dir = program.dir.toAbsolutePath.toString
    if ((dir + cp + main.get).contains('\n')) return false
    // Per JDK (its directory, and the time of its release file: a JDK updated in place) and version.
    val home = thisJava.toRealPath().getParent.getParent
    val released = try Files.getLastModifiedTime(home.resolve("release")).toMillis / 1000 catch { case _: IOException => 0L }
    val jdkName = s"${home.getFileName}-$released".replaceAll("[^A-Za-z0-9._-]", "_")
    val classData =
      if (ClassData.disabled(env)) Nil
      else {
        ClassData.lines(Some(ClassData.forProgram(program.dir.toAbsolutePath.resolve(s"cds-$jdkName-${ClassData.jdk}"), ClassData.jdk)))
      }
    val lines = List(Format, dir, main.get, cp) ++ (req.started.get ++ fileChecks.flatten).map("check " + _) ++
      JvmOptions.map("opt " + _) ++ classData
    writeAtomically(req.index, lines.mkString("", "\n", "\n").getBytes(UTF_8))
    prune(req.index.getParent)
    true
  }

  /**
   * The class path a program runs on: absc's, without the jars only the compiler needs and those
   * only a monitored program needs (found by a class of each, so a version change cannot slip
   * through), and with scala-library replaced by a copy without its 160 KB OSGi manifest (see
   * [[scalaLibrary]]). A monitored program (`--monitor`) never runs from this class path: that
   * option takes the slow path, and `absc package` has no such option.
   */
  def runClassPath(entries: List[Path], cacheRoot: Path): List[Path] = {
    // (picocli is not among them: a program parses its own command line, see cogs.absc.run.ProgramCommandLine.)
    val compilerOnly = List(classOf[Driver], classOf[scala.tools.nsc.Global], classOf[scala.reflect.api.Universe],
      classOf[org.antlr.v4.runtime.Lexer], classOf[cogs.absc.monitoring.MonitoringProvider],
      classOf[cogs.monitor.pipeline.Pipeline], classOf[cogs.session.ProtocolModule]).flatMap(codeSource).toSet
    val library = codeSource(classOf[scala.Option[_]])
    entries.filterNot(compilerOnly).map(e => if (library.contains(e)) scalaLibrary(e, cacheRoot) else e)
  }

  private def codeSource(c: Class[_]): Option[Path] =
    try Option(c.getProtectionDomain.getCodeSource).map(s => Paths.get(s.getLocation.toURI).toAbsolutePath.normalize)
    catch { case _: Exception => None }

  /**
   * scala-library without its manifest's OSGi headers. Every JVM that loads a class from a jar
   * parses the jar's manifest (to define the package), in the interpreter this early: for
   * scala-library's 160 KB that was about 30 ms of a cached run of 0.2 s. Nothing reads those
   * headers (Scala's version comes from `library.properties`, which is kept). One copy per
   * scala-library jar (path, size, time), in `lib/` of the cache.
   */
  /** `from`'s entries, without its manifest, into a new jar `to` with `manifest`. */
  def copyJar(from: Path, to: Path, manifest: Manifest): Unit =
    Using.resources(new JarFile(from.toFile), new JarOutputStream(new BufferedOutputStream(Files.newOutputStream(to)), manifest)) {
      (in, out) =>
        for (e <- in.entries.asScala if e.getName != JarFile.MANIFEST_NAME && e.getName != "META-INF/") {
          out.putNextEntry(new JarEntry(e.getName))
          if (!e.isDirectory) Using.resource(in.getInputStream(e))(_.transferTo(out))
          out.closeEntry()
        }
    }

  def scalaLibrary(jar: Path, cacheRoot: Path): Path = {
    val id = sha256(s"$jar ${Files.size(jar)} ${Files.getLastModifiedTime(jar).toMillis}".getBytes(UTF_8)).take(16)
    val target = cacheRoot.resolve("lib").resolve(s"${jar.getFileName.toString.stripSuffix(".jar")}-$id.jar")
    if (!Files.isRegularFile(target)) {
      Files.createDirectories(target.getParent)
      val temp = Files.createTempFile(target.getParent, "tmp-", ".jar")
      try {
        copyJar(jar, temp, minimalManifest)
        moveIntoPlace(temp, target)
      } finally Files.deleteIfExists(temp)
    }
    target
  }

  private def minimalManifest: Manifest = {
    val m = new Manifest
    m.getMainAttributes.put(Attributes.Name.MANIFEST_VERSION, "1.0")
    m
  }

  /** The entry's classes as a jar (class-data archives take jars only); made once per entry. */
  def programJar(program: CompiledProgram): Path = {
    val target = program.dir.resolve("program.jar")
    if (!Files.isRegularFile(target)) {
      val temp = Files.createTempFile(program.dir, "tmp-", ".jar")
      try {
        val classes = program.classes
        val files = Using.resource(Files.walk(classes))(_.iterator.asScala.filter(Files.isRegularFile(_)).toVector)
        Using.resource(new JarOutputStream(new BufferedOutputStream(Files.newOutputStream(temp)), minimalManifest)) { out =>
          for (f <- files.sortBy(_.toString)) {
            out.putNextEntry(new JarEntry(classes.relativize(f).toString.replace(java.io.File.separatorChar, '/')))
            Files.copy(f, out)
            out.closeEntry()
          }
        }
        moveIntoPlace(temp, target)
      } finally Files.deleteIfExists(temp)
    }
    target
  }

  private def writeAtomically(target: Path, bytes: Array[Byte]): Unit = {
    Files.createDirectories(target.getParent)
    val temp = Files.createTempFile(target.getParent, "tmp-", "")
    try {
      Files.write(temp, bytes)
      moveIntoPlace(temp, target)
    } finally Files.deleteIfExists(temp)
  }

  // Two runs may make the same file at once: both copies are equal, the last rename wins.
  private def moveIntoPlace(temp: Path, target: Path): Unit =
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING)

  /**
   * In the index directory: index files whose entry is gone (pruned from the cache), all but the
   * [[MaxIndexes]] most recent, and temporary files of killed runs.
   */
  def prune(dir: Path): Unit =
    if (Files.isDirectory(dir)) {
      val now = System.currentTimeMillis()
      val files = Using.resource(Files.list(dir))(_.iterator.asScala.toList)
      val (temps, indexes) = files.partition(_.getFileName.toString.startsWith("tmp-"))
      def quietly(body: => Unit): Unit = try body catch { case _: IOException => () } // another run may prune too
      for (t <- temps) quietly { if (now - Files.getLastModifiedTime(t).toMillis > 3600L * 1000) Files.deleteIfExists(t) }
      val live = indexes.filter { f =>
        val entry = try Files.readAllLines(f, UTF_8).asScala.lift(1).map(Paths.get(_)) catch { case _: IOException => None }
        val keep = entry.exists(Files.isDirectory(_))
        if (!keep) quietly(Files.deleteIfExists(f))
        keep
      }
      if (live.size > MaxIndexes) {
        val newestFirst = live.flatMap(f => try Some(f -> Files.getLastModifiedTime(f).toMillis) catch { case _: IOException => None })
          .sortBy(-_._2).map(_._1)
        newestFirst.drop(MaxIndexes).foreach(f => quietly(Files.deleteIfExists(f)))
      }
    }

  final val MaxIndexes = 256
}
