package cogs.absc.driver

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.parse.Parser

import DriverTestSupport._

/** `absc dump`: the parsed model printed back as ABS; syntax errors exactly as `check` reports them. */
class DumpCommandTest {

  private val backend = new FakeBackend(programs)

  @Test def printsTheParsedModelOfEveryFile(): Unit = {
    val dir = tempDir("absc-dump")
    val a = absFile(dir, "a",
      "module A; // comments and layout are not kept\nexport *;\ndef Int twice(Int x)=(x*2);\n/* the main block */ { Int y = twice((1+2)*3); println(toString(y)); }\n")
    val b = absFile(dir, "b", "module B; import * from A; interface I { Unit m(); }")
    val r = absc(backend, "dump", a, b)
    assertEquals(0, r.status, r.err)
    assertEquals("", r.err)
    assertEquals(
      s"""// $a
         |module A;
         |export *;
         |
         |def Int twice(Int x) =
         |  x * 2;
         |
         |{
         |  Int y = twice((1 + 2) * 3);
         |  println(toString(y));
         |}
         |
         |// $b
         |module B;
         |import * from A;
         |
         |interface I {
         |  Unit m();
         |}
         |""".stripMargin, r.out)
    assertEquals(0, backend.emitted.get, "dump translates nothing")
    // What dump prints is ABS that parses to the same model.
    val printedA = r.out.substring(0, r.out.indexOf(s"// $b"))
    assertEquals(Parser.parse(a, java.nio.file.Files.readString(java.nio.file.Paths.get(a))), Parser.parse(a, printedA))
  }

  @Test def syntaxErrorsAreReportedAsCheckReportsThem(): Unit = {
    val dir = tempDir("absc-dump")
    val bad = absFile(dir, "bad", "module M;\n{ Int x = 1 }\n")
    val good = absFile(dir, "good", "module G;\n")
    val dump = absc(backend, "dump", good, bad)
    val check = absc(backend, "check", good, bad)
    assertEquals(2, dump.status)
    assertEquals("", dump.out, "nothing is printed when a file does not parse")
    assertTrue(dump.err.startsWith(s"$bad:2:12: error: expected ';'"), dump.err)
    assertEquals(check.err, dump.err)
  }

  @Test def aDirectoryIsDumpedFileByFileAndDumpHasItsHelp(): Unit = {
    val dir = tempDir("absc-dump")
    absFile(dir, "x", "module X;")
    absFile(dir, "y", "module Y;")
    val r = absc(backend, "dump", dir.toString)
    assertEquals(0, r.status, r.err)
    assertEquals(s"// ${dir.resolve("x.abs")}\nmodule X;\n\n// ${dir.resolve("y.abs")}\nmodule Y;\n", r.out)
    val help = absc(backend, "dump", "--help")
    assertEquals(0, help.status)
    assertTrue(help.out.contains("absc dump") && help.out.contains("FILE|DIR"), help.out)
    val missing = absc(backend, "dump", dir.resolve("nope.abs").toString)
    assertEquals(2, missing.status)
    assertEquals(s"absc: cannot read '${dir.resolve("nope.abs")}': No such file\n", missing.err)
  }

  private val frames =
    "module M;\ninterface I { Int f(Int n); }\nclass C implements I {\n  Int f(Int n) { Int r = this.g(n); return r + 1; }\n" +
      "  Int g(Int n) { suspend; return n * 2; }\n}\n{\n  I o = new C();\n  Int x = await o!f(1);\n  println(toString(x));\n}\n"

  @Test def listNamesEveryPhaseInOrder(): Unit = {
    val r = absc(AbsBackend, "dump", "--list")
    assertEquals(0, r.status, r.err)
    val names = r.out.linesIterator.map(_.takeWhile(_ != ' ')).toList
    assertEquals(List("parse", "flatten", "check", "entry", "lower", "instrument", "limits", "optimise", "frames", "print"), names)
    assertTrue(r.out.linesIterator.forall(_.trim.contains("  ")), "each phase says what it does:\n" + r.out)
  }

  @Test def anUnknownPhaseIsAnErrorNamingThePhases(): Unit = {
    val f = absFile(tempDir("absc-dump"), "m", frames)
    val r = absc(AbsBackend, "dump", "--after", "optimize", f)
    assertEquals(2, r.status)
    assertEquals("", r.out)
    assertTrue(r.err.startsWith("absc: --after: unknown phase 'optimize' (the phases: parse, flatten, check, entry, lower, instrument, limits, optimise, frames, print)"), r.err)
  }

  @Test def everyPhasesOutputCanBeShown(): Unit = {
    val f = absFile(tempDir("absc-dump"), "m", frames)
    def after(phase: String): String = {
      val r = absc(AbsBackend, "dump", "--after", phase, f)
      assertEquals(0, r.status, s"--after $phase: ${r.err}")
      assertEquals("", r.err)
      r.out
    }
    assertTrue(after("parse").startsWith(s"// $f\nmodule M;\n"))
    assertEquals(after("parse"), after("flatten"))
    val checked = after("check")
    assertTrue(checked.contains("class C(): ") || checked.contains("class C()"), checked)
    assertTrue(checked.contains("method Int g(Int n): may suspend, continuation, frame form"), checked)
    assertTrue(checked.contains("method Int f(Int n): may suspend, continuation\n"), checked)
    assertTrue(after("entry").endsWith("// entry: the main block of module M\n"))
    val ir = after("lower")
    assertTrue(ir.startsWith("LProgram(\n"), ir)
    assertTrue(ir.contains("""frame = Some("g$body")""") && ir.contains("""self = Some("g$body")"""), ir)
    val instrumented = after("instrument")
    assertTrue(instrumented.contains("""SelfCall(method = "g$body"""") && !instrumented.contains("Sync("), instrumented)
    assertEquals(instrumented, after("limits"), "an ordinary program passes the limits unchanged")
    val fused = """Map\(\s*first =""".r
    assertTrue(fused.findFirstIn(after("optimise")).isDefined && fused.findFirstIn(ir).isEmpty, "map fusion is the optimise pass's")
    val scala = after("print")
    assertTrue(scala.startsWith("// ===== M.scala\n// Generated by absc"), scala)
    // f's call of g, the one that used `g$body`, calls g's frame form after the frames pass.
    assertTrue(scala.contains("def g$f(p$: Process, n: AbsInt): Any") && !scala.contains("g$body") &&
      scala.contains("// ===== absmodel_main/Main.scala"), scala)
  }

  @Test def aPhaseThatStopsIsReportedAsCheckReportsIt(): Unit = {
    val f = absFile(tempDir("absc-dump"), "bad", "module M;\n{ Int x = True; }\n")
    val r = absc(AbsBackend, "dump", "--after", "lower", f)
    assertEquals(2, r.status)
    assertEquals("", r.out)
    assertEquals(absc(AbsBackend, "check", f).err, r.err)
    val two = absFile(tempDir("absc-dump"), "two", "module A; { skip; }\nmodule B; { skip; }\n")
    val e = absc(AbsBackend, "dump", "--after", "entry", two)
    assertEquals(2, e.status)
    assertTrue(e.err.startsWith("absc: 2 modules have a main block"), e.err)
    assertEquals(0, absc(AbsBackend, "dump", "--after", "entry", "--main-module", "B", two).status)
  }
}
