package cogs.absc.driver

import cogs.absc.run.ProgramRunner

import java.nio.file.Path

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/** ABS source to output and exit status through the real type checker and emitter. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EndToEndTest {

  private var dir: Path = _
  private var cache: Path = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-e2e")
    cache = dir.resolve("cache")
  }

  private def abs(args: String*): AbscResult = absc(AbsBackend, args: _*)

  private val greeter =
    """module Hello;
      |interface Greeter { Int greet(Int n); }
      |class GreeterImpl implements Greeter {
      |  Int greet(Int n) { println(`hello $n$`); return n * 2; }
      |}
      |{
      |  Greeter g = new GreeterImpl();
      |  Fut<Int> f = g!greet(21);
      |  await f?;
      |  Int r = f.get;
      |  println(`result $r$`);
      |}
      |""".stripMargin

  @Test def anAbsProgramRuns(): Unit = {
    val r = abs("run", "--cache-dir", cache.toString, absFile(dir, "hello", greeter))
    assertEquals(0, r.status, r.err)
    assertEquals("hello 21\nresult 42\n", r.programOut)
    assertEquals("", r.err)
  }

  @Test def aFailedAssertExitsOne(): Unit = {
    val f = absFile(dir, "assert", "module A;\n{\n  Int x = 1;\n  assert x > 1;\n}\n")
    val r = abs("run", "--cache-dir", cache.toString, f)
    assertEquals(1, r.status)
    assertTrue(r.err.startsWith("absc: the main block failed: uncaught exception AssertionFailException"), r.err)
  }

  @Test def typeErrorsAreAllRenderedAndExitTwo(): Unit = {
    val f = absFile(dir, "types", "module T;\n{\n  Int x = \"hello\";\n  Bool b = 1 + True;\n}\n")
    val r = abs("run", "--cache-dir", cache.toString, f)
    assertEquals(2, r.status)
    assertTrue(r.err.startsWith(s"$f:3:11: error: "), r.err)
    assertTrue(r.err.contains("  Int x = \"hello\";\n          ^\n"), r.err)
    assertTrue(r.err.contains(s"$f:4:"), r.err)
    assertTrue(r.err.endsWith("absc: 2 errors\n"), r.err)
  }

  @Test def whatTheEmitterCannotTranslateIsAnAbsErrorNotACrash(): Unit = {
    val f = absFile(dir, "builtin", "module B;\ndef List<String> q() = builtin(sparql, \"SELECT ?x\");\n{\n  List<String> y = q();\n}\n")
    val r = abs("run", "--cache-dir", cache.toString, f)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.startsWith(s"$f:2:24: error: builtin function 'q' is a SPARQL query, which is not supported, because"), r.err)
    assertFalse(r.err.contains("\tat "), r.err)
  }

  @Test def testresultDecidesATest(): Unit = {
    val pass = absFile(dir, "tpass", "module P;\n{\n  Bool testresult = False;\n  testresult = 40 + 2 == 42;\n}\n")
    val fail = absFile(dir, "tfail", "module F;\n{\n  Bool testresult = 1 > 2;\n}\n")
    val r = abs("test", "--cache-dir", cache.toString, pass, fail)
    assertEquals(1, r.status, r.err)
    assertEquals(s"PASS $pass\nFAIL $fail: testresult is False\n1 passed, 1 failed\n", r.out)
  }

  @Test def compileWritesScalaWithAMainObject(): Unit = {
    val out = dir.resolve("out")
    val r = abs("compile", "-d", out.toString, absFile(dir, "hello", greeter))
    assertEquals(0, r.status, r.err)
    val texts = scala.util.Using.resource(java.nio.file.Files.walk(out))(_.iterator.asScala.toList)
      .filter(_.toString.endsWith(".scala")).map(java.nio.file.Files.readString(_))
    assertTrue(texts.size >= 2, s"a file per module and the main object: $texts")
    assertEquals(1, texts.count(_.contains("cogs.absc.run.ProgramRunner.runMain(args, ")), texts.mkString("\n"))
  }
}
