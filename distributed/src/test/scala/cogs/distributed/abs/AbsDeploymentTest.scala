package cogs.distributed.abs

import cogs.absc.driver.{AbsBackend, CachePolicy, ClassPath, Driver, SourceFile}
import cogs.distributed.{ChildJvm, Launcher}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance, Timeout}

/**
 * `examples/distributed/DcOnNodes.abs`, compiled by absc, on two JVMs on loopback: the main
 * node runs the generated main with `Left` mapped to itself and `Right` to node `n1`, a second
 * JVM running [[ServeModel]]. The worker's output must come from n1's JVM and the counter's from
 * the main node's; the main block checks the sums (exit status 0 only if `testresult` holds and
 * nothing failed). Also run: the same model with no mapping (one JVM), and a mapping to a node
 * name no member carries. Every JVM is killed in `finally`; no timing is checked.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class AbsDeploymentTest {
  private var built: Driver#Built = _
  private var classPath: String = _

  @BeforeAll def compile(): Unit = {
    val file = Paths.get("..", "examples", "distributed", "DcOnNodes.abs")
    val src = SourceFile(file.toString, new String(Files.readAllBytes(file), UTF_8))
    val driver = new Driver(AbsBackend, System.err, verbose = false)
    built = driver.build(List(src), CachePolicy.NoCache, None).fold(f => fail(s"absc: ${f.reason}"), b => b)
    classPath = (built.program.classes :: ClassPath.entries).mkString(java.io.File.pathSeparator)
  }

  @AfterAll def cleanUp(): Unit = if (built ne null) built.close()

  /** A JVM of the compiled model's class path. */
  private def jvm(main: String, props: Map[String, String]): ChildJvm = {
    val javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val cmd = List(javaBin, "-Xss4m", "-Dcogs.absc.out.autoflush=true") ++ props.map { case (k, v) => s"-D$k=$v" } ++
      List("-cp", classPath, main)
    new ChildJvm(main, new ProcessBuilder(cmd: _*).redirectErrorStream(true).start())
  }

  private def nodeProps(name: String, port: Int, seedPort: Int, deployment: Map[String, String]): Map[String, String] =
    Map(
      "cogs.distributed.node-name" -> name,
      "cogs.distributed.join-timeout" -> "90s",
      "pekko.remote.artery.canonical.hostname" -> "127.0.0.1",
      "pekko.remote.artery.canonical.port" -> port.toString,
      "pekko.cluster.seed-nodes.0" -> s"pekko://cogs@127.0.0.1:$seedPort",
      "pekko.loglevel" -> "WARNING"
    ) ++ deployment.map { case (dc, n) => s"cogs.distributed.deployment.$dc" -> n }

  @Test def twoDeploymentComponentsOnTwoJvms(): Unit = {
    val Seq(p0, p1) = Launcher.freePorts(2)
    val deployment = Map("Left" -> "main", "Right" -> "n1")
    var main: ChildJvm = null
    var n1: ChildJvm = null
    try {
      n1 = jvm("cogs.distributed.abs.ServeModel", nodeProps("n1", p1, p0, deployment))
      main = jvm("absmodel_main.Main", nodeProps("main", p0, p0, deployment))
      val status = main.await(240)
      val served = n1.await(60)
      val mainOut = main.output
      val n1Out = n1.output
      val both = s"main node:\n$mainOut\nnode n1:\n$n1Out"
      assertEquals(0, status, both)
      assertEquals(0, served, both)
      assertTrue(mainOut.contains("sum 385, counted 385 in 10 calls, by worker W"), both)
      // A synchronous call on the remote worker, and its ABS exception caught by type here.
      assertTrue(mainOut.contains("synchronously: worker W, refused 1000 by type"), both)
      // Each object printed from where it runs: the worker on n1, the counter on the main node.
      for (i <- 1 to 10) {
        assertTrue(n1Out.contains(s"worker W squares $i\n"), both)
        assertFalse(mainOut.contains(s"worker W squares $i\n"), both)
        assertTrue(mainOut.contains(s"counter C adds ${i * i}\n"), both)
        assertFalse(n1Out.contains(s"counter C adds ${i * i}\n"), both)
      }
    } finally {
      if (main ne null) main.kill()
      if (n1 ne null) n1.kill()
    }
  }

  @Test def withoutMappingTheSameModelRunsInOneJvm(): Unit = {
    val j = jvm("absmodel_main.Main", Map.empty)
    try {
      assertEquals(0, j.await(120), j.output)
      assertTrue(j.output.contains("sum 385, counted 385 in 10 calls, by worker W"), j.output)
      assertTrue(j.output.contains("worker W squares 7"), j.output)
    } finally j.kill()
  }

  @Test def aComponentMappedToAnUnknownNodeIsAnError(): Unit = {
    val Seq(p0) = Launcher.freePorts(1)
    val j = jvm("absmodel_main.Main",
      nodeProps("main", p0, p0, Map("Left" -> "main", "Right" -> "nowhere")) + ("cogs.distributed.join-timeout" -> "3s"))
    try {
      assertEquals(1, j.await(120), j.output)
      val out = j.output
      assertTrue(out.contains("deployment components cannot be placed on cluster nodes: no node named 'nowhere' joined the cluster within 3000 ms"), out)
      assertTrue(out.contains("'Right' -> 'nowhere'"), out)
      assertFalse(out.contains("worker W squares"), out)
      assertFalse(out.contains("\tat "), out) // one paragraph, no stack trace
    } finally j.kill()
  }
}
