package cogs.absc.driver

import java.io.IOException
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

/**
 * `absc package`: builds through the cache and writes the program's directory (see [[Packager]]),
 * with the distributed module's jars for `--cluster`, and the Model API's only for a program that
 * uses it (see [[ProgramPackager.usesModelApi]]) or with `--model-api`.
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
                val withApi = modelApi || ProgramPackager.usesModelApi(built.program.classes)
                val apiJars = if (withApi) Set.empty[Path] else ProgramPackager.modelApiEntries(ClassPath.entries)
                val own = FastRun.runClassPath(ClassPath.entries, libRoot).filterNot(apiJars)
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

  /**
   * Whether the compiled program registers `[HTTPName]` objects, read from its classes: the
   * statement calls `cogs.absc.modelapi.HttpObjects.register`, so the name is in the constant pool
   * of the class that holds it. Such a model is written to be served; its package gets the Model API.
   */
  def usesModelApi(classes: Path): Boolean = {
    val needle = "cogs/absc/modelapi/HttpObjects".getBytes(java.nio.charset.StandardCharsets.UTF_8)
    def contains(bytes: Array[Byte]): Boolean = {
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
    Files.isDirectory(classes) && scala.util.Using.resource(Files.walk(classes)) { s =>
      s.iterator.asScala.exists(f => f.toString.endsWith(".class") && contains(Files.readAllBytes(f)))
    }
  }

  /**
   * The entries of `classPath` that only the Model API needs: the module `cogs-abs-modelapi` (the
   * entry with its service file) and the uPlot WebJar of its chart page. Jackson stays: the schedule
   * file of `--record`/`--replay` (abs-runtime) reads and writes JSON with it too.
   */
  def modelApiEntries(classPath: List[Path]): Set[Path] = {
    val marks = List("META-INF/services/cogs.absc.run.ModelApi$Provider", "META-INF/maven/org.webjars.npm/uplot/pom.properties")
    def has(entry: Path, name: String): Boolean =
      if (Files.isDirectory(entry)) Files.isRegularFile(entry.resolve(name))
      else Files.isRegularFile(entry) && (try scala.util.Using.resource(new java.util.jar.JarFile(entry.toFile))(_.getEntry(name) ne null)
        catch { case _: IOException => false })
    classPath.filter(e => marks.exists(has(e, _))).toSet
  }
}
