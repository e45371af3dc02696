package cogs.absc.driver

import java.io.{BufferedOutputStream, IOException}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths, StandardCopyOption}
import java.security.MessageDigest
import java.util.concurrent.TimeUnit
import java.util.jar.{Attributes, JarEntry, JarFile, JarOutputStream, Manifest}

import scala.jdk.CollectionConverters._
import scala.util.Using

/**
 * The compiler's half of the launcher's fast path (the other half is the `absc` script).
 *
 * A cached `absc run FILE.abs... [-- ARG...]` (no options) should cost what the program costs, not
 * a JVM that loads picocli, the compiler and Typesafe Config before it even looks at the cache.
 * So the script hashes what decides the cache entry: the JDK, path, size and modification time of
 * every jar of absc's class path (a rebuilt absc or runtime changes them), and each FILE's name as
 * given and the SHA-256 of its bytes. It looks for an index file named by that hash, `fast/KEY`
 * in the cache root; if there is one it starts the program's main class directly, with
 * [[runClassPath]], and absc's JVM never starts. If not, it runs absc as usual and passes the
 * index's path and its JDK line (`-Dabsc.fast.index`, `-Dabsc.fast.jdk`); after a build (hit or
 * miss) this object recomputes the key from what this JVM itself saw (its class path, the bytes
 * it read), and writes the index only if the key is the same. So an index maps a key only to
 * the entry compiled from the very bytes the key hashes: a file edited between the script's hash
 * and absc's read gets no index, and the next run takes the slow path again.
 *
 * The index file has three lines: the entry's directory, the main class, the class path of the
 * program. Every file here is written to a temporary name and renamed into place, so a
 * concurrent run sees the old file or the new one, never part of one.
 */
private[driver] object FastRun {

  /** Bumped when the manifest's text or the index's layout changes. The script has the same. */
  final val Format = "absc-fast-1"

  /**
   * The text whose SHA-256 names the index. Must equal, byte for byte, what the `absc` script
   * builds (`fast_manifest`); `LauncherFastPathTest` checks it by running the script.
   */
  def manifest(jdk: String, classPath: List[Path], files: List[(String, String)]): String = {
    val b = new StringBuilder
    b ++= Format += '\n'
    b ++= "jdk " ++= jdk += '\n'
    for (p <- classPath)
      b ++= s"cp $p ${Files.size(p)} ${Files.getLastModifiedTime(p).to(TimeUnit.SECONDS)}\n"
    for ((name, digest) <- files) b ++= s"file $digest $name\n"
    b.result()
  }

  def sha256(bytes: Array[Byte]): String = Hex(MessageDigest.getInstance("SHA-256").digest(bytes))

  /** What the script passed: where it will look for the index, and its JDK line. */
  final case class Request(index: Path, jdk: String)

  def request: Option[Request] =
    for {
      index <- sys.props.get("absc.fast.index").filter(_.nonEmpty)
      jdk <- sys.props.get("absc.fast.jdk")
    } yield Request(Paths.get(index), jdk)

  /**
   * Writes the index for `program` (a committed cache entry with a main object) if the key the
   * script computed is the key of what this JVM read (`files`: names as given, SHA-256 of the
   * bytes read). Returns whether it did. Needs jars only on the class path (the script
   * fingerprints jars, and class-data archives take nothing else).
   */
  def record(req: Request, program: CompiledProgram, files: List[(String, String)], cacheRoot: Path): Boolean = {
    val entries = ClassPath.entries
    val main = program.mainObject
    if (main.isEmpty || !entries.forall(Files.isRegularFile(_))) return false
    val key = sha256(manifest(req.jdk, entries, files).getBytes(UTF_8))
    if (req.index.getFileName.toString != key) return false
    val jar = programJar(program)
    val cp = runClassPath(entries, cacheRoot) :+ jar
    writeAtomically(req.index, s"${program.dir.toAbsolutePath}\n${main.get}\n${ClassPath.asString(cp)}\n".getBytes(UTF_8))
    true
  }

  /**
   * The class path a program runs on: absc's, without the jars only the compiler needs (found by a
   * class of each, so a version change cannot slip through), and with scala-library replaced by
   * a copy without its 160 KB OSGi manifest (see [[scalaLibrary]]).
   */
  def runClassPath(entries: List[Path], cacheRoot: Path): List[Path] = {
    val compilerOnly = List(classOf[Driver], classOf[scala.tools.nsc.Global], classOf[scala.reflect.api.Universe],
      classOf[picocli.CommandLine], classOf[org.antlr.v4.runtime.Lexer]).flatMap(codeSource).toSet
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

  /** Index files whose entry is gone (pruned), and temporary files of killed runs. */
  def prune(cacheRoot: Path): Unit = {
    val dir = cacheRoot.resolve("fast")
    if (Files.isDirectory(dir)) {
      val now = System.currentTimeMillis()
      for (f <- Using.resource(Files.list(dir))(_.iterator.asScala.toList)) {
        try {
          val name = f.getFileName.toString
          if (name.startsWith("tmp-")) {
            if (now - Files.getLastModifiedTime(f).toMillis > 3600L * 1000) Files.deleteIfExists(f)
          } else {
            val entry = Files.readAllLines(f, UTF_8).asScala.headOption.map(Paths.get(_))
            if (!entry.exists(e => Files.isDirectory(e))) Files.deleteIfExists(f)
          }
        } catch { case _: IOException => () }
      }
    }
  }
}
