package cogs.absc.driver

import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/** `--main-module`, `--workers`, `absc check` on real models, and how much `-v` says. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProgramOptionsTest {

  private var dir: Path = _
  private var cache: Path = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-options")
    cache = dir.resolve("cache")
  }

  private def abs(args: String*): AbscResult = absc(AbsBackend, args: _*)

  private val twoMains =
    """module A;
      |{ println("main of A"); }
      |
      |module Lib;
      |export *;
      |def Int one() = 1;
      |
      |module B;
      |{ println("main of B"); }
      |""".stripMargin

  private def generatedMain(out: Path): String = Files.readString(out.resolve("absmodel_main/Main.scala"))

  @Test def severalMainBlocksWithoutAChoiceAreAnErrorNamingThem(): Unit = {
    val f = absFile(dir, "two", twoMains)
    for (cmd <- List(List("run", "--cache-dir", cache.toString), List("compile", "-d", dir.resolve("none").toString))) {
      val r = abs((cmd :+ f): _*)
      assertEquals(2, r.status, r.err)
      assertEquals(s"absc: 2 modules have a main block: A ($f:2:1), B ($f:9:1); choose one with --main-module MODULE\n", r.err)
      assertEquals("", r.programOut)
    }
    assertFalse(Files.exists(dir.resolve("none")))
  }

  @Test def aTestWithSeveralMainBlocksFailsNamingThem(): Unit = {
    val f = absFile(dir, "twotest", twoMains)
    val r = abs("test", "--cache-dir", cache.toString, f)
    assertEquals(1, r.status, r.err)
    assertEquals(s"FAIL $f: 2 modules have a main block: A ($f:2:1), B ($f:9:1); a program may have only one\n0 passed, 1 failed\n", r.out)
  }

  @Test def mainModuleChoosesTheEntryPoint(): Unit = {
    val f = absFile(dir, "two", twoMains)
    for (m <- List("A", "B")) {
      val out = dir.resolve(s"out-$m")
      val r = abs("compile", "--main-module", m, "-d", out.toString, f)
      assertEquals(0, r.status, r.err)
      assertTrue(generatedMain(out).contains(s"absmodel.$m.main()"), generatedMain(out))
    }
  }

  @Test def theChoiceIsPartOfTheCacheKey(): Unit = {
    val f = absFile(dir, "two", twoMains)
    val a = abs("run", "--cache-dir", cache.toString, "--main-module", "A", f)
    assertEquals(0, a.status, a.err)
    assertEquals("main of A\n", a.programOut)
    val b = abs("run", "--cache-dir", cache.toString, "--main-module", "B", f)
    assertEquals(0, b.status, b.err)
    assertEquals("main of B\n", b.programOut)
  }

  @Test def aChoiceWithoutAMainBlockIsAnError(): Unit = {
    val f = absFile(dir, "two", twoMains)
    val lib = abs("compile", "--main-module", "Lib", "-d", dir.resolve("lib").toString, f)
    assertEquals(2, lib.status)
    assertEquals(s"absc: --main-module Lib: module Lib has no main block; modules with a main block: A ($f:2:1), B ($f:9:1)\n", lib.err)
    val none = abs("compile", "--main-module", "C", "-d", dir.resolve("c").toString, f)
    assertEquals(2, none.status)
    assertTrue(none.err.startsWith("absc: --main-module C: there is no module C; "), none.err)
  }

  @Test def theMainBlocksNotChosenAreStillChecked(): Unit = {
    val f = absFile(dir, "typo", twoMains.replace("""{ println("main of A"); }""", """{ println(1); }"""))
    val r = abs("compile", "--main-module", "B", "-d", dir.resolve("typo").toString, f)
    assertEquals(2, r.status)
    assertTrue(r.err.startsWith(s"$f:2:"), r.err)
    assertTrue(r.err.endsWith("absc: 1 error\n"), r.err)
  }

  @Test def checkReportsTypeErrorsAndTranslatesNothing(): Unit = {
    val ok = abs("check", absFile(dir, "twoOk", twoMains))
    assertEquals(0, ok.status, ok.err)
    assertEquals("", ok.out + ok.err)
    val f = absFile(dir, "wrong", "module W;\n{\n  Int x = True;\n}\n")
    val bad = abs("check", f)
    assertEquals(2, bad.status)
    assertTrue(bad.err.startsWith(s"$f:3:"), bad.err)
    assertTrue(bad.err.contains(" error: "), bad.err)
    assertTrue(bad.err.endsWith("absc: 1 error\n"), bad.err)
  }

  @Test def workersSetTheParallelismOfTheProgramsRuntime(): Unit = {
    val backend = new FakeBackend(programs)
    val f = absFile(dir, "runtimeinfo")
    for (n <- List(3, 1)) {
      val r = absc(backend, "run", "--cache-dir", cache.toString, "--workers", n.toString, f)
      assertEquals(0, r.status, r.err)
      assertTrue(r.programOut.startsWith(s"CogRuntime(parallelism=$n,"), r.programOut)
    }
    assertNull(System.getProperty("cogs.executor.parallelism"), "the setting ends with the run")
    val default = absc(backend, "run", "--cache-dir", cache.toString, f)
    assertTrue(default.programOut.startsWith(s"CogRuntime(parallelism=${Runtime.getRuntime.availableProcessors},"), default.programOut)
  }

  private def jvm = CompilerJvm(
    java.nio.file.Paths.get(System.getProperty("java.home"), "bin", "java").toString,
    List("-XX:TieredStopAtLevel=1", "-Xshare:auto"), None, "cogs.absc.driver.FakeMain")

  /** What `-v` (or `-vv`) prints while a program is built in a compiler JVM. */
  private def verboseBuild(debug: Boolean): String = {
    val err = new ByteArrayOutputStream
    val driver = new Driver(new FakeBackend(programs), new PrintStream(err, true, UTF_8), verbose = true, Some(jvm), debug = debug)
    val sources = driver.readSources(List(absFile(dir, "hello"))).toOption.get
    assertTrue(driver.build(sources, CachePolicy.NoCache, None).isRight, err.toString(UTF_8))
    err.toString(UTF_8)
  }

  @Test def verboseIsShortAndTwiceVerboseShowsTheJvmCommand(): Unit = {
    val v = verboseBuild(debug = false)
    assertTrue(v.linesIterator.exists(_.startsWith("absc: build JVM ")), v)
    assertTrue(v.linesIterator.forall(_.length <= 120), s"a long line in:\n$v")
    val vv = verboseBuild(debug = true)
    assertTrue(vv.linesIterator.exists(l => l.startsWith("absc: compiler JVM: ") && l.contains(" build-into ")), vv)
  }
}
