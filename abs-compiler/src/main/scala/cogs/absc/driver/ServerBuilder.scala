package cogs.absc.driver

import java.nio.file.{Path, Paths}

/**
 * The build on the compile server (see [[ServerClient]]): what it printed goes out here, as the
 * compiler JVM's would, and its status is read the same way. When the server does not build (after
 * a one-line message if it failed; silently if none runs), `forked` builds, so no compile is ever
 * lost to the server; if none ran, one is started after that build, so that its cold start and
 * warm-up (builds of these sources into a scratch directory) cost this run nothing but a spawn.
 * A server that built and died without saying why leaves the build to `here` (this JVM).
 */
private[driver] final class ServerBuilder(client: ServerClient, args: BuildIntoArgs, reporter: Reporter, forked: Builder,
    here: Builder) extends Builder {
  import ServerBuilder._

  def buildInto(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[BuildFailure, Unit] = {
    val served = reporter.phase("build server") { onServer(dir, sources, keepGenerated) }
    served match {
      case Right(result) => result
      case Left(why) =>
        val result = forked.buildInto(dir, sources, keepGenerated)
        if (result.isRight && why == NoServer)
          client.startInBackground(scratch => args(scratch, sources, None, quiet = true), Paths.get("").toAbsolutePath)
        result
    }
  }

  private def onServer(dir: Path, sources: List[SourceFile], keepGenerated: Option[Path]): Either[NotServed, Either[BuildFailure, Unit]] =
    client.build(args(dir, sources, keepGenerated), Paths.get("").toAbsolutePath) match {
      case Left(problem) =>
        reporter.err.println(s"absc: $problem; compiling without it")
        Left(ServerFailed)
      case Right(None) =>
        reporter.note("no compile server runs yet: building in the compiler JVM, then starting one")
        Left(NoServer)
      case Right(Some(b)) =>
        reporter.note(s"built by the compile server (pid ${b.pid})")
        System.out.write(b.out); System.out.flush()
        reporter.err.write(b.err); reporter.err.flush()
        Right(Builder.afterRemote(b.status, dir, sources, keepGenerated, s"the compile server (pid ${b.pid})", reporter, here))
    }
}

private[driver] object ServerBuilder {
  /** Why the compile server did not build: none ran (one is started after the build), or it failed. */
  private sealed trait NotServed
  private case object NoServer extends NotServed
  private case object ServerFailed extends NotServed
}
