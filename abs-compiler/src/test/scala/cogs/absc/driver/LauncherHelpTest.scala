package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.nio.file.attribute.PosixFilePermissions
import java.util.concurrent.TimeUnit

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * The launchers of the examples, the Savina harness and the JMH benchmarks answer `--help` and
 * `-h` without building (issue 15). Each script is copied into an empty directory tree, so
 * that any build it started would have to run `mvn`; `mvn` and `java` on the PATH are fakes
 * that leave a mark and fail. The control cases show that the same setup does catch a build.
 */
class LauncherHelpTest {

  private val root: Path = {
    val here = Paths.get("").toAbsolutePath
    if (Files.isRegularFile(here.resolve("savina/run"))) here else here.getParent
  }

  private final case class Ran(status: Int, out: String, err: String, built: Boolean)

  /** Runs a copy of `dir/run` (in a tree without poms or sources) with `args`. */
  private def runCopy(dir: String, args: String*): Ran = {
    val tmp = Files.createTempDirectory("launcher-")
    val script = tmp.resolve(dir).resolve("run")
    Files.createDirectories(script.getParent)
    Files.copy(root.resolve(dir).resolve("run"), script)
    val bin = Files.createDirectories(tmp.resolve("fake-bin"))
    val marker = tmp.resolve("built")
    for (tool <- List("mvn", "java")) {
      val f = bin.resolve(tool)
      Files.writeString(f, "#!/bin/sh\necho \"$0 $*\" >> \"$LAUNCHER_TEST_MARKER\"\nexit 1\n", UTF_8)
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"))
    }
    val pb = new ProcessBuilder(("bash" :: script.toString :: args.toList): _*)
    val env = pb.environment()
    env.remove("JAVA_HOME")
    env.put("PATH", s"$bin:${sys.env.getOrElse("PATH", "/usr/bin:/bin")}")
    env.put("LAUNCHER_TEST_MARKER", marker.toString)
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
    val outFile = tmp.resolve("out")
    val errFile = tmp.resolve("err")
    pb.redirectOutput(outFile.toFile).redirectError(errFile.toFile)
    val p = pb.start()
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), s"$dir/run ${args.mkString(" ")} did not end")
    Ran(p.exitValue, Files.readString(outFile, UTF_8), Files.readString(errFile, UTF_8), Files.exists(marker))
  }

  private val launchers = List("examples" -> "examples/run NAME", "savina" -> "savina/run [OPTIONS]",
    "benchmarks" -> "benchmarks/run [OPTIONS]")

  @Test def helpNeedsNoBuildAndNoJava(): Unit =
    for ((dir, usage) <- launchers; flag <- List("--help", "-h")) {
      val r = runCopy(dir, flag)
      assertEquals(0, r.status, s"$dir/run $flag: ${r.err}")
      assertTrue(r.out.startsWith(s"usage: $usage"), s"$dir/run $flag printed:\n${r.out}")
      assertEquals("", r.err, s"$dir/run $flag")
      assertFalse(r.built, s"$dir/run $flag started mvn or java")
    }

  @Test def theSameSetupCatchesABuild(): Unit =
    for ((dir, args) <- List("examples" -> List("pingpong"), "savina" -> List("--list"), "benchmarks" -> List("-l"))) {
      val r = runCopy(dir, args: _*)
      assertTrue(r.built, s"$dir/run ${args.mkString(" ")} did not try to build: ${r.err}")
      assertNotEquals(0, r.status)
    }

  /** savina/run keeps its own copy of the harness's usage (so that it needs no JVM): they must agree. */
  @Test def savinaHelpAgreesWithTheHarness(): Unit = {
    val script = runCopy("savina", "--help").out
    val source = Files.readString(root.resolve("savina/src/main/scala/cogs/savina/Options.scala"), UTF_8)
    val harnessUsage = source.substring(source.indexOf("val usage"), source.indexOf("def parse("))
    def options(text: String): Set[String] = "(?<![\\w-])--[a-z][a-z-]*".r.findAllIn(text).toSet
    assertEquals(options(harnessUsage), options(script))
    def constant(name: String): String =
      (s"val $name(?:: [A-Za-z\\[\\]]+)? = (.+)").r.findFirstMatchIn(source).map(_.group(1).trim).getOrElse(fail(s"no $name"))
    val iterations = constant("DefaultIterations")
    val quickIterations = constant("QuickIterations")
    val warmup = constant("DefaultWarmup")
    val quickWarmup = constant("QuickWarmup")
    val timeout = constant("DefaultTimeoutSeconds").stripSuffix("L")
    val jvmOpts = "\"([^\"]+)\"".r.findAllMatchIn(constant("DefaultJvmOpts")).map(_.group(1)).mkString(" ")
    for (expected <- List(s"(default: $iterations; with --quick: $quickIterations)", s"(default: $warmup; with --quick: $quickWarmup)",
        s"(default: $timeout)", s"(default: \"$jvmOpts\")"))
      assertTrue(script.contains(expected), s"savina/run --help should say $expected")
  }
}
