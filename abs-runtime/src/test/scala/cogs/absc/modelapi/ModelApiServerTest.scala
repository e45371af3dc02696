package cogs.absc.modelapi

import java.net.URI
import java.net.http.{HttpClient, HttpRequest, HttpResponse}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files

import com.fasterxml.jackson.databind.JsonNode
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, BeforeEach, Test}

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
  private val client = HttpClient.newHttpClient()

  @BeforeEach def start(): Unit = {
    HttpObjects.clear()
    rt = CogRuntime()
    val echo = rt.spawn(new Echo)
    HttpObjects.register("echo", echo)
    HttpObjects.register("plain", rt.spawn(new Plain))
    server = ModelApiServer.start(0, FakeView, None)
  }

  @AfterEach def stop(): Unit = {
    server.stop()
    rt.close()
    HttpObjects.clear()
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
  }

  @Test def encodesResultsAfterTheManual(): Unit = {
    val r = ok(get("call/echo/values")).get("result")
    assertEquals("""{"half":0.5,"set":[1,2],"nested":{"k":[true,false]},"data":"Just(3)","rat":2}""", r.toString)
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
      val own = ModelApiServer.start(0, FakeView, Some(dir.resolve("page.html")))
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

  @Test def listensOnTheLoopbackInterfaceOnly(): Unit =
    assertTrue(java.net.InetAddress.getByName(URI.create(server.url).getHost).isLoopbackAddress)

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

    def http$state: Fut[List[(String, Any)]] = Cogs.send(this, "$state", (o: Echo) => Proc.done(List("count" -> o.count, "label" -> o.label)))
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
