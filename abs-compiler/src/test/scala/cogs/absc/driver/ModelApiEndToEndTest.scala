package cogs.absc.driver

import java.net.URI
import java.net.http.{HttpClient, HttpRequest, HttpResponse}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}

import scala.jdk.CollectionConverters._

import DriverTestSupport._

/**
 * `absc run -p PORT` in a JVM of its own, as a user starts it: the model compiles, runs its main
 * block, and then serves the Model API until the process is killed or `/quit` is requested. The
 * requests are real HTTP requests to the port the model prints.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModelApiEndToEndTest {

  private var dir: Path = _
  private val client = HttpClient.newHttpClient()

  private val model =
    """module Shop;
      |interface Stock {
      |  [HTTPCallable] Int add(String item, Int n);
      |  [HTTPCallable] Map<String, Int> all();
      |  [HTTPCallable] Int ratio(Int a, Int b);
      |  [HTTPCallable] Item item(String name);
      |}
      |data Item = Item(String name, Int price, [HTTPName: "inStock"] Bool);
      |class StockImpl implements Stock {
      |  Map<String, Int> items = map[];
      |  Int add(String item, Int n) {
      |    items = put(items, item, lookupDefault(items, item, 0) + n);
      |    return lookupDefault(items, item, 0);
      |  }
      |  Map<String, Int> all() { return items; }
      |  Int ratio(Int a, Int b) { return truncate(a / b); }
      |  Item item(String name) { return Item(name, lookupDefault(items, name, 0), True); }
      |}
      |{
      |  [HTTPName: "stock"] Stock s = new StockImpl();
      |  await s!add("apples", 3);
      |  println("main block done");
      |}
      |""".stripMargin

  @BeforeAll def setUp(): Unit = dir = tempDir("absc-modelapi")

  @AfterAll def tearDown(): Unit =
    Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.deleteIfExists(p))

  private final class Model(val process: Process, val out: Path, val err: Path, val url: String)

  /** Starts `absc run -p 0` on the model; returns once the model says where it listens. */
  private def start(name: String, text: String = model, extra: List[String] = Nil): Model = {
    val file = absFile(dir, name, text)
    val out = dir.resolve(s"$name.out")
    val err = dir.resolve(s"$name.err")
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val command = List(java, "-Xss256m", "-cp", System.getProperty("java.class.path"),
      "cogs.absc.driver.Main", "run", "--cache-dir", dir.resolve("cache").toString, "--port", "0") ++ extra ++ List(file)
    val pb = new ProcessBuilder(command: _*)
    pb.redirectOutput(out.toFile).redirectError(err.toFile)
    val p = pb.start()
    p.getOutputStream.close()
    val Url = "absc: the Model API listens at (http://127\\.0\\.0\\.1:[0-9]+/) .*".r
    // Compiling takes a while on a loaded machine: wait for the line or the end of the process (no
    // time is asserted; the bound only keeps a broken build from hanging).
    val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10)
    var url: Option[String] = None
    while (url.isEmpty) {
      url = Files.readString(err).linesIterator.collectFirst { case Url(u) => u }
      if (url.isEmpty) {
        if (!p.isAlive) fail(s"absc ended with status ${p.exitValue} before serving:\n${Files.readString(err)}")
        if (System.nanoTime() > deadline) { p.destroyForcibly(); fail("absc did not start the Model API") }
        Thread.sleep(200)
      }
    }
    new Model(p, out, err, url.get)
  }

  private def get(m: Model, path: String): HttpResponse[String] =
    client.send(HttpRequest.newBuilder(URI.create(m.url + path)).GET().build(), HttpResponse.BodyHandlers.ofString(UTF_8))

  private def compact(json: String): String = json.replaceAll("\\s+", "")

  @Test def aRunningModelAnswersAndIsStoppedByKilling(): Unit = {
    val m = start("shop")
    try {
      assertEquals("[\"stock\"]", compact(get(m, "o").body))
      // The main block has ended (its output is out), and the model still serves.
      assertEquals("main block done\n", waitForOutput(m))
      assertEquals("{\"result\":5}", compact(get(m, "call/stock/add?item=apples&n=2").body))
      val posted = client.send(HttpRequest.newBuilder(URI.create(m.url + "call/stock/add"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"item\": \"pears\", \"n\": 4}")).build(), HttpResponse.BodyHandlers.ofString(UTF_8))
      assertEquals("{\"result\":4}", compact(posted.body))
      assertEquals("{\"result\":{\"apples\":5,\"pears\":4}}", compact(get(m, "call/stock/all").body))
      assertEquals("{\"items\":{\"apples\":5,\"pears\":4}}", compact(get(m, "o/stock").body))
      // A data value as a JSON object of its named arguments, as the manual says; the Bool has no
      // selector, but a key of its own ([HTTPName: "inStock"], the Erlang backend's rule).
      assertEquals("{\"result\":{\"name\":\"apples\",\"price\":5,\"inStock\":true}}", compact(get(m, "call/stock/item?name=apples").body))
      val methods = compact(get(m, "call/stock").body)
      assertTrue(methods.contains("{\"name\":\"add\",\"parameters\":[{\"name\":\"item\",\"type\":\"String\"},{\"name\":\"n\",\"type\":\"Int\"}],\"return\":\"Int\"}"), methods)
      // The clock is not there yet: 0 (see the README).
      assertEquals("{\"result\":0}", compact(get(m, "clock/now").body))
      assertEquals("[]", compact(get(m, "dcs").body))

      val bad = get(m, "call/stock/add?item=x&n=many")
      assertEquals(400, bad.statusCode)
      assertEquals("{\"error\":\"stock.add:argument'n'mustbeoftypeInt;got'many'\"}", compact(bad.body))
      assertEquals(404, get(m, "call/stock/remove?item=x").statusCode)
      assertEquals(404, get(m, "o/shelf").statusCode)
      val failed = get(m, "call/stock/ratio?a=1&b=0")
      assertEquals(500, failed.statusCode)
      assertTrue(failed.body.contains("stock.ratio failed: DivisionByZeroException"), failed.body)
      // The failed call killed the object (ABS semantics); the model serves on.
      assertEquals(500, get(m, "call/stock/all").statusCode)
      assertEquals(200, get(m, "o").statusCode)
      assertTrue(get(m, "").body.contains("uPlot"), "the default index page")
      assertTrue(m.process.isAlive, "the model keeps running")
    } finally {
      m.process.destroy()
      assertTrue(m.process.waitFor(60, TimeUnit.SECONDS), "absc did not stop when killed")
    }
  }

  @Test def quitEndsTheModelWithItsStatus(): Unit = {
    val m = start("quitting")
    try {
      assertEquals("main block done\n", waitForOutput(m))
      assertEquals(200, get(m, "quit").statusCode)
      assertTrue(m.process.waitFor(60, TimeUnit.SECONDS), "absc did not stop after /quit")
      assertEquals(0, m.process.exitValue, Files.readString(m.err))
    } finally m.process.destroyForcibly()
  }

  /** A simulation that never ends by itself, and a COG blocked for ever in a `get`. */
  private val busy =
    """module Busy;
      |interface Ticker { [HTTPCallable] Int ticks(); Unit tick(); }
      |class TickerImpl implements Ticker {
      |  Int count = 0;
      |  Int ticks() { return count; }
      |  Unit tick() { while (True) { await duration(1); count = count + 1; } }
      |}
      |interface Stuck { Unit stall(); }
      |class StuckImpl implements Stuck {
      |  Int noted = 0;
      |  Unit stall() {
      |    noted = 42;
      |    Fut<Int> f = this!never();
      |    Int x = f.get;
      |  }
      |  Int never() { await False; return 0; }
      |}
      |{
      |  [HTTPName: "ticker"] Ticker t = new TickerImpl();
      |  [HTTPName: "stuck"] Stuck s = new StuckImpl();
      |  s!stall();
      |  t!tick();
      |  println("main block done");
      |}
      |""".stripMargin

  @Test def quitEndsABusySimulationAndABlockedCogStillAnswers(): Unit = {
    val m = start("busy", busy)
    try {
      // The clock moves (the simulation runs), and /o/ticker answers between two of its steps.
      val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1)
      def now() = JsonCodecForTests.number(get(m, "clock/now").body)
      while (now() < 3 && System.nanoTime() < deadline) Thread.sleep(50)
      assertTrue(now() >= 3, "the simulation advances")
      assertEquals(200, get(m, "o/ticker").statusCode)
      // The stuck object's COG is blocked in get: the answer comes, with what is known.
      val stuck = get(m, "o/stuck")
      assertEquals(200, stuck.statusCode, stuck.body)
      val body = compact(stuck.body)
      assertTrue(body.startsWith("{\"noted\":42,\"$cog\":{\"state\":\"blockedinget\",\"since\":0,"), body)
      // Processes are named by class, method and creation site (the end-of-run report's naming).
      assertTrue(body.contains("\"waitingFor\":\"thefutureofStuckImpl.never(objectcreatedatbusy.abs:"), body)
      assertEquals("{\"noted\":42", compact(get(m, "o/stuck/noted").body).takeWhile(_ != ','))
      // /quit: the answer first, then the model ends with status 0 and says so.
      val q = get(m, "quit")
      assertEquals(200, q.statusCode)
      assertEquals("{\"result\":\"themodelstops\"}", compact(q.body))
      assertTrue(m.process.waitFor(60, TimeUnit.SECONDS), "absc did not stop after /quit")
      assertEquals(0, m.process.exitValue, Files.readString(m.err))
      val last = Files.readString(m.err).linesIterator.toList.last
      assertTrue(last.startsWith("absc: the model stopped at the request of ") && last.contains("quit (simulated time "), last)
    } finally m.process.destroyForcibly()
  }

  @Test def clockAdvanceStepsASimulationStartedWithALimit(): Unit = {
    val m = start("limited", busy, List("-l", "5"))
    try {
      val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1)
      def ticks() = JsonCodecForTests.number(get(m, "call/ticker/ticks").body)
      while (ticks() < 5 && System.nanoTime() < deadline) Thread.sleep(50)
      assertEquals("{\"result\":5}", compact(get(m, "clock/now").body))
      assertEquals(5, ticks())
      assertEquals("{\"result\":8}", compact(get(m, "clock/advance?by=3").body))
      while (ticks() < 8 && System.nanoTime() < deadline) Thread.sleep(50)
      assertEquals(8, ticks(), "the simulation went on to the new limit")
      assertEquals("{\"result\":8}", compact(get(m, "clock/now").body))
      assertEquals(400, get(m, "clock/advance?by=soon").statusCode)
      assertEquals(200, get(m, "quit").statusCode)
      assertTrue(m.process.waitFor(60, TimeUnit.SECONDS), "absc did not stop after /quit")
      assertEquals(0, m.process.exitValue, Files.readString(m.err))
    } finally m.process.destroyForcibly()
  }

  /** A timed model with a deployment component, for /static_dcs and /trace. */
  private val deployed =
    """module Deployed;
      |import * from ABS.DC;
      |interface Worker { [HTTPCallable] Int work(Int n); }
      |class WorkerImpl implements Worker {
      |  Int done = 0;
      |  Int work(Int n) { [Cost: n] skip; done = done + n; return done; }
      |}
      |{
      |  DeploymentComponent dc = new DeploymentComponent("server1", map[Pair(Speed, 10)]);
      |  [HTTPName: "worker"] [DC: dc] Worker w = new WorkerImpl();
      |  await w!work(15);
      |  println("main block done");
      |}
      |""".stripMargin

  @Test def staticDirStaticDcsAndTraceAsTheErlangBackend(): Unit = {
    val support = Files.createDirectories(dir.resolve("support/js"))
    Files.writeString(support.resolve("d3.js"), "the d3 file")
    val trace = dir.resolve("deployed-trace.json")
    val m = start("deployed", deployed, List("--modelapi-static-dir", dir.resolve("support").toString,
      "--record", trace.toString, "--record-format", "erlang"))
    try {
      assertEquals("main block done\n", waitForOutput(m))
      val file = get(m, "static/js/d3.js")
      assertEquals(200, file.statusCode)
      assertEquals("the d3 file", file.body)
      assertEquals(404, get(m, "static/js/none.js").statusCode)
      // 15 units of work at speed 10: 10 in the first time unit, then 5 (most recent first; the second
      // unit is listed once it is closed).
      val dcs = get(m, "static_dcs")
      assertEquals(200, dcs.statusCode)
      assertTrue(dcs.headers.firstValue("Content-Type").get.startsWith("text/plain"))
      assertTrue(dcs.body.startsWith("Deployment components:\n"), dcs.body)
      assertTrue(dcs.body.matches("(?s).*Name: server1\nCreation time: Time\\(0\\)\nCPU history \\(reversed\\): list\\[(5, )?10\\]\n.*"), dcs.body)
      // The trace so far, in the Erlang backend's shape: the main block's COG [0] started from outside.
      val live = new com.fasterxml.jackson.databind.ObjectMapper().readTree(get(m, "trace").body)
      assertTrue(live.isArray && live.size >= 2, live.toString)
      assertEquals("[0]", live.get(0).get("node").toString)
      val first = live.get(0).get("local_trace").get(0)
      assertEquals("schedule", first.get("type").textValue)
      assertEquals("[]", first.get("caller_id").toString)
      val names = (0 until live.size).flatMap(i => live.get(i).get("local_trace").elements().asScala.map(_.get("name").textValue))
      assertTrue(names.contains("m_work"), names.toString)
      assertEquals(200, get(m, "quit").statusCode)
      assertTrue(m.process.waitFor(60, TimeUnit.SECONDS), "absc did not stop after /quit")
      assertEquals(0, m.process.exitValue, Files.readString(m.err))
      // The recording, written at the end in the same format.
      val written = new com.fasterxml.jackson.databind.ObjectMapper().readTree(trace.toFile)
      assertEquals(live.get(0).get("node"), written.get(0).get("node"))
      assertTrue(written.toString.contains("\"name\":\"m_work\""), written.toString.take(400))
    } finally m.process.destroyForcibly()
  }

  @Test def traceWithoutARecordingSaysHowToGetOne(): Unit = {
    val m = start("unrecorded")
    try {
      val r = get(m, "trace")
      assertEquals(404, r.statusCode)
      assertTrue(r.body.contains("start the model with --record FILE"), r.body)
      assertEquals(200, get(m, "quit").statusCode)
      assertTrue(m.process.waitFor(60, TimeUnit.SECONDS), "absc did not stop after /quit")
    } finally m.process.destroyForcibly()
  }

  /**
   * Two components, one shut down at time 8 (its worker did 8 rounds), the other busy until the
   * clock limit; both workers are registered, so the page shows their fields.
   */
  private val charted =
    """module Charted;
      |import * from ABS.DC;
      |interface Worker { Unit work(Int rounds); }
      |class WorkerImpl implements Worker {
      |  Int done = 0;
      |  Unit work(Int rounds) {
      |    while (done < rounds) { [Cost: 2] skip; done = done + 1; await duration(1); }
      |  }
      |}
      |{
      |  DeploymentComponent steady = new DeploymentComponent("steady", map[Pair(Speed, 5)]);
      |  DeploymentComponent stopped = new DeploymentComponent("stopped", map[Pair(Speed, 3)]);
      |  [HTTPName: "busy"] [DC: steady] Worker a = new WorkerImpl();
      |  [HTTPName: "brief"] [DC: stopped] Worker b = new WorkerImpl();
      |  a!work(1000);
      |  await b!work(8);
      |  await stopped!shutdown();
      |  println("stopped is shut down");
      |}
      |""".stripMargin

  /**
   * The default page in a real headless Chromium on a real model: it draws all components in one
   * chart and each in its own, with axis titles; the component shut down at 8 ends there; the
   * page's Advance control, pressed with the mouse, moves the model's clock and the chart follows.
   */
  @Test def thePageChartsTheComponentsAndItsControlAdvancesTheClock(): Unit = {
    val browser = HeadlessChromium.binary
    org.junit.jupiter.api.Assumptions.assumeTrue(browser.isDefined, HeadlessChromium.missing)
    val m = start("charted", charted, List("-l", "20"))
    try {
      val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
      def now() = JsonCodecForTests.number(get(m, "clock/now").body)
      while (now() < 20 && System.nanoTime() < deadline) Thread.sleep(100)
      assertEquals("{\"result\":20}", compact(get(m, "clock/now").body), "the simulation runs to its limit")
      assertEquals("stopped is shut down\n", waitForOutput(m))
      val page = HeadlessChromium.open(browser.get, m.url)
      try {
        page.waitUntil("document.body.getAttribute('data-drawn') === '2' && document.getElementById('clock').textContent === '20'",
          "the page did not draw the two components at time 20")
        assertTrue(page.evaluate("document.body.getAttribute('data-error')").isNull, page.evaluate("document.body.getAttribute('data-error')").toString)
        // A canvas per chart, each drawn with a size: the combined one and one per component.
        val canvases = page.evaluate("Array.from(document.querySelectorAll('canvas')).map(c => [c.width, c.height])")
        assertEquals(3, canvases.size, canvases.toString)
        (0 until 3).foreach(i => assertTrue(canvases.get(i).get(0).asInt > 0 && canvases.get(i).get(1).asInt > 0, canvases.toString))
        // The combined chart: time plus one series per component, with axis titles and units.
        assertEquals("[\"time\",\"steady\",\"stopped\"]",
          page.evaluate("cogsPage.combined.plot.series.map(s => s.label)").toString)
        assertEquals("[\"simulated time (time units)\",\"Speed used (per time unit)\"]",
          page.evaluate("cogsPage.combined.plot.axes.map(a => a.label)").toString)
        assertEquals("[\"simulated time (time units)\",\"Speed (per time unit)\"]",
          page.evaluate("cogsPage.charts.get('stopped').plot.axes.map(a => a.label)").toString)
        assertEquals("stopped (created at 0, shut down at 8)", page.evaluate("cogsPage.charts.get('stopped').title.textContent").asText)
        // What the page fetched: the shut-down component's rows end with the unit [7, 8) (2 of 3 used).
        val stopped = page.evaluate("cogsPage.dcs.find(d => d.name === 'stopped')")
        assertEquals(8, stopped.get("shutdownTime").asInt)
        assertEquals("[7,2,3]", stopped.get("values").get(stopped.get("values").size - 1).toString)
        assertEquals(8, stopped.get("values").size)
        // What the page draws: in the combined chart, the last time with a value, per component.
        val lastDrawn = "(k => { const d = cogsPage.combined.plot.data; let x = null; " +
          "d[0].forEach((t, i) => { if (d[k][i] != null) x = t; }); return x; })"
        assertEquals(8, page.evaluate(s"$lastDrawn(2)").asInt, "the shut-down component ends where it stopped")
        assertEquals(20, page.evaluate(s"$lastDrawn(1)").asInt, "the other goes on to the clock")
        assertEquals(5, page.evaluate("cogsPage.charts.get('steady').plot.data[2][0]").asInt, "its capacity")
        // Every chart has the clock's time axis: the shut-down component's too, so it visibly ends early.
        assertEquals("[0,20]", page.evaluate("[cogsPage.charts.get('stopped').plot.scales.x.min, cogsPage.charts.get('stopped').plot.scales.x.max]").toString)
        // The objects with their fields.
        page.waitUntil("document.querySelector('td[data-field=done]') !== null", "the page did not show the objects' fields")
        assertEquals("[\"brief\",\"busy\"]", page.evaluate(
          "Array.from(new Set(Array.from(document.querySelectorAll('tr[data-object]')).map(r => r.dataset.object))).sort()").toString)
        assertEquals("8", page.evaluate(
          "document.querySelector('tr[data-object=brief] td[data-field=done]').textContent").asText)

        // The Advance control: 5 time units, pressed with the mouse.
        val before = page.evaluate("cogsPage.combined.plot.data[0].at(-1)").asDouble
        page.evaluate("document.getElementById('advance-by').value = '5'")
        page.click("#advance")
        page.waitUntil("document.getElementById('advance-result').textContent.includes('25')", "the page did not advance the clock")
        while (now() < 25 && System.nanoTime() < deadline) Thread.sleep(100)
        assertEquals("{\"result\":25}", compact(get(m, "clock/now").body), "the model's clock moved to the new limit")
        page.waitUntil("document.getElementById('clock').textContent === '25' && cogsPage.combined.plot.data[0].at(-1) === 25",
          "the chart did not follow the clock")
        assertTrue(page.evaluate("cogsPage.combined.plot.data[0].at(-1)").asDouble > before)
        assertEquals(8, page.evaluate(s"$lastDrawn(2)").asInt, "the shut-down component still ends at 8")
        assertEquals(25, page.evaluate(s"$lastDrawn(1)").asInt)
        assertEquals(25, page.evaluate("cogsPage.combined.plot.scales.x.max").asInt, "the x range grew with the clock")
      } finally page.close()
      assertEquals(200, get(m, "quit").statusCode)
      assertTrue(m.process.waitFor(60, TimeUnit.SECONDS), "absc did not stop after /quit")
    } finally m.process.destroyForcibly()
  }

  /** The number in `{"result": n}`, or -1. */
  private object JsonCodecForTests {
    private val mapper = new com.fasterxml.jackson.databind.ObjectMapper()
    /** -1 for an error (an object not registered yet: the main block may still be starting). */
    def number(body: String): Double = Option(mapper.readTree(body).get("result")).map(_.doubleValue).getOrElse(-1)
  }

  /** The program's standard output once the main block has printed (it is flushed when the main block ends). */
  private def waitForOutput(m: Model): String = {
    val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
    while (Files.readString(m.out).isEmpty && System.nanoTime() < deadline) Thread.sleep(100)
    Files.readString(m.out)
  }
}
