package cogs.absc.driver

import cogs.absc.run.ProgramRunner

import java.nio.file.{Files, Path}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * `absc run` end to end with hand-written translations: compiled by the embedded scalac, run in a
 * fresh class loader, output and exit status as a user sees them. One cache for the class, so each
 * fake program is compiled once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunCommandTest {

  private var dir: Path = _
  private var cache: Path = _
  private val backend = new FakeBackend(programs)

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-run")
    cache = dir.resolve("cache")
  }

  private def run(name: String, extra: String*): AbscResult =
    absc(backend, (List("run", "--cache-dir", cache.toString) ++ extra ++ List(absFile(dir, name))): _*)

  @Test def aProgramRunsAndItsOutputGoesToStdout(): Unit = {
    val r = run("hello")
    assertEquals(0, r.status, r.err)
    assertEquals("hello 21\nresult 42\nargs \n", r.programOut)
    assertEquals("", r.err)
    assertEquals("", r.out)
  }

  @Test def runningOutOfMemoryIsOneParagraphWithTheSettingToRaise(): Unit = {
    val r = run("outofmemory")
    assertEquals(1, r.status, r.err)
    assertEquals("before\n", r.programOut)
    assertTrue(r.err.contains("absc: the main block ran out of memory (java.lang.OutOfMemoryError: Java heap space); " +
      "give the JVM more heap, e.g. JAVA_OPTS=-Xmx4g"), r.err)
    assertFalse(r.err.contains("\tat "), s"no stack trace without -v:\n${r.err}")
    assertFalse(r.err.contains("deadlock"), r.err)
  }

  @Test def aStackOverflowNamesTheSettingToRaise(): Unit = {
    val r = run("stackoverflow")
    assertEquals(1, r.status, r.err)
    assertTrue(r.err.contains("absc: the main block failed: uncaught exception StackOverflowException"), r.err)
    assertTrue(r.err.contains("JAVA_OPTS=-Xss1g"), r.err)
    assertFalse(r.err.contains("\tat "), r.err)
  }

  @Test def argumentsAfterDoubleDashReachTheProgram(): Unit = {
    val r = absc(backend, "run", "--cache-dir", cache.toString, absFile(dir, "hello"), "--", "a", "--b", "-v")
    assertEquals(0, r.status, r.err)
    assertTrue(r.programOut.endsWith("args a,--b,-v\n"), r.programOut)
  }

  @Test def aFailedAssertExitsOneNamingTheMainBlockAndTheException(): Unit = {
    val r = run("failedassert")
    assertEquals(1, r.status)
    assertEquals("before\n", r.programOut)
    assertEquals("absc: the main block failed: uncaught exception AssertionFailException: x.abs:3: assert False\n", r.err)
  }

  @Test def aJvmExceptionIsNamedByItsClass(): Unit = {
    val r = run("jvmexception")
    assertEquals(1, r.status)
    // Names where the exception was raised, and that it reached the main block through a future.
    assertTrue(r.err.startsWith("absc: jvmexception.BombImpl") &&
      r.err.contains(".explode (via the main block) failed: uncaught exception java.lang.IllegalStateException: boom"), r.err)
    assertFalse(r.err.contains("\tat "), "no stack trace without -v: " + r.err)
  }

  @Test def verboseAddsTheStackTrace(): Unit = {
    val r = run("jvmexception", "-v")
    assertEquals(1, r.status)
    assertTrue(r.err.contains("\tat "), r.err)
  }

  @Test def aDeadlockExitsOneAndNamesTheWaitingProcesses(): Unit = {
    val r = run("deadlock")
    assertEquals(1, r.status)
    assertTrue(r.err.startsWith("absc: deadlock: "), r.err)
    assertTrue(r.err.contains("waitForever"), r.err)
    assertTrue(r.err.contains("main.main blocks its COG in get"), r.err)
  }

  @Test def aScalacErrorIsAnInternalErrorWithTheGeneratedLine(): Unit = {
    val r = run("sad")
    assertEquals(2, r.status)
    assertTrue(r.err.startsWith("absc: internal error: the Scala code absc generated for this program does not compile."), r.err)
    assertTrue(r.err.contains("sad/Main.scala:5:18: error: type mismatch;"), r.err)
    assertTrue(r.err.contains("    val n: Int = \"not a number\"\n                 ^"), r.err)
    assertTrue(r.err.contains("--keep-generated DIR"), r.err)
    assertEquals("", r.programOut)
  }

  @Test def keepGeneratedWritesTheSourcesEvenWhenScalacFails(): Unit = {
    val keep = dir.resolve("kept-sad")
    val r = run("sad", "--keep-generated", keep.toString)
    assertEquals(2, r.status)
    assertTrue(r.err.contains(s"the generated sources are in $keep"), r.err)
    assertTrue(Files.readString(keep.resolve("sad/Main.scala")).contains("not a number"))
  }

  @Test def aProgramWithoutMainBlockHasNothingToRun(): Unit = {
    val r = run("library")
    assertEquals(2, r.status)
    assertEquals("absc: nothing to run: the program has no main block\n", r.err)
  }

  @Test def aSyntaxErrorIsRenderedWithItsLineAndExitsTwo(): Unit = {
    // The real back end: the parser runs before it, so this holds whatever phases exist.
    val f = absFile(dir, "syntax", "module Bad;\n{\n  Int x = 1\n}\n")
    val r = absc(AbsBackend, "run", "--cache-dir", cache.toString, f)
    assertEquals(2, r.status)
    assertEquals(s"$f:3:12: error: expected ';'\n  Int x = 1\n           ^\nabsc: 1 error\n", r.err)
  }

  @Test def syntaxErrorsOfEveryFileAreReported(): Unit = {
    val a = absFile(dir, "bad1", "module A;\n{ Int x = 1 }\n")
    val b = absFile(dir, "bad2", "module B;\n{ Int y = ; }\n")
    val r = absc(AbsBackend, "run", "--cache-dir", cache.toString, a, b)
    assertEquals(2, r.status)
    assertTrue(r.err.contains(s"$a:2:"), r.err)
    assertTrue(r.err.contains(s"$b:2:"), r.err)
    assertTrue(r.err.endsWith("absc: 2 errors\n"), r.err)
  }

  @Test def verbosePrintsTheTimeOfEachPhase(): Unit = {
    val r = absc(backend, "run", "-v", "--no-cache", absFile(dir, "hello"))
    assertEquals(0, r.status, r.err)
    for (p <- List("parse", "flatten", "check", "entry", "emit", "scalac", "run")) // the fake back end's phases (see Pipeline), then the driver's
      assertTrue(r.err.linesIterator.exists(l => l.startsWith(s"absc: $p ") && l.endsWith(" ms")), s"$p in\n${r.err}")
  }

  @Test def warningsArePrintedAndTheProgramStillRuns(): Unit = {
    val f = absFile(dir, "hello")
    val warn = cogs.absc.diag.Diagnostic.warning(cogs.absc.ast.Pos(f, 2, 1), "something odd")
    val r = absc(new FakeBackend(programs, List(warn)), "run", "--no-cache", f)
    assertEquals(0, r.status)
    assertTrue(r.err.startsWith(s"$f:2:1: warning: something odd\n{\n^\n"), r.err)
  }
}

/** Building in a compiler JVM, as `absc run` does when the launcher asks for it. */
class CompilerJvmTest {

  private def jvm = CompilerJvm(
    java.nio.file.Paths.get(System.getProperty("java.home"), "bin", "java").toString,
    List("-XX:TieredStopAtLevel=1", "-Xshare:auto"), None, "cogs.absc.driver.FakeMain")

  @Test def aProgramBuiltInAnotherJvmIsCachedAndRunsHere(): Unit = {
    val dir = tempDir("absc-fork")
    val cache = dir.resolve("cache")
    val backend = new FakeBackend(programs)
    val err = new java.io.ByteArrayOutputStream
    val driver = new Driver(backend, new java.io.PrintStream(err, true), verbose = false, Some(jvm))
    val sources = driver.readSources(List(absFile(dir, "hello"))).toOption.get
    val built = driver.build(sources, CachePolicy.Cached(cache), None).toOption.get
    assertFalse(built.cacheHit)
    assertEquals(0, backend.emitted.get, "translated by the other JVM")
    var outcome: ProgramRunner.Outcome = null
    val out = cogs.absc.lib.Out.capture { outcome = driver.execute(built, Array("x"), System.err) }
    assertEquals(0, outcome.status)
    assertEquals("hello 21\nresult 42\nargs x\n", out)
    assertTrue(driver.build(sources, CachePolicy.Cached(cache), None).toOption.get.cacheHit)
    assertEquals("", err.toString)
  }

  @Test def aFailureInTheOtherJvmComesBackWithItsReason(): Unit = {
    val dir = tempDir("absc-fork")
    val err = new java.io.ByteArrayOutputStream
    val driver = new Driver(new FakeBackend(programs), new java.io.PrintStream(err, true), verbose = false, Some(jvm))
    val sources = driver.readSources(List(absFile(dir, "sad"))).toOption.get
    assertEquals(Left(BuildFailure(2, "internal error: the generated Scala code does not compile (sad/Main.scala:5)")),
      driver.build(sources, CachePolicy.NoCache, None).map(_ => ()))
    assertTrue(err.toString.contains("sad/Main.scala:5:18: error: type mismatch;"), "its messages are ours: " + err)
  }
}
