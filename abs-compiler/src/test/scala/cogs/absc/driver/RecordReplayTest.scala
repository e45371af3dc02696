package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/** `absc run --record FILE` and `--replay FILE`: a racy model's run made reproducible. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordReplayTest {

  private var dir: Path = _
  private var cache: Path = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-replay")
    cache = dir.resolve("cache")
  }

  /** Two senders race to a log, suspending between sends; each also draws a random number. */
  private val racy =
    """module Racy;
      |interface Log { Unit add(Int x); List<Int> all(); }
      |class LogImpl implements Log {
      |  List<Int> xs = Nil;
      |  Unit add(Int x) { xs = Cons(x, xs); }
      |  List<Int> all() { return reverse(xs); }
      |}
      |interface Sender { Int go(Int base, Log l); }
      |class SenderImpl implements Sender {
      |  Int go(Int base, Log l) {
      |    Int i = 0;
      |    while (i < 300) { l!add(base + i); i = i + 1; suspend; }
      |    return random(1000000);
      |  }
      |}
      |{
      |  Log l = new LogImpl();
      |  Sender a = new SenderImpl();
      |  Sender b = new SenderImpl();
      |  Fut<Int> fa = a!go(0, l);
      |  Fut<Int> fb = b!go(1000, l);
      |  await fa? & fb?;
      |  List<Int> xs = await l!all();
      |  println(toString(xs));
      |  Int ra = fa.get;
      |  Int rb = fb.get;
      |  println(toString(ra) + " " + toString(rb));
      |}
      |""".stripMargin

  private def run(extra: String*): AbscResult =
    absc(AbsBackend, (List("run", "--workers", "2", "--cache-dir", cache.toString) ++ extra ++
      List(absFile(dir, "racy", racy))): _*)

  @Test def aReplayPrintsWhatTheRecordedRunPrinted(): Unit = {
    val trace = dir.resolve("trace.json")
    val recorded = run("--record", trace.toString)
    assertEquals(0, recorded.status, recorded.err)
    assertEquals(2, recorded.programOut.linesIterator.size, recorded.programOut)
    val json = Files.readString(trace, UTF_8)
    assertTrue(json.contains("\"format\" : \"cogs-schedule-1\""), json.take(200))
    assertTrue(json.contains("\"seed\""), json.take(200))
    for (_ <- 1 to 3) {
      val replayed = run("--replay", trace.toString)
      assertEquals(0, replayed.status, replayed.err)
      assertEquals(recorded.programOut, replayed.programOut)
    }
  }

  @Test def aScheduleOfAnotherRunIsReportedAsDiverging(): Unit = {
    val trace = dir.resolve("other.json")
    // A recording in which the log's first process is a call that this program never makes.
    Files.writeString(trace, """{ "format": "cogs-schedule-1", "seed": 1, "cogs": { "x1.1": ["x1.7#1"] } }""", UTF_8)
    val r = run("--replay", trace.toString)
    assertEquals(1, r.status, r.err)
    assertTrue(r.err.contains("the replayed schedule runs call x1.7#1 here next, but it never arrived"), r.err)
  }

  /** Replays a file holding `text`: refused (status 2) with a message containing `expected` (the file's path is `$file`). */
  private def refused(name: String, text: String, expected: String): Unit = {
    val file = dir.resolve(name)
    Files.writeString(file, text, UTF_8)
    val r = run("--replay", file.toString)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains(expected.replace("$file", file.toString)), r.err)
  }

  @Test def aFileThatIsNoScheduleIsAClearError(): Unit = {
    refused("notes.txt", "hello", "absc: cannot replay $file")
    val missing = run("--replay", dir.resolve("nope.json").toString)
    assertEquals(2, missing.status, missing.err)
    assertTrue(missing.err.contains("no such file"), missing.err)
  }

  @Test def aReplayOfAnEditedModelIsRefused(): Unit = {
    val trace = dir.resolve("before-edit.json")
    val recorded = run("--record", trace.toString)
    assertEquals(0, recorded.status, recorded.err)
    assertTrue(Files.readString(trace, UTF_8).contains("\"model\""), "the recording names its model")
    // The same model with one literal changed: the recorded decisions are not its decisions.
    val edited = absFile(dir, "racy-edited", racy.replace("random(1000000)", "random(1000001)"))
    val r = absc(AbsBackend, "run", "--workers", "2", "--cache-dir", cache.toString, "--replay", trace.toString, edited)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains("it was recorded from another model"), r.err)
    assertEquals("", r.programOut, "nothing of the model ran")
  }

  @Test def aDamagedTraceIsReportedAsSuchWithItsPosition(): Unit = {
    refused("damaged.json", "{ \"format\": \"cogs-schedule-1\", \"seed\": 1,\n  \"cogs\": { \"x1\": [\"x#1\", }\n}\n",
      "cannot replay $file: the trace is damaged: line 2, column")
    refused("shape.json", """{ "format": "cogs-schedule-1", "seed": 1, "cogs": { "x1": [1, 2] } }""",
      "the decisions of COG 'x1' are not a list of call names")
  }

  @Test def recordAndReplayExcludeEachOther(): Unit = {
    val r = run("--record", dir.resolve("a.json").toString, "--replay", dir.resolve("b.json").toString)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains("--record and --replay exclude each other"), r.err)
  }
}
