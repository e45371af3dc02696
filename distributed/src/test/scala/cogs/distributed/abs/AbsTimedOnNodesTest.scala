package cogs.distributed.abs

import cogs.absc.driver.{AbsBackend, CachePolicy, ClassPath, Driver, SourceFile}
import cogs.distributed.{ChildJvm, Launcher}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Paths}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance, Timeout}

/**
 * `examples/distributed/TimedOnNodes.abs`, compiled by absc, on two JVMs on loopback with the
 * cluster clock (`cogs.distributed.cluster-clock = on` on both): the main block waits 5 on the
 * main node while the sleeper on node `n1` waits 3 and 4; the log on the main node must see the
 * sleeper's notes at 3 and 4 (with each node's clock on its own, the main node's clock is held
 * at 0 by the pending replies, and the log sees the first note at 0 and the second at 0, at 5 or
 * not at all, by how Artery orders it with its reply), and the main block wakes at 5. The same model
 * in one JVM prints the same line. JVMs are killed in `finally`.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class AbsTimedOnNodesTest {
  private var built: Driver#Built = _
  private var classPath: String = _
  private val expected = "main woke at 5; naps ended at 3 and 4; the log saw list[\"napped 3@3\",\"napped 4@4\"]"

  @BeforeAll def compile(): Unit = {
    val file = Paths.get("..", "examples", "distributed", "TimedOnNodes.abs")
    val src = SourceFile(file.toString, new String(Files.readAllBytes(file), UTF_8))
    val driver = new Driver(AbsBackend, System.err, verbose = false)
    built = driver.build(List(src), CachePolicy.NoCache, None).fold(f => fail(s"absc: ${f.reason}"), b => b)
    classPath = (built.program.classes :: ClassPath.entries).mkString(java.io.File.pathSeparator)
  }

  @AfterAll def cleanUp(): Unit = if (built ne null) built.close()

  private def jvm(main: String, props: Map[String, String]): ChildJvm = {
    val javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val cmd = List(javaBin, "-Xss4m", "-Dcogs.absc.out.autoflush=true") ++ props.map { case (k, v) => s"-D$k=$v" } ++
      List("-cp", classPath, main)
    new ChildJvm(main, new ProcessBuilder(cmd: _*).redirectErrorStream(true).start())
  }

  private def nodeProps(name: String, port: Int, seedPort: Int, clock: Boolean): Map[String, String] =
    Map(
      "cogs.distributed.node-name" -> name,
      "cogs.distributed.join-timeout" -> "90s",
      "cogs.distributed.cluster-clock" -> (if (clock) "on" else "off"),
      "pekko.remote.artery.canonical.hostname" -> "127.0.0.1",
      "pekko.remote.artery.canonical.port" -> port.toString,
      "pekko.cluster.seed-nodes.0" -> s"pekko://cogs@127.0.0.1:$seedPort",
      "pekko.loglevel" -> "WARNING",
      "cogs.distributed.deployment.Left" -> "main",
      "cogs.distributed.deployment.Right" -> "n1"
    )

  private def twoNodes(clock: Boolean, n1Clock: Option[Boolean] = None): (Int, String, String) = {
    val Seq(p0, p1) = Launcher.freePorts(2)
    var main: ChildJvm = null
    var n1: ChildJvm = null
    try {
      n1 = jvm("cogs.distributed.abs.ServeModel", nodeProps("n1", p1, p0, n1Clock.getOrElse(clock)))
      main = jvm("absmodel_main.Main", nodeProps("main", p0, p0, clock))
      val status = main.await(240)
      n1.await(60)
      (status, main.output, n1.output)
    } finally {
      if (main ne null) main.kill()
      if (n1 ne null) n1.kill()
    }
  }

  @Test def oneClockForTwoNodes(): Unit = {
    val (status, mainOut, n1Out) = twoNodes(clock = true)
    val both = s"main node:\n$mainOut\nnode n1:\n$n1Out"
    assertEquals(0, status, both)
    assertTrue(mainOut.contains(expected), both)
    // The sleeper ran on n1, at the cluster's times.
    assertTrue(n1Out.contains("sleeper napped 3 until 3") && n1Out.contains("sleeper napped 4 until 4"), both)
  }

  @Test def withoutTheClusterClockTheLogSeesTheNotesAtItsOwnTime(): Unit = {
    val (status, mainOut, n1Out) = twoNodes(clock = false)
    val both = s"main node:\n$mainOut\nnode n1:\n$n1Out"
    assertEquals(0, status, both)
    // The main node's clock stays at 0 while its calls wait for their replies (counted work), so
    // the first note is seen at 0. The second races with its call's reply: on n1 the note is sent
    // by a process of the log proxy's stub COG, the reply when `nap` returns, so the reply can
    // arrive first, the main node's clock is then free to reach 5, and the note lands at 0, at 5,
    // or after the log was read. Without one clock that is all a node can
    // promise; what must not happen is the cluster's times (3 and 4).
    val seen = """the log saw list\["napped 3@0"(,"napped 4@[05]")?\]""".r
    assertTrue(mainOut.contains("main woke at 5; naps ended at 3 and 4;"), both)
    assertTrue(seen.findFirstIn(mainOut).isDefined, both)
    assertFalse(mainOut.contains(expected), both)
  }

  /**
   * The clock on the main node and not on n1 would hang (n1 never answers the probes): the main
   * node refuses to start the model, naming n1, and both JVMs end (n1 when the main node left).
   * The other way round is refused the same way (a node's role says whether it has the clock).
   */
  @Test def mixedClockSettingsAreRefused(): Unit = {
    for ((mainClock, n1Clock, text) <- List((true, false, "on, but node 'n1' has it off"),
        (false, true, "off, but node 'n1' has it on"))) {
      val (status, mainOut, n1Out) = twoNodes(mainClock, Some(n1Clock))
      val both = s"main node:\n$mainOut\nnode n1:\n$n1Out"
      assertEquals(1, status, both)
      assertTrue(mainOut.contains(s"the main node has the cluster clock (cogs.distributed.cluster-clock) $text"), both)
      assertFalse(mainOut.contains("main woke at"), both)
    }
  }

  @Test def inOneJvmTheModelPrintsTheSame(): Unit = {
    val j = jvm("absmodel_main.Main", Map.empty)
    try {
      assertEquals(0, j.await(120), j.output)
      assertTrue(j.output.contains(expected), j.output)
    } finally j.kill()
  }
}
