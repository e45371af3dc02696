package cogs.absc.modelapi

import java.io.{ByteArrayOutputStream, InputStream}
import java.net.{InetAddress, InetSocketAddress, URLDecoder}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}
import java.util.concurrent.{CompletableFuture, CountDownLatch, ExecutorService, Executors, ThreadFactory}
import java.util.concurrent.atomic.AtomicInteger

import scala.util.{Failure, Success}

import com.fasterxml.jackson.databind.JsonNode
import com.sun.net.httpserver.{HttpExchange, HttpServer}

import cogs.absc.lib.{AbsException, AbsInt, AbsRat, Show}

/**
 * The Model API of a running model: an HTTP server on the loopback interface only (other
 * machines cannot reach it), with the endpoints of the ABS manual's Model API chapter:
 *
 *  - `GET /o`: the names of the objects registered with `[HTTPName]`, a JSON array;
 *  - `GET /o/NAME`: the object's fields, a JSON object (read between two of its processes);
 *  - `GET /call/NAME`: its `[HTTPCallable]` methods: `[{"name", "parameters": [{"name", "type"}], "return"}]`;
 *  - `GET|POST /call/NAME/METHOD?p=..`: calls the method, arguments from the query string and/or
 *    a JSON object in the body (the query string wins); `{"result": ..}`, or 500 with
 *    `{"error": ABS exception}` when the call fails;
 *  - `GET /clock/now`: `{"result": now}`;
 *  - `GET /dcs`: the deployment components, `[{"name", "creationTime", "shutdownTime", "values": [[t, used, total], ..],
 *    "resources": {"Speed": [[t, used, total], ..], ..}}]` (`values`: the Speed history, the shape the
 *    reference backends give; `total` null: unlimited; `shutdownTime` null while the component is up,
 *    else its rows end there);
 *  - `GET /static_dcs`: the components as text, in the Erlang backend's layout;
 *  - `GET /trace`: a recorded run's decisions so far, in the Erlang backend's trace format;
 *  - `GET /`: the index page: the user's file, or the default page (the clock with a control that
 *    advances it, the components' load in one chart and each in its own, the objects' fields);
 *    `GET /static/PATH`: the files of the static directory, else those next to the user's index
 *    file; `GET /webjars/uplot/PATH`: the chart library;
 *  - `GET /quit`: ends the serving (the program then exits).
 *
 * A request the API cannot answer gets a 4xx with `{"error": message}`: 404 for an unknown path,
 * object or method, 400 for wrong arguments, 405 for a method other than GET/POST/HEAD, 413 for
 * a body over 8 MiB, 414 for a path and query over 8000 characters. Nothing a client sends reaches
 * the model except a well-formed call. Some requests never reach this class: the JDK's server
 * answers a path it cannot map to a context (`//o`, which parses as an authority) with its own
 * HTML 404, a request target that is no URI (`/%zz`) with an HTML 400, and drops the connection of
 * a request whose line and headers pass `sun.net.httpserver.maxReqHeaderSize` (384 KiB by default).
 *
 * Found by the runner through [[ModelApiProvider]] (a `java.util.ServiceLoader` service of
 * `cogs.absc.run.ModelApi`), so that a model that serves no API does not carry this module.
 *
 * Requests are handled on a small pool of daemon threads: a call blocks its thread until the ABS
 * method returns (as in the reference backends: a client must not time out), the others go on.
 */
final class ModelApiServer private (server: HttpServer, pool: ExecutorService, view: ModelView,
    indexFile: Option[Path], urlPrefix: String, staticDir: Option[Path], objects: HttpObjects) extends cogs.absc.run.ModelApi {

  // `/static/...`: the directory of --modelapi-static-dir, else the index file's own directory.
  private[this] val staticRoot: Option[Path] =
    staticDir.orElse(indexFile.map(_.toAbsolutePath.getParent)).map(_.toAbsolutePath.normalize())

  private[this] val quit = new CountDownLatch(1)

  /** The port the server listens on (the one asked for, or the one the system chose for 0). */
  def port: Int = server.getAddress.getPort

  def url: String = s"http://${server.getAddress.getAddress.getHostAddress}:$port$urlPrefix"

  // `/trace`: what the run has recorded so far (a run with --record), else null.
  @volatile private[this] var traceEvents: () => Map[String, List[cogs.runtime.ScheduleTrace.Event]] = _

  /** Serve `/trace` from a recorded run's events (read on each request, as the run goes on). */
  def serveTrace(events: () => Map[String, List[cogs.runtime.ScheduleTrace.Event]]): Unit = traceEvents = events

  /** True once a client asked for `/quit` (and got its answer). */
  def quitRequested: Boolean = quit.getCount == 0

  /** Blocks until a client requests `/quit`. */
  def awaitQuit(): Unit = quit.await()

  def stop(): Unit = {
    server.stop(0)
    pool.shutdownNow()
  }

  private def handle(ex: HttpExchange): Unit = {
    var quitting = false
    try {
      val method = ex.getRequestMethod
      val raw = ex.getRequestURI.getRawPath
      val length = ex.getRequestURI.getRawPath.length + Option(ex.getRequestURI.getRawQuery).fold(0)(_.length + 1)
      if (length > ModelApiServer.MaxTarget)
        json(ex, 414, error(s"the request's path and query are $length characters long; the Model API takes at most " +
          s"${ModelApiServer.MaxTarget} (arguments that long belong in a JSON body, with POST)"))
      else if (method != "GET" && method != "POST" && method != "HEAD") {
        ex.getResponseHeaders.set("Allow", "GET, POST, HEAD")
        json(ex, 405, error(s"method $method is not supported: use GET or POST"))
      } else if (!(raw + "/").startsWith(urlPrefix))
        json(ex, 404, error(s"no such resource: $raw (the Model API is served below $urlPrefix)"))
      else {
        val path = raw.substring(math.min(raw.length, urlPrefix.length)).split("/").toList.filter(_.nonEmpty).map(decode)
        // `/v2/...` is the same API (the Erlang backend's current version, which it also serves unversioned).
        val unversioned = path match { case "v2" :: rest => rest; case other => other }
        if (unversioned == List("quit")) {
          json(ex, 200, JsonCodec.obj("result" -> JsonCodec.text("the model stops")))
          quitting = true
        } else route(ex, unversioned)
      }
    } catch {
      case e: ModelApiServer.BodyTooLarge =>
        // The body is left unread. Closing the exchange drains it first and, if it cannot (a client
        // that declared a body and sent none), drops the connection before the answer is flushed
        // (seen on JDK 25). Closing the response's stream flushes the answer before that drain.
        try {
          ex.getResponseHeaders.set("Connection", "close")
          json(ex, 413, error(e.getMessage))
          ex.getResponseBody.close()
        } catch { case _: Exception => () }
      case e: IllegalArgumentException if e.getMessage != null && e.getMessage.startsWith("URLDecoder") =>
        try json(ex, 400, error(s"the path is not well URL-encoded: ${e.getMessage}")) catch { case _: Exception => () }
      case e: Exception =>
        // A bug here, never the model's: the client hears of it, the model goes on.
        try json(ex, 500, error(s"the Model API failed: $e")) catch { case _: Exception => () }
    } finally {
      ex.close()
      // After the answer went out: whoever waits for /quit may stop the server (and the JVM) at once.
      if (quitting) quit.countDown()
    }
  }

  private def route(ex: HttpExchange, path: List[String]): Unit = path match {
    case Nil => index(ex)
    case List("o") => json(ex, 200, JsonCodec.array(objects.names.map(JsonCodec.text)))
    case List("o", name) => withObject(ex, name)(state(ex, name, None, _))
    case List("o", name, field) => withObject(ex, name)(state(ex, name, Some(field), _))
    case List("call") => json(ex, 200, JsonCodec.array(objects.names.map(JsonCodec.text)))
    case List("call", name) => withObject(ex, name)(o => json(ex, 200, JsonCodec.array(methodsOf(o).map(describe))))
    case List("call", name, m) => withObject(ex, name)(call(ex, name, m, _))
    case List("clock", "now") => json(ex, 200, JsonCodec.obj("result" -> JsonCodec.toJson(view.now())))
    case List("clock", "advance") => advance(ex)
    case List("dcs") => json(ex, 200, dcs())
    case List("trace") => traceEvents match {
      case null => json(ex, 404, error("/trace serves the run's recording: start the model with --record FILE"))
      case steps => json(ex, 200, cogs.absc.run.ErlangTrace.json(steps()))
    }
    case List("static_dcs") => send(ex, 200, "text/plain; charset=utf-8", staticDcs().getBytes(UTF_8))
    case "static" :: rest if staticRoot.isDefined => staticFile(ex, staticRoot.get, rest)
    case "webjars" :: "uplot" :: rest => webjar(ex, rest)
    case _ => json(ex, 404, error(s"no such resource: ${ex.getRequestURI.getRawPath}"))
  }

  // ------------------------------------------------------------------ objects

  private def withObject(ex: HttpExchange, name: String)(body: AnyRef => Unit): Unit =
    objects.lookup(name) match {
      case Some(o) => body(o)
      case None => json(ex, 404, error(s"no object is registered with [HTTPName: \"$name\"]"))
    }

  private def methodsOf(o: AnyRef): List[HttpMethod] = o match {
    case e: HttpExposed => e.http$methods
    case _ => Nil
  }

  private def describe(m: HttpMethod): JsonNode = JsonCodec.obj(
    "name" -> JsonCodec.text(m.name),
    "parameters" -> JsonCodec.array(m.params.map(p => JsonCodec.obj("name" -> JsonCodec.text(p.name), "type" -> JsonCodec.text(p.tpe.absName)))),
    "return" -> JsonCodec.text(m.resultType))

  /**
   * `/o/NAME` (all fields) and `/o/NAME/FIELD` (`{"FIELD": value}`, as the Erlang backend has it).
   * The fields are read by a process of the object's COG, between two of its processes. If that
   * process does not run within [[ModelApiServer.StateWait]] (the COG is blocked in `get`, or busy
   * with a process that does not suspend), the answer says so instead of waiting: a COG blocked in
   * `get` is read as it stands (`CogRuntime.inspectBlocked`: its objects cannot change until it
   * unblocks), with a `"$cog"` entry saying what it waits for (no ABS field name starts with `$`);
   * a busy one gets 503 with what is known.
   */
  private def state(ex: HttpExchange, name: String, field: Option[String], o: AnyRef): Unit = o match {
    case e: HttpExposed =>
      def answer(fields: List[(String, Any)], extra: List[(String, JsonNode)]): Unit = field match {
        case None => json(ex, 200, JsonCodec.obj(fields.map { case (k, v) => k -> JsonCodec.toJson(v) } ++ extra: _*))
        case Some(f) => fields.find(_._1 == f) match {
          case Some((k, v)) => json(ex, 200, JsonCodec.obj((k -> JsonCodec.toJson(v)) :: extra: _*))
          case None => json(ex, 404, error(s"object '$name' has no field '$f'" +
            (if (fields.isEmpty) "" else fields.map(_._1).mkString(" (it has: ", ", ", ")"))))
        }
      }
      val done = new CompletableFuture[scala.util.Try[List[(String, Any)]]]
      // No lost wake-up: see `finish`.
      e.http$state.onComplete(t => done.complete(t))
      val read =
        try Some(done.get(ModelApiServer.StateWait.toMillis, java.util.concurrent.TimeUnit.MILLISECONDS))
        catch { case _: java.util.concurrent.TimeoutException => None }
      read match {
        case Some(Success(fields)) => answer(fields, Nil)
        case Some(Failure(err)) => json(ex, 500, error(s"reading the fields of '$name' failed: ${abs(err)}"))
        case None => view.inspectBlocked(o)(e.http$fields) match {
          case Some((blocked, fields)) =>
            answer(fields, List("$cog" -> JsonCodec.obj(
              "state" -> JsonCodec.text("blocked in get"),
              "since" -> JsonCodec.toJson(cogs.absc.lib.AbsTime.fromSim(blocked.since)),
              "process" -> JsonCodec.text(blocked.blockedProcess),
              "waitingFor" -> JsonCodec.text(blocked.waitingFor))))
          case None =>
            ex.getResponseHeaders.set("Retry-After", "1")
            json(ex, 503, JsonCodec.obj(
              "error" -> JsonCodec.text(s"the fields of '$name' cannot be read now: its COG did not reach a scheduling " +
                s"point within ${ModelApiServer.StateWait.toMillis} ms (it runs a process that does not suspend, or many " +
                "processes run before the read); ask again"),
              "$cog" -> JsonCodec.obj("state" -> JsonCodec.text("busy"))))
        }
      }
    case _ => json(ex, 200, JsonCodec.obj())
  }

  /** `/clock/advance?by=N`: raises the clock limit by N (a whole number, or a fraction `n/d`). */
  private def advance(ex: HttpExchange): Unit = {
    val usage = "/clock/advance needs the parameter 'by', a positive number of time units (e.g. ?by=10)"
    parseQuery(ex.getRequestURI.getRawQuery).get("by") match {
      case Some(List(t)) if t.matches("[0-9]+(/[1-9][0-9]*)?") =>
        val by = t.split('/') match {
          case Array(n) => AbsInt(n): AbsRat
          case Array(n, d) => AbsRat(AbsInt(n), AbsInt(d))
        }
        view.advanceClock(by) match {
          case Right(limit) => json(ex, 200, JsonCodec.obj("result" -> JsonCodec.toJson(limit)))
          case Left(why) => json(ex, 400, error(why))
        }
      case Some(List(t)) => json(ex, 400, error(s"$usage; got '$t'"))
      case Some(_) => json(ex, 400, error(s"$usage, given once"))
      case None => json(ex, 400, error(usage))
    }
  }

  private def call(ex: HttpExchange, name: String, methodName: String, o: AnyRef): Unit =
    methodsOf(o).find(_.name == methodName) match {
      case None =>
        val known = methodsOf(o).map(_.name)
        json(ex, 404, error(s"object '$name' has no [HTTPCallable] method '$methodName'" +
          (if (known.isEmpty) "" else known.mkString(" (it has: ", ", ", ")"))))
      case Some(m) =>
        val args = try Right(arguments(ex, m)) catch {
          case e: JsonCodec.BadArgument => Left(e.getMessage)
        }
        args match {
          case Left(msg) => json(ex, 400, error(s"$name.$methodName: $msg"))
          case Right(values) =>
            finish(ex, s"$name.$methodName", m.call(values))(v => JsonCodec.obj("result" -> JsonCodec.toJson(v)))
        }
    }

  /** The arguments of a call, in parameter order: query string over JSON body; each exactly once. */
  private def arguments(ex: HttpExchange, m: HttpMethod): IndexedSeq[Any] = {
    val query = parseQuery(ex.getRequestURI.getRawQuery)
    val declared = Option(ex.getRequestHeaders.getFirst("Content-Length")).flatMap(_.trim.toLongOption)
    if (declared.exists(_ > ModelApiServer.MaxBody)) throw tooLarge
    val body = readBody(ex.getRequestBody)
    val fromBody: Map[String, JsonNode] =
      if (body.trim.isEmpty) Map.empty
      else {
        val j = try JsonCodec.mapper.readTree(body) catch {
          case e: com.fasterxml.jackson.core.JsonProcessingException =>
            throw new JsonCodec.BadArgument(s"the body is not JSON: ${e.getOriginalMessage}")
        }
        if (!j.isObject) throw new JsonCodec.BadArgument("the body must be a JSON object of the arguments by name")
        val b = Map.newBuilder[String, JsonNode]
        j.fields().forEachRemaining(e => b += e.getKey -> e.getValue)
        b.result()
      }
    val names = m.params.map(_.name).toSet
    val unknown = (query.keySet ++ fromBody.keySet).filterNot(names).toList.sorted
    if (unknown.nonEmpty)
      throw new JsonCodec.BadArgument(s"unknown argument(s) ${unknown.map(u => s"'$u'").mkString(", ")}; " +
        s"the method takes ${signature(m)}")
    m.params.map { p =>
      query.get(p.name) match {
        case Some(List(v)) => JsonCodec.fromText(p.name, v, p.tpe)
        case Some(_) => throw new JsonCodec.BadArgument(s"argument '${p.name}' is given more than once")
        case None => fromBody.get(p.name) match {
          case Some(j) => JsonCodec.fromJson(p.name, j, p.tpe)
          case None => throw new JsonCodec.BadArgument(s"missing argument '${p.name}'; the method takes ${signature(m)}")
        }
      }
    }.toIndexedSeq
  }

  private def signature(m: HttpMethod): String =
    if (m.params.isEmpty) "no arguments" else m.params.map(p => s"${p.tpe.absName} ${p.name}").mkString("(", ", ", ")")

  /**
   * Answers once the call's future resolves: blocks this request's thread (not the model's), as
   * the reference backends do. A failure of the ABS call is a 500 with the ABS error text.
   */
  private def finish[A](ex: HttpExchange, what: String, fut: cogs.runtime.Fut[A])(ok: A => JsonNode): Unit = {
    val done = new CompletableFuture[scala.util.Try[A]]
    // No lost wake-up: `onComplete` either registers the callback before the future resolves (the
    // resolving thread then runs it) or, if registration finds it resolved, runs it here at once
    // (Fut's contract); `done.get()` returns whether `complete` ran before or after it was called.
    fut.onComplete(t => done.complete(t))
    done.get() match {
      case Success(v) => json(ex, 200, ok(v))
      case Failure(e) => json(ex, 500, error(s"$what failed: ${abs(e)}"))
    }
  }

  private def abs(e: Throwable): String = AbsException.lift(e match {
    case c: cogs.runtime.CallFailedException if c.getCause ne null => c.getCause
    case other => other
  }) match {
    case a: AbsException => a.getMessage
    case other => Option(other.getMessage).filter(_.nonEmpty).map(m => s"${other.getClass.getName}: $m").getOrElse(other.getClass.getName)
  }

  // ------------------------------------------------------------------ deployment components

  /**
   * `/dcs`. A component that was shut down has the time units that began before its shutdown
   * (the runtime goes on closing units of a component nobody can use any more: they are not its
   * history) and a `shutdownTime` (null while it is up: an addition to the reference backends' shape).
   */
  private def dcs(): JsonNode = JsonCodec.array(view.deploymentComponents().map { dc =>
    def rows(us: IndexedSeq[ResourceUse]): JsonNode = JsonCodec.array(us.iterator.zipWithIndex.map { case (u, i) =>
      (dc.creationTime + AbsRat.fromInt(i), u)
    }.takeWhile { case (t, _) => dc.shutdownTime.forall(t < _) }.map { case (t, u) =>
      JsonCodec.array(List(
        JsonCodec.toJson(t),
        JsonCodec.toJson(u.used),
        u.total.map(JsonCodec.toJson).getOrElse(JsonCodec.mapper.nullNode())))
    }.toList)
    JsonCodec.obj(
      "name" -> JsonCodec.text(dc.name),
      "creationTime" -> JsonCodec.toJson(dc.creationTime),
      "shutdownTime" -> dc.shutdownTime.map(JsonCodec.toJson).getOrElse(JsonCodec.mapper.nullNode()),
      "values" -> rows(dc.history.getOrElse("Speed", IndexedSeq.empty)),
      "resources" -> JsonCodec.obj(dc.history.toList.sortBy(_._1).map { case (k, us) => k -> rows(us) }: _*))
  })

  /**
   * `/static_dcs`: the components as text, in the Erlang backend's layout (its `dc:get_description`):
   * a heading, then per component its name, creation time (`Time(t)`, as ABS's `toString` shows a
   * `Time`) and the Speed used per time unit, the most recent first (`list[..]`: the order of the
   * standard library's `cpuhistory`, which the Erlang backend prints as it stands).
   */
  private def staticDcs(): String = {
    val b = new StringBuilder("Deployment components:\n")
    view.deploymentComponents().foreach { dc =>
      val used = dc.history.getOrElse("Speed", IndexedSeq.empty).reverseIterator.map(u => Show.show(u.used))
      b ++= s"Name: ${dc.name}\nCreation time: Time(${Show.show(dc.creationTime)})\n"
      b ++= used.mkString("CPU history (reversed): list[", ", ", "]\n\n")
    }
    b ++= "\n"
    b.result()
  }

  // ------------------------------------------------------------------ pages and files

  private def index(ex: HttpExchange): Unit = indexFile match {
    case Some(f) => file(ex, f)
    case None => resource(ex, "cogs/absc/modelapi/index.html")
  }

  private def staticFile(ex: HttpExchange, dir: Path, rest: List[String]): Unit = {
    val target = rest.foldLeft(dir)(_.resolve(_)).normalize()
    // Only files below the index file's directory: no "..", no absolute path in a segment.
    if (rest.exists(s => s == ".." || s.contains('\\') || s.contains('/')) || !target.startsWith(dir) || !Files.isRegularFile(target))
      json(ex, 404, error(s"no such file: static/${rest.mkString("/")}"))
    else file(ex, target)
  }

  private def webjar(ex: HttpExchange, rest: List[String]): Unit =
    if (rest.isEmpty || rest.exists(s => s == ".." || s == ".")) json(ex, 404, error("no such file"))
    else resource(ex, s"META-INF/resources/webjars/uplot/${ModelApiServer.uplotVersion}/${rest.mkString("/")}")

  private def file(ex: HttpExchange, f: Path): Unit =
    if (!Files.isRegularFile(f)) json(ex, 404, error(s"the index file $f is not there"))
    else send(ex, 200, contentType(f.getFileName.toString), Files.readAllBytes(f))

  private def resource(ex: HttpExchange, name: String): Unit =
    Option(getClass.getClassLoader.getResourceAsStream(name)) match {
      case None => json(ex, 404, error(s"no such file: ${ex.getRequestURI.getRawPath}"))
      case Some(in) => try send(ex, 200, contentType(name), in.readAllBytes()) finally in.close()
    }

  private def contentType(name: String): String = name.substring(name.lastIndexOf('.') + 1).toLowerCase match {
    case "html" | "htm" => "text/html; charset=utf-8"
    case "js" => "text/javascript; charset=utf-8"
    case "css" => "text/css; charset=utf-8"
    case "json" => "application/json"
    case "svg" => "image/svg+xml"
    case "png" => "image/png"
    case _ => "application/octet-stream"
  }

  // ------------------------------------------------------------------ plumbing

  private def error(message: String): JsonNode = JsonCodec.obj("error" -> JsonCodec.text(message))

  private def json(ex: HttpExchange, status: Int, body: JsonNode): Unit =
    send(ex, status, "application/json", JsonCodec.mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(body))

  private def send(ex: HttpExchange, status: Int, contentType: String, bytes: Array[Byte]): Unit = {
    ex.getResponseHeaders.set("Content-Type", contentType)
    ex.getResponseHeaders.set("Cache-Control", "no-store")
    if (ex.getRequestMethod == "HEAD") ex.sendResponseHeaders(status, -1)
    else {
      ex.sendResponseHeaders(status, if (bytes.isEmpty) -1 else bytes.length.toLong)
      if (bytes.nonEmpty) ex.getResponseBody.write(bytes)
    }
  }

  private def decode(s: String): String = URLDecoder.decode(s.replace("+", "%2B"), UTF_8)

  private def parseQuery(raw: String): Map[String, List[String]] =
    if (raw == null || raw.isEmpty) Map.empty
    else raw.split("&").toList.filter(_.nonEmpty).map { kv =>
      val i = kv.indexOf('=')
      if (i < 0) (URLDecoder.decode(kv, UTF_8), "") else (URLDecoder.decode(kv.substring(0, i), UTF_8), URLDecoder.decode(kv.substring(i + 1), UTF_8))
    }.groupMap(_._1)(_._2)

  private def tooLarge = new ModelApiServer.BodyTooLarge(s"the request's body is larger than the ${ModelApiServer.MaxBody} bytes the Model API takes")

  /** The request's body, at most [[ModelApiServer.MaxBody]] bytes (more is a 413, not a model's memory). */
  private def readBody(in: InputStream): String = {
    val out = new ByteArrayOutputStream
    val buf = new Array[Byte](8192)
    var n = in.read(buf)
    while (n >= 0) {
      if (out.size + n > ModelApiServer.MaxBody) throw tooLarge
      out.write(buf, 0, n)
      n = in.read(buf)
    }
    new String(out.toByteArray, UTF_8)
  }
}

object ModelApiServer {

  /**
   * Starts a server on the loopback interface at `port` (0: any free port). `indexFile`: the
   * user's index page (`--modelapi-index-file`), else the default one. `staticDir`: the files
   * served below `static/` (`--modelapi-static-dir`; without it, the index file's directory).
   * `objects`: the run's `[HTTPName]` objects (its program context's). Throws
   * `java.net.BindException` if the port is taken.
   */
  def start(port: Int, view: ModelView, indexFile: Option[Path], objects: HttpObjects, urlPrefix: String = "/",
            staticDir: Option[Path] = None): ModelApiServer = {
    val server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress, port), 0)
    val count = new AtomicInteger
    val pool = Executors.newCachedThreadPool(new ThreadFactory {
      def newThread(r: Runnable): Thread = {
        val t = new Thread(r, s"cogs-modelapi-${count.incrementAndGet()}")
        t.setDaemon(true)
        t
      }
    })
    server.setExecutor(pool)
    val api = new ModelApiServer(server, pool, view, indexFile, normalizePrefix(urlPrefix), staticDir, objects)
    server.createContext("/", ex => api.handle(ex))
    server.start()
    api
  }

  /**
   * The longest path and query a request may have (414 beyond): the Erlang backend's HTTP server
   * (cowboy) takes a request line of at most 8000 characters by default.
   */
  private[modelapi] val MaxTarget = 8000

  /** The largest request body (413 beyond): a call's arguments, not a file upload. */
  private[modelapi] val MaxBody = 8 * 1024 * 1024

  private[modelapi] final class BodyTooLarge(message: String) extends Exception(message)

  /** How long `/o/NAME` waits for the object's COG to read its fields before it answers without them. */
  private[modelapi] val StateWait: java.time.Duration = java.time.Duration.ofSeconds(1)

  /** `--url-prefix`: `abcd/5080`, `/abcd/5080/` and the like become `/abcd/5080/`; empty or `/` is `/`. */
  def normalizePrefix(p: String): String = cogs.absc.run.ModelApi.normalizePrefix(p)

  /** The version of the uPlot WebJar on the class path (the page asks for it without a version). */
  private lazy val uplotVersion: String = {
    val in = getClass.getClassLoader.getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")
    if (in == null) "missing"
    else try {
      val p = new java.util.Properties
      p.load(in)
      p.getProperty("version", "missing")
    } finally in.close()
  }
}
