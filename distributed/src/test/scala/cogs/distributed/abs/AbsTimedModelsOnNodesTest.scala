package cogs.distributed.abs

import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, Test, TestInstance, Timeout}

/**
 * Timed ABS on two nodes against one JVM (issue 30, point 4): timed models of our own
 * (`src/test/resources/timed`), each with four deployment components D0..D3, run by absc (in a
 * child JVM, as `AbsRunNodesTest` does) once in one JVM and once with `--nodes local:2
 * --cluster-clock`, the components mapped to alternating nodes (D0, D2 on `main`; D1, D3 on
 * `n1`). Every line a model prints carries a simulated time; the two runs must print the same
 * lines (n1's without their `[n1] ` prefix; compared as sorted lists, since two nodes' lines
 * interleave as their JVMs print them), and the main block's last line must be the same.
 * What differs on purpose is checked as such (see `costsOfARemoteComponent`).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class AbsTimedModelsOnNodesTest {
  private val cache = Files.createTempDirectory("absc-timed-nodes-cache")
  private val deploy = "D0=main,D1=n1,D2=main,D3=n1"

  @AfterAll def cleanUp(): Unit = AbscChild.deleteTree(cache)

  private def model(name: String): Path = {
    val url = getClass.getResource(s"/timed/$name.abs")
    assertNotNull(url, s"no test model timed/$name.abs")
    Paths.get(url.toURI)
  }

  /** absc run in a child JVM: exit status, stdout and stderr. */
  private def absc(args: String*): (Int, String, String) = AbscChild(cache, 300, "run", args: _*)

  /** The model's lines in one JVM and on two nodes with the cluster clock (n1's prefix taken off). */
  private def bothRuns(name: String, options: String*): (List[String], List[String], String) = {
    val m = model(name).toString
    val (s1, out1, err1) = absc((options :+ m): _*)
    assertEquals(0, s1, s"one JVM:\n$out1\n$err1")
    val (s2, out2, err2) = absc((options ++ List("--nodes", "local:2", "--cluster-clock", "--deploy", deploy, m)): _*)
    val report = s"one JVM:\n$out1\n$err1\ntwo nodes:\n$out2\n$err2"
    assertEquals(0, s2, report)
    (out1.linesIterator.toList, out2.linesIterator.map(_.stripPrefix("[n1] ")).toList, report)
  }

  /**
   * The two runs print the same lines, but for `differences`: one JVM's line (exactly) to the
   * line two nodes print instead, for what is known not to work across nodes.
   */
  private def assertSameRun(name: String, differences: Map[String, String] = Map.empty): Unit = {
    val (one0, two, report) = bothRuns(name)
    differences.keys.foreach(l => assertTrue(one0.contains(l), s"one JVM printed no line '$l'; $report"))
    val one = one0.map(l => differences.getOrElse(l, l))
    assertTrue(one.exists(_.startsWith("main: ")), report)
    assertEquals(one.sorted, two.sorted, report)
    // The main block's lines come from one node, in its order.
    assertEquals(one.filter(_.startsWith("main: ")), two.filter(_.startsWith("main: ")), report)
  }

  /** A token round a ring of stages on both nodes, a COG blocked by `duration`, a `get` while time passes. */
  @Test def relay(): Unit = assertSameRun("Relay")

  /**
   * One-way calls at their senders' times, `await f?` on another node's future, and deadlines: a
   * `[Deadline: ..]` travels with a call to another node (the time left, `Protocol.Call`), so
   * `deadline()` in j1 (on n1) gives 7 of its 10 left after 3, as in one JVM. j3, on n1 too, was
   * called without a deadline and prints -1 in both runs. Every line is the same.
   */
  @Test def deadlines(): Unit = assertSameRun("Deadlines")

  /** `[Cost: ..]` on components with a Speed, two of them on the other node. */
  @Test def costs(): Unit = assertSameRun("Costs")

  /**
   * `--clock-limit` across nodes: the coordinator (the main node, which has the limit) does not
   * advance past it, and the run ends as in one JVM: the lines up to 5/2 (the advance to 4 would
   * pass 3), the same line on stderr, status 0.
   */
  @Test def clockLimit(): Unit = {
    val m = model("Relay").toString
    val stopped = "absc: the simulation stopped at the clock limit 3 (time 5/2) before the main block finished"
    val (s1, out1, err1) = absc("--clock-limit", "3", m)
    val (s2, out2, err2) = absc("--clock-limit", "3", "--nodes", "local:2", "--cluster-clock", "--deploy", deploy, m)
    val report = s"one JVM:\n$out1\n$err1\ntwo nodes:\n$out2\n$err2"
    assertEquals(0, s1, report)
    assertEquals(0, s2, report)
    assertEquals(List("s0 passed the token at 1", "s1 was blocked until 3/2", "s1 passed the token at 2"), out1.linesIterator.toList, report)
    assertEquals(out1.linesIterator.toList.sorted, out2.linesIterator.map(_.stripPrefix("[n1] ")).toList.sorted, report)
    assertTrue(err1.linesIterator.contains(stopped), report)
    assertTrue(err2.linesIterator.contains(stopped), report)
  }
}
