package cogs.absc.driver

import java.net.URI
import java.net.http.{HttpClient, HttpRequest, HttpResponse, WebSocket}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.{CompletableFuture, CompletionStage, ConcurrentHashMap, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.ObjectNode

import org.junit.jupiter.api.Assertions.fail

/**
 * A page in a real headless Chromium, driven over the DevTools protocol (the browser's own
 * remote-control interface: JSON messages over a WebSocket, here the JDK's client): evaluate
 * JavaScript in the page, press the mouse on an element. Every wait is bounded, so a browser that
 * hangs fails the test instead of hanging the build; no duration is asserted.
 */
final class HeadlessChromium private (process: Process, profile: Path, errLog: Path, ws: WebSocket,
    replies: ConcurrentHashMap[Integer, CompletableFuture[JsonNode]]) extends AutoCloseable {

  private val ids = new AtomicInteger
  private val mapper = HeadlessChromium.mapper

  /** Sends a DevTools command and returns its `result` (fails the test on a protocol error). */
  def send(method: String, params: ObjectNode = mapper.createObjectNode()): JsonNode = {
    val id = ids.incrementAndGet()
    val reply = new CompletableFuture[JsonNode]
    replies.put(id, reply)
    val msg = mapper.createObjectNode().put("id", id).put("method", method)
    msg.set[JsonNode]("params", params)
    ws.sendText(mapper.writeValueAsString(msg), true).get(60, TimeUnit.SECONDS)
    val answer = try reply.get(60, TimeUnit.SECONDS) catch {
      case _: java.util.concurrent.TimeoutException => fail(s"chromium did not answer $method")
    }
    if (answer.has("error")) fail(s"$method: ${answer.get("error")}")
    answer.get("result")
  }

  /** The value of a JavaScript expression in the page (a promise is awaited); fails on an exception. */
  def evaluate(expression: String): JsonNode = {
    val params = mapper.createObjectNode().put("expression", expression).put("returnByValue", true).put("awaitPromise", true)
    val r = send("Runtime.evaluate", params)
    if (r.has("exceptionDetails")) fail(s"the page threw on `$expression`: ${r.get("exceptionDetails")}")
    r.get("result").path("value")
  }

  /**
   * Evaluates `expression` until it is true (bounded: fails with `what` after `seconds`). An
   * exception counts as false (the page may still be loading); the last one is in the failure.
   */
  def waitUntil(expression: String, what: String, seconds: Int = 60): Unit = {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
    val guarded = s"(() => { try { return Boolean($expression); } catch (e) { return String(e); } })()"
    var last = evaluate(guarded)
    while (!last.asBoolean(false) || !last.isBoolean) {
      if (System.nanoTime() > deadline)
        fail(s"$what (waited $seconds s for `$expression`${if (last.isTextual) s"; it threw ${last.asText}" else ""})")
      Thread.sleep(100)
      last = evaluate(guarded)
    }
  }

  /** Presses and releases the left mouse button at the middle of the element `selector`, as a user does. */
  def click(selector: String): Unit = {
    val box = evaluate(s"(() => { const r = document.querySelector(${mapper.writeValueAsString(selector)}).getBoundingClientRect(); " +
      "return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    for (kind <- List("mousePressed", "mouseReleased"))
      send("Input.dispatchMouseEvent", mapper.createObjectNode().put("type", kind).put("x", box.get(0).asDouble)
        .put("y", box.get(1).asDouble).put("button", "left").put("clickCount", 1))
  }

  def close(): Unit = {
    try ws.abort() catch { case _: Exception => () }
    process.destroy()
    if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly()
    process.waitFor(30, TimeUnit.SECONDS)
    HeadlessChromium.delete(profile)
    Files.deleteIfExists(errLog)
  }
}

object HeadlessChromium {
  private val mapper = new ObjectMapper()

  /** Debian's `chromium` (apt-get install -y chromium), or COGS_CHROMIUM; None where neither is there. */
  def binary: Option[Path] =
    sys.env.get("COGS_CHROMIUM").map(Paths.get(_)).orElse(Some(Paths.get("/usr/bin/chromium"))).filter(Files.isExecutable)

  val missing = "Chromium is not installed (apt-get install -y chromium, or set COGS_CHROMIUM): the browser test is skipped"

  /** Starts Chromium on `url` and connects to its page. */
  def open(browser: Path, url: String): HeadlessChromium = {
    val profile = Files.createTempDirectory("cogs-chromium")
    val errLog = Files.createTempFile("cogs-chromium", ".log")
    val pb = new ProcessBuilder(browser.toString, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--window-size=1200,1000", s"--user-data-dir=$profile", "--remote-debugging-port=0", url)
    pb.redirectErrorStream(true).redirectOutput(errLog.toFile)
    val process = pb.start()
    process.getOutputStream.close()
    try {
      // The browser writes the port it chose to DevToolsActivePort in the profile.
      val portFile = profile.resolve("DevToolsActivePort")
      val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
      def lines = if (Files.isRegularFile(portFile)) Files.readAllLines(portFile).toArray.toList.map(_.toString) else Nil
      while (lines.size < 2) {
        if (!process.isAlive) fail(s"chromium ended with status ${process.exitValue}:\n${Files.readString(errLog)}")
        if (System.nanoTime() > deadline) fail(s"chromium did not open its DevTools port:\n${Files.readString(errLog)}")
        Thread.sleep(100)
      }
      val port = lines.head.trim
      val http = HttpClient.newHttpClient()
      val targets = mapper.readTree(http.send(HttpRequest.newBuilder(URI.create(s"http://127.0.0.1:$port/json/list")).build(),
        HttpResponse.BodyHandlers.ofString(UTF_8)).body)
      val page = (0 until targets.size).map(targets.get).find(_.path("type").asText == "page")
        .getOrElse(fail(s"chromium has no page: $targets"))
      val replies = new ConcurrentHashMap[Integer, CompletableFuture[JsonNode]]
      val listener = new WebSocket.Listener {
        private val text = new StringBuilder
        override def onText(ws: WebSocket, data: CharSequence, last: Boolean): CompletionStage[_] = {
          text.append(data)
          if (last) {
            val msg = mapper.readTree(text.toString)
            text.clear()
            if (msg.has("id")) Option(replies.remove(msg.get("id").asInt)).foreach(_.complete(msg))
          }
          ws.request(1)
          null
        }
      }
      val ws = http.newWebSocketBuilder().buildAsync(URI.create(page.get("webSocketDebuggerUrl").asText), listener)
        .get(60, TimeUnit.SECONDS)
      new HeadlessChromium(process, profile, errLog, ws, replies)
    } catch {
      case e: Throwable =>
        process.destroyForcibly()
        process.waitFor(30, TimeUnit.SECONDS)
        delete(profile)
        throw e
    }
  }

  // Best effort: a helper process of the browser that outlives it may still write to its profile.
  private def delete(dir: Path): Unit =
    try if (Files.exists(dir)) Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(f => Files.deleteIfExists(f))
    catch { case _: java.io.IOException | _: java.io.UncheckedIOException => () }
}
