package cogs.absc.modelapi

import java.net.URI
import java.net.http.{HttpClient, HttpRequest, HttpResponse}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files

import com.fasterxml.jackson.databind.JsonNode
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, BeforeEach, Test}

import cogs.absc.lib
import cogs.absc.lib.{AbsFrac, AbsInt, AbsMap, AbsRat, DivisionByZeroException, Pair}
import cogs.runtime.{ActiveObject, CogRuntime, Cogs, Fut, Proc}

/**
 * The Model API over real HTTP: a server on the loopback interface, an object of a real runtime
 * registered as generated code registers it, and a fake view of the clock and the components.
 */
class ModelApiServerTest {
  import ModelApiServerTest._

  private var rt: CogRuntime = _
  private var server: ModelApiServer = _
  private val objects = new HttpObjects
  private val client = HttpClient.newHttpClient()

  @BeforeEach def start(): Unit = {
    rt = CogRuntime()
    val echo = rt.spawn(new Echo)
    objects.register("echo", echo)
    objects.register("plain", rt.spawn(new Plain))
    server = ModelApiServer.start(0, FakeView, None, objects)
  }

  @AfterEach def stop(): Unit = {
    server.stop()
    rt.close()
  }

  private def get(path: String): HttpResponse[String] =
    client.send(HttpRequest.newBuilder(URI.create(server.url + path)).GET().build(), HttpResponse.BodyHandlers.ofString(UTF_8))

  private def post(path: String, body: String): HttpResponse[String] =
    client.send(HttpRequest.newBuilder(URI.create(server.url + path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
      HttpResponse.BodyHandlers.ofString(UTF_8))

  private def json(r: HttpResponse[String]): JsonNode = JsonCodec.mapper.readTree(r.body)

  private def ok(r: HttpResponse[String]): JsonNode = {
    assertEquals(200, r.statusCode, r.body)
    assertEquals("application/json", r.headers.firstValue("Content-Type").orElse(""))
    json(r)
  }

  private def error(status: Int, r: HttpResponse[String]): String = {
    assertEquals(status, r.statusCode, r.body)
    json(r).get("error").textValue
  }

  @Test def listsTheRegisteredObjectsInOrder(): Unit =
    assertEquals("""["echo","plain"]""", ok(get("o")).toString)

  @Test def listsTheCallableMethodsWithTheirTypes(): Unit = {
    val ms = ok(get("call/echo"))
    assertEquals(5, ms.size)
    val twice = ms.get(0)
    assertEquals("twice", twice.get("name").textValue)
    assertEquals("Int", twice.get("return").textValue)
    assertEquals("""[{"name":"n","type":"Int"}]""", twice.get("parameters").toString)
    assertEquals("""[{"name":"xs","type":"List<Int>"},{"name":"m","type":"Map<String, Bool>"}]""", ms.get(3).get("parameters").toString)
    assertEquals("[]", ok(get("call/plain")).toString)
  }

  @Test def readsAnObjectsFields(): Unit =
    assertEquals("""{"count":0,"label":"echo"}""", ok(get("o/echo")).toString)

  @Test def callsWithQueryArguments(): Unit = {
    assertEquals("""{"result":42}""", ok(get("call/echo/twice?n=21")).toString)
    assertEquals("""{"result":"Hello World! and true"}""", ok(get("call/echo/join?s=Hello%20World!&b=True&f=2.5")).toString)
    // The call ran in the object: its field changed, and /o/echo shows it.
    assertEquals(1, ok(get("o/echo")).get("count").intValue)
  }

  @Test def callsWithAJsonBody(): Unit = {
    assertEquals("""{"result":[1,2,3,"True"]}""",
      ok(post("call/echo/collect", """{"xs": [1, 2, 3], "m": {"a": true}}""")).toString)
    // The query string wins over the body; a Float takes an integral number.
    assertEquals("""{"result":"x and false"}""", ok(post("call/echo/join?s=x", """{"s": "y", "b": false, "f": 3}""")).toString)
    // The manual's example body, single quotes and all.
    assertEquals("""{"result":"it's and true"}""", ok(post("call/echo/join", """{ 's': 'it\'s', 'b': true, 'f': 1.5 }""")).toString)
  }

  @Test def encodesResultsAfterTheManual(): Unit = {
    val r = ok(get("call/echo/values")).get("result")
    assertEquals("""{"half":0.5,"set":[1,2],"nested":{"k":[true,false]},"data":{"fromJust":3},"rat":2}""", r.toString)
  }

  @Test def encodesDataValuesWithNamedArgumentsAsObjects(): Unit = {
    assertEquals("""{"name":"apple","price":3}""", JsonCodec.toJson(Item("apple", AbsInt(3), true)).toString)
    assertEquals("""[{"name":"pear","price":2}]""", JsonCodec.toJson(List(Item("pear", AbsInt(2), false))).toString)
    // The standard library's constructors as the Erlang backend gives them: named arguments as fields.
    assertEquals("""{"fst":1,"snd":{"fromJust":"a"}}""", JsonCodec.toJson(Pair(AbsInt(1), lib.Just("a"))).toString)
    assertEquals("""{"fstT":true,"sndT":[1],"trdT":"Nothing"}""", JsonCodec.toJson(lib.Triple(true, List(AbsInt(1)), lib.Nothing)).toString)
    assertEquals("""[{"left":1},{"right":"x"}]""", JsonCodec.toJson(List(lib.Left(AbsInt(1)), lib.Right("x"))).toString)
    assertEquals("""{"timeValue":2.5}""", JsonCodec.toJson(lib.Time(AbsRat(AbsInt(5), AbsInt(2)))).toString)
    assertEquals("""[{"durationValue":3},"InfDuration"]""", JsonCodec.toJson(List(lib.Duration.Duration(AbsRat(AbsInt(6), AbsInt(2))), lib.InfDuration)).toString)
  }

  @Test def unknownObjectsAndMethodsAre404(): Unit = {
    assertTrue(error(404, get("o/nobody")).contains("nobody"))
    assertTrue(error(404, get("call/nobody/twice?n=1")).contains("[HTTPName: \"nobody\"]"))
    val m = error(404, get("call/echo/thrice?n=1"))
    assertTrue(m.contains("no [HTTPCallable] method 'thrice'") && m.contains("twice"), m)
    assertTrue(error(404, get("nothing/here")).contains("/nothing/here"))
  }

  @Test def badArgumentsAre400AndTheModelGoesOn(): Unit = {
    assertEquals("echo.twice: argument 'n' must be of type Int; got 'abc'", error(400, get("call/echo/twice?n=abc")))
    assertTrue(error(400, get("call/echo/twice")).contains("missing argument 'n'; the method takes (Int n)"))
    assertTrue(error(400, get("call/echo/twice?n=1&m=2")).contains("unknown argument(s) 'm'"))
    assertTrue(error(400, get("call/echo/twice?n=1&n=2")).contains("more than once"))
    assertTrue(error(400, get("call/echo/collect?xs=1")).contains("must be given in a JSON body"))
    assertTrue(error(400, post("call/echo/collect", """{"xs": [1, "2"], "m": {}}""")).contains("List<Int>"))
    assertTrue(error(400, post("call/echo/collect", """{"xs": [1""")).contains("the body is not JSON"))
    assertTrue(error(400, post("call/echo/collect", """[1]""")).contains("a JSON object"))
    assertTrue(error(400, get("call/echo/join?s=a&b=yes&f=1")).contains("Bool"))
    assertTrue(error(400, get("call/echo/join?s=a&b=true&f=NaN")).contains("Float"))
    // After all that, the object still answers.
    assertEquals("""{"result":4}""", ok(get("call/echo/twice?n=2")).toString)
  }

  @Test def aFailingMethodIs500WithTheAbsError(): Unit = {
    val m = error(500, get("call/echo/twice?n=-1"))
    assertTrue(m.startsWith("echo.twice failed: DivisionByZeroException"), m)
    assertEquals("""{"result":6}""", ok(get("call/echo/twice?n=3")).toString)
  }

  @Test def otherHttpMethodsAre405(): Unit = {
    val r = client.send(HttpRequest.newBuilder(URI.create(server.url + "o")).DELETE().build(), HttpResponse.BodyHandlers.ofString(UTF_8))
    assertEquals(405, r.statusCode)
  }

  @Test def showsTheClock(): Unit =
    assertEquals("""{"result":2.5}""", ok(get("clock/now")).toString)

  @Test def showsTheComponentsWithTheirLoad(): Unit = {
    val dcs = ok(get("dcs"))
    assertEquals(2, dcs.size)
    val server1 = dcs.get(0)
    assertEquals("server1", server1.get("name").textValue)
    assertEquals("[[0,5,10],[1,10,10],[2,0,10]]", server1.get("values").toString)
    assertEquals("[[0,100,null],[1,0,null],[2,0,null]]", server1.get("resources").get("Bandwidth").toString)
    assertEquals("[[1,1,null]]", dcs.get(1).get("values").toString)
    assertTrue(server1.get("shutdownTime").isNull, "a component that is up has a null shutdownTime")
  }

  @Test def aShutDownComponentEndsWhereItStopped(): Unit = {
    val use = ResourceUse(Some(AbsInt(4)), AbsInt(3))
    // The runtime goes on closing units after the shutdown (at 3/2): the rows stop at the unit it fell in.
    val view = new ModelView {
      def now(): AbsRat = AbsInt(4)
      def deploymentComponents(): Seq[DcView] = List(
        DcView("down", AbsInt(0), Map("Speed" -> Vector.fill(4)(use), "Bandwidth" -> Vector.fill(4)(ResourceUse(None, AbsInt(0)))),
          Some(AbsRat(AbsInt(3), AbsInt(2)))),
        DcView("downAtCreation", AbsInt(2), Map("Speed" -> Vector.fill(2)(use)), Some(AbsInt(2))))
    }
    val own = ModelApiServer.start(0, view, None, objects)
    try {
      val dcs = JsonCodec.mapper.readTree(at(own, "dcs").body)
      assertEquals(1.5, dcs.get(0).get("shutdownTime").doubleValue)
      assertEquals("[[0,3,4],[1,3,4]]", dcs.get(0).get("values").toString)
      assertEquals("[[0,0,null],[1,0,null]]", dcs.get(0).get("resources").get("Bandwidth").toString)
      assertEquals("[]", dcs.get(1).get("values").toString)
    } finally own.stop()
  }

  @Test def servesTheDefaultPageAndItsChartLibrary(): Unit = {
    val page = get("")
    assertEquals(200, page.statusCode)
    assertTrue(page.body.contains("webjars/uplot/dist/uPlot.iife.min.js"))
    val lib = get("webjars/uplot/dist/uPlot.iife.min.js")
    assertEquals(200, lib.statusCode)
    assertTrue(lib.body.contains("uPlot"), "the WebJar's script")
    assertEquals(404, get("webjars/uplot/../../../../cogs/absc/modelapi/index.html").statusCode)
  }

  @Test def servesTheUsersPageAndFilesNextToIt(): Unit = {
    val dir = Files.createTempDirectory("modelapi")
    try {
      Files.writeString(dir.resolve("page.html"), "<p>mine</p>")
      Files.createDirectories(dir.resolve("js"))
      Files.writeString(dir.resolve("js/app.js"), "let x = 1;")
      Files.writeString(dir.getParent.resolve(dir.getFileName.toString + "-secret.txt"), "secret")
      val own = ModelApiServer.start(0, FakeView, Some(dir.resolve("page.html")), objects)
      try {
        def at(p: String) = client.send(HttpRequest.newBuilder(URI.create(own.url + p)).GET().build(), HttpResponse.BodyHandlers.ofString(UTF_8))
        assertEquals("<p>mine</p>", at("").body)
        assertEquals("let x = 1;", at("static/js/app.js").body)
        assertEquals("text/javascript; charset=utf-8", at("static/js/app.js").headers.firstValue("Content-Type").get)
        assertEquals(404, at("static/%2E%2E/" + dir.getFileName + "-secret.txt").statusCode)
        assertEquals(404, at("static/missing.js").statusCode)
      } finally own.stop()
    } finally {
      Files.deleteIfExists(dir.getParent.resolve(dir.getFileName.toString + "-secret.txt"))
      Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.delete(p))
    }
  }

  @Test def servesTheStaticDirectoryBelowStatic(): Unit = {
    val page = Files.createTempDirectory("modelapi-page")
    val support = Files.createTempDirectory("modelapi-static")
    try {
      Files.writeString(page.resolve("page.html"), "<p>mine</p>")
      Files.writeString(page.resolve("beside.js"), "beside")
      Files.createDirectories(support.resolve("js"))
      Files.writeString(support.resolve("js/d3.js"), "d3 here")
      // The static directory replaces the index file's directory below static/, with or without an index file.
      for (index <- List(Some(page.resolve("page.html")), None)) {
        val own = ModelApiServer.start(0, FakeView, index, objects, "/", Some(support))
        try {
          assertEquals("d3 here", at(own, "static/js/d3.js").body)
          assertEquals("text/javascript; charset=utf-8", at(own, "static/js/d3.js").headers.firstValue("Content-Type").get)
          assertTrue(error(404, at(own, "static/beside.js")).contains("no such file: static/beside.js"))
          assertEquals(404, at(own, "static/%2E%2E/" + page.getFileName + "/page.html").statusCode)
          assertEquals(404, at(own, "static/js").statusCode, "a directory is no file")
        } finally own.stop()
      }
      val prefixed = ModelApiServer.start(0, FakeView, None, objects, "/abcd/5080", Some(support))
      try assertEquals("d3 here", at(prefixed, "static/js/d3.js").body)
      finally prefixed.stop()
    } finally List(page, support).foreach(d => Files.walk(d).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.delete(p)))
  }

  @Test def describesTheComponentsAsTextAsTheErlangBackend(): Unit = {
    val r = get("static_dcs")
    assertEquals(200, r.statusCode)
    assertEquals("text/plain; charset=utf-8", r.headers.firstValue("Content-Type").get)
    assertEquals(
      "Deployment components:\n" +
        "Name: server1\nCreation time: Time(0)\nCPU history (reversed): list[0, 10, 5]\n\n" +
        "Name: server2\nCreation time: Time(1)\nCPU history (reversed): list[1]\n\n\n",
      r.body)
    assertEquals(r.body, get("v2/static_dcs").body)
    val none = ModelApiServer.start(0, ModelView.Untimed, None, objects)
    try assertEquals("Deployment components:\n\n", at(none, "static_dcs").body)
    finally none.stop()
  }

  /** A raw HTTP/1.1 exchange (the JDK's client refuses to send some of these): the status line and the rest. */
  private def raw(s: ModelApiServer, requestLine: String, length: Long = 0): (String, String) = {
    val socket = new java.net.Socket(java.net.InetAddress.getLoopbackAddress, s.port)
    try {
      socket.setSoTimeout(30000)
      val out = socket.getOutputStream
      out.write(s"$requestLine\r\nHost: localhost\r\nConnection: close\r\nContent-Length: $length\r\n\r\n".getBytes(UTF_8))
      out.flush()
      // No body follows (a declared one never comes): the server sees the end, answers and closes.
      socket.shutdownOutput()
      val text = new String(socket.getInputStream.readAllBytes(), UTF_8)
      (text.linesIterator.next(), text)
    } finally socket.close()
  }

  @Test def malformedRequestsGetJsonErrorsWithTheirStatus(): Unit = {
    // A path and query over 8000 characters: 414 (as the Erlang backend's server answers), with JSON.
    val long = get("o/" + "a" * 9000)
    assertTrue(error(414, long).contains("at most 8000"), long.body)
    assertEquals(404, get("o/" + "a" * 7000).statusCode, "just below the limit: an unknown object")
    val longQuery = get("call/echo/twice?n=" + "1" * 9000)
    assertEquals(414, longQuery.statusCode)
    // A method other than GET, POST, HEAD: 405 with the methods that are.
    val put = client.send(HttpRequest.newBuilder(URI.create(server.url + "o")).PUT(HttpRequest.BodyPublishers.ofString("x")).build(),
      HttpResponse.BodyHandlers.ofString(UTF_8))
    assertTrue(error(405, put).contains("method PUT is not supported"))
    assertEquals("GET, POST, HEAD", put.headers.firstValue("Allow").get)
    // A body over 8 MiB: 413 (at its declared length, before it is sent), and the call is not made.
    val (tooLarge, answer) = raw(server, "POST /call/echo/twice HTTP/1.1", 9L * 1024 * 1024)
    assertTrue(tooLarge.startsWith("HTTP/1.1 413 "), answer)
    assertTrue(answer.contains("larger than the 8388608 bytes"), answer)
    assertEquals("""{"count":0,"label":"echo"}""", ok(get("o/echo")).toString)
    // Bodies that are not a JSON object of arguments, and arguments that are not the method's: 400.
    assertTrue(error(400, post("call/echo/twice", "{\"n\": ")).contains("the body is not JSON"))
    assertTrue(error(400, post("call/echo/twice", "[1]")).contains("must be a JSON object"))
    assertTrue(error(400, get("call/echo/twice?n=1&n=2")).contains("more than once"))
    assertTrue(error(400, get("call/echo/twice?m=1")).contains("unknown argument(s) 'm'"))
    assertTrue(error(404, get("o/echo/count/more")).contains("no such resource"))
    // A raw request with an empty segment is the path without it; HEAD answers without a body.
    val (status, _) = raw(server, "GET /o//echo HTTP/1.1")
    assertEquals("HTTP/1.1 200 OK", status)
    val (head, whole) = raw(server, "HEAD /o/nobody HTTP/1.1")
    assertEquals("HTTP/1.1 404 Not Found", head)
    assertFalse(whole.contains("error"), whole)
  }

  /**
   * What the JDK's server answers itself, before the Model API sees the request (so not as JSON):
   * the status is still the right one. If a JDK hands these to the handler one day, this test fails
   * and they get JSON like the others.
   */
  @Test def theJdkServerAnswersRequestsItCannotMapWithTheRightStatus(): Unit = {
    val (slashes, body) = raw(server, "GET //o HTTP/1.1")
    assertEquals("HTTP/1.1 404 Not Found", slashes)
    assertTrue(body.contains("text/html"), body)
    val (badUri, _) = raw(server, "GET /o/%zz HTTP/1.1")
    assertEquals("HTTP/1.1 400 Bad Request", badUri)
  }

  @Test def listensOnTheLoopbackInterfaceOnly(): Unit =
    assertTrue(java.net.InetAddress.getByName(URI.create(server.url).getHost).isLoopbackAddress)

  @Test def readsOneFieldAsAnObjectOfIt(): Unit = {
    assertEquals("""{"label":"echo"}""", ok(get("o/echo/label")).toString)
    assertTrue(error(404, get("o/echo/nothing")).contains("no field 'nothing' (it has: count, label)"))
    assertTrue(error(404, get("o/nobody/label")).contains("nobody"))
  }

  /** A server on a real runtime's view (the clock, blocked COGs) instead of the fake one. */
  private def withRealView[A](body: ModelApiServer => A): A = {
    val real = ModelApiServer.start(0, ModelView.of(rt), None, objects)
    try body(real) finally real.stop()
  }

  private def at(s: ModelApiServer, p: String): HttpResponse[String] =
    client.send(HttpRequest.newBuilder(URI.create(s.url + p)).GET().build(), HttpResponse.BodyHandlers.ofString(UTF_8))

  @Test def anObjectWhoseCogIsBlockedInGetIsShownAsItStandsAndWhy(): Unit = withRealView { real =>
    val echo = objects.lookup("echo").get.asInstanceOf[Echo]
    val p = cogs.runtime.Promise[Int](rt, "a promise nobody keeps")
    echo.send("waitOn")(_.waitOn(p.future))
    // Answers (the server waits a bounded time for the COG, then reads it as it is blocked).
    val state = ok(at(real, "o/echo"))
    assertEquals(7, state.get("count").intValue, state.toString)
    assertEquals("echo", state.get("label").textValue)
    val cog = state.get("$cog")
    assertEquals("blocked in get", cog.get("state").textValue)
    assertEquals(0, cog.get("since").intValue)
    assertEquals("a promise nobody keeps", cog.get("waitingFor").textValue)
    assertTrue(cog.get("process").textValue.endsWith(".waitOn"), cog.toString)
    val one = ok(at(real, "o/echo/count"))
    assertEquals(7, one.get("count").intValue)
    assertEquals("blocked in get", one.get("$cog").get("state").textValue)
    p.success(1)
    // Unblocked: read by the COG again, without the "$cog" entry.
    assertEquals("""{"count":7,"label":"echo"}""", ok(at(real, "o/echo")).toString)
  }

  @Test def anObjectWhoseCogIsBusyIs503AndSaysSo(): Unit = withRealView { real =>
    val echo = objects.lookup("echo").get.asInstanceOf[Echo]
    val go = new java.util.concurrent.atomic.AtomicBoolean(true)
    val spun = echo.send("spin")(_.spin(go))
    try {
      val r = at(real, "o/echo")
      assertEquals(503, r.statusCode, r.body)
      assertTrue(json(r).get("error").textValue.contains("did not reach a scheduling point"), r.body)
      assertEquals("busy", json(r).get("$cog").get("state").textValue)
    } finally go.set(false)
    spun.join()
    assertEquals(200, at(real, "o/echo").statusCode)
  }

  @Test def clockAdvanceRaisesTheLimit(): Unit = {
    // The fake view has no limit: a 400 that says so, as the Erlang backend's.
    assertTrue(error(400, get("clock/advance?by=5")).contains("without a clock limit"))
    withRealView { real =>
      rt.limitClock(cogs.runtime.SimTime(10))
      assertEquals("""{"result":15}""", ok(at(real, "clock/advance?by=5")).toString)
      assertEquals("""{"result":15.5}""", ok(at(real, "clock/advance?by=1/2")).toString)
      assertEquals(Some(cogs.runtime.SimTime.of(java.math.BigInteger.valueOf(31), java.math.BigInteger.TWO)), rt.clockLimit)
      assertTrue(error(400, at(real, "clock/advance")).contains("needs the parameter 'by'"))
      assertTrue(error(400, at(real, "clock/advance?by=-3")).contains("got '-3'"))
      assertTrue(error(400, at(real, "clock/advance?by=x")).contains("got 'x'"))
      assertTrue(error(400, at(real, "clock/advance?by=1&by=2")).contains("given once"))
    }
  }

  @Test def servesBelowAUrlPrefixAndUnderV2(): Unit = {
    assertEquals("/abcd/5080/", ModelApiServer.normalizePrefix("abcd/5080"))
    assertEquals("/", ModelApiServer.normalizePrefix("/"))
    val prefixed = ModelApiServer.start(0, FakeView, None, objects, "/abcd/5080/")
    try {
      assertTrue(prefixed.url.endsWith("/abcd/5080/"), prefixed.url)
      assertEquals("""["echo","plain"]""", ok(at(prefixed, "o")).toString)
      assertEquals("""{"result":2.5}""", ok(at(prefixed, "v2/clock/now")).toString)
      assertTrue(at(prefixed, "").body.contains("uPlot"), "the index page below the prefix")
      val outside = client.send(HttpRequest.newBuilder(URI.create(server.url.replace(s":${server.port}/", s":${prefixed.port}/") + "o")).GET().build(),
        HttpResponse.BodyHandlers.ofString(UTF_8))
      assertTrue(error(404, outside).contains("served below /abcd/5080/"))
    } finally prefixed.stop()
    assertEquals("""["echo","plain"]""", ok(get("v2/o")).toString)
  }

  @Test def aSecondObjectUnderATakenNameIsAnError(): Unit = {
    val other = rt.spawn(new Plain)
    val e = assertThrows(classOf[IllegalStateException], () => objects.register("echo", other))
    assertTrue(e.getMessage.contains("[HTTPName: \"echo\"]: the name is already taken"), e.getMessage)
    // The same object again is no conflict (a loop that registers it twice).
    objects.register("plain", objects.lookup("plain").get)
    assertEquals("""["echo","plain"]""", ok(get("o")).toString)
  }

  @Test def quitReleasesTheWaiter(): Unit = {
    val waiter = new Thread(() => server.awaitQuit())
    waiter.start()
    assertEquals(200, get("quit").statusCode)
    waiter.join()
    assertFalse(waiter.isAlive)
  }
}

object ModelApiServerTest {

  /** What absc generates for a class with [HTTPCallable] methods, written by hand. */
  final class Echo extends ActiveObject with HttpExposed {
    var count: AbsInt = AbsInt(0)
    val label = "echo"

    def twice(n: AbsInt): Proc[AbsInt] = {
      count = count + AbsInt(1)
      if (n < AbsInt(0)) throw DivisionByZeroException("twice of a negative number")
      Proc.done(n * AbsInt(2))
    }
    def join(s: String, b: Boolean, f: Double): Proc[String] = Proc.done(s"$s and $b")
    def collect(xs: List[AbsInt], m: AbsMap[String, Boolean]): Proc[List[Any]] = Proc.done(xs ++ m.values.map(v => if (v) "True" else "False"))
    def values(): Proc[AbsMap[String, Any]] = Proc.done(AbsMap.fromIterable(List(
      Pair("half", AbsRat(AbsInt(1), AbsInt(2))), Pair("set", cogs.absc.lib.AbsSet.fromIterable(List(AbsInt(2), AbsInt(1)))),
      Pair("nested", AbsMap.fromIterable(List(Pair("k", List(true, false))))), Pair("data", cogs.absc.lib.Just(AbsInt(3))),
      Pair("rat", AbsRat(AbsInt(4), AbsInt(2))))))
    def nothing(): Proc[Unit] = Proc.unit

    def http$methods: List[HttpMethod] = List(
      HttpMethod("twice", List(HttpParam("n", HttpType.IntT)), "Int",
        a => Cogs.send(this, "twice", (o: Echo) => o.twice(a(0).asInstanceOf[AbsInt])).asInstanceOf[Fut[Any]]),
      HttpMethod("join", List(HttpParam("s", HttpType.StringT), HttpParam("b", HttpType.BoolT), HttpParam("f", HttpType.FloatT)), "String",
        a => Cogs.send(this, "join", (o: Echo) => o.join(a(0).asInstanceOf[String], a(1).asInstanceOf[Boolean], a(2).asInstanceOf[Double])).asInstanceOf[Fut[Any]]),
      HttpMethod("values", Nil, "Map<String, Rat>", _ => Cogs.send(this, "values", (o: Echo) => o.values()).asInstanceOf[Fut[Any]]),
      HttpMethod("collect", List(HttpParam("xs", HttpType.ListT(HttpType.IntT)), HttpParam("m", HttpType.MapT(HttpType.BoolT))), "List<Int>",
        a => Cogs.send(this, "collect", (o: Echo) => o.collect(a(0).asInstanceOf[List[AbsInt]], a(1).asInstanceOf[AbsMap[String, Boolean]])).asInstanceOf[Fut[Any]]),
      HttpMethod("nothing", Nil, "Unit", _ => Cogs.send(this, "nothing", (o: Echo) => o.nothing()).asInstanceOf[Fut[Any]]))

    def http$fields: List[(String, Any)] = List("count" -> count, "label" -> label)
    def http$state: Fut[List[(String, Any)]] = Cogs.send(this, "$state", (o: Echo) => Proc.done(o.http$fields))

    /** Blocks the COG in `get` on `f` (with a field changed first). */
    def waitOn(f: Fut[Int]): Proc[Int] = { count = AbsInt(7); Proc.get(f) }
    /** Runs without suspending until `go` is false. */
    def spin(go: java.util.concurrent.atomic.AtomicBoolean): Proc[Unit] = Proc.delay { while (go.get()) Thread.onSpinWait() }
  }

  /** What absc generates for `data Item = Item(String name, Int price, Bool);` in a program with the Model API. */
  final case class Item(name: String, price: AbsInt, arg2: Boolean) extends cogs.absc.lib.AbsData with HttpData {
    def http$names: List[String] = List("name", "price", null)
  }

  /** An object registered without callable methods (a class that is not compiled for the API). */
  final class Plain extends ActiveObject

  object FakeView extends ModelView {
    def now(): AbsRat = AbsRat(AbsInt(5), AbsInt(2))
    def deploymentComponents(): Seq[DcView] = List(
      DcView("server1", AbsInt(0), Map(
        "Speed" -> Vector(ResourceUse(Some(AbsInt(10)), AbsInt(5)), ResourceUse(Some(AbsInt(10)), AbsInt(10)), ResourceUse(Some(AbsInt(10)), AbsInt(0))),
        "Bandwidth" -> Vector(ResourceUse(None, AbsInt(100)), ResourceUse(None, AbsInt(0)), ResourceUse(None, AbsInt(0))))),
      DcView("server2", AbsInt(1), Map("Speed" -> Vector(ResourceUse(None, AbsInt(1))))))
  }
}
