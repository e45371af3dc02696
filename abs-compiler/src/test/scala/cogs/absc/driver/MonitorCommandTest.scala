package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/** `absc run/compile --monitor`: instrumentation, wiring, verdicts and exit statuses, bad input. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MonitorCommandTest {

  private var dir: Path = _
  private var cache: Path = _
  private val example = Paths.get("..", "examples", "monitor").toAbsolutePath.normalize

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-monitor")
    cache = dir.resolve("cache")
  }

  private def abs(args: String*): AbscResult = absc(AbsBackend, args: _*)
  private def ex(name: String): String = example.resolve(name).toString
  private def file(name: String, text: String): String = {
    val f = dir.resolve(name)
    Files.writeString(f, text, UTF_8)
    f.toString
  }

  // The example's configuration writes JSON lines relative to the working directory; tests
  // use a copy that writes into the test's directory.
  private lazy val conf: String = file("spooler.conf",
    Files.readString(example.resolve("spooler.conf"), UTF_8)
      .replace("\"target/spooler-verdicts.jsonl\"", "\"" + dir.resolve("verdicts.jsonl").toString.replace("\\", "/") + "\""))

  @Test def theSpoolersBugIsFoundWithTheTraceThatLedToIt(): Unit = {
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", conf, ex("Spooler.abs"), ex("JobsInOrder.scala"))
    assertEquals(Exit.Monitor, r.status, r.err)
    assertEquals("printing job 1\nprinting job 2\nprinting job 3\n", r.programOut)
    // jobs 5 to 8 wait forever for ticket 4: four unanswered calls, each with its story
    assertTrue(r.err.contains("every job is printed (single): "), r.err)
    assertTrue(r.err.contains("4 violations"), r.err)
    assertTrue(r.err.contains("hot state still active in state Waiting(SpoolerImpl#"), r.err)
    assertTrue(r.err.contains("calls SpoolerImpl#3.submit(5)"), r.err)
    assertTrue(r.err.contains("suspends submit for"), r.err)
    assertTrue(r.err.contains("verdict: 8 violations (exit status 3)"), r.err)
    val json = Files.readString(dir.resolve("verdicts.jsonl"), UTF_8)
    assertTrue(json.linesIterator.size >= 8, json)
    assertTrue(json.contains("Waiting(SpoolerImpl#"), json)
  }

  @Test def theFixedSpoolerPasses(): Unit = {
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", conf, ex("SpoolerFixed.abs"), ex("JobsInOrder.scala"))
    assertEquals(Exit.Ok, r.status, r.err)
    assertTrue(r.programOut.contains("printing job 8"), r.programOut)
    assertTrue(r.err.contains("verdict: no violation (exit status 0)"), r.err)
  }

  @Test def withoutMonitorTheBuggyModelEndsNormally(): Unit = {
    val r = abs("run", "--cache-dir", cache.toString, ex("Spooler.abs"))
    assertEquals(Exit.Ok, r.status, r.err)
    assertFalse(r.err.contains("cogs monitor"), r.err)
  }

  @Test def onlyObservedCallSitesAreInstrumented(): Unit = {
    val out = dir.resolve("gen")
    val r = abs("compile", "--monitor", conf, "-d", out.toString, ex("Spooler.abs"), ex("JobsInOrder.scala"))
    assertEquals(Exit.Ok, r.status, r.err)
    val model = Files.readString(out.resolve("Spool.scala"), UTF_8)
    // submit and cancel are observed methods of SpoolerImpl (observe.methods = everything)
    assertTrue(model.contains("AbsCall.sendWithArgs("), model)
    assertTrue(model.contains("override def traceName: String = \"SpoolerImpl\""), model)
    val main = Files.readString(out.resolve("absmodel_main/Main.scala"), UTF_8)
    assertTrue(main.contains("monitor = \""), main)
    assertTrue(Files.isRegularFile(out.resolve("monitor/JobsInOrder.scala")))

    val plain = dir.resolve("gen-plain")
    assertEquals(Exit.Ok, abs("compile", "-d", plain.toString, ex("Spooler.abs")).status)
    val plainModel = Files.readString(plain.resolve("Spool.scala"), UTF_8)
    assertFalse(plainModel.contains("sendWithArgs"), plainModel)
    // without monitoring, a call whose future is dropped (`s!cancel(4);`) is a one-way call
    // (the message carries the method's name; the call site writes the target and its position)
    assertTrue("tell\\([a-z]+, \"[^\"]*Spooler.abs:\\d+:\\d+\"\\)\\(Spooler.cancel\\(".r.findFirstIn(plainModel).isDefined, plainModel)
    assertTrue("send\\([a-z]+, \"[^\"]*Spooler.abs:\\d+:\\d+\"\\)\\(Spooler.submit\\(".r.findFirstIn(plainModel).isDefined, plainModel)
    assertFalse(Files.readString(plain.resolve("absmodel_main/Main.scala"), UTF_8).contains("monitor ="))

    val other = file("other.conf", "cogs.monitor { observe.classes = [Nobody] }\n")
    val none = dir.resolve("gen-none")
    assertEquals(Exit.Ok, abs("compile", "--monitor", other, "-d", none.toString, ex("Spooler.abs")).status)
    assertFalse(Files.readString(none.resolve("Spool.scala"), UTF_8).contains("sendWithArgs"))
  }

  @Test def aBadConfigurationIsAnErrorAtItsLine(): Unit = {
    val bad = file("bad.conf", "cogs.monitor {\n  mode = outline-centralised\n  dispatcher.kind = pol\n}\n")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", bad, ex("Spooler.abs"))
    assertEquals(Exit.Compile, r.status, r.err)
    assertTrue(r.err.contains(s"$bad:3: error: dispatcher.kind: unknown 'pol'"), r.err)

    val syntax = file("syntax.conf", "cogs.monitor {\n  mode = = x\n}\n")
    val s = abs("run", "--cache-dir", cache.toString, "--monitor", syntax, ex("Spooler.abs"))
    assertEquals(Exit.Compile, s.status, s.err)
    assertTrue(s.err.contains(s"$syntax:2: error:"), s.err)

    val param = file("param.conf", "cogs.monitor.monitors = [ { property = call-answered, class = X } ]\n")
    val p = abs("run", "--cache-dir", cache.toString, "--monitor", param, ex("Spooler.abs"))
    assertEquals(Exit.Compile, p.status, p.err)
    assertTrue(p.err.contains("missing parameter 'method'"), p.err)

    val missing = abs("run", "--monitor", dir.resolve("nope.conf").toString, ex("Spooler.abs"))
    assertEquals(Exit.Compile, missing.status)
    assertTrue(missing.err.contains("cannot read"), missing.err)
  }

  @Test def aScalaSourceNeedsMonitorAndItsErrorsAreTheUsers(): Unit = {
    val r = abs("run", ex("Spooler.abs"), ex("JobsInOrder.scala"))
    assertEquals(Exit.Compile, r.status)
    assertTrue(r.err.contains("monitor sources are only compiled with --monitor"), r.err)

    val broken = file("Broken.scala", "class Broken extends cogs.monitor.Properties.TraceMonitor(\"b\") {\n  val x: Int = \"no\"\n}\n")
    val b = abs("run", "--cache-dir", cache.toString, "--monitor", conf, ex("Spooler.abs"), broken)
    assertEquals(Exit.Compile, b.status, b.err)
    assertTrue(b.err.contains(s"$broken:2:"), b.err)
    assertTrue(b.err.contains("error in the monitor sources"), b.err)
    assertFalse(b.err.contains("internal error"), b.err)
  }

  @Test def aMonitorClassThatIsNotThereIsReportedWhenTheProgramStarts(): Unit = {
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", conf, ex("Spooler.abs"))
    assertEquals(Exit.Compile, r.status, r.err)
    assertTrue(r.err.contains("class 'JobsInOrder' not found"), r.err)
    assertTrue(r.err.contains("compiled from the .scala FILEs"), r.err)
  }
}
