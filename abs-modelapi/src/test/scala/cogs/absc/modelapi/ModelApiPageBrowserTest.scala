package cogs.absc.modelapi

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test

/**
 * The default index page in a real browser: headless Chromium loads it from a running server (a
 * view with made-up components), the page fetches `/dcs` and draws one uPlot chart (a canvas) of
 * all components and one per component, then marks the body with `data-drawn` = the number of
 * per-component charts. The page on a real model, with its Advance control pressed, is tested in
 * abs-compiler (`ModelApiEndToEndTest`). Skipped where Chromium is not installed
 * (`apt-get install -y chromium`; or set COGS_CHROMIUM to the browser's path).
 */
class ModelApiPageBrowserTest {

  private def chromium: Option[Path] =
    sys.env.get("COGS_CHROMIUM").map(Paths.get(_)).orElse(Some(Paths.get("/usr/bin/chromium"))).filter(Files.isExecutable)

  /** The DOM after the page's scripts ran, as Chromium dumps it. */
  private def dumpDom(browser: Path, url: String): String = {
    val profile = Files.createTempDirectory("cogs-chromium")
    try {
      val pb = new ProcessBuilder(browser.toString, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        s"--user-data-dir=$profile", "--virtual-time-budget=5000", "--dump-dom", url)
      val errLog = Files.createTempFile("cogs-chromium", ".log")
      pb.redirectError(errLog.toFile)
      val p = pb.start()
      p.getOutputStream.close()
      val out = new String(p.getInputStream.readAllBytes(), UTF_8)
      // Not a timing check: a browser that hangs must not hang the build.
      if (!p.waitFor(120, TimeUnit.SECONDS)) { p.destroyForcibly(); fail("chromium did not exit") }
      assertEquals(0, p.exitValue, s"chromium failed:\n${Files.readString(errLog)}")
      Files.delete(errLog)
      out
    } finally Files.walk(profile).sorted(java.util.Comparator.reverseOrder()).forEach(f => Files.deleteIfExists(f))
  }

  @Test def thePageDrawsEachComponentsLoad(): Unit = {
    val browser = chromium
    assumeTrue(browser.isDefined, "Chromium is not installed (apt-get install -y chromium): the browser test is skipped")
    val objects = new HttpObjects
    objects.register("plain", new Object)
    val server = ModelApiServer.start(0, ModelApiServerTest.FakeView, None, objects)
    try {
      val dom = dumpDom(browser.get, server.url)
      assertFalse(dom.contains("data-error=\""), dom)
      assertTrue(dom.contains("data-drawn=\"2\""), s"the page did not finish drawing:\n$dom")
      assertTrue(dom.contains("data-dc=\"server1\"") && dom.contains("data-dc=\"server2\""), dom)
      assertTrue(dom.contains("server1 (created at 0)"), dom)
      assertTrue(dom.contains("All components: Speed used"), dom)
      // uPlot draws on a canvas, one per chart: all components together, then each on its own.
      assertEquals(3, "<canvas".r.findAllMatchIn(dom).size, dom)
      assertTrue(dom.contains("<span id=\"clock\">2.5</span>"), dom)
      // Its resources are offered (Speed first shown).
      assertTrue(dom.contains("<option value=\"Bandwidth\">Bandwidth</option><option value=\"Speed\">Speed</option>"), dom)
      // An object without fields is listed as such.
      assertTrue(dom.contains("<tr data-object=\"plain\"><th rowspan=\"1\">plain</th><td></td><td class=\"value\">(no fields)</td></tr>"), dom)
    } finally {
      server.stop()
    }
  }

  @Test def aModelWithoutComponentsSaysSo(): Unit = {
    val browser = chromium
    assumeTrue(browser.isDefined, "Chromium is not installed (apt-get install -y chromium): the browser test is skipped")
    val server = ModelApiServer.start(0, ModelView.Untimed, None, new HttpObjects)
    try {
      val dom = dumpDom(browser.get, server.url)
      assertTrue(dom.contains("data-drawn=\"0\""), dom)
      assertTrue(dom.contains("The model has no deployment components."), dom)
      assertTrue(dom.contains("No object is registered."), dom)
      assertTrue(dom.contains("<span id=\"clock\">0</span>"), dom)
    } finally server.stop()
  }
}
