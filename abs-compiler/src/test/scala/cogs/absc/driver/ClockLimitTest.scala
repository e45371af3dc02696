package cogs.absc.driver

import java.nio.file.Path

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/** `absc run -l T`: a timed model that would run forever stops at the clock limit. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClockLimitTest {

  private var dir: Path = _
  private var cache: Path = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-clock")
    cache = dir.resolve("cache")
  }

  private val forever =
    """module Forever;
      |interface Ticker { Unit run(); }
      |class Ticker implements Ticker {
      |  Unit run() { while (True) { await duration(3); println(toString(timeValue(now()))); } }
      |}
      |{ new Ticker(); }
      |""".stripMargin

  private def run(extra: String*): AbscResult =
    absc(AbsBackend, (List("run", "--cache-dir", cache.toString) ++ extra ++ List(absFile(dir, "forever", forever))): _*)

  @Test def theSimulationStopsAtTheLimitWithStatusZero(): Unit = {
    val r = run("-l", "10")
    assertEquals(0, r.status, r.err)
    assertEquals(List("3", "6", "9"), r.programOut.linesIterator.toList)
    assertTrue(r.err.contains("the simulation stopped at the clock limit 10 (time 9)"), r.err)
  }

  @Test def aFractionalLimitIsExact(): Unit = {
    val r = run("--clock-limit", "19/2")
    assertEquals(0, r.status, r.err)
    assertEquals(List("3", "6", "9"), r.programOut.linesIterator.toList)
  }

  @Test def aLimitThatIsNotATimeIsAUsageError(): Unit = {
    val r = run("-l", "ten")
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains("--clock-limit: 'ten' is not a time"), r.err)
  }

  @Test def aMainBlockWaitingBeyondTheLimitIsNotADeadlock(): Unit = {
    val r = absc(AbsBackend, "run", "--cache-dir", cache.toString, "-l", "5",
      absFile(dir, "late", "module Late;\n{ await duration(100); println(\"never\"); }\n"))
    assertEquals(0, r.status, r.err)
    assertEquals("", r.programOut)
    assertTrue(r.err.contains("stopped at the clock limit 5 (time 0) before the main block finished"), r.err)
    assertFalse(r.err.contains("deadlock"), r.err)
  }
}
