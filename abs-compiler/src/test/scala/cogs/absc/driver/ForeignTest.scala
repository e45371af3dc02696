package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * `[Foreign]` classes (ABS.FLI): without a binding their ABS methods run; with `--foreign
 * Module.Class=JavaClass --classpath DIR`, a Java class compiled here with the JDK's compiler
 * replaces the methods it has, with values converted at the boundary, and keeps its state per
 * ABS object; the others keep their ABS body.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForeignTest {

  private var dir: Path = _
  private var cache: Path = _
  private var classes: Path = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-foreign")
    cache = dir.resolve("cache")
    classes = dir.resolve("classes")
    val src = dir.resolve("src/greet/HelloJava.java")
    Files.createDirectories(src.getParent)
    Files.writeString(src,
      """package greet;
        |public class HelloJava {
        |    private int seen;
        |    public String hello(String msg) { seen++; return "Java got " + msg; }
        |    public long twice(long x) { return 2 * x; }
        |    public java.math.BigInteger cube(java.math.BigInteger x) { return x.pow(3); }
        |    public boolean even(int x) { return x % 2 == 0; }
        |    public void poke() { seen += 100; }
        |    public int seen() { return seen; }
        |    public String fail(String why) { throw new IllegalArgumentException(why); }
        |}
        |""".stripMargin, UTF_8)
    val javac = javax.tools.ToolProvider.getSystemJavaCompiler
    assertNotNull(javac, "a JDK's compiler")
    assertEquals(0, javac.run(null, null, null, "-d", classes.toString, src.toString))
  }

  private val model =
    """module Greet;
      |import * from ABS.FLI;
      |interface Hello {
      |  String hello(String msg);
      |  Int twice(Int x);
      |  Int cube(Int x);
      |  Bool even(Int x);
      |  Unit poke();
      |  Int seen();
      |  String onlyAbs();
      |}
      |[Foreign]
      |class HelloImpl implements Hello {
      |  String hello(String msg) { return "ABS got " + msg; }
      |  Int twice(Int x) { return x + x; }
      |  Int cube(Int x) { return x * x * x; }
      |  Bool even(Int x) { return x % 2 == 0; }
      |  Unit poke() { skip; }
      |  Int seen() { return -1; }
      |  String onlyAbs() { String h = this.hello("me"); return "the ABS body of " + h; }
      |}
      |{
      |  Hello h = new HelloImpl();
      |  Hello other = new HelloImpl();
      |  String a = await h!hello("hi");
      |  Int t = await h!twice(21);
      |  Int c = await h!cube(100000000000);
      |  Bool e = await h!even(7);
      |  await h!poke();
      |  Int s = await h!seen();
      |  Int s2 = await other!seen();
      |  String o = await h!onlyAbs();
      |  println(`$a$ / $t$ / $c$ / $e$ / $s$ / $s2$ / $o$`);
      |}
      |""".stripMargin

  private def run(extra: String*): AbscResult =
    absc(AbsBackend, (List("run", "--cache-dir", cache.toString) ++ extra ++ List(absFile(dir, "greet", model))): _*)

  @Test def withoutABindingTheAbsMethodsRun(): Unit = {
    val r = run()
    assertEquals(0, r.status, r.err)
    assertEquals("ABS got hi / 42 / 1000000000000000000000000000000000 / False / -1 / -1 / the ABS body of ABS got me\n", r.programOut)
  }

  @Test def aBoundJavaClassReplacesTheMethodsItHas(): Unit = {
    val r = run("--classpath", classes.toString, "--foreign", "Greet.HelloImpl=greet.HelloJava")
    assertEquals(0, r.status, r.err)
    // hello counted 1 (and the synchronous self-call in onlyAbs another, after seen was read);
    // poke added 100; the other object has a Java instance of its own.
    assertEquals("Java got hi / 42 / 1000000000000000000000000000000000 / False / 101 / 0 / the ABS body of Java got me\n", r.programOut)
  }

  @Test def aForeignClassNotOnTheClassPathFailsTheCreationNamingIt(): Unit = {
    val r = run("--foreign", "Greet.HelloImpl=greet.Missing")
    assertEquals(1, r.status, r.err)
    assertTrue(r.err.contains("the foreign class greet.Missing of Greet.HelloImpl (cogs.absc.foreign.Greet.HelloImpl) is not on the class path"), r.err)
  }

  @Test def aPackageCarriesTheBoundClassesAndRunsWithOnlyAJdk(): Unit = {
    val out = dir.resolve("pkg")
    val model = absFile(dir, "greet", this.model)
    val r = absc(AbsBackend, "package", "--cache-dir", cache.toString, "-o", out.toString, "--name", "greet",
      "--classpath", classes.toString, "--foreign", "Greet.HelloImpl=greet.HelloJava", model)
    assertEquals(0, r.status, r.err)
    // The implementation is in lib/ now: the package runs after the classes it was made from are gone.
    val moved = dir.resolve("classes-moved")
    Files.move(classes, moved)
    try {
      val pb = new ProcessBuilder("bash", out.resolve("bin/greet").toString)
      pb.environment().put("JAVA_HOME", System.getProperty("java.home"))
      pb.environment().put("ABSC_NO_CDS", "1")
      val log = dir.resolve("pkg-out.txt")
      pb.redirectErrorStream(true).redirectOutput(log.toFile)
      val p = pb.start()
      assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the packaged program did not end in 120 s")
      assertEquals(0, p.exitValue, Files.readString(log, UTF_8))
      assertEquals("Java got hi / 42 / 1000000000000000000000000000000000 / False / 101 / 0 / the ABS body of Java got me\n",
        Files.readString(log, UTF_8))
    } finally Files.move(moved, classes)
  }

  @Test def aBadBindingIsAUsageError(): Unit = {
    val r = run("--foreign", "HelloImpl")
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains("--foreign: 'HelloImpl' is not MODULE.CLASS=JAVA_CLASS"), r.err)
    val cp = run("--classpath", dir.resolve("nowhere").toString)
    assertEquals(2, cp.status, cp.err)
    assertTrue(cp.err.contains("--classpath: no such file or directory"), cp.err)
  }
}
