package cogs.absc.driver

import java.io.IOException
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths, StandardCopyOption}

/**
 * The class-data choice, in one place (issue 27, item 2): which archive a JVM maps when it is
 * there, and how a JVM makes it when it is not. Before JDK [[FirstAotJdk]], a dynamic class-data
 * archive (`-XX:ArchiveClassesAtExit`, then `-XX:SharedArchiveFile`); from it on, for a program's
 * JVM, an ahead-of-time cache (`-XX:AOTCache`), which also keeps classes linked and the method
 * handles that ForkJoinPool's VarHandles otherwise spin at every start: the first run records
 * (`-XX:-DisplayVMOutput`: the JVM would print "AOTConfiguration recorded" on stdout), and a
 * second JVM makes the cache from the recording. `ABSC_NO_CDS` (any value) turns all of it off.
 *
 * A [[Plan]] is what the shell scripts execute without deciding anything: the launcher's fast
 * path reads it from the index [[FastRun]] writes. Its options may hold two place-holders the
 * script fills in: [[Tmp]] (the file the first run dumps or records into, renamed or made into
 * the archive after it) and [[New]] (the file `make` writes, renamed into place).
 */
private[driver] object ClassData {

  /** The first JDK whose programs get an AOT cache instead of a dynamic class-data archive. */
  final val FirstAotJdk = 25

  /** The oldest JDK absc runs on: a package's launcher gives older (or unknown) JDKs no class data. */
  final val MinJdk = 17

  final val Tmp = "@TMP@"
  final val New = "@NEW@"

  /**
   * `archive`: the file; `mapped`: the options when it exists (non-empty); `dump`: the options
   * when it does not, after which the file the run wrote (at [[Tmp]]) is renamed to `archive`,
   * or, when `make` is not empty, given to a second JVM started with `make` (in the background),
   * whose output ([[New]]) is renamed to `archive`.
   */
  final case class Plan(archive: Path, mapped: List[String], dump: List[String], make: List[String]) {

    /**
     * The options of a JVM started from Scala (the compiler JVM), and the temporary file it
     * dumps to (to [[commit]] after it ended), if it dumps. `pid`: makes the name this JVM's.
     */
    def options(exists: Boolean, pid: Long): (List[String], Option[Path]) =
      if (exists) (mapped, None)
      else {
        val temp = archive.resolveSibling(s"${archive.getFileName}.$pid.tmp")
        (dump.map(_.replace(Tmp, temp.toString)), Some(temp))
      }
  }

  def disabled(env: String => Option[String]): Boolean = env("ABSC_NO_CDS").exists(_.nonEmpty)

  /** This JVM's feature version (17, 21, 25, ...). */
  def jdk: Int = Runtime.version.feature

  /** A program's JVM (the fast path, a package): `base` is the archive's path without its extension. */
  def forProgram(base: Path, jdk: Int): Plan =
    if (jdk >= FirstAotJdk) {
      val aot = base.resolveSibling(s"${base.getFileName}.aot")
      Plan(aot, List(s"-XX:AOTCache=$aot", "-Xlog:aot=off", "-Xlog:cds=off"),
        List("-XX:AOTMode=record", s"-XX:AOTConfiguration=$Tmp", "-XX:+UnlockDiagnosticVMOptions", "-XX:-DisplayVMOutput",
          "-Xlog:aot=off", "-Xlog:cds=off"),
        List("-XX:AOTMode=create", s"-XX:AOTConfiguration=$Tmp", s"-XX:AOTCache=$New", "-Xlog:aot=off", "-Xlog:cds=off"))
    } else dynamic(base.resolveSibling(s"${base.getFileName}.jsa"))

  /**
   * absc's own JVMs (the one `absc` starts, and the compiler JVM): a dynamic archive on every JDK
   * (the compiler JVM runs scalac once and ends; the AOT cache's second JVM would cost more than
   * it saves there).
   */
  def forCompiler(archive: Path): Plan = dynamic(archive)

  /** A plan as the scripts read it (an empty plan: no class data). */
  def lines(plan: Option[Plan]): List[String] = plan.toList.flatMap { p =>
    s"archive ${p.archive}" :: p.mapped.map("mapped " + _) ++ p.dump.map("dump " + _) ++ p.make.map("make " + _)
  }

  /**
   * The plan of the JVM absc runs in, which the `absc` script must know before it starts it: the
   * script names the archive and the plan's file (`-Dabsc.classdata.archive`,
   * `-Dabsc.classdata.plan`: per role, JDK and absc jar, and a file of its own under
   * `ABSC_NO_CDS`) and starts absc with the plan it finds there; when it finds none, absc writes
   * it here, for the next run. Never fails absc: a plan not written only costs the archive.
   */
  def writeOwnPlan(env: String => Option[String] = sys.env.get): Unit =
    for {
      file <- Option(System.getProperty("absc.classdata.plan")).filter(_.nonEmpty).map(Paths.get(_))
      archive <- Option(System.getProperty("absc.classdata.archive")).filter(_.nonEmpty).map(Paths.get(_))
      if !Files.exists(file)
    } try {
      val plan = if (disabled(env) || !ClassPath.entries.forall(Files.isRegularFile(_))) None // CDS takes jars only
        else Some(forCompiler(archive))
      val temp = Files.createTempFile(file.getParent, "tmp-", ".plan")
      try {
        Files.write(temp, lines(plan).mkString("", "\n", if (plan.isEmpty) "" else "\n").getBytes(UTF_8))
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING)
      } finally Files.deleteIfExists(temp)
    } catch { case _: IOException | _: SecurityException => () }

  private def dynamic(jsa: Path): Plan =
    Plan(jsa, List(s"-XX:SharedArchiveFile=$jsa", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"),
      List(s"-XX:ArchiveClassesAtExit=$Tmp", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), Nil)

  /**
   * Both program plans as bash assignments, for a package's launcher (`launcher.sh`), which picks
   * one by the JDK it finds when it runs (absc cannot know it when it packages): `cd_min_jdk`,
   * `cd_jdk` ([[FirstAotJdk]]), and `cd_before_*` and `cd_from_*` (archive, mapped, dump, make),
   * where `@BASE@` stands for the archive's path without its extension, chosen there.
   */
  def launcherPlans: String = {
    def q(s: String): String = "'" + s.replace("'", "'\\''") + "'"
    def arrays(prefix: String, p: Plan): List[String] =
      s"${prefix}_archive=${q(p.archive.toString)}" ::
        List("mapped" -> p.mapped, "dump" -> p.dump, "make" -> p.make).map { case (k, v) => s"${prefix}_$k=(${v.map(q).mkString(" ")})" }
    val base = Paths.get("@BASE@")
    (s"cd_min_jdk=$MinJdk" :: s"cd_jdk=$FirstAotJdk" :: arrays("cd_before", forProgram(base, FirstAotJdk - 1)) ++
      arrays("cd_from", forProgram(base, FirstAotJdk))).mkString("\n")
  }
}
