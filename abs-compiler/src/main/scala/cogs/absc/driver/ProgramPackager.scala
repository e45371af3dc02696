package cogs.absc.driver

import java.io.IOException
import java.nio.file.{Files, Path, Paths}

/**
 * `absc package`: builds through the cache and writes the program's directory (see [[Packager]]),
 * with the distributed module's jars for `--cluster`.
 */
private[driver] final class ProgramPackager(cache: BuildCache, reporter: Reporter, program: ProgramOptions) {
  import reporter.err

  def packageTo(sources: List[SourceFile], policy: CachePolicy, out: Path, name: String, cluster: Boolean = false): Int = {
    val distributed =
      if (!cluster) Right(Nil)
      else Nodes.distributedClassPath.map(_.map(Paths.get(_)).filter(p => Files.exists(p)))
    distributed match {
      case Left(why) => err.println(s"absc: $why"); Exit.Compile
      case Right(extra) => packageWith(sources, policy, out, name, extra, cluster)
    }
  }

  private def packageWith(sources: List[SourceFile], policy: CachePolicy, out: Path, name: String, distributed: List[Path],
      cluster: Boolean): Int =
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
                val own = FastRun.runClassPath(ClassPath.entries, libRoot)
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
