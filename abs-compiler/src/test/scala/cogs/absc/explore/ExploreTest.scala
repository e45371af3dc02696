package cogs.absc.explore

import java.nio.file.{Files, Path, Paths}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import cogs.absc.driver.AbsBackend
import cogs.absc.driver.DriverTestSupport._

/**
 * `absc explore` on the corpus of `src/test/abs/explore`: each model's comment derives by hand
 * how many schedules there are and how they end; the exhaustive exploration must find exactly
 * that, and every failure's witness must replay, through `absc run --replay`, to the same failure.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExploreTest {
  private var dir: Path = _
  private var cache: Path = _
  private val corpus = Paths.get("src/test/abs/explore")

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-explore")
    cache = dir.resolve("cache")
  }

  /** The report, parsed: schedules, (count, headline) per class, the output lines of normal ends. */
  private final case class Report(status: Int, schedules: Long, classes: List[(Long, String)], exhaustive: Boolean, err: String) {
    def count(headlinePrefix: String): Long = classes.collect { case (n, h) if h.startsWith(headlinePrefix) => n }.sum
  }

  private val ClassLine = """^ +([0-9,]+)  (\S.*)$""".r
  private val Schedules = """^absc explore: ([0-9,]+) schedules in .*""".r

  private def explore(model: String, witnesses: Path, extra: String*): Report = {
    val r = absc(AbsBackend, (List("explore", "--cache-dir", cache.toString, "--witness-dir", witnesses.toString) ++ extra ++
      List(corpus.resolve(model).toString)): _*)
    val lines = r.err.linesIterator.toList
    val schedules = lines.collectFirst { case Schedules(n) => n.replace(",", "").toLong }
      .getOrElse(fail(s"no report:\n${r.err}"))
    val classes = lines.collect { case ClassLine(n, h) => (n.replace(",", "").toLong, h) }
    Report(r.status, schedules, classes, r.err.contains("absc explore: exhaustive:"), r.err)
  }

  private def exhaustive(model: String, expected: Long, deadlocks: Long, failures: Long): Report = {
    val r = explore(model, dir.resolve(model + "-w"), "--strategy", "exhaustive")
    assertEquals(expected, r.schedules, r.err)
    assertTrue(r.exhaustive, r.err)
    assertEquals(deadlocks, r.count("deadlock"), r.err)
    assertEquals(failures, r.count("the main block failed") + r.count("a process failed"), r.err)
    assertEquals(expected - deadlocks - failures, r.count("normal end"), r.err)
    assertEquals(if (deadlocks + failures > 0) 1 else 0, r.status, r.err)
    r
  }

  @Test def oppositeGetsDeadlockInTwoOfSixSchedules(): Unit = {
    val r = exhaustive("opposite_gets.abs", 6, deadlocks = 2, failures = 0)
    assertTrue(r.err.contains("blocks its COG in get"), r.err)
  }

  @Test def aLateCloseStrandsThePassInTwoOfNineSchedules(): Unit =
    exhaustive("late_message.abs", 9, deadlocks = 2, failures = 0)

  @Test def theLostUpdateFailsTheAssertionInOneOfThreeSchedules(): Unit = {
    val r = exhaustive("lost_update.abs", 3, deadlocks = 0, failures = 1)
    assertTrue(r.err.contains("Assertion"), r.err)
  }

  @Test def freeModelsAreCertified(): Unit = {
    val c = exhaustive("counter.abs", 2, deadlocks = 0, failures = 0)
    assertEquals(List((2L, "normal end")), c.classes, c.err)
    val p = exhaustive("ping_await.abs", 20, deadlocks = 0, failures = 0)
    assertEquals(List((20L, "normal end")), p.classes, p.err)
    assertTrue(p.err.contains("output: done"), p.err)
  }

  /** Every witness of a failure, replayed by `absc run --replay`, ends in the same failure. */
  @Test def witnessesReplay(): Unit =
    for ((model, expected) <- List("opposite_gets.abs" -> "deadlock", "late_message.abs" -> "deadlock",
        "lost_update.abs" -> "Assertion")) {
      val w = dir.resolve(model + "-replay")
      val r = explore(model, w)
      val files = Files.list(w).toArray.map(_.asInstanceOf[Path]).filter(_.getFileName.toString.startsWith("witness-")).toList
      assertFalse(files.isEmpty, r.err)
      for (f <- files; _ <- 1 to 3) {
        val run = absc(AbsBackend, "run", "--cache-dir", cache.toString, "--replay", f.toString, corpus.resolve(model).toString)
        assertEquals(1, run.status, s"$model $f: ${run.err}")
        assertTrue(run.err.contains(expected), s"$model $f: ${run.err}")
      }
    }

  @Test def boundsAreSaidToStopTheExploration(): Unit = {
    val s = explore("ping_await.abs", dir.resolve("b1"), "--max-schedules", "5")
    assertEquals(5, s.schedules, s.err)
    assertFalse(s.exhaustive, s.err)
    assertTrue(s.err.contains("not exhaustive: the bound on schedules (--max-schedules 5)"), s.err)
    val d = explore("ping_await.abs", dir.resolve("b2"), "--max-depth", "1", "--strategy", "exhaustive")
    // Only the first choice point branches (ga1 or gb1 first); every later one takes its first step.
    assertEquals(2, d.schedules, d.err)
    assertTrue(d.err.contains("not exhaustive: the bound on depth (--max-depth 1)"), d.err)
  }

  @Test def randomAndPctFindTheDeadlockAndClaimNoExhaustiveness(): Unit =
    for (strategy <- List("random", "pct")) {
      val r = explore("opposite_gets.abs", dir.resolve(strategy), "--strategy", strategy, "--max-schedules", "300", "--seed", "7")
      assertEquals(300, r.schedules, r.err)
      assertTrue(r.count("deadlock") > 0, r.err)
      assertFalse(r.exhaustive, r.err)
      assertEquals(1, r.status, r.err)
    }

  @Test def badOptionsAreUsageErrors(): Unit = {
    val b = absc(AbsBackend, "explore", "--strategy", "bfs", corpus.resolve("counter.abs").toString)
    assertEquals(2, b.status, b.err)
    assertTrue(b.err.contains("--strategy must be one of dpor, exhaustive, random, pct, not 'bfs'"), b.err)
  }

  // ------------------------------------------------------------------ dpor

  /**
   * What a report says about how schedules ended, without the counts: each class's headline, the
   * output of normal ends and the waiting processes of deadlocks.
   */
  private def outcomes(r: Report): Set[String] =
    r.err.linesIterator.toList.collect {
      case ClassLine(_, h) => h
      case l if l.trim.startsWith("output: ") || l.trim.startsWith("waits: ") => l.trim
      case l if l.startsWith(" " * 20) && !l.trim.matches("[0-9]+\\..*") => l.trim // more lines of an output
    }.toSet

  /**
   * On every model of the corpus and on the example, dpor finds exactly the outcomes (normal
   * ends with their output, deadlocks with their waiting processes, failures) that exhaustive
   * finds, in no more schedules, and in strictly fewer where some steps are independent. The
   * counts are those of the runs (deterministic); the reasons are in each model's header.
   */
  @Test def dporFindsEveryOutcomeThatExhaustiveFinds(): Unit = {
    val models = List(
      // model, exhaustive's schedules, dpor's at most, dpor strictly fewer
      ("opposite_gets.abs", 6L, true),
      ("late_message.abs", 9L, false),
      ("lost_update.abs", 3L, true),
      ("counter.abs", 2L, true),
      ("ping_await.abs", 20L, false),
      ("independent.abs", 2520L, false),
      ("../../../../../examples/abs/RareDeadlock.abs", 52L, false))
    for ((model, all, mayEqual) <- models) {
      val e = explore(model, dir.resolve("e-" + model.replace('/', '_')), "--strategy", "exhaustive")
      val d = explore(model, dir.resolve("d-" + model.replace('/', '_')), "--strategy", "dpor")
      assertEquals(all, e.schedules, e.err)
      assertTrue(e.exhaustive && d.exhaustive, s"$model: ${d.err}")
      assertTrue(d.err.contains("covered up to the reordering of independent steps"), d.err)
      assertEquals(outcomes(e), outcomes(d), s"$model:\n${e.err}\n${d.err}")
      assertEquals(e.status, d.status, d.err)
      if (mayEqual) assertTrue(d.schedules <= e.schedules, s"$model: ${d.err}")
      else assertTrue(d.schedules < e.schedules, s"$model: ${d.err}")
    }
  }

  /**
   * Four workers on four COGs, each two slices, touching nothing the others touch: exhaustive
   * runs every interleaving, 8! / (2!)^4 = 2520; dpor sees no race and runs 1 (independent.abs).
   */
  @Test def independentCogsTakeOneDporSchedule(): Unit = {
    val d = explore("independent.abs", dir.resolve("ind"), "--strategy", "dpor")
    assertEquals(1, d.schedules, d.err)
    assertEquals(List((1L, "normal end")), d.classes, d.err)
    assertTrue(d.exhaustive, d.err)
    assertFalse(d.err.contains("cut short"), d.err)
    val e = explore("independent.abs", dir.resolve("ind-e"), "--strategy", "exhaustive")
    assertEquals(2520, e.schedules, e.err)
  }

  /** dpor is the default; its bounds are said like exhaustive's. */
  @Test def dporIsTheDefaultAndSaysItsBounds(): Unit = {
    val r = explore("opposite_gets.abs", dir.resolve("def"))
    assertTrue(r.err.contains("strategy dpor"), r.err)
    assertEquals(2, r.count("deadlock"), r.err)
    val s = explore("ping_await.abs", dir.resolve("dpor-b1"), "--max-schedules", "3")
    assertEquals(3, s.schedules, s.err)
    assertTrue(s.err.contains("not exhaustive: the bound on schedules (--max-schedules 3)"), s.err)
    val d = explore("ping_await.abs", dir.resolve("dpor-b2"), "--max-depth", "1")
    assertFalse(d.exhaustive, d.err)
    assertTrue(d.err.contains("not exhaustive: the bound on depth (--max-depth 1)"), d.err)
  }
}
