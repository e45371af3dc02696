package cogs.monitor.pipeline

import cogs.trace.{ObjRef, TraceEvent, Tracer}
import com.typesafe.config.ConfigFactory
import java.nio.file.{Files, Path}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import scala.jdk.CollectionConverters._
import TestSupport._

/** The whole pipeline from configuration: tracing, finish, reports, exit status. */
class PipelineTest {

  private val registry = new PropertyRegistry().register("call-answered", answeredFactory)

  private def pipeline(hocon: String): Pipeline =
    Pipeline.fromConfig(ConfigFactory.parseString(hocon), registry)

  /** A client calls a server three times; the server answers the first two. */
  private def clientServer(p: Pipeline): (Objects, ObjRef, ObjRef) = {
    val o = new Objects
    val client = o.obj("Client")
    val server = o.obj("Server")
    val tc = p.tracing.tracerFor(client, null, null)
    val ts = p.tracing.tracerFor(server, null, null)
    val calls = (1 to 3).map(i => o.call(client, server, "request", i))
    calls.foreach(tc.event)
    calls.take(2).foreach { c =>
      ts.event(o.started(server, "request", c.fut))
      ts.event(o.completed(server, "request", c.fut, "ok"))
      ts.event(o.resolved(server, c.fut, "ok"))
    }
    (o, client, server)
  }

  @Test def aViolationIsReportedWithItsTraceAndExitStatus3(@TempDir dir: Path): Unit = {
    val json = dir.resolve("out/verdicts.jsonl")
    val summary = dir.resolve("summary.txt")
    val p = pipeline(
      s"""cogs.monitor {
         |  dispatcher { kind = per-key, key = future, complete-on = ["FutureResolved"] }
         |  monitors = [{ property = "call-answered", method = "request" }]
         |  output { summary = "${summary.toString.replace("\\", "/")}", json = "${json.toString.replace("\\", "/")}" }
         |}""".stripMargin)
    clientServer(p)
    val r = p.finish()
    assertEquals(1, r.violations)
    assertEquals(3, r.exitStatus)
    assertFalse(r.ok)
    assertTrue(r.sound)
    val m = r.monitors.head
    assertEquals(("call-answered", 9L, 3L, 2L), (m.name, m.events, m.instances, m.completed))
    assertEquals("call request with fut#3 was never answered", m.verdicts.head.finding.message)
    assertEquals("key=fut#3", m.verdicts.head.instance)

    val text = Files.readString(summary)
    assertTrue(text.contains("call-answered (an actor per future, ended on FutureResolved): 9 events, 3 instances (2 ended by completion events): 1 violation"), text)
    assertTrue(text.contains("[key=fut#3] at the end of the trace: call request with fut#3 was never answered"), text)
    assertTrue(text.contains("#1 CallSent(Client#1,3,"), text) // the trace line of the finding
    assertTrue(text.contains("losses: none"), text)
    assertTrue(text.contains("verdict: 1 violation (exit status 3)"), text)

    val lines = Files.readAllLines(json).asScala.toList
    assertEquals(List("verdict", "monitor", "losses", "order", "result"), lines.map(l => "\"type\":\"(\\w+)\"".r.findFirstMatchIn(l).get.group(1)))
    assertTrue(lines.head.contains("\"monitor\":\"call-answered\"") && lines.head.contains("\"message\":\"call request with fut#3 was never answered\""), lines.head)
    assertTrue(lines.last.contains("\"violations\":1") && lines.last.contains("\"sound\":true") && lines.last.contains("\"exit-status\":3"), lines.last)
    assertSame(r, p.finish(), "finish is idempotent")
  }

  @Test def aCleanRunExitsWith0(): Unit = {
    val p = pipeline("""cogs.monitor { output.summary = false, dispatcher { kind = pool, actors = 2, key = future }, monitors = [{ property = "call-answered", method = "other" }] }""")
    clientServer(p)
    val r = p.finish()
    assertEquals(0, r.exitStatus)
    assertTrue(r.ok)
    assertTrue(r.summary().contains("verdict: no violation (exit status 0)"))
    assertTrue(r.jsonLines.last.contains("\"exit-status\":0"))
  }

  @Test def aThrowingMonitorFailsTheRun(): Unit = {
    val reg = new PropertyRegistry().register("boom", (n, _) => Checker.invariant[TraceEvent](n)(_ => throw new IllegalStateException("bug")))
    val p = Pipeline.fromConfig(ConfigFactory.parseString("""cogs.monitor { output.summary = false, monitors = [{ property = boom }] }"""), reg)
    clientServer(p)
    val r = p.finish()
    assertEquals(3, r.exitStatus)
    assertEquals(1L, r.monitors.head.failed)
    assertTrue(r.monitors.head.verdicts.head.finding.message.startsWith("monitor failed on its event 1"))
  }

  @Test def inlineModeChecksOnTheEmittingThread(): Unit = {
    val p = pipeline("""cogs.monitor { mode = inline, output.summary = false, dispatcher { kind = indexed, key = future }, monitors = [{ property = "call-answered" }] }""")
    clientServer(p)
    assertEquals(List("inline"), p.sinkNames)
    assertEquals(3, p.status().head._2.head.live, "already delivered, no buffer")
    val r = p.finish()
    assertEquals(1, r.violations)
    assertEquals(Mode.Inline, r.mode)
  }

  @Test def eventsAreStampedOnlyWhenSomethingMayReadTheirTime(): Unit = {
    def stamps(hocon: String, reg: PropertyRegistry = PropertyRegistry.default): Boolean = {
      val p = Pipeline.fromConfig(ConfigFactory.parseString(s"cogs.monitor { output.summary = false, $hocon }"), reg)
      try p.tracing.timestamps finally p.finish()
    }
    val answered = """monitors = [{ property = "call-answered", class = "Server", method = "request" }]"""
    // Ready-made properties never read a time; without dispatcher statistics nothing else does.
    assertFalse(stamps(answered))
    assertFalse(stamps("monitors = []"))
    // The emission-to-dispatch statistic reads it; the monitor actors' statistics do not.
    assertTrue(stamps(s"$answered, statistics { enabled = true, actors = [dispatcher] }"))
    assertFalse(stamps(s"$answered, statistics { enabled = true, actors = [monitor] }"))
    // A monitor given by class, or a property registered without saying it is untimed, may read it.
    assertTrue(stamps("""monitors = [{ class = "cogs.monitor.pipeline.CountingChecker" }]"""))
    assertTrue(stamps(answered, registry))
  }

  @Test def observeSelectsClassesAndMethods(): Unit = {
    val p = pipeline("""cogs.monitor { output.summary = false, observe { classes = ["Server"], methods = ["Server.request", "Worker.*"] } }""")
    assertTrue(p.tracing.observes("Server"))
    assertFalse(p.tracing.observes("Client"))
    assertTrue(p.tracing.observesMethod("Server", "request"))
    assertFalse(p.tracing.observesMethod("Server", "stop"))
    assertTrue(p.tracing.observesMethod("Worker", "anything"))
    p.finish()
  }

  @Test def decentralisedTracersFollowCreation(): Unit = {
    val p = pipeline(
      """cogs.monitor {
        |  mode = outline-decentralised, output.summary = false
        |  decentralised.own-tracer = ["Worker"]
        |  dispatcher { kind = indexed, key = object }
        |  monitors = [{ property = "call-answered" }]
        |}""".stripMargin)
    val o = new Objects
    // what the runtime does at creation: the tracer chosen for each object is kept and handed
    // to tracerFor when the object creates another
    val sink = scala.collection.mutable.Map.empty[ObjRef, Tracer]
    def traced(cls: String, creator: ObjRef): ObjRef = {
      val x = o.obj(cls)
      sink(x) = p.tracing.tracerFor(x, creator, if (creator eq null) null else sink(creator))
      x
    }
    val main = traced("Main", null)
    val w1 = traced("Worker", main)
    val w2 = traced("Worker", main)
    val helper = traced("Helper", w1) // inherits w1's tracer
    val other = traced("Helper", main) // inherits main's: the root tracer
    assertEquals(List("root", "Worker#2", "Worker#3"), p.sinkNames)
    assertSame(sink(w1), sink(helper))
    assertSame(sink(main), sink(other))
    assertNotSame(sink(w1), sink(w2))
    // each chain sees exactly its objects' events, each object's complete and in order
    List(main, w1, w2, helper, other).foreach(x => (1 to 3).foreach(_ => sink(x).event(o.user(x, "tick"))))
    sink(main).event(o.call(main, w1, "request"))
    val counts = p.status().map { case (n, st) => n -> st.head.events }.toMap
    assertEquals(Map("root" -> 7L, "Worker#2" -> 6L, "Worker#3" -> 3L), counts)
    val r = p.finish()
    assertEquals(3, r.chains)
    assertEquals(16L, r.delivered)
    assertTrue(r.sound)
    assertEquals("root", r.monitors.head.verdicts.head.chain, "the unanswered call is in main's chain")
    assertTrue(r.summary().contains("[root key=Main#1]"), r.summary())
  }

  @Test def dropLossesAndGapsAreReported(): Unit = {
    // a buffer of 2 and a slow monitor: most events are dropped, and the report says so
    val reg = new PropertyRegistry().register("slow", (n, _) => Checker.invariant[TraceEvent](n) { _ => Thread.sleep(2); None })
    val p = Pipeline.fromConfig(ConfigFactory.parseString(
      """cogs.monitor { output.summary = false, buffer { capacity = 2, overload = drop, batch = 1 }, monitors = [{ property = slow }] }"""), reg)
    val o = new Objects
    val a = o.obj("A")
    val t = p.tracing.tracerFor(a, null, null)
    (1 to 200).foreach { i =>
      t.event(o.user(a, "tick"))
      if (i % 20 == 0) Thread.sleep(10) // room again: later events get through, after a gap
    }
    val r = p.finish()
    assertTrue(r.losses.dropped > 0)
    assertEquals(200L, r.delivered + r.losses.dropped)
    assertFalse(r.sound)
    assertTrue(r.order.missing > 0)
    assertEquals(0, r.exitStatus, "losses alone do not fail the run; they are reported")
    val s = r.summary()
    assertTrue(s.contains(s"losses: ${r.losses.dropped} dropped (buffer full, overload = drop): the verdicts cover an incomplete trace"), s)
    assertTrue(s.contains("trace order:") && s.contains("missing"), s)
    assertTrue(r.jsonLines.exists(l => l.contains("\"type\":\"losses\"") && l.contains(s"\"dropped\":${r.losses.dropped}")))
  }

  @Test def statisticsAreCollectedPerActorAndPerRole(): Unit = {
    val p = pipeline(
      """cogs.monitor {
        |  output.summary = false
        |  dispatcher { kind = pool, actors = 3, key = object }
        |  monitors = [{ property = "call-answered" }]
        |  statistics { enabled = true, sample-every = 1 }
        |}""".stripMargin)
    val o = new Objects
    val objs = (1 to 6).map(_ => o.obj("A"))
    val ts = objs.map(x => p.tracing.tracerFor(x, null, null))
    (1 to 50).foreach(_ => objs.zip(ts).foreach { case (x, t) => t.event(o.user(x, "tick")) })
    val r = p.finish()
    val roles = r.statistics.roles.map(s => s.role -> s).toMap
    assertEquals(Set("dispatcher", "monitor"), roles.keySet)
    assertEquals(300L, roles("dispatcher").items, "the dispatcher handled every event")
    assertEquals(300L, roles("monitor").items, "the monitor actors verified every event")
    assertEquals(3L, roles("monitor").actors)
    assertTrue(roles("monitor").calls >= 6, "verify batches and end calls")
    assertEquals(roles("monitor").calls, roles("monitor").mailboxSamples, "sample-every = 1 samples every call")
    assertTrue(roles("monitor").mailboxMax >= 1)
    assertEquals(roles("monitor").calls, roles("monitor").waitCount)
    assertTrue(roles("dispatcher").latencySamples > 0)
    assertEquals(4, r.statistics.actors.size) // a dispatcher and three monitor actors
    assertTrue(r.summary().contains("statistics:") && r.summary().contains("monitor (3 actors): "))
    assertEquals(6, r.jsonLines.count(_.contains("\"type\":\"stats\""))) // two roles, four actors
  }

  @Test def statisticsOffLeaveNoTrace(): Unit = {
    val p = pipeline("""cogs.monitor { output.summary = false, dispatcher { kind = pool, key = object }, monitors = [{ property = "call-answered" }] }""")
    clientServer(p)
    val r = p.finish()
    assertTrue(r.statistics.isEmpty)
    assertFalse(r.summary().contains("statistics:"))
  }

  @Test def closingTheTracingFinishes(): Unit = {
    val p = pipeline("""cogs.monitor { output.summary = false, monitors = [{ property = "call-answered" }] }""")
    clientServer(p)
    assertEquals(None, p.result)
    p.tracing.close()
    assertEquals(1, p.result.get.violations)
  }
}
