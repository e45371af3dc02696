package cogs.absc.driver

import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}
import java.util.concurrent.{Executors, TimeUnit}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}

import DriverTestSupport.tempDir

/**
 * Issue 28, item 5: ABS output reaches a pipe while the model runs, not at its end: within the
 * flush interval (a flusher thread), and at each scheduling point of the main block. Each model
 * runs in a JVM of its own whose stdout is a pipe to this test, and never ends by itself: the first
 * line must arrive while it runs. Reads are bounded; the JVM is killed at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PipedOutputTest {

  private var dir: Path = _
  private lazy val models = new ForkedModels(dir)

  @BeforeAll def setUp(): Unit = dir = tempDir("absc-pipe")

  @AfterAll def tearDown(): Unit =
    Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.deleteIfExists(p))

  /** The first line the model writes to its piped stdout, read while it still runs. */
  private def firstLineWhileRunning(name: String, text: String, jvmOptions: String*): String = {
    val (p, err) = models.startPiped(models.compile(name, text), name, ("-Dcogs.watchdog.stuck-after=0" +: jvmOptions): _*)
    val reader = Executors.newSingleThreadExecutor()
    try {
      val in = new BufferedReader(new InputStreamReader(p.getInputStream, UTF_8))
      val line = reader.submit(() => in.readLine())
      // A bound for liveness only: without the flush the line waits for ever (the model never ends).
      val first = try line.get(2, TimeUnit.MINUTES) catch {
        case _: java.util.concurrent.TimeoutException => fail(s"no line reached the pipe:\n${Files.readString(err)}")
      }
      assertTrue(p.isAlive, s"the model still runs when its first line arrives:\n${Files.readString(err)}")
      first
    } finally {
      p.destroyForcibly()
      reader.shutdownNow()
    }
  }

  @Test def aLinePrintedByASpinningObjectArrivesWithinTheFlushInterval(): Unit =
    // The printing object never reaches a scheduling point again: only the flusher can send the line.
    assertEquals("first", firstLineWhileRunning("spinner",
      """module Spinner;
        |interface S { Unit spin(); }
        |class SImpl implements S {
        |  Int n = 0;
        |  Unit spin() {
        |    println("first");
        |    while (True) { n = n + 1; }
        |  }
        |}
        |{
        |  S s = new SImpl();
        |  s!spin();
        |}
        |""".stripMargin))

  @Test def aLinePrintedByTheMainBlockArrivesWhenItWaits(): Unit =
    // The flusher off (interval 0): the main block's await is what sends the line.
    assertEquals("waiting", firstLineWhileRunning("mainwaits",
      """module MainWaits;
        |interface S { Unit spin(); }
        |class SImpl implements S {
        |  Int n = 0;
        |  Unit spin() { while (True) { n = n + 1; } }
        |}
        |{
        |  S s = new SImpl();
        |  println("waiting");
        |  Fut<Unit> f = s!spin();
        |  await f?;
        |}
        |""".stripMargin, "-Dcogs.absc.out.flush-interval=0"))
}
