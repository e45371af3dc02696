package cogs.distributed.abs

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, Test, TestInstance, Timeout}

/**
 * `--spread-components` and `absc test --nodes` (issue 30, point 4), with absc in a child JVM on
 * this module's class path (as `AbsTimedModelsOnNodesTest`), every run on two JVMs:
 *
 *  - `absc run --nodes local:2 --spread-components` puts the components no option maps on n1,
 *    main, n1, .. in the order of their first `new` (`spread/Spread.abs`);
 *  - `absc test --nodes local:2 --cluster-clock --spread-components` judges `testresult` of our
 *    own timed test programs (`timed-tests/`: costs, durations, component state, a `[Scheduler]` object, a component's load and
 *    resources read and changed from the node of its ABS object, as the timed
 *    conformance programs use them; `distributed/run-timed-conformance` runs those) with the
 *    PASS/FAIL lines of a test in one JVM, and a False `testresult` or a hang as failures.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 2400, unit = TimeUnit.SECONDS)
class AbsSpreadComponentsTest {
  private val cache = Files.createTempDirectory("absc-spread-cache")
  private val work = Files.createTempDirectory("absc-spread")

  @AfterAll def cleanUp(): Unit = { AbscChild.deleteTree(cache); AbscChild.deleteTree(work) }

  private def resource(name: String): String = {
    val url = getClass.getResource(s"/$name")
    assertNotNull(url, s"no test resource $name")
    Paths.get(url.toURI).toString
  }

  /** absc COMMAND in a child JVM: exit status, stdout and stderr. Generous: on a loaded machine two nodes need well over a minute to start and join. */
  private def absc(command: String, args: String*): (Int, String, String) = AbscChild(cache, 1500, command, args: _*)

  /**
   * The i-th component first used goes to n1, main, n1, ..: c (first used) and its second object
   * on n1, a on main, b on n1; `fixed`, mapped by --deploy to main, takes no turn.
   */
  @Test def componentsGoToTheNodesInTurn(): Unit = {
    val (status, out, err) = absc("run", "--nodes", "local:2", "--spread-components", "--deploy", "fixed=main", resource("spread/Spread.abs"))
    val report = s"stdout:\n$out\nstderr:\n$err"
    assertEquals(0, status, report)
    // n1's lines come through absc's copy of its output, so they may interleave late with main's: compared as sets.
    assertEquals(List("gx on component fixed", "[n1] gc on component c", "ga on component a", "[n1] gb on component b",
      "[n1] gc2 on component c", "main ends").sorted, out.linesIterator.toList.sorted, report)
  }

  /**
   * Our timed test programs pass on two nodes with one clock and their components spread; a copy
   * of one with a wrong expectation fails as in one JVM ("testresult is False"), and one that
   * never ends fails with the time-out, its nodes stopped. stdout has the PASS/FAIL lines only.
   * The hanging one is an absc run of its own, with a short time-out.
   */
  @Test def timedTestProgramsOnTwoNodes(): Unit = {
    val passing = List("CostsOnSpreadComponents", "DurationsAcrossNodes", "DeploymentComponentState", "SchedulerOnSpreadComponent",
      "LoadOnSpreadComponent", "DataSizeOnSpreadComponent")
      .map(n => resource(s"timed-tests/$n.abs"))
    val costs = Files.readString(Paths.get(passing.head), UTF_8)
    val wrong = work.resolve("WrongCosts.abs")
    Files.writeString(wrong, costs.replace("tf == 1 &&", "tf == 2 &&"))
    assertNotEquals(costs, Files.readString(wrong, UTF_8))
    val hangs = work.resolve("Hangs.abs")
    Files.writeString(hangs,
      """module Hangs; import * from ABS.DC;
        |interface Loop { Unit spin(); }
        |class LoopImpl implements Loop { Unit spin() { while (True) { await duration(1, 1); } } }
        |{ Bool testresult = False; DC d = new DeploymentComponent("d", map[]); [DC: d] Loop l = new LoopImpl(); await l!spin(); testresult = True; }
        |""".stripMargin)
    // A time-out far above what a test needs: starting and joining two nodes takes over a minute at load 20.
    val (status, out, err) = absc("test", (List("--nodes", "local:2", "--cluster-clock", "--spread-components", "--timeout", "300") ++
      passing :+ wrong.toString): _*)
    val report = s"stdout:\n$out\nstderr:\n$err"
    assertEquals(1, status, report)
    assertEquals(passing.map(p => s"PASS $p") ++ List(s"FAIL $wrong: testresult is False", "6 passed, 1 failed"),
      out.linesIterator.toList, report)
    // The nodes' own lines went to stderr, each prefixed with its node.
    assertTrue(err.linesIterator.exists(_.startsWith("[main] costs ended at 1, 9, 3; the split at 12; now 12")), report)
    // The clock runs on for ever: --timeout stops both nodes, and absc says so.
    val (hStatus, hOut, hErr) = absc("test", "--nodes", "local:2", "--cluster-clock", "--spread-components", "--timeout", "20", hangs.toString)
    val hReport = s"stdout:\n$hOut\nstderr:\n$hErr"
    assertEquals(1, hStatus, hReport)
    assertEquals(List(s"FAIL $hangs: timed out after 20.0 s", "0 passed, 1 failed"), hOut.linesIterator.toList, hReport)
    assertTrue(hErr.contains("absc: the run did not end within 20.0 s; every node is stopped"), hReport)
  }
}
