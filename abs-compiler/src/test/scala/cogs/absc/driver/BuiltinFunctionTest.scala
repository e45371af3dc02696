package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * A model's own `def T f(..) = builtin;` (issue 32, item 4): implemented by `public static apply`
 * of the Java class the reference's Java backend names (`Module.f_f`, `Module.int___f` for a Java
 * keyword), compiled here with the JDK's compiler and put on `--classpath`; values converted at
 * the boundary as for `[Foreign]` classes. No implementation, and an implementation that throws,
 * are failures naming the function, its ABS position and the Java class; `absc package` carries
 * the classes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BuiltinFunctionTest {

  private var dir: Path = _
  private var cache: Path = _
  private var classes: Path = _

  private def javaSource(cls: String, body: String): Path = {
    val src = dir.resolve(s"src/Calc/$cls.java")
    Files.createDirectories(src.getParent)
    Files.writeString(src, s"package Calc;\npublic final class $cls {\n  private $cls() {}\n$body\n}\n", UTF_8)
    src
  }

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-builtin")
    cache = dir.resolve("cache")
    classes = dir.resolve("classes")
    val srcs = List(
      javaSource("shout_f", "  public static String apply(String s) { return s.toUpperCase(); }"),
      javaSource("cube_f", "  public static java.math.BigInteger apply(java.math.BigInteger x) { return x.pow(3); }"),
      javaSource("half_f", "  public static double apply(long x) { return x / 2.0; }"),
      javaSource("int___f", "  public static boolean apply(int x) { return x % 2 == 0; }"),
      javaSource("boom_f", "  public static String apply(String why) { throw new IllegalArgumentException(why); }"))
    val javac = javax.tools.ToolProvider.getSystemJavaCompiler
    assertNotNull(javac, "a JDK's compiler")
    assertEquals(0, javac.run(null, null, null, ("-d" :: classes.toString :: srcs.map(_.toString)): _*))
  }

  private val model =
    """module Calc;
      |def String shout(String s) = builtin;
      |def Int cube(Int x) = builtin;
      |def Float half(Int x) = builtin;
      |def Bool int(Int x) = builtin(ignored, "arguments");
      |def String boom(String why) = builtin;
      |{
      |  println(`$shout("abs")$ $cube(100000000000)$ $half(7)$ $int(4)$`);
      |}
      |""".stripMargin

  private val failing =
    """module Calc;
      |def String boom(String why) = builtin;
      |def String shout(String s) = builtin;
      |{
      |  println("before");
      |  String s = boom("no luck");
      |}
      |""".stripMargin

  private def run(text: String, extra: String*): AbscResult =
    absc(AbsBackend, (List("run", "--cache-dir", cache.toString) ++ extra ++ List(absFile(dir, "calc", text))): _*)

  @Test def theImplementationsOnTheClassPathRun(): Unit = {
    val r = run(model, "--classpath", classes.toString)
    assertEquals(0, r.status, r.err)
    assertEquals("ABS 1000000000000000000000000000000000 3.5 True\n", r.programOut)
  }

  @Test def noImplementationNamesTheFunctionItsPlaceAndTheJavaClass(): Unit = {
    val r = run(model)
    assertEquals(1, r.status, r.err)
    assertTrue(r.err.contains("the builtin function Calc.shout (calc.abs:2:12) has no implementation: no class Calc.shout_f; " +
      "it is a public static method apply with 1 parameter(s) of the class Calc.shout_f, on the class path"), r.err)
    assertFalse(r.err.contains("\tat "), r.err)
  }

  @Test def anExceptionOfTheImplementationFailsTheCallNamingTheFunction(): Unit = {
    val r = run(failing, "--classpath", classes.toString)
    assertEquals(1, r.status, r.err)
    assertEquals("before\n", r.programOut)
    assertTrue(r.err.contains("the builtin function Calc.boom (calc.abs:2:12) failed in Calc.boom_f.apply: " +
      "java.lang.IllegalArgumentException: no luck"), r.err)
    assertFalse(r.err.contains("\tat "), r.err)
  }

  @Test def aPackageCarriesTheImplementations(): Unit = {
    val out = dir.resolve("pkg")
    val r = absc(AbsBackend, "package", "--cache-dir", cache.toString, "-o", out.toString, "--name", "calc",
      "--classpath", classes.toString, absFile(dir, "calc", model))
    assertEquals(0, r.status, r.err)
    val pb = new ProcessBuilder("bash", out.resolve("bin/calc").toString)
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"))
    pb.environment().put("ABSC_NO_CDS", "1")
    val log = dir.resolve("pkg-out.txt")
    pb.redirectErrorStream(true).redirectOutput(log.toFile)
    val p = pb.start()
    assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the packaged program did not end in 120 s")
    assertEquals(0, p.exitValue, Files.readString(log, UTF_8))
    assertEquals("ABS 1000000000000000000000000000000000 3.5 True\n", Files.readString(log, UTF_8))
  }
}
