package cogs.absc.driver

import java.io.{BufferedOutputStream, File, IOException}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}
import java.nio.file.attribute.PosixFilePermissions
import java.util.jar.{Attributes, JarEntry, JarFile, JarOutputStream, Manifest}

import scala.jdk.CollectionConverters._
import scala.util.Using

/**
 * `absc package`: a compiled program as a directory of its own, for users who run a model many
 * times or hand it to someone without absc, Maven or the repository:
 *
 * {{{
 * OUT/bin/NAME        the launcher (bash): options for the run, a class-data archive per JDK
 * OUT/lib/NAME.jar    the program's classes; Main-Class and a relative Class-Path, so
 *                     `java -jar OUT/lib/NAME.jar` runs it too
 * OUT/lib/other jars  what it runs on: scala-library, the runtime, abs-runtime, ... (not the compiler)
 * }}}
 *
 * The directory can be moved or copied: nothing in it names where it was made. The launcher's
 * class-data archive (the same as the fast path of a cached `absc run`: dynamic CDS before JDK
 * 25, the AOT cache from 25 on) is written into `lib/` by the first run, when it may write there.
 */
private[driver] object Packager {

  /** Marks a directory this command made, so that packaging again into it may replace it. */
  final val Marker = "absc-package"

  private val NamePattern = "[A-Za-z0-9][A-Za-z0-9._-]*".r

  def validName(name: String): Boolean = NamePattern.matches(name)

  /** The default name: the first file's base name, lower-cased, without what a name cannot hold. */
  def defaultName(firstFile: String): String = {
    val base = new File(firstFile).getName.stripSuffix(".abs").toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9._-]", "-")
    if (validName(base)) base else "model"
  }

  /**
   * Why `out` cannot be written: it exists and is not empty and not a package made by absc (which
   * would lose the user's files), or it is a file. None when it may be (re)written.
   */
  def refusal(out: Path): Option[String] =
    if (!Files.exists(out)) None
    else if (!Files.isDirectory(out)) Some(s"$out exists and is not a directory")
    else if (Files.isRegularFile(out.resolve("lib").resolve(Marker))) None
    else if (Using.resource(Files.list(out))(_.findAny().isPresent))
      Some(s"$out is not empty and is not a package made by 'absc package': choose a new directory (nothing was written)")
    else None

  /**
   * Writes the package of `program` (compiled, with a main object) into `out`, replacing an
   * earlier package there. `runClassPath`: what the program runs on (jars or class directories).
   */
  def write(program: CompiledProgram, mainObject: String, programJar: Path, runClassPath: List[Path], out: Path, name: String,
      version: String, cluster: Boolean = false, foreignClasses: List[Path] = Nil,
      properties: List[(String, String)] = Nil): Unit = {
    val bin = out.resolve("bin")
    val lib = out.resolve("lib")
    if (Files.isDirectory(lib)) ClassCache.deleteTree(lib)
    if (Files.isDirectory(bin)) ClassCache.deleteTree(bin)
    Files.createDirectories(lib)
    Files.createDirectories(bin)

    // The libraries, under their own file names; a class directory (as in a development build)
    // is packed into a jar, since class-data archives take jars only.
    val taken = scala.collection.mutable.Set(s"$name.jar")
    def unique(file: String): String = {
      var candidate = file
      var i = 2
      while (taken.contains(candidate)) { candidate = s"${file.stripSuffix(".jar")}-$i.jar"; i += 1 }
      taken += candidate
      candidate
    }
    def copy(entry: Path, dirJar: => String): Path =
      if (Files.isDirectory(entry)) {
        val target = lib.resolve(unique(dirJar))
        jarDirectory(entry, target)
        target
      } else {
        val target = lib.resolve(unique(entry.getFileName.toString))
        Files.copy(entry, target)
        target
      }
    val libs = runClassPath.map(e => copy(e, s"${e.getParent.getParent.getFileName}-classes.jar")) ++
      foreignClasses.map(e => copy(e, s"foreign-${Option(e.getFileName).fold("classes")(_.toString)}.jar"))

    // The program's jar: its classes, and a manifest that makes `java -jar` work from lib/.
    val manifest = new Manifest
    val attrs = manifest.getMainAttributes
    attrs.put(Attributes.Name.MANIFEST_VERSION, "1.0")
    attrs.put(Attributes.Name.MAIN_CLASS, mainObject)
    attrs.put(Attributes.Name.CLASS_PATH, libs.map(_.getFileName.toString).mkString(" "))
    attrs.putValue("Created-By", s"absc $version (absc package)")
    // `java -jar`: native access for the SQLite driver's library, as the launcher's option (JDK 22+ reads it).
    attrs.putValue("Enable-Native-Access", "ALL-UNNAMED")
    val jar = lib.resolve(s"$name.jar")
    FastRun.copyJar(programJar, jar, manifest)

    val launcher = bin.resolve(name)
    Files.writeString(launcher,
      launcherText(name, mainObject, jar.getFileName.toString :: libs.map(_.getFileName.toString), version, properties), UTF_8)
    try Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"))
    catch { case _: UnsupportedOperationException => launcher.toFile.setExecutable(true, false) }
    // --cluster: bin/run, one node of the model on a cluster (the distributed module is on runClassPath).
    if (cluster) {
      val run = bin.resolve("run")
      Files.writeString(run, template("node-launcher.sh").replace("@NAME@", name).replace("@MAIN@", mainObject)
        .replace("@JAR@", jar.getFileName.toString).replace("@VERSION@", version), UTF_8)
      try Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxr-xr-x"))
      catch { case _: UnsupportedOperationException => run.toFile.setExecutable(true, false) }
    }
    Files.writeString(lib.resolve(Marker), s"made by absc $version; main class $mainObject\n", UTF_8)
  }

  private def template(resource: String): String =
    Using.resource(getClass.getResourceAsStream(resource)) { in =>
      if (in == null) throw new IOException(s"absc's jar has no $resource template (a broken build)")
      new String(in.readAllBytes(), UTF_8)
    }

  private def jarDirectory(dir: Path, jar: Path): Unit = {
    val files = Using.resource(Files.walk(dir))(_.iterator.asScala.filter(Files.isRegularFile(_)).toVector)
    val m = new Manifest
    m.getMainAttributes.put(Attributes.Name.MANIFEST_VERSION, "1.0")
    Using.resource(new JarOutputStream(new BufferedOutputStream(Files.newOutputStream(jar)), m)) { out =>
      for (f <- files.sortBy(_.toString)) {
        val entry = dir.relativize(f).toString.replace(File.separatorChar, '/')
        if (entry != JarFile.MANIFEST_NAME) {
          out.putNextEntry(new JarEntry(entry))
          Files.copy(f, out)
          out.closeEntry()
        }
      }
    }
  }

  /** The launcher script: the template with the program's name, main class and jars filled in. */
  def launcherText(name: String, mainObject: String, jars: List[String], version: String,
      properties: List[(String, String)] = Nil): String = {
    // Each property one shell word in single quotes (a ' inside closes, escapes and reopens).
    val props = properties.map { case (k, v) => "'" + s"-D$k=$v".replace("'", "'\\''") + "'" }.mkString(" ")
    template("launcher.sh")
      .replace("@NAME@", name)
      .replace("@MAIN@", mainObject)
      .replace("@JARS@", jars.mkString(" "))
      .replace("@PROPS@", props)
      .replace("@CLASSDATA@", ClassData.launcherPlans)
      .replace("@VERSION@", version)
  }
}
