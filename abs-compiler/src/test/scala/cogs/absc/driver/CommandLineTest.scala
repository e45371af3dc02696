package cogs.absc.driver

import java.nio.file.Files

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import DriverTestSupport._

/** Parsing of the command line: help, version, usage errors, unreadable files. */
class CommandLineTest {

  private val backend = new FakeBackend(programs)

  @Test def helpListsTheCommandsAndExitsZero(): Unit = {
    val r = absc(backend, "--help")
    assertEquals(0, r.status)
    for (c <- List("compile", "run", "test", "Exit status")) assertTrue(r.out.contains(c), r.out)
    assertEquals("", r.err)
  }

  @Test def everyCommandHasItsHelp(): Unit = {
    for ((cmd, option) <- List("compile" -> "--output-dir", "run" -> "--keep-generated", "test" -> "--timeout")) {
      val r = absc(backend, cmd, "--help")
      assertEquals(0, r.status, cmd)
      assertTrue(r.out.contains(s"absc $cmd"), r.out)
      assertTrue(r.out.contains(option), r.out)
      assertTrue(r.out.contains("--verbose"), r.out)
    }
    assertTrue(absc(backend, "run", "--help").out.contains("--no-cache"))
    assertEquals(0, absc(backend, "help", "test").status)
  }

  @Test def versionNamesAbscScalaAndJava(): Unit = {
    val r = absc(backend, "--version")
    assertEquals(0, r.status)
    assertTrue(r.out.startsWith("absc "), r.out)
    assertTrue(r.out.contains("Scala 2.13"), r.out)
    assertTrue(r.out.contains("Java "), r.out)
  }

  @Test def noCommandIsAUsageError(): Unit = {
    val r = absc(backend)
    assertEquals(2, r.status)
    assertTrue(r.err.contains("a command is required"), r.err)
    assertTrue(r.err.contains("Usage: absc"), r.err)
  }

  @Test def unknownOptionsAndCommandsAreUsageErrors(): Unit = {
    val dir = tempDir("absc-cli")
    val f = absFile(dir, "hello")
    val r = absc(backend, "run", "--frobnicate", f)
    assertEquals(2, r.status)
    assertTrue(r.err.contains("Unknown option: '--frobnicate'"), r.err)
    assertTrue(r.err.contains("Usage: absc run"), r.err)
    assertEquals(2, absc(backend, "jump", f).status)
  }

  @Test def filesAreRequired(): Unit = {
    val r = absc(backend, "run")
    assertEquals(2, r.status)
    assertTrue(r.err.contains("Missing required parameter"), r.err)
  }

  @Test def compileNeedsAnOutputDirectory(): Unit = {
    val dir = tempDir("absc-cli")
    val r = absc(backend, "compile", absFile(dir, "hello"))
    assertEquals(2, r.status)
    assertTrue(r.err.contains("--output-dir"), r.err)
  }

  @Test def aMissingFileIsReportedByName(): Unit = {
    for (cmd <- List("run", "test")) {
      val r = absc(backend, cmd, "no-such-file.abs")
      assertEquals(2, r.status)
      assertEquals("absc: cannot read 'no-such-file.abs': No such file\n", r.err)
      assertEquals("", r.out)
    }
    val dir = tempDir("absc-cli")
    val c = absc(backend, "compile", "-d", dir.toString, absFile(dir, "hello"), "missing.abs")
    assertEquals(2, c.status)
    assertEquals("absc: cannot read 'missing.abs': No such file\n", c.err)
    assertEquals(0, backend.emitted.get, "nothing is translated when a file is missing")
  }

  @Test def aDirectoryIsNotASourceFile(): Unit = {
    val dir = tempDir("absc-cli")
    val r = absc(backend, "run", dir.toString)
    assertEquals(2, r.status)
    assertEquals(s"absc: cannot read '$dir': Is a directory\n", r.err)
  }

  @Test def onlyRunTakesProgramArguments(): Unit = {
    val dir = tempDir("absc-cli")
    val r = absc(backend, "compile", "-d", dir.toString, absFile(dir, "hello"), "--", "x")
    assertEquals(2, r.status)
    assertTrue(r.err.contains("takes no arguments after '--'"), r.err)
  }

  @Test def compileWritesTheGeneratedSources(): Unit = {
    val dir = tempDir("absc-cli")
    val out = dir.resolve("out")
    val r = absc(backend, "compile", "-d", out.toString, absFile(dir, "hello"))
    assertEquals(0, r.status, r.err)
    assertEquals("", r.out)
    assertEquals(hello.files.head.text, Files.readString(out.resolve("hello/Main.scala")))
  }

  @Test def generatedPathsCannotEscapeTheOutputDirectory(): Unit = {
    val evil = new FakeBackend(Map("evil" -> Generated(List(GeneratedFile("../evil.scala", "")), None)))
    val dir = tempDir("absc-cli")
    val r = absc(evil, "compile", "-d", dir.resolve("out").toString, absFile(dir, "evil"))
    assertEquals(2, r.status)
    assertTrue(r.err.contains("not inside the output directory"), r.err)
    assertFalse(Files.exists(dir.resolve("evil.scala")))
  }

  @Test def aSourceThatIsNotUtf8IsALocatedError(): Unit = {
    val dir = tempDir("absc-cli")
    val f = dir.resolve("latin1.abs")
    Files.write(f, "module M;\n{\n  println(\"caf\u00e9\");\n}\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))
    for (cmd <- List(List("run"), List("compile", "-d", dir.resolve("out").toString))) {
      val r = absc(backend, (cmd :+ f.toString): _*)
      assertEquals(2, r.status, r.err)
      assertEquals(s"$f:3:15: error: invalid UTF-8 byte 0xE9 (source files must be encoded in UTF-8)\n" +
        "  println(\"caf\uFFFD\");\n              ^\nabsc: 1 error\n", r.err)
      assertEquals(0, backend.emitted.get, "nothing is translated")
    }
  }

  @Test def aHugeLineIsNotEchoedWhole(): Unit = {
    val dir = tempDir("absc-cli")
    val f = absFile(dir, "wide", "module M;\n{ Int x = " + ("1 + " * 250000) + "; }\n")
    val r = absc(backend, "run", f)
    assertEquals(2, r.status)
    assertTrue(r.err.length < 1000, s"${r.err.length} characters on stderr")
    assertTrue(r.err.startsWith(s"$f:2:1000011: error: expected an expression, found ';'\n..."), r.err)
  }
}
