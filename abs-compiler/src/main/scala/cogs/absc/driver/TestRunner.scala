package cogs.absc.driver

import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}

/**
 * `absc test`: each file is a program of its own whose main block declares `Bool testresult`;
 * it passes if it ends normally with `testresult` True. One line per file on `out`, then
 * `N passed, N failed`. The output of a program, and the runner's report, are shown on the
 * reporter's stream only when it fails (always, with -v).
 */
private[driver] final class TestRunner(cache: BuildCache, runner: Runner, reporter: Reporter) {
  import reporter.{err, verbose}

  def test(files: List[SourceFile], out: PrintStream, policy: CachePolicy, keepGenerated: Option[Path],
      timeoutMillis: Long): Int =
    each(files, out, policy, keepGenerated)(built => inThisJvm(built, timeoutMillis))

  /**
   * `absc test --nodes local:N`: each test's nodes run as JVMs (`run(built, resultFile)` starts
   * them, see [[Nodes.run]], and gives the main node's status or [[Nodes.TimedOut]]); the main
   * node writes `testresult` into `resultFile` (ProgramRunner's `cogs.absc.testresult-file`), so
   * the verdict is the one a run in one JVM gets. The nodes' output has gone to stderr.
   */
  def testOnNodes(files: List[SourceFile], out: PrintStream, policy: CachePolicy, keepGenerated: Option[Path],
      timeoutMillis: Long)(run: (Built, Path) => Either[String, Int]): Int =
    each(files, out, policy, keepGenerated) { built =>
      val resultFile = Files.createTempFile("absc-testresult", ".txt")
      Files.delete(resultFile)
      try run(built, resultFile).flatMap {
        case Nodes.TimedOut => Left(s"timed out after ${timeoutMillis / 1000.0} s")
        case Exit.Ok =>
          if (!Files.exists(resultFile)) Left("the main block declares no 'Bool testresult'")
          else if (Files.readString(resultFile, UTF_8).trim == "True") Right(())
          else Left("testresult is False")
        case status => Left(s"exit status $status")
      } finally Files.deleteIfExists(resultFile)
    }

  private def each(files: List[SourceFile], out: PrintStream, policy: CachePolicy, keepGenerated: Option[Path])(
      judge: Built => Either[String, Unit]): Int = {
    var passed = 0
    var failed = 0
    for (file <- files) {
      val keepHere = keepGenerated.map(d => if (files.size > 1) d.resolve(TestRunner.dirName(file.name)) else d)
      val verdict: Either[String, Unit] = cache.build(List(file), policy, keepHere) match {
        case Left(f) => Left(f.reason)
        case Right(built) =>
          try judge(built) finally built.close()
      }
      verdict match {
        case Right(()) => passed += 1; out.println(s"PASS ${file.name}")
        case Left(why) => failed += 1; out.println(s"FAIL ${file.name}: $why")
      }
      out.flush()
      err.flush()
    }
    out.println(s"$passed passed, $failed failed")
    out.flush()
    if (failed == 0) Exit.Ok else Exit.Failure
  }

  private def inThisJvm(built: Built, timeoutMillis: Long): Either[String, Unit] = {
    val report = new ByteArrayOutputStream
    val reportStream = new PrintStream(report, true, UTF_8)
    // An output of its own: a model stopped after a timeout writes nothing into the next one's.
    val captured = new ByteArrayOutputStream
    val programOut = new cogs.absc.lib.Output(captured, autoFlush = false, intervalNanos = 0L)
    val outcome = runner.execute(built, Array.empty, reportStream, timeoutMillis, programOut)
    programOut.close()
    val output = captured.toString(UTF_8)
    val verdict =
      if (outcome.status != Exit.Ok) Left(outcome.failure.getOrElse(s"exit status ${outcome.status}"))
      else outcome.testResult match {
        case Some(true)  => Right(())
        case Some(false) => Left("testresult is False")
        case None        => Left("the main block declares no 'Bool testresult'")
      }
    if (verdict.isLeft || verbose) {
      if (output.nonEmpty) {
        err.print(output)
        if (!output.endsWith("\n")) err.println()
      }
      err.print(report.toString(UTF_8))
    }
    verdict
  }
}

private[driver] object TestRunner {
  /** Where `--keep-generated DIR` puts a test's sources when several run: DIR/NAME. */
  private def dirName(name: String): String =
    Paths.get(name).getFileName.toString.stripSuffix(".abs").replaceAll("[^A-Za-z0-9._-]", "_")
}
