package cogs.absc.driver

import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}

import DriverTestSupport.tempDir

/**
 * Issue 28, item 6: running out of memory ends the program whatever fills the heap (COGs, objects,
 * processes, futures, a list): one paragraph on stderr that says so, status 1, and a JVM that ends
 * by itself. A model that creates COGs without end, each blocked in a `get` on the next, used to
 * hang for good: the halt's thread died of the same error and the heap stayed full. Each model
 * runs in a JVM of its own with a 32 MB heap; every wait is bounded (ForkedModels).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutOfMemoryShapesTest {

  private var dir: Path = _
  private lazy val models = new ForkedModels(dir)

  @BeforeAll def setUp(): Unit = dir = tempDir("absc-oom")

  @AfterAll def tearDown(): Unit =
    Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.deleteIfExists(p))

  /** Each COG blocks in `get` on the next one's call: millions of blocked processes, none ever ends. */
  private val CogChain =
    """module CogChain;
      |interface Node { Int go(Int n); }
      |class NodeImpl implements Node {
      |  Int go(Int n) {
      |    Node next = new NodeImpl();
      |    Fut<Int> f = next!go(n + 1);
      |    Int r = f.get;
      |    return r + 1;
      |  }
      |}
      |{
      |  Node n = new NodeImpl();
      |  Int x = n.go(0);
      |  println(toString(x));
      |}
      |""".stripMargin

  private def endsWithAReport(name: String, text: String): Unit = {
    val e = models.run(name, text, "-Xmx32m")
    ForkedModels.assertClean(e)
    assertTrue(e.err.contains("ran out of memory") && e.err.contains("JAVA_OPTS=-Xmx"), e.err)
    assertFalse(e.err.contains("thrown from the UncaughtExceptionHandler"), e.err)
  }

  @Test def cogsEachBlockedOnTheNext(): Unit = endsWithAReport("cogs", CogChain)

  @Test def objectsInOneCog(): Unit = endsWithAReport("objects",
    """module Objects;
      |interface Link { }
      |class LinkImpl(Link next) implements Link { }
      |{
      |  Link l = null;
      |  while (True) { l = new local LinkImpl(l); }
      |}
      |""".stripMargin)

  @Test def processesThatNeverRun(): Unit = endsWithAReport("processes",
    """module Processes;
      |interface Gate { Unit pass(); }
      |class GateImpl implements Gate {
      |  Bool open = False;
      |  Unit pass() { await open; }
      |}
      |{
      |  Gate g = new GateImpl();
      |  while (True) { g!pass(); }
      |}
      |""".stripMargin)

  @Test def futuresKeptInAList(): Unit = endsWithAReport("futures",
    """module Futures;
      |interface Echo { Int echo(Int n); }
      |class EchoImpl implements Echo { Int echo(Int n) { return n; } }
      |{
      |  Echo e = new EchoImpl();
      |  List<Fut<Int>> fs = Nil;
      |  Int i = 0;
      |  while (True) { Fut<Int> f = e!echo(i); fs = Cons(f, fs); i = i + 1; }
      |}
      |""".stripMargin)

  @Test def aGrowingListInTheMainBlock(): Unit = endsWithAReport("list",
    """module Growing;
      |{
      |  List<Int> l = Nil;
      |  Int i = 0;
      |  while (True) { l = Cons(i, l); i = i + 1; }
      |}
      |""".stripMargin)

  @Test def sigtermEndsAJvmWhoseHeapIsFullOfBlockedCogs(): Unit = {
    // -Dcogs.absc.verbose=true: the runtime logs the fatal error, which says when memory has run out.
    val (p, _, err) = models.start(models.compile("sigcogs", CogChain), "sigcogs", "-Xmx32m", "-Dcogs.absc.verbose=true")
    try {
      val bound = System.nanoTime() + TimeUnit.MINUTES.toNanos(3)
      while (!Files.readString(err).contains("OutOfMemoryError") && p.isAlive && System.nanoTime() < bound) Thread.sleep(20)
      assertTrue(Files.readString(err).contains("OutOfMemoryError"), Files.readString(err))
      // The JVM may have ended by itself already (status 1); if not, SIGTERM ends it (143).
      if (p.isAlive) {
        val kill = new ProcessBuilder("kill", "-TERM", p.pid.toString).inheritIO().start()
        kill.waitFor()
      }
      assertTrue(p.waitFor(1, TimeUnit.MINUTES), s"the JVM did not end:\n${Files.readString(err)}")
      assertTrue(p.exitValue == 143 || p.exitValue == 1, s"status ${p.exitValue}:\n${Files.readString(err)}")
    } finally p.destroyForcibly()
  }
}
