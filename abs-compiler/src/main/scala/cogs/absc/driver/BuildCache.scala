package cogs.absc.driver

import java.io.IOException
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

/** Where compiled classes go: a cache, or a temporary directory deleted after the run. */
sealed trait CachePolicy
object CachePolicy {
  final case class Cached(root: Path) extends CachePolicy
  case object NoCache extends CachePolicy
}

/**
 * A compiled program ready to run, and what to do when it is no longer needed. `cacheRoot`: the
 * cache it came from (None: a temporary directory).
 */
final class Built(val program: CompiledProgram, val cacheHit: Boolean, cleanup: () => Unit,
    private[driver] val cacheRoot: Option[Path] = None) {
  def close(): Unit = cleanup()
}

/**
 * Builds through the cache ([[ClassCache]]): a hit skips the build; a miss builds with `builder`
 * into a fresh directory and commits it, unless a source changed while another JVM read it (then
 * the program runs but nothing is cached). With `keepGenerated`, the generated sources are also
 * written there (from the cache entry on a hit).
 */
private[driver] final class BuildCache(builder: Builder, reporter: Reporter, generated: GeneratedSources,
    keyOf: List[SourceFile] => String) {
  import reporter.{err, note}

  def build(sources: List[SourceFile], cache: CachePolicy, keepGenerated: Option[Path]): Either[BuildFailure, Built] =
    cache match {
      case CachePolicy.Cached(root) =>
        val c = new ClassCache(root)
        val key = reporter.phase("cache key") { keyOf(sources) }
        c.lookup(key) match {
          case Some(hit) =>
            note(s"cache hit: ${hit.dir}")
            if (hit.warnings.nonEmpty) err.println(hit.warnings)
            generated.keep(keepGenerated, hit.generatedFiles).map(_ => new Built(hit, cacheHit = true, () => (), Some(root)))
          case None =>
            note(s"cache miss: ${c.entryDir(key)}")
            val temp =
              try Some(c.newTempDir(key))
              catch {
                case e: IOException =>
                  err.println(s"absc: warning: cannot write to the cache in $root ($e); compiling without it")
                  None
              }
            temp match {
              case None => build(sources, CachePolicy.NoCache, keepGenerated)
              case Some(temp) =>
                builder.buildInto(temp, sources, keepGenerated) match {
                  case Left(f) => ClassCache.deleteTree(temp); Left(f)
                  case Right(()) =>
                    if (forkedKey(temp).forall(_ == key)) Right(new Built(c.commit(key, temp), cacheHit = false, () => (), Some(root)))
                    else {
                      // A source changed while the other JVM read it: run what it built, cache nothing.
                      note("a source changed during the build; the result is not cached")
                      Right(new Built(new CompiledProgram(temp), cacheHit = false, () => ClassCache.deleteTree(temp)))
                    }
                }
            }
        }
      case CachePolicy.NoCache =>
        val temp = Files.createTempDirectory("absc-")
        builder.buildInto(temp, sources, keepGenerated) match {
          case Left(f) => ClassCache.deleteTree(temp); Left(f)
          case Right(()) => Right(new Built(new CompiledProgram(temp), cacheHit = false, () => ClassCache.deleteTree(temp)))
        }
    }

  /** The key the build in another JVM computed from the sources it read (see [[InProcessBuilder]]). */
  private def forkedKey(dir: Path): Option[String] = {
    val f = dir.resolve("key")
    if (Files.isRegularFile(f)) Some(Files.readString(f, UTF_8).trim) else None
  }
}

private[driver] object BuildCache {

  /** The cache key of a program: its sources, the monitor's, the options that change what is built, absc's class path. */
  def key(sources: List[SourceFile], monitor: Option[MonitorSetup], program: ProgramOptions): String =
    ClassCache.key(sources ++ monitor.toList.flatMap(_.keyParts) ++ program.mainModule.map(m => SourceFile("--main-module", m)) ++
      program.product.map(p => SourceFile("--product", p)),
      Versions.absc, ClassPath.fingerprint(ClassPath.entries))
}
