package cogs.absc.driver

import cogs.absc.emit.{EmittedFile, EmittedProgram}

import java.nio.file.Files

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import DriverTestSupport._

/** Parsing of the command line: help, version, usage errors, unreadable files. */
class CommandLineTest {

  private val backend = new FakeBackend(programs)

  @Test def helpListsTheCommandsAndExitsZero(): Unit = {
    val r = absc(backend, "--help")
    assertEquals(0, r.status)
    for (c <- List("check", "dump", "compile", "run", "test", "Exit status")) assertTrue(r.out.contains(c), r.out)
    assertEquals("", r.err)
  }

  @Test def everyCommandHasItsHelp(): Unit = {
    for ((cmd, option) <- List("check" -> "FILE|DIR", "compile" -> "--output-dir", "run" -> "--keep-generated", "test" -> "--timeout")) {
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

  @Test def noCommandIsAShortUsageError(): Unit = {
    val r = absc(backend)
    assertEquals(2, r.status)
    assertEquals("absc: a command is required: check, dump, compile, run, test, package, products, explore\nabsc: see 'absc --help' for the usage\n", r.err)
  }

  @Test def aBadOptionIsOneLineAndAHintNotTheWholeHelp(): Unit = {
    val dir = tempDir("absc-cli")
    val f = absFile(dir, "hello")
    val r = absc(backend, "run", "--frobnicate", f)
    assertEquals(2, r.status)
    assertEquals("absc: Unknown option: '--frobnicate'\nabsc: see 'absc run --help' for the usage\n", r.err)
    val typo = absc(backend, "run", "--no-cach", f)
    assertEquals(2, typo.status)
    assertEquals("absc: Unknown option: '--no-cach'\nabsc: did you mean '--no-cache' or '--no-server' or '--no-end-report' or '--nodes' or '--node'?\nabsc: see 'absc run --help' for the usage\n", typo.err)
    val command = absc(backend, "jump", f)
    assertEquals(2, command.status)
    assertEquals("absc: unknown command 'jump' (the commands: check, dump, compile, run, test, package, products, explore)\nabsc: see 'absc --help' for the usage\n", command.err)
    val value = absc(backend, "test", "--timeout", "soon", f)
    assertEquals(2, value.status)
    assertTrue(value.err.startsWith("absc: Invalid value for option '--timeout'"), value.err)
    assertTrue(value.err.endsWith("absc: see 'absc test --help' for the usage\n"), value.err)
    assertEquals(2, value.err.linesIterator.size, value.err)
  }

  /** `--cluster-clock` belongs to a run on nodes: alone it is a usage error, said before anything is compiled. */
  @Test def clusterClockWithoutNodesIsAUsageError(): Unit = {
    val dir = tempDir("absc-cli")
    val f = absFile(dir, "hello")
    val r = absc(backend, "run", "--cluster-clock", f)
    assertEquals(2, r.status)
    assertEquals("absc: --cluster-clock is one simulated clock for the nodes of --nodes or --node: give one of them " +
      "(a run in one JVM has one clock already: leave --cluster-clock out)\nabsc: see 'absc run --help' for the usage\n", r.err)
    assertEquals("", r.out)
    // Help lines are wrapped: compare with the white space folded.
    val help = absc(backend, "run", "--help").out.replaceAll("\\s+", " ")
    assertTrue(help.contains("--cluster-clock With --nodes or --node: one simulated clock for all the model's nodes"), help)
  }

  /** `--spread-components` without nodes is a usage error for run and test alike; test refuses --node. */
  @Test def spreadComponentsWithoutNodesIsAUsageError(): Unit = {
    val dir = tempDir("absc-cli")
    val f = absFile(dir, "hello")
    for (cmd <- List("run", "test")) {
      val r = absc(backend, cmd, "--spread-components", f)
      assertEquals(2, r.status, cmd)
      assertEquals("absc: --spread-components spreads the deployment components over the nodes of --nodes or --node: give one of them " +
        s"(e.g. --nodes local:2 --spread-components)\nabsc: see 'absc $cmd --help' for the usage\n", r.err)
      assertEquals("", r.out)
    }
    val conf = dir.resolve("cluster.conf")
    java.nio.file.Files.writeString(conf, """cogs.distributed { nodes { main = "127.0.0.1:1", n1 = "127.0.0.1:2" } }""")
    val one = absc(backend, "test", "--node", "n1", "--config", conf.toString, "--spread-components", f)
    assertEquals(2, one.status)
    assertTrue(one.err.startsWith("absc: absc test runs a test's nodes on this machine only: use --nodes local:N"), one.err)
    val help = absc(backend, "run", "--help").out.replaceAll("\\s+", " ")
    assertTrue(help.contains("--spread-components With --nodes or --node: every deployment component that --deploy and --config do not map"), help)
    val testHelp = absc(backend, "test", "--help").out.replaceAll("\\s+", " ")
    assertTrue(testHelp.contains("--spread-components") && testHelp.contains("--cluster-clock") && testHelp.contains("--nodes=local:N"), testHelp)
  }

  /** The usage line of every command names every one of its options; run's ends with the program's arguments. */
  @Test def usageLinesAreComplete(): Unit = {
    val cl = Main.commandLine(new Main.Context(System.out, System.err, backend, _ => None, Array.empty, false))
    for (cmd <- Main.commandNames) {
      val help = absc(backend, cmd, "--help").out
      val usage = help.substring(0, help.indexOf("\n", help.indexOf("FILE|DIR...")))
      val options = cl.getSubcommands.get(cmd).getCommandSpec.options.asScala.toList
      assertTrue(options.size >= 3, options.toString)
      // Options with a one-letter name may be shown in the cluster of flags, [-hVv].
      val cluster = "\\[-([A-Za-z]+)\\]".r.findFirstMatchIn(usage).map(_.group(1)).getOrElse("")
      for (o <- options)
        assertTrue(o.names.exists(n => usage.contains(n) || (n.length == 2 && cluster.contains(n(1)))),
          s"'absc $cmd' usage lacks ${o.longestName}:\n$usage")
    }
    val run = absc(backend, "run", "--help").out
    for (o <- List("--monitor", "--main-module", "--workers")) assertTrue(run.substring(0, run.indexOf("Compile the ABS")).contains(o), run)
    assertTrue(run.contains("FILE|DIR... [-- ARG...]\n"), run)
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

  @Test def aDirectoryStandsForTheAbsFilesUnderIt(): Unit = {
    val dir = tempDir("absc-cli")
    Files.createDirectories(dir.resolve("sub/deeper"))
    for (f <- List("b.abs", "a.abs", "sub/deeper/c.abs", "sub/0.abs", "notes.txt", "sub/x.abs.bak"))
      Files.writeString(dir.resolve(f), DriverTestSupport.AbsText)
    val a = dir.resolve("a.abs").toString
    assertEquals(Right(List("a.abs", "b.abs", "sub/0.abs", "sub/deeper/c.abs").map(dir.resolve(_).toString)),
      Driver.expandInputs(List(dir.toString)))
    // A file named as well as found in a directory is read once, where it first appears.
    assertEquals(Right(List(a, dir.resolve("b.abs").toString, dir.resolve("sub/0.abs").toString, dir.resolve("sub/deeper/c.abs").toString)),
      Driver.expandInputs(List(a, dir.toString)))
    assertEquals(Right(List("missing.abs")), Driver.expandInputs(List("missing.abs")))
  }

  @Test def theFilesOfADirectoryAreReadInOrder(): Unit = {
    val dir = tempDir("absc-cli")
    Files.createDirectories(dir.resolve("sub"))
    Files.writeString(dir.resolve("sub/a.abs"), "module A;\n{ Int x = ; }\n")
    Files.writeString(dir.resolve("b.abs"), "module B;\n{ skip }\n")
    val r = absc(backend, "check", dir.toString)
    assertEquals(2, r.status)
    val headers = r.err.linesIterator.filter(_.contains(": error: ")).toList
    assertEquals(List(s"${dir.resolve("b.abs")}:2:7: error: expected ';'", s"${dir.resolve("sub/a.abs")}:2:11: error: expected an expression, found ';'"), headers)
  }

  @Test def aDirectoryWithoutSourcesIsAUsageError(): Unit = {
    val dir = tempDir("absc-cli")
    val r = absc(backend, "run", dir.toString)
    assertEquals(2, r.status)
    assertEquals(s"absc: no .abs file in the directory '$dir'\nabsc: see 'absc run --help' for the usage\n", r.err)
  }

  @Test def checkParsesAndTypeChecksOnly(): Unit = {
    val dir = tempDir("absc-cli")
    val r = absc(backend, "check", absFile(dir, "hello"))
    assertEquals(0, r.status, r.err)
    assertEquals("", r.out + r.err)
    assertEquals(0, backend.emitted.get, "check translates nothing")
    val syntax = absc(backend, "check", absFile(dir, "bad", "module M;\n{ Int x = 1 }\n"))
    assertEquals(2, syntax.status)
    assertTrue(syntax.err.startsWith(s"${dir.resolve("bad.abs")}:2:12: error: expected ';'"), syntax.err)
  }

  @Test def aFileWithoutACommandIsChecked(): Unit = {
    val dir = tempDir("absc-cli")
    val ok = absc(backend, absFile(dir, "hello"))
    assertEquals(0, ok.status, ok.err)
    assertEquals("", ok.out + ok.err)
    assertEquals(0, backend.emitted.get, "absc FILE translates nothing")
    val bad = absc(backend, absFile(dir, "bad", "module M;\n{ Int x = 1 }\n"))
    assertEquals(2, bad.status)
    assertTrue(bad.err.startsWith(s"${dir.resolve("bad.abs")}:2:12: error: expected ';'"), bad.err)
    val asDir = absc(backend, dir.toString)
    assertEquals(2, asDir.status, "a directory is checked too: bad.abs is in it")
    // Not a file: still the usual answer to an unknown command.
    val typo = absc(backend, "chek", absFile(dir, "hello"))
    assertEquals(2, typo.status)
    assertFalse(typo.err.contains("expected ';'"), typo.err)
  }

  @Test def workersMustBePositive(): Unit = {
    val dir = tempDir("absc-cli")
    val r = absc(backend, "run", "--workers", "0", absFile(dir, "hello"))
    assertEquals(2, r.status)
    assertEquals("absc: --workers must be a whole number of at least 1, not '0'\nabsc: see 'absc run --help' for the usage\n", r.err)
    // The check a packaged program makes (cogs.absc.run.OptionChecks): a word is refused the same way.
    val word = absc(backend, "run", "--workers", "two", absFile(dir, "hello"))
    assertEquals("absc: --workers must be a whole number of at least 1, not 'two'\nabsc: see 'absc run --help' for the usage\n", word.err)
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
    val evil = new FakeBackend(Map("evil" -> EmittedProgram(List(EmittedFile("../evil.scala", "")), None)))
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
