package cogs.absc.driver

import java.io.IOException
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

/**
 * `absc package`: builds through the cache and writes the program's directory (see [[Packager]]),
 * with the distributed module's jars for `--cluster`, and the Model API's only for a program that
 * uses it (see [[ProgramPackager.uses]]) or with `--model-api`, and the SQLite driver only for one
 * that queries; never the monitor pipeline or the session checker (a package is never monitored).
 */
private[driver] final class ProgramPackager(cache: BuildCache, reporter: Reporter, program: ProgramOptions) {
  import reporter.err

  def packageTo(sources: List[SourceFile], policy: CachePolicy, out: Path, name: String, cluster: Boolean = false,
      modelApi: Boolean = false): Int = {
    val distributed =
      if (!cluster) Right(Nil)
      else Nodes.distributedClassPath.map(_.map(Paths.get(_)).filter(p => Files.exists(p)))
    distributed match {
      case Left(why) => err.println(s"absc: $why"); Exit.Compile
      case Right(extra) => packageWith(sources, policy, out, name, extra, cluster, modelApi)
    }
  }

  private def packageWith(sources: List[SourceFile], policy: CachePolicy, out: Path, name: String, distributed: List[Path],
      cluster: Boolean, modelApi: Boolean): Int =
    cache.build(sources, policy, None) match {
      case Left(f) => f.status
      case Right(built) =>
        try built.program.mainObject match {
          case None =>
            err.println("absc: nothing to package: the program has no main block")
            Exit.Compile
          case Some(main) =>
            try {
              val libRoot = built.cacheRoot.getOrElse(built.program.dir)
              reporter.phase("package") {
                // absc runs with the Model API on its class path (absc run --port); a package has it
                // only when asked for or when the program registers [HTTPName] objects.
                val uses = ProgramPackager.uses(built.program.classes)
                val withApi = modelApi || uses.modelApi
                val apiJars = if (withApi) Set.empty[Path] else ProgramPackager.modelApiEntries(ClassPath.entries)
                // The SQLite driver (12 MB, native libraries for every platform) only for a model that queries.
                val sqlJars = if (uses.sqlite) Set.empty[Path] else ProgramPackager.sqliteEntries(ClassPath.entries)
                val own = FastRun.runClassPath(ClassPath.entries, libRoot).filterNot(e => apiJars(e) || sqlJars(e))
                // The distributed module's jars that the program's class path does not have yet (by file name).
                // (scala-library: the program's is a copy named after its hash.)
                val names = own.map(_.getFileName.toString).toSet
                val library = names.exists(_.startsWith("scala-library"))
                val extra = distributed.filter { p =>
                  val n = p.getFileName.toString
                  Files.isRegularFile(p) && !names(n) && !(library && n.startsWith("scala-library"))
                }.distinct
                // --foreign/--classpath: the implementations' classes go into lib/ with the rest, and
                // the bindings into the launcher (the properties `absc run` sets around its run).
                val foreignClasses = program.classpath.map(p => Paths.get(p).toAbsolutePath.normalize)
                val foreignProps = program.foreign.toList.sorted.map { case (abs, impl) => cogs.absc.lib.Foreign.property(abs) -> impl }
                Packager.write(built.program, main, FastRun.programJar(built.program), own ++ extra, out, name, Versions.absc,
                  cluster, foreignClasses, foreignProps)
              }
              err.println(s"absc: wrote ${out.resolve("bin").resolve(name)} (run it; it needs only a Java 17 or newer)")
              if (cluster) err.println(s"absc: wrote ${out.resolve("bin").resolve("run")} (one node: run --node NAME --config FILE)")
              Exit.Ok
            } catch {
              case e @ (_: IOException | _: java.io.UncheckedIOException | _: SecurityException) =>
                err.println(s"absc: cannot write the package into $out: $e")
                Exit.Compile
            }
        } finally built.close()
    }
}

private[driver] object ProgramPackager {

  /** What of the optional modules a compiled program names: see [[uses]]. */
  final case class Uses(modelApi: Boolean, sqlite: Boolean)

  /**
   * Which optional modules the compiled program uses, read from its classes (the constant pool of
   * a class names every class it calls):
   *  - the Model API: a `[HTTPName]` statement calls `cogs.absc.modelapi.HttpObjects.register`.
   *    Such a model is written to be served; its package gets the Model API;
   *  - SQLite: a query function's body calls `cogs.absc.lib.Sqlite.query`; its package gets the
   *    JDBC driver.
   */
  def uses(classes: Path): Uses = {
    def needle(s: String) = s.getBytes(java.nio.charset.StandardCharsets.UTF_8)
    val api = needle("cogs/absc/modelapi/HttpObjects")
    val sql = needle("cogs/absc/lib/Sqlite")
    def contains(bytes: Array[Byte], needle: Array[Byte]): Boolean = {
      var i = 0
      val last = bytes.length - needle.length
      while (i <= last) {
        var j = 0
        while (j < needle.length && bytes(i + j) == needle(j)) j += 1
        if (j == needle.length) return true
        i += 1
      }
      false
    }
    if (!Files.isDirectory(classes)) Uses(modelApi = false, sqlite = false)
    else scala.util.Using.resource(Files.walk(classes)) { s =>
      s.iterator.asScala.filter(_.toString.endsWith(".class")).foldLeft(Uses(modelApi = false, sqlite = false)) { (u, f) =>
        if (u.modelApi && u.sqlite) u
        else {
          val bytes = Files.readAllBytes(f)
          Uses(u.modelApi || contains(bytes, api), u.sqlite || contains(bytes, sql))
        }
      }
    }
  }

  private def has(entry: Path, name: String): Boolean =
    if (Files.isDirectory(entry)) Files.isRegularFile(entry.resolve(name))
    else Files.isRegularFile(entry) && (try scala.util.Using.resource(new java.util.jar.JarFile(entry.toFile))(_.getEntry(name) ne null)
      catch { case _: IOException => false })

  /**
   * The entries of `classPath` that only the Model API needs: the module `cogs-abs-modelapi` (the
   * entry with its service file) and the uPlot WebJar of its chart page. Jackson stays: the schedule
   * file of `--record`/`--replay` (abs-runtime) reads and writes JSON with it too.
   */
  def modelApiEntries(classPath: List[Path]): Set[Path] = {
    val marks = List("META-INF/services/cogs.absc.run.ModelApi$Provider", "META-INF/maven/org.webjars.npm/uplot/pom.properties")
    classPath.filter(e => marks.exists(has(e, _))).toSet
  }

  /** The entries of `classPath` that only SQLite queries need: the JDBC driver `sqlite-jdbc`. */
  def sqliteEntries(classPath: List[Path]): Set[Path] =
    classPath.filter(e => has(e, "META-INF/maven/org.xerial/sqlite-jdbc/pom.properties")).toSet
}
