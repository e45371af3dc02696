package cogs.absc.driver

import java.nio.file.Path

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/** `absc test`: one line per file, the summary, the exit status, what is shown of failing tests. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestCommandTest {

  private var dir: Path = _
  private var cache: Path = _
  private val backend = new FakeBackend(programs)

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-test")
    cache = dir.resolve("cache")
  }

  private def test(args: String*): AbscResult = absc(backend, (List("test", "--cache-dir", cache.toString) ++ args): _*)

  @Test def passingTestsExitZero(): Unit = {
    val a = absFile(dir, "pass")
    val b = absFile(dir, "pass2")
    val r = test(a, b)
    assertEquals(0, r.status, r.err)
    assertEquals(s"PASS $a\nPASS $b\n2 passed, 0 failed\n", r.out)
    assertEquals("", r.err, "the output of passing tests is not shown")
    assertEquals("", r.programOut)
  }

  @Test def everyKindOfFailureHasItsReason(): Unit = {
    val files = List("pass", "fail", "hello", "failedassert", "deadlock", "sad", "library").map(absFile(dir, _))
    val r = test(files: _*)
    assertEquals(1, r.status)
    val lines = r.out.linesIterator.toList
    assertEquals(List(
      s"PASS ${files(0)}",
      s"FAIL ${files(1)}: testresult is False",
      s"FAIL ${files(2)}: the main block declares no 'Bool testresult'",
      s"FAIL ${files(3)}: the main block failed: uncaught exception AssertionFailException: x.abs:3: assert False",
      s"FAIL ${files(4)}: deadlock: 2 process(es) wait and nothing can wake them",
      s"FAIL ${files(5)}: internal error: the generated Scala code does not compile (sad/Main.scala:5)",
      s"FAIL ${files(6)}: the program has no main block",
      "1 passed, 6 failed"), lines)
    // The output and reports of failing tests go to stderr.
    assertTrue(r.err.contains("testing fail\n"), r.err)
    assertTrue(r.err.contains("before\nabsc: the main block failed"), r.err)
    assertFalse(r.err.contains("testing pass\n"), r.err)
  }

  @Test def aSyntaxErrorFailsThatTestOnly(): Unit = {
    val bad = absFile(dir, "broken", "module Broken;\n{ Bool testresult = True }\n")
    val good = absFile(dir, "pass")
    val r = test(bad, good)
    assertEquals(1, r.status)
    assertEquals(s"FAIL $bad: does not compile (1 error)\nPASS $good\n1 passed, 1 failed\n", r.out)
    assertTrue(r.err.contains(s"$bad:2:"), r.err)
  }

  @Test def aTestStillRunningAfterTheTimeoutFails(): Unit = {
    val f = absFile(dir, "sleeper")
    val r = test("--timeout", "0.5", f)
    assertEquals(1, r.status)
    assertEquals(s"FAIL $f: timed out after 0.5 s (stopped)\n0 passed, 1 failed\n", r.out)
  }

  @Test def verboseShowsTheOutputOfPassingTestsToo(): Unit = {
    val r = test("-v", absFile(dir, "pass"))
    assertEquals(0, r.status)
    assertTrue(r.err.contains("testing pass\n"), r.err)
  }
}
