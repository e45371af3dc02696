package cogs.monitor.pipeline

import com.typesafe.config.{ConfigFactory, ConfigParseOptions}
import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import TestSupport._

class PipelineConfigTest {

  private val registry = new PropertyRegistry().register("call-answered", answeredFactory)

  private def parse(hocon: String): PipelineSettings =
    PipelineConfig.parse(ConfigFactory.parseString(hocon, ConfigParseOptions.defaults.setOriginDescription("monitor.conf")), registry)

  private def error(hocon: String): String =
    assertThrows(classOf[MonitorConfigException], () => parse(hocon)).getMessage

  @Test def defaultsComeFromReferenceConf(): Unit = {
    val s = parse("")
    assertEquals(Mode.Centralised, s.mode)
    assertTrue(s.observe.observes("Anything") && s.observe.observesMethod("A", "m"))
    assertEquals(65536, s.capacity)
    assertEquals(Overload.Backpressure(TimeUnit.SECONDS.toNanos(10)), s.overload)
    assertEquals(StatsSettings.off, s.statistics)
    assertEquals(SummaryTarget.Stderr, s.output.summary)
    assertEquals(None, s.output.json)
    assertTrue(s.monitors.isEmpty)
    assertTrue(s.checkSequence)
  }

  @Test def theExampleConfigurationParses(): Unit = {
    val s = parse(
      """cogs.monitor {
        |  mode = outline-centralised
        |  observe { classes = ["Server", "Client"], methods = ["Server.request"] }
        |  decentralised.own-tracer = ["Worker"]
        |  buffer { capacity = 1000, overload = drop }
        |  dispatcher { kind = pool, actors = 250, key = object }
        |  monitors = [
        |    { property = "call-answered", class = "Server", method = "request" },
        |    { class = "cogs.monitor.pipeline.CountingChecker", dispatcher { kind = per-key, key = future, complete-on = ["FutureResolved"] } }
        |  ]
        |  statistics { enabled = true, actors = ["dispatcher", "monitor"], sample-every = 100 }
        |  output { summary = true, json = "target/monitor/verdicts.jsonl" }
        |}""".stripMargin)
    assertEquals(Mode.Centralised, s.mode)
    assertTrue(s.observe.observes("Server") && !s.observe.observes("Other"))
    assertTrue(s.observe.observesMethod("Server", "request") && !s.observe.observesMethod("Server", "stop"))
    assertEquals(Set("Worker"), s.ownTracer)
    assertEquals(1000, s.capacity)
    assertEquals(Overload.Drop, s.overload)
    assertEquals(List("call-answered", "CountingChecker"), s.monitors.map(_.name))
    val pool = s.monitors.head.dispatcher
    assertEquals((DispatchKind.Pool, 250, "object", Assign.RoundRobin), (pool.kind, pool.actors, pool.keyName, pool.assign))
    val perKey = s.monitors(1).dispatcher
    assertEquals((DispatchKind.PerKey, "future", List("FutureResolved")), (perKey.kind, perKey.keyName, perKey.completeOn))
    assertEquals(250, perKey.actors, "unset keys of a monitor's dispatcher come from the global block")
    assertEquals(StatsSettings(dispatcher = true, monitor = true, 100, 1000), s.statistics)
    assertEquals(Some(java.nio.file.Paths.get("target/monitor/verdicts.jsonl")), s.output.json)
    // the factories work: the property got its parameters, the class was made by reflection
    assertTrue(s.monitors.head.make().isInstanceOf[Answered])
    assertTrue(s.monitors(1).make().isInstanceOf[CountingChecker])
  }

  @Test def aClassWithAConfigConstructorGetsItsEntry(): Unit = {
    val s = parse("""cogs.monitor.monitors = [{ class = "cogs.monitor.pipeline.ConfiguredChecker", limit = 7, name = "seven" }]""")
    assertEquals("seven", s.monitors.head.name)
    assertEquals(7, s.monitors.head.make().asInstanceOf[ConfiguredChecker].limit)
  }

  @Test def anAdapterMakesOtherClassesUsable(): Unit = {
    val reg = new PropertyRegistry().adapter(classOf[NotAChecker])(_ => new CountingChecker)
    val s = PipelineConfig.parse(ConfigFactory.parseString("""cogs.monitor.monitors = [{ class = "cogs.monitor.pipeline.NotAChecker" }]"""), reg)
    assertTrue(s.monitors.head.make().isInstanceOf[CountingChecker])
  }

  @Test def keysAndCompletionEventsByName(): Unit = {
    val s = parse(
      """cogs.monitor.dispatcher { kind = indexed, key = arg1, complete-on = ["User:done", "Completed:Server.stop"] }
        |cogs.monitor.monitors = [{ property = "call-answered" }, { property = "call-answered", name = "by-class", dispatcher.key = "cogs.monitor.pipeline.ClassKey" }]""".stripMargin)
    val o = new Objects
    val (a, b) = (o.obj("Client"), o.obj("Server"))
    val d = s.monitors.head.dispatcher
    assertEquals("y", d.key(o.call(a, b, "m", "x", "y")))
    assertEquals(null, d.key(o.call(a, b, "m", "x")))
    assertTrue(d.completion(o.user(a, "done")))
    assertFalse(d.completion(o.user(a, "other")))
    assertTrue(d.completion(o.completed(b, "stop", o.fut(), ())))
    assertFalse(d.completion(o.completed(b, "start", o.fut(), ())))
    assertEquals("Server", s.monitors(1).dispatcher.key(o.user(b, "x")))
  }

  @Test def anUnknownKindNamesFileKeyAndChoices(@TempDir dir: Path): Unit = {
    val f = dir.resolve("monitor.conf")
    Files.writeString(f, "cogs.monitor {\n  dispatcher {\n    kind = pol\n  }\n}\n")
    val e = assertThrows(classOf[MonitorConfigException], () => PipelineConfig.parse(ConfigFactory.parseFile(f.toFile), registry))
    assertEquals("monitor.conf:3: dispatcher.kind: unknown 'pol'; expected single, indexed, per-key or pool", e.getMessage)
  }

  @Test def badValuesAreClearErrors(): Unit = {
    assertEquals("monitor.conf:1: mode: unknown 'outline'; expected inline, outline-centralised or outline-decentralised",
      error("cogs.monitor.mode = outline"))
    assertEquals("monitor.conf:1: buffer.overload: unknown 'block'; expected backpressure or drop",
      error("cogs.monitor.buffer.overload = block"))
    assertEquals("monitor.conf:1: dispatcher.actors: 0 is out of range; expected 1 to 1048576",
      error("cogs.monitor.dispatcher.actors = 0"))
    assertTrue(error("cogs.monitor.buffer.capacity = lots").startsWith("monitor.conf:1: buffer.capacity: wrong type"))
    assertTrue(error("cogs.monitor.dispatcher.kidn = pool").startsWith("monitor.conf:1: dispatcher.kidn: unknown key; known here: actors, assign"))
    assertEquals("monitor.conf:1: dispatcher.key: unknown 'callsign'; expected object, callee, future, method, class, arg0, arg1, ..., or a class name",
      error("cogs.monitor.dispatcher.key = callsign"))
    assertTrue(error("""cogs.monitor.dispatcher.complete-on = ["Finished"]""").contains("complete-on: unknown event kind 'Finished'"))
    assertEquals("monitor.conf:1: statistics.actors: unknown actor 'tracer'; expected dispatcher or monitor",
      error("""cogs.monitor.statistics.actors = ["tracer"]"""))
  }

  @Test def badMonitorEntriesAreClearErrors(): Unit = {
    assertEquals("monitor.conf:1: monitors[0].property: unknown 'call-answerd'; registered: call-answered",
      error("""cogs.monitor.monitors = [{ property = "call-answerd" }]"""))
    assertEquals("monitor.conf:1: monitors[0].class: class 'no.such.Monitor' not found",
      error("""cogs.monitor.monitors = [{ class = "no.such.Monitor" }]"""))
    assertTrue(error("""cogs.monitor.monitors = [{ class = "cogs.monitor.pipeline.NotAChecker" }]""")
      .endsWith("is not a cogs.monitor.pipeline.Checker, and no adapter is registered for it"))
    assertEquals("monitor.conf:1: monitors[0]: needs 'property' (a registered property) or 'class' (a Checker class name)",
      error("""cogs.monitor.monitors = [{ name = "x" }]"""))
    assertTrue(error("""cogs.monitor.monitors = [{ property = "call-answered" }, { property = "call-answered" }]""")
      .contains("monitors[1].name: 'call-answered' is already the name of monitors[0]"))
    assertTrue(error("""cogs.monitor.monitors = [{ property = "call-answered", dispatcher.kidn = pool }]""")
      .contains("monitors[0].dispatcher.kidn: unknown key"))
    assertTrue(error("""cogs.monitor.monitors = [ "call-answered" ]""").contains("monitors[0]: expected an object"))
  }

  @Test def inlineModeRefusesMonitorActors(): Unit = {
    assertEquals("monitor.conf:1: dispatcher.kind: 'pool' (monitor call-answered) needs monitor actors, which inline mode has not; use single or indexed, or an outline mode",
      error("cogs.monitor { mode = inline, dispatcher.kind = pool, monitors = [{ property = \"call-answered\" }] }"))
    assertTrue(error("cogs.monitor { mode = inline, monitors = [{ property = \"call-answered\", dispatcher.kind = per-key }] }")
      .contains("monitors[0].dispatcher.kind: 'per-key'"))
    assertEquals(Mode.Inline, parse("cogs.monitor { mode = inline, dispatcher.kind = indexed, monitors = [{ property = \"call-answered\" }] }").mode)
  }

  @Test def summaryTargets(): Unit = {
    assertEquals(SummaryTarget.None, parse("cogs.monitor.output.summary = false").output.summary)
    assertEquals(SummaryTarget.Stdout, parse("cogs.monitor.output.summary = stdout").output.summary)
    assertEquals(SummaryTarget.File(java.nio.file.Paths.get("out/summary.txt")), parse("cogs.monitor.output.summary = \"out/summary.txt\"").output.summary)
    assertTrue(error("cogs.monitor.output.summary = 3").contains("output.summary: expected true, false"))
  }

  @Test def theRuntimeSectionIsFreeForm(): Unit = {
    val s = parse("cogs.monitor.runtime { throughput = 8, executor.parallelism = 1 }")
    assertEquals(8, s.runtime.getInt("throughput"))
    assertEquals("cogs-monitor", s.runtime.getString("executor.thread-name-prefix"))
  }
}
