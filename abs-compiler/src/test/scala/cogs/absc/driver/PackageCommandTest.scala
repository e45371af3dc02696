package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, Test, TestInstance}

import DriverTestSupport._

/**
 * `absc package`: the directory it writes runs the program without absc (its launcher and
 * `java -jar`), the same output and exit status as `absc run`, after a move too; the launcher's
 * options reach the program; its class-data archive is made by the first run and used by the
 * next; bad input (a compile error, a directory with other files, a bad name, a bad launcher
 * option) is refused with a message and writes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PackageCommandTest {
  private val dir = tempDir("absc-package-")
  private val cache = dir.resolve("cache")
  private val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString

  @AfterAll def cleanUp(): Unit = ClassCache.deleteTree(dir)

  private val model =
    """module Shop;
      |interface Counter { Int add(Int n); }
      |class CounterImpl implements Counter {
      |  Int total = 0;
      |  Int add(Int n) { await duration(1, 1); total = total + n; return total; }
      |}
      |{
      |  Counter c = new CounterImpl();
      |  Fut<Int> f = c!add(2);
      |  await f?;
      |  Int t = c.add(3);
      |  println("total " + toString(t) + " at " + toString(timeValue(now())));
      |}
      |""".stripMargin

  private final case class Ran(status: Int, out: String, err: String)

  private def launch(command: List[String], env: Map[String, String] = Map.empty): Ran = {
    val pb = new ProcessBuilder(command: _*)
    pb.directory(dir.toFile)
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"))
    env.foreach { case (k, v) => pb.environment().put(k, v) }
    val outFile = Files.createTempFile(dir, "out-", ".txt")
    val errFile = Files.createTempFile(dir, "err-", ".txt")
    pb.redirectOutput(outFile.toFile).redirectError(errFile.toFile)
    val p = pb.start()
    try {
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), s"${command.mkString(" ")} did not end in 120 s")
      Ran(p.exitValue, Files.readString(outFile, UTF_8), Files.readString(errFile, UTF_8))
    } finally {
      p.descendants().forEach(_.destroyForcibly())
      p.destroyForcibly()
    }
  }

  private def pack(out: Path, args: String*): AbscResult =
    absc(AbsBackend, (List("package", "--cache-dir", cache.toString, "-o", out.toString) ++ args): _*)

  @Test def thePackageRunsLikeAbscRun(): Unit = {
    val f = absFile(dir, "Shop", model)
    val expected = absc(AbsBackend, "run", "--cache-dir", cache.toString, f)
    assertEquals(0, expected.status, expected.err)
    assertEquals("total 5 at 2\n", expected.programOut)

    val out = dir.resolve("shop-pkg")
    val r = pack(out, f)
    assertEquals(0, r.status, r.err)
    assertTrue(r.err.contains(s"wrote ${out.resolve("bin/shop")}"), r.err)
    val launcher = out.resolve("bin/shop")
    assertTrue(Files.isExecutable(launcher))
    assertTrue(Files.isRegularFile(out.resolve("lib/shop.jar")))
    val libs = Using(out.resolve("lib"))
    assertFalse(libs.exists(n => n.startsWith("scala-compiler") || n.startsWith("antlr4-4") || n.startsWith("cogs-abs-compiler")),
      s"the compiler's jars are not packaged: $libs")
    assertTrue(libs.exists(_.startsWith("picocli")), s"the program parses its command line with picocli: $libs")
    // Issue 27, item 4: a package is never monitored, and this model queries no database.
    assertFalse(libs.exists(n => n.startsWith("cogs-abs-monitoring") || n.startsWith("cogs-monitor") || n.startsWith("cogs-session")),
      s"no monitor pipeline or session checker in a package: $libs")
    assertFalse(libs.exists(_.startsWith("sqlite-jdbc")), s"no SQLite driver for a model without queries: $libs")

    val first = launch(List("bash", launcher.toString))
    assertEquals(Ran(0, "total 5 at 2\n", ""), first)
    val archives = Using(out.resolve("lib")).filter(_.contains("-cds-"))
    assertTrue(archives.exists(n => n.endsWith(".jsa") || n.endsWith(".aot") || n.contains(".aot.")),
      s"the first run makes a class-data archive (or its recording) in lib/: $archives")
    assertEquals(Ran(0, "total 5 at 2\n", ""), launch(List("bash", launcher.toString)), "the run with the archive")

    // java -jar, and a moved copy of the directory.
    assertEquals(Ran(0, "total 5 at 2\n", ""), launch(List(java, "-jar", out.resolve("lib/shop.jar").toString)))
    // java -jar takes the launcher's command line, and says who it is.
    assertEquals(Ran(0, "", "absc: the simulation stopped at the clock limit 1 (time 1) before the main block finished\n"),
      launch(List(java, "-jar", out.resolve("lib/shop.jar").toString, "--clock-limit", "1", "--", "an argument")))
    assertEquals(Ran(2, "", "java -jar shop.jar: --workers must be a whole number of at least 1, not 'x' (see 'java -jar shop.jar --help')\n"),
      launch(List(java, "-jar", out.resolve("lib/shop.jar").toString, "--workers", "x")))
    val moved = dir.resolve("elsewhere/shop")
    Files.createDirectories(moved.getParent)
    Files.move(out, moved)
    assertEquals(Ran(0, "total 5 at 2\n", ""), launch(List("bash", moved.resolve("bin/shop").toString)))
  }

  private def Using(d: Path): List[String] =
    scala.util.Using.resource(Files.list(d))(_.iterator.asScala.map(_.getFileName.toString).toList)

  @Test def launcherOptionsReachTheProgram(): Unit = {
    val f = absFile(dir, "Ticks",
      """module Ticks;
        |{
        |  Int i = 0;
        |  while (True) { await duration(1, 1); i = i + 1; println(toString(i)); }
        |}
        |""".stripMargin)
    val out = dir.resolve("ticks")
    assertEquals(0, pack(out, "--name", "ticker", f).status)
    val launcher = out.resolve("bin/ticker").toString
    val r = launch(List("bash", launcher, "--clock-limit", "3", "--workers", "1"), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(Ran(0, "1\n2\n3\n", "absc: the simulation stopped at the clock limit 3 (time 3) before the main block finished\n"), r)

    // The launcher passes its arguments through; the program checks them as absc run does, and says so in the launcher's name.
    val bad = launch(List("bash", launcher, "--workers", "0"))
    assertEquals(Ran(2, "", "ticker: --workers must be a whole number of at least 1, not '0' (see 'ticker --help')\n"), bad)
    assertEquals(Nil, Using(out.resolve("lib")).filter(_.contains("-cds-")), "a run refused at its command line makes no class-data archive")
    assertEquals(Ran(2, "", "ticker: --workers must be a whole number of at least 1, not 'many' (see 'ticker --help')\n"),
      launch(List("bash", launcher, "--workers", "many"), Map("ABSC_NO_CDS" -> "1")))
    assertEquals(Ran(2, "", "ticker: --clock-limit: 'soon' is not a time (a whole number or a fraction such as 5/2) (see 'ticker --help')\n"),
      launch(List("bash", launcher, "--clock-limit", "soon"), Map("ABSC_NO_CDS" -> "1")))
    assertEquals(Ran(2, "", "ticker: --port must be from 0 to 65535, not '70000' (see 'ticker --help')\n"),
      launch(List("bash", launcher, "--port", "70000"), Map("ABSC_NO_CDS" -> "1")))
    assertEquals(Ran(2, "", "ticker: option --workers needs a value (see 'ticker --help')\n"),
      launch(List("bash", launcher, "--workers"), Map("ABSC_NO_CDS" -> "1")))
    assertEquals(Ran(2, "", "ticker: unexpected argument 'data' (the program's arguments go after '--') (see 'ticker --help')\n"),
      launch(List("bash", launcher, "data"), Map("ABSC_NO_CDS" -> "1")))
    // A fraction, -l, the program's arguments after '--' (options there are the program's), one worker.
    assertEquals(Ran(0, "1\n2\n", "absc: the simulation stopped at the clock limit 5/2 (time 2) before the main block finished\n"),
      launch(List("bash", launcher, "-l", "5/2", "--workers", "1", "--", "--workers", "0"), Map("ABSC_NO_CDS" -> "1")))
    val unknown = launch(List("bash", launcher, "--frobnicate"))
    assertEquals(2, unknown.status)
    assertTrue(unknown.err.startsWith("ticker: unknown option '--frobnicate'"), unknown.err)
    val both = launch(List("bash", launcher, "--record", "a.json", "--replay", "b.json"))
    assertEquals(2, both.status)
    assertTrue(both.err.contains("--record and --replay exclude each other"), both.err)
    val help = launch(List("bash", launcher, "--help"))
    assertEquals(0, help.status)
    assertTrue(help.out.startsWith("usage: ticker [--workers N]") && help.out.contains("--clock-limit T"), help.out)
    assertEquals(Nil, Using(out.resolve("lib")).filter(_.contains("-cds-")), "a run for --help makes no class-data archive")

    // The recording in the Erlang backend's trace format: an array of per-COG local traces.
    val trace = dir.resolve("ticker-trace.json")
    val recorded = launch(List("bash", launcher, "--clock-limit", "2", "--record", trace.getFileName.toString,
      "--record-format", "erlang"), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(0, recorded.status, recorded.err)
    val json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(trace.toFile)
    assertTrue(json.isArray && json.size >= 1 && json.get(0).has("local_trace"), json.toString.take(400))
    val badFormat = launch(List("bash", launcher, "--record", "t.json", "--record-format", "xml"))
    assertEquals(Ran(2, "", "ticker: --record-format must be 'cogs' or 'erlang', not 'xml' (see 'ticker --help')\n"), badFormat)
    val formatAlone = launch(List("bash", launcher, "--record-format", "erlang"))
    assertEquals(Ran(2, "", "ticker: --record-format needs --record FILE (see 'ticker --help')\n"), formatAlone)
    // The Model API's options reach the program, which checks them.
    val staticAlone = launch(List("bash", launcher, "--modelapi-static-dir", "."), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(2, staticAlone.status)
    assertEquals("ticker: --modelapi-static-dir needs --port (see 'ticker --help')\n", staticAlone.err)
    val noIndex = launch(List("bash", launcher, "--port", "0", "--modelapi-index-file", "none.html"), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(2, noIndex.status)
    assertTrue(noIndex.err.startsWith("ticker: --modelapi-index-file: no such file: /") && noIndex.err.contains("/none.html (see"), noIndex.err)
    assertTrue(help.out.contains("--modelapi-static-dir DIR") && help.out.contains("--url-prefix P"), help.out)
  }

  /**
   * Issue 27, item 4: the Model API (module cogs-abs-modelapi, and uPlot) is packaged with a model
   * that registers [HTTPName] objects or with --model-api, not otherwise; a launcher without it
   * asked for a port says what to do; one with it serves.
   */
  @Test def theModelApiIsPackagedOnlyWhereUsed(): Unit = {
    def apiJars(out: Path) = Using(out.resolve("lib")).filter(n => n.startsWith("cogs-abs-modelapi") || n.startsWith("uplot"))
    val plain = absFile(dir, "Plain", "module Plain;\n{ println(\"plain\"); }\n")
    val without = dir.resolve("plain")
    assertEquals(0, pack(without, plain).status)
    assertEquals(Nil, apiJars(without), "a model without [HTTPName] carries no Model API")
    assertEquals(Ran(0, "plain\n", ""), launch(List("bash", without.resolve("bin/plain").toString), Map("ABSC_NO_CDS" -> "1")))
    val asked = launch(List("bash", without.resolve("bin/plain").toString, "--port", "0"), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(2, asked.status, asked.err)
    assertTrue(asked.err.startsWith("absc: the Model API") && asked.err.contains("needs the module cogs-abs-modelapi") &&
      asked.err.contains("absc package --model-api"), asked.err)
    val flagged = dir.resolve("plain-api")
    assertEquals(0, pack(flagged, "--model-api", plain).status)
    assertEquals(2, apiJars(flagged).size, s"--model-api packages the module and uPlot: ${Using(flagged.resolve("lib"))}")

    val served = absFile(dir, "Served",
      """module Served;
        |interface Box { [HTTPCallable] Int value(); }
        |class BoxImpl implements Box { Int value() { return 7; } }
        |{ [HTTPName: "box"] Box b = new BoxImpl(); }
        |""".stripMargin)
    val out = dir.resolve("served")
    assertEquals(0, pack(out, served).status)
    assertEquals(2, apiJars(out).size, s"a model with [HTTPName] carries the Model API: ${Using(out.resolve("lib"))}")
    val pb = new ProcessBuilder("bash", out.resolve("bin/served").toString, "--port", "0")
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"))
    pb.environment().put("ABSC_NO_CDS", "1")
    val p = pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
    try {
      val err = new _root_.java.io.BufferedReader(new _root_.java.io.InputStreamReader(p.getErrorStream, UTF_8))
      val line = err.readLine()
      assertTrue((line ne null) && line.contains("the Model API listens at http://"), String.valueOf(line))
      val url = line.substring(line.indexOf("http://")).takeWhile(_ != ' ')
      val client = _root_.java.net.http.HttpClient.newHttpClient()
      def get(path: String) = client.send(_root_.java.net.http.HttpRequest.newBuilder(_root_.java.net.URI.create(url + path)).build(),
        _root_.java.net.http.HttpResponse.BodyHandlers.ofString()).body
      assertEquals("""{"result":7}""", get("call/box/value").replaceAll("\\s", ""))
      get("quit")
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the packaged model ends after /quit")
      assertEquals(0, p.exitValue)
    } finally {
      p.descendants().forEach(_.destroyForcibly())
      p.destroyForcibly()
    }
  }

  @Test def aFailingProgramFailsTheSameWay(): Unit = {
    val f = absFile(dir, "Broken", "module Broken;\n{\n  Int x = 1;\n  assert x == 2;\n}\n")
    val expected = absc(AbsBackend, "run", "--cache-dir", cache.toString, f)
    assertEquals(1, expected.status)
    val out = dir.resolve("broken")
    assertEquals(0, pack(out, f).status)
    val r = launch(List("bash", out.resolve("bin/broken").toString), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(1, r.status)
    assertTrue(r.err.contains("Broken.abs:4"), s"the report names the ABS line: ${r.err}")
  }

  @Test def theEndOfRunReportHasTheSameSwitchesAsAbscRun(): Unit = {
    val f = absFile(dir, "Lost", "module Lost;\ninterface I { Unit m(Int x); }\nclass C implements I { Unit m(Int x) { assert x > 0; } }\n" +
      "{\n  I o = new C();\n  o!m(0);\n  println(\"done\");\n}\n")
    val out = dir.resolve("lost")
    assertEquals(0, pack(out, f).status)
    val launcher = out.resolve("bin/lost").toString
    val plain = launch(List("bash", launcher), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(0, plain.status, plain.err)
    assertEquals("done\n", plain.out)
    assertTrue(plain.err.contains("absc: 1 process failed and nobody read the failure:"), plain.err)
    val strict = launch(List("bash", launcher, "--strict"), Map("ABSC_NO_CDS" -> "1"))
    assertEquals(4, strict.status, strict.err)
    assertTrue(strict.err.contains("C.m (object created at "), strict.err)
    assertEquals(Ran(0, "done\n", ""), launch(List("bash", launcher, "--no-end-report"), Map("ABSC_NO_CDS" -> "1")))
    val help = launch(List("bash", launcher, "--help"))
    assertTrue(help.out.contains("--strict") && help.out.contains("--no-end-report"), help.out)
  }

  @Test def badInputWritesNothing(): Unit = {
    val f = absFile(dir, "Wrong", "module Wrong;\n{\n  Int x = True;\n}\n")
    val out = dir.resolve("wrong")
    val r = pack(out, f)
    assertEquals(2, r.status)
    assertTrue(r.err.contains("Wrong.abs:3:"), r.err)
    assertFalse(Files.exists(out.resolve("bin")), "nothing written for a model that does not compile")

    val good = absFile(dir, "Fine", "module Fine;\n{\n  println(\"fine\");\n}\n")
    val mine = Files.createDirectories(dir.resolve("mine"))
    Files.writeString(mine.resolve("notes.txt"), "keep me", UTF_8)
    val refused = pack(mine, good)
    assertEquals(2, refused.status)
    assertTrue(refused.err.contains("is not empty and is not a package made by 'absc package'"), refused.err)
    assertEquals("keep me", Files.readString(mine.resolve("notes.txt"), UTF_8))
    assertFalse(Files.exists(mine.resolve("lib")))

    val badName = pack(dir.resolve("named"), "--name", "../x", good)
    assertEquals(2, badName.status)
    assertTrue(badName.err.contains("--name: '../x' is not a name"), badName.err)

    val noMain = absFile(dir, "Lib", "module Lib;\ndef Int one() = 1;\n")
    val r2 = pack(dir.resolve("lib-pkg"), noMain)
    assertEquals(2, r2.status)
    assertTrue(r2.err.contains("nothing to package: the program has no main block"), r2.err)

    // Packaging again into a package replaces it.
    val again = dir.resolve("again")
    assertEquals(0, pack(again, "--name", "app", good).status)
    assertEquals(0, pack(again, "--name", "app", good).status)
    assertEquals(Ran(0, "fine\n", ""), launch(List("bash", again.resolve("bin/app").toString), Map("ABSC_NO_CDS" -> "1")))
  }
}
