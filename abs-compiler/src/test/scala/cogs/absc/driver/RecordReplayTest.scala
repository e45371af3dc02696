package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import scala.jdk.CollectionConverters._

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

  private val mapper = new com.fasterxml.jackson.databind.ObjectMapper()

  /** `json` with `edit` applied to its root object, into a new file. */
  private def edited(from: Path, name: String)(edit: com.fasterxml.jackson.databind.node.ObjectNode => Unit): Path = {
    val root = mapper.readTree(from.toFile).asInstanceOf[com.fasterxml.jackson.databind.node.ObjectNode]
    edit(root)
    val to = dir.resolve(name)
    mapper.writeValue(to.toFile, root)
    to
  }

  /** A recording of the racy model, made once for the tests that edit it. */
  private lazy val recording: (Path, AbscResult) = {
    val trace = dir.resolve("recording.json")
    val r = run("--record", trace.toString)
    assertEquals(0, r.status, r.err)
    (trace, r)
  }

  /** The name of the main block's call of all() in the recording (`x1#N`). */
  private def allCall: String = {
    val root = mapper.readTree(recording._1.toFile)
    val i = root.get("methods").get("x1.1").elements().asScala.indexWhere(_.textValue == "LogImpl.all")
    root.get("cogs").get("x1.1").get(i).textValue
  }

  @Test def eachRecordedStepNamesWhatItRan(): Unit = {
    val root = mapper.readTree(recording._1.toFile)
    val methods = root.get("methods")
    assertNotNull(methods, root.toString.take(300))
    // The log's COG (x1.1) ran 600 adds and one all, each named by its target's class and method.
    val log = methods.get("x1.1")
    assertEquals(root.get("cogs").get("x1.1").size, log.size)
    val names = (0 until log.size).map(i => log.get(i).textValue)
    assertEquals(600, names.count(_ == "LogImpl.add"), names.distinct.toString)
    assertEquals(1, names.count(_ == "LogImpl.all"))
    assertEquals("MainBlock.main", methods.get("x1").get(0).textValue)
  }

  @Test def aReplayThatGoesOnPastTheEndOfItsRecordingStops(): Unit = {
    // The log's recording without its last step (the main block's call of all()): the replay reaches a step it does not have.
    val cut = edited(recording._1, "cut.json") { root =>
      List("cogs", "methods").foreach { k =>
        val xs = root.get(k).get("x1.1").asInstanceOf[com.fasterxml.jackson.databind.node.ArrayNode]
        xs.remove(xs.size - 1)
      }
    }
    val r = run("--replay", cut.toString)
    assertEquals(2, r.status, r.err)
    val slices = mapper.readTree(cut.toFile).get("cogs").get("x1.1").size
    assertTrue(r.err.contains(s"absc: the replay of $cut diverged from the recording: COG x1.1 ran the $slices slices its recording names, " +
      s"but the run goes on with call $allCall (LogImpl.all): the recorded run ended there"), r.err)
    assertFalse(r.programOut.contains(recording._2.programOut.linesIterator.next()), "the recorded result is not printed")
  }

  @Test def aReplayWhoseStepRunsAnotherMethodStops(): Unit = {
    // The racy model with add() renamed: the same calls, but the log's steps run another method. Without the
    // fingerprint (an older recording has none, and a jar-less class path gives none), only the steps can tell.
    val noModel = edited(recording._1, "no-model.json")(_.remove("model"))
    val renamed = absFile(dir, "racy-renamed", racy.replace("add(", "push("))
    val r = absc(AbsBackend, "run", "--workers", "2", "--cache-dir", cache.toString, "--replay", noModel.toString, renamed)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains(s"absc: the replay of $noModel diverged from the recording: COG x1.1, slice 1 of its recording: " +
      "the recording runs call x1.2#1 as LogImpl.add, but here that call is LogImpl.push") ||
      r.err.contains("as LogImpl.add, but here that call is LogImpl.push"), r.err)
    assertEquals("", r.programOut, "the main block's result is never printed")
  }

  @Test def anOldRecordingWithoutMethodsStillReplays(): Unit = {
    val old = edited(recording._1, "old.json")(_.remove("methods"))
    val r = run("--replay", old.toString)
    assertEquals(0, r.status, r.err)
    assertEquals(recording._2.programOut, r.programOut)
  }

  private lazy val erlangRecording: (Path, AbscResult) = {
    val trace = dir.resolve("erlang.json")
    (trace, run("--record", trace.toString, "--record-format", "erlang"))
  }

  /** (type, caller_id, local_id, name) of each event of COG `i` of an Erlang-format trace. */
  private def events(root: com.fasterxml.jackson.databind.JsonNode, i: Int): List[(String, String, Int, String)] =
    root.get(i).get("local_trace").elements().asScala.toList.map(e =>
      (e.get("type").textValue, e.get("caller_id").toString, e.get("local_id").intValue, e.get("name").textValue))

  @Test def aRecordingCanBeWrittenInTheErlangBackendsTraceFormat(): Unit = {
    val (trace, r) = erlangRecording
    assertEquals(0, r.status, r.err)
    val root = mapper.readTree(trace.toFile)
    assertTrue(root.isArray, root.toString.take(200))
    // One entry per COG, named by creation indexes from 0: the main block's [0], the log [0,0], the senders [0,1], [0,2].
    val nodes = (0 until root.size).map(i => root.get(i).get("node").toString)
    assertEquals(List("[0]", "[0,0]", "[0,1]", "[0,2]"), nodes.toList)
    val fields = List("type", "caller_id", "local_id", "name", "reads", "writes", "time")
    val types = Set("schedule", "invocation", "new_object", "future_read", "await_future", "suspend", "future_write")
    for (i <- 0 until root.size; e <- root.get(i).get("local_trace").elements().asScala) {
      assertEquals(fields.sorted, e.fieldNames().asScala.toList.sorted, e.toString)
      assertTrue(types.contains(e.get("type").textValue), e.toString)
      assertTrue(e.get("caller_id").isArray && e.get("local_id").isIntegralNumber && e.get("time").isNumber, e.toString)
    }
    val main = events(root, 0)
    assertEquals(("schedule", "[]"), (main.head._1, main.head._2), "the main block is started from outside")
    // The main block creates the log and the two senders (its objects 0, 1, 2) and sends go twice, then all.
    assertEquals(List(("new_object", "[0]", 0, "class_LogImpl"), ("new_object", "[0]", 1, "class_SenderImpl"),
      ("new_object", "[0]", 2, "class_SenderImpl")), main.filter(_._1 == "new_object"))
    val sent = main.filter(_._1 == "invocation")
    assertEquals(List("m_go", "m_go", "m_all"), sent.map(_._4))
    val all = sent.last
    // all() is the main block's N-th call (x1#N), local_id N - 1 as the Erlang backend counts from 0.
    assertEquals(allCall.stripPrefix("x1#").toInt - 1, all._3)
    // It reads both go futures with get, and ends: its last event.
    assertEquals(2, main.count(e => e._1 == "future_read" && e._4 == "m_go"), main.toString)
    assertEquals("future_write", main.last._1)
    // The log runs 600 adds and the all() the main block sent, each in one slice that ends the call.
    val log = events(root, 1)
    assertEquals(600, log.count(e => e._1 == "schedule" && e._4 == "m_add"))
    assertEquals(601, log.count(_._1 == "future_write"))
    val allRun = log.indexWhere(e => e._1 == "schedule" && e._4 == "m_all")
    assertEquals(("schedule", "[0]", all._3, "m_all"), log(allRun), "the slice names the call by its sender's invocation")
    assertEquals(("future_write", "[0]", all._3, "m_all"), log(allRun + 1))
    // A sender sends 300 adds and suspends between them: its go call runs 301 slices, 300 of which suspend.
    val sender = events(root, 2)
    assertEquals(300, sender.count(e => e._1 == "invocation" && e._4 == "m_add"))
    assertEquals(300, sender.count(_._1 == "suspend"))
    assertEquals(1, sender.count(_._1 == "future_write"))
    val bad = run("--record", trace.toString, "--record-format", "xml")
    assertEquals(2, bad.status)
    assertTrue(bad.err.contains("--record-format must be 'cogs' or 'erlang', not 'xml'"), bad.err)
  }

  @Test def aRecordingInTheErlangFormatReplays(): Unit = {
    val (trace, recorded) = erlangRecording
    assertEquals(0, recorded.status, recorded.err)
    for (_ <- 1 to 2) {
      val replayed = run("--replay", trace.toString)
      assertEquals(0, replayed.status, replayed.err)
      assertEquals(recorded.programOut, replayed.programOut)
    }
    // The same trace with the log's first add renamed: the replay is checked by method name.
    val root = mapper.readTree(trace.toFile)
    val log = root.get(1).get("local_trace")
    val firstAdd = log.elements().asScala.find(e => e.get("type").textValue == "schedule" && e.get("name").textValue == "m_add").get
    firstAdd.asInstanceOf[com.fasterxml.jackson.databind.node.ObjectNode].put("name", "m_push")
    val edited = dir.resolve("erlang-edited.json")
    mapper.writeValue(edited.toFile, root)
    val r = run("--replay", edited.toString)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains("the recording runs call") && r.err.contains("as push, but here that call is LogImpl.add"), r.err)
  }

  @Test def aDamagedErlangTraceSaysWhere(): Unit = {
    refused("erl-node.json", """[ { "node": "zero", "local_trace": [] } ]""",
      "cannot replay $file: the trace is damaged: entry 1 of the list is not an object with 'node'")
    refused("erl-event.json", """[ { "node": [0], "local_trace": [ { "type": "schedule", "caller_id": [], "local_id": -1, "name": "m_main" } ] } ]""",
      "the trace is damaged: event 1 of COG [0]: 'local_id' is not a number from 0")
    refused("erl-scalar.json", "42", "it is neither a JSON object (absc's own format) nor a list of COGs")
  }

  @Test def recordAndReplayExcludeEachOther(): Unit = {
    val r = run("--record", dir.resolve("a.json").toString, "--replay", dir.resolve("b.json").toString)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains("--record and --replay exclude each other"), r.err)
  }
}
