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
}
