package cogs.distributed.abs

import java.io.{BufferedReader, InputStream, InputStreamReader}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, Test, TestInstance, Timeout}
import scala.jdk.CollectionConverters._

/**
 * `absc run --nodes local:N` end to end: absc itself in a child JVM (this test's class path, which
 * has the distributed module, so absc finds it without the launcher), starting the model's nodes
 * as JVMs of its own on loopback. Checked: `examples/distributed/DcOnNodes.abs` on two nodes (the
 * main program's output on stdout, n1's lines prefixed, exit status 0); bad options are one
 * paragraph with status 2 and start no JVM; a killed main node, and absc stopped by a signal,
 * leave no node's JVM behind; `absc package --cluster` gives a directory whose `bin/run` runs
 * each node with only a JDK. Every wait is bounded; no timing is checked.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 400, unit = TimeUnit.SECONDS)
class AbsRunNodesTest {
  // One cache for the class: the model is compiled once.
  private val cache = Files.createTempDirectory("absc-nodes-test-cache")
  private val example = Paths.get("..", "examples", "distributed", "DcOnNodes.abs").toAbsolutePath.normalize

  @AfterAll def cleanUp(): Unit = deleteTree(cache)

  /** absc in a child JVM, its output and errors collected apart. */
  private class Absc(args: String*) {
    protected def command: List[String] = {
      val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
      List(java, "-Xss16m", "-cp", System.getProperty("java.class.path"), "cogs.absc.driver.Main", "run",
        "--cache-dir", cache.toString) ++ args
    }
    val process: Process = new ProcessBuilder(command: _*).start()
    private val out = new StringBuffer
    private val err = new StringBuffer
    private val readers = List(collect(process.getInputStream, out), collect(process.getErrorStream, err))

    private def collect(in: InputStream, into: StringBuffer): Thread = {
      val t = new Thread(() => {
        val r = new BufferedReader(new InputStreamReader(in, UTF_8))
        try Iterator.continually(r.readLine()).takeWhile(_ != null).foreach(l => into.append(l).append('\n'))
        catch { case _: java.io.IOException => } // absc was killed after the test
      })
      t.setDaemon(true)
      t.start()
      t
    }

    def stdout: String = out.toString
    def stderr: String = err.toString
    def both: String = s"stdout:\n$stdout\nstderr:\n$stderr"

    def await(seconds: Long): Int = {
      assertTrue(process.waitFor(seconds, TimeUnit.SECONDS), s"absc did not end within $seconds s; $both")
      readers.foreach(_.join(5000))
      process.exitValue()
    }

    /** Waits until stdout has a line `line`; fails if absc ends or `seconds` pass first. */
    def awaitLine(line: String, seconds: Long): Unit = {
      val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
      while (!stdout.linesIterator.contains(line)) {
        assertTrue(process.isAlive, s"absc ended before printing '$line'; $both")
        assertTrue(System.nanoTime() < deadline, s"absc printed no '$line' within $seconds s; $both")
        Thread.sleep(50)
      }
    }

    def kill(): Unit = {
      process.descendants().iterator().asScala.foreach(_.destroyForcibly())
      process.destroyForcibly()
    }
  }

  @Test def dcOnNodesOnTwoLocalJvms(): Unit = {
    // The run's options reach the main node as its command line, the program's arguments after
    // `--` (an option there is the program's: a command line the node could not parse ends with 2).
    val absc = new Absc("--nodes", "local:2", "--deploy", "Right=n1", "--workers", "2", "--no-end-report", example.toString,
      "--", "--workers", "0")
    try {
      val status = absc.await(300)
      val out = absc.stdout
      assertEquals(0, status, absc.both)
      // The main program's own lines, unprefixed, on stdout.
      assertTrue(out.linesIterator.contains("sum 385, counted 385 in 10 calls, by worker W"), absc.both)
      assertTrue(out.linesIterator.contains("synchronously: worker W, refused 1000 by type"), absc.both)
      for (i <- 1 to 10) {
        // The worker runs on n1: its lines come prefixed; the counter's on the main node, not.
        assertTrue(out.linesIterator.contains(s"[n1] worker W squares $i"), absc.both)
        assertFalse(out.linesIterator.contains(s"worker W squares $i"), absc.both)
        assertTrue(out.linesIterator.contains(s"counter C adds ${i * i}"), absc.both)
        assertFalse(out.linesIterator.contains(s"[n1] counter C adds ${i * i}"), absc.both)
      }
      // n1's own message goes to stderr, prefixed.
      assertTrue(absc.stderr.linesIterator.exists(_.startsWith("[n1] cogs: node 'n1' serves the model")), absc.both)
      // The nodes' ending together is no fault: Pekko's warnings about the aborted connections are not shown.
      assertFalse(absc.stderr.contains("[WARN]"), absc.both)
    } finally absc.kill()
  }

  /**
   * `--cluster-clock` reaches both node JVMs: `TimedOnNodes.abs`'s log on the main node sees the
   * sleeper's notes from n1 at 3 and 4, as in one JVM (without the cluster clock, at 0;
   * `AbsTimedOnNodesTest`), and the sleeper on n1 naps until 3 and 4 of the cluster's time.
   */
  @Test def timedOnNodesWithTheClusterClock(): Unit = {
    val timed = Paths.get("..", "examples", "distributed", "TimedOnNodes.abs").toAbsolutePath.normalize
    val absc = new Absc("--nodes", "local:2", "--cluster-clock", "--deploy", "Right=n1", timed.toString)
    try {
      assertEquals(0, absc.await(300), absc.both)
      val out = absc.stdout.linesIterator.toList
      assertTrue(out.contains("main woke at 5; naps ended at 3 and 4; the log saw list[\"napped 3@3\",\"napped 4@4\"]"), absc.both)
      assertTrue(out.contains("[n1] sleeper napped 3 until 3") && out.contains("[n1] sleeper napped 4 until 4"), absc.both)
    } finally absc.kill()
  }

  @Test def badOptionsAreOneParagraph(): Unit = {
    val cases = List(
      List("--nodes", "local:1", "--deploy", "Right=n1") -> "--nodes: 'local:1' is not local:N with N from 2 to 64",
      List("--nodes", "local:2", "--deploy", "Right=n5") ->
        "deployment component 'Right' is mapped to node 'n5', but --nodes local:2 starts the nodes main, n1",
      List("--nodes", "local:2") -> "no deployment component is mapped to a node",
      List("--node", "n1", "--deploy", "Right=n1") -> "--node n1 needs --config FILE",
      List("--cluster-clock") -> "--cluster-clock is one simulated clock for the nodes of --nodes or --node: give one of them")
    for ((opts, message) <- cases) {
      val absc = new Absc((opts :+ example.toString): _*)
      try {
        assertEquals(2, absc.await(120), absc.both)
        assertTrue(absc.stderr.contains(message), s"expected '$message'; ${absc.both}")
        assertFalse(absc.stderr.contains("\tat "), absc.both) // no stack trace
        assertEquals("", absc.stdout, absc.both)
        assertEquals(0L, absc.process.descendants().count(), "no node was started")
      } finally absc.kill()
    }
  }

  /** A model whose main block waits forever on an object of node n1 (after saying so). */
  private def stuckModel(): Path = {
    val dir = Files.createTempDirectory("absc-nodes-stuck")
    val f = dir.resolve("Stuck.abs")
    Files.writeString(f,
      """module Stuck;
        |import * from ABS.DC;
        |interface Gate { Unit pass(); }
        |class GateImpl implements Gate {
        |  Bool open = False;
        |  Unit pass() { await open; }
        |}
        |{
        |  DC far = new DeploymentComponent("Far", map[]);
        |  [DC: far] Gate g = new GateImpl();
        |  println("waiting at the gate");
        |  await g!pass();
        |}
        |""".stripMargin)
    f
  }

  /** Starts the stuck model on two nodes and returns absc and its nodes' JVMs, once it waits at the gate. */
  private def startStuck(): (Absc, List[ProcessHandle]) = {
    val absc = new Absc("--nodes", "local:2", "--deploy", "Far=n1", stuckModel().toString)
    absc.awaitLine("waiting at the gate", 300)
    val nodes = absc.process.children().iterator().asScala.toList
    assertEquals(2, nodes.size, s"two node JVMs: ${nodes.map(_.info)}; ${absc.both}")
    (absc, nodes)
  }

  private def assertAllEnd(nodes: List[ProcessHandle], absc: Absc): Unit =
    nodes.foreach { h =>
      try h.onExit().get(60, TimeUnit.SECONDS)
      catch { case _: java.util.concurrent.TimeoutException => fail(s"node JVM ${h.pid} still runs 60 s after the run ended; ${absc.both}") }
    }

  @Test def aKilledMainNodeLeavesNoJvm(): Unit = {
    val (absc, nodes) = startStuck()
    try {
      val main = nodes.find(h => !h.info.arguments.orElse(Array.empty).contains("cogs.distributed.abs.ServeModel"))
        .getOrElse(fail(s"no main node among ${nodes.map(_.info)}"))
      main.destroyForcibly()
      val status = absc.await(120)
      assertEquals(137, status, absc.both)
      assertTrue(absc.stderr.contains("absc: the main node ended with status 137 (killed by signal 9); the serving nodes are stopped"), absc.both)
      assertAllEnd(nodes, absc)
    } finally absc.kill()
  }

  @Test def abscStoppedBySignalLeavesNoJvm(): Unit = {
    val (absc, nodes) = startStuck()
    try {
      absc.process.destroy() // SIGTERM, as Ctrl-C's SIGINT: absc's shutdown hook stops the nodes
      absc.await(120)
      assertAllEnd(nodes, absc)
    } finally absc.kill()
  }

  @Test def abscKilledBySigkillLeavesNoJvm(): Unit = {
    val (absc, nodes) = startStuck()
    try {
      absc.process.destroyForcibly() // SIGKILL: no hook of absc runs; each node watches absc's process
      assertAllEnd(nodes, absc)
    } finally {
      absc.kill()
      nodes.foreach(_.destroyForcibly()) // a killed absc has no descendants left to kill: its nodes were reparented
    }
  }

  /** Any command, its output and errors collected apart (the same helper). */
  private final class Command(cmd: String*) extends Absc {
    override protected def command: List[String] = cmd.toList
  }

  @Test def aPackagedModelRunsItsNodesWithOnlyAJdk(): Unit = {
    val dir = Files.createTempDirectory("absc-nodes-package")
    try {
      val pkg = dir.resolve("pkg")
      val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
      val absc = new Command(java, "-Xss16m", "-cp", System.getProperty("java.class.path"), "cogs.absc.driver.Main", "package",
        "--cluster", "--cache-dir", cache.toString, "-o", pkg.toString, example.toString)
      assertEquals(0, absc.await(300), absc.both)
      assertTrue(Files.isExecutable(pkg.resolve("bin").resolve("run")), absc.both)
      val Seq(p0, p1) = cogs.distributed.Launcher.freePorts(2)
      val conf = dir.resolve("cluster.conf")
      Files.writeString(conf,
        s"""cogs.distributed {
           |  nodes { main = "127.0.0.1:$p0", n1 = "127.0.0.1:$p1" }
           |  deployment { Left = "main", Right = "n1" }
           |}
           |""".stripMargin)
      val run = pkg.resolve("bin").resolve("run").toString
      val n1 = new Command(run, "--node", "n1", "--config", conf.toString)
      val main = new Command(run, "--node", "main", "--config", conf.toString)
      try {
        assertEquals(0, main.await(240), s"main: ${main.both}\nn1: ${n1.both}")
        assertEquals(0, n1.await(60), s"main: ${main.both}\nn1: ${n1.both}")
        assertTrue(main.stdout.linesIterator.contains("sum 385, counted 385 in 10 calls, by worker W"), main.both)
        assertTrue(n1.stdout.linesIterator.contains("worker W squares 10"), n1.both)
        assertFalse(main.stdout.contains("worker W squares"), main.both)
      } finally { main.kill(); n1.kill() }
      val bad = new Command(run, "--node", "n7", "--config", conf.toString)
      try {
        assertEquals(2, bad.await(60), bad.both)
        assertTrue(bad.stderr.contains("run: --node: no node named 'n7'"), bad.both)
        assertFalse(bad.stderr.contains("\tat "), bad.both)
      } finally bad.kill()
    } finally deleteTree(dir)
  }

  private def deleteTree(p: Path): Unit = AbscChild.deleteTree(p)
}
