package cogs.absc.run

import java.nio.file.{Files, Paths}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import ProgramCommandLine.{Bad, Help, Run}

/**
 * The command line of a program on its own (issue 27, item 2): what its package's launcher passes
 * through is parsed here, each value checked by the checks `absc run` makes, with the messages
 * the launcher used to give; relative files against the working directory; the system
 * properties' options under the command line.
 */
class ProgramCommandLineTest {

  private def parse(args: String*): ProgramCommandLine.Parsed = ProgramCommandLine.parse(args.toArray, RunOptions())

  private def options(args: String*): RunOptions = parse(args: _*) match {
    case Run(o, _) => o
    case other => fail(s"${args.mkString(" ")}: $other")
  }

  @Test def goodOptionsTakeEffect(): Unit = {
    val o = options("--workers", "3", "--clock-limit", " 5/2 ", "--port", "0", "--url-prefix", "/a/b", "--strict", "--no-end-report")
    assertEquals(Some(3), o.workers)
    assertEquals("3", o.runtimeConfig.get.getString("cogs.executor.parallelism"), "the workers reach the runtime's configuration")
    assertEquals(Some("5/2"), o.clockLimit)
    assertEquals(cogs.runtime.SimTime.of(5, 2), OptionChecks.clockLimitTime(o.clockLimit.get))
    assertEquals(Some(0), o.port)
    assertEquals(Some("/a/b"), o.urlPrefix)
    assertTrue(o.strict)
    assertFalse(o.endReport)
    assertEquals(Some(65535), options("-p", "65535").port, "-p as the launcher took it")
    assertEquals(Some("7"), options("-l", "7").clockLimit, "-l as the launcher took it")
    assertEquals(Some(2), options("--workers", "5", "--workers", "2").workers, "the last of an option given twice counts")
  }

  @Test def relativeFilesAreResolvedAgainstTheWorkingDirectory(): Unit = {
    val here = Paths.get("").toAbsolutePath
    val o = options("--record", "runs/r.json", "--record-format", "erlang")
    assertEquals(Some(here.resolve("runs/r.json")), o.record)
    assertEquals(Some("erlang"), o.recordFormat)
    assertEquals(Some(here.resolve("r.json")), options("--replay", "x/../r.json").replay)
    val page = Files.createTempFile("index-", ".html")
    try {
      val relative = here.relativize(page)
      assertEquals(Some(page.toAbsolutePath.normalize), options("--port", "0", "--modelapi-index-file", relative.toString).indexFile)
    } finally Files.delete(page)
  }

  @Test def badValuesGetTheMessagesOfAbscRun(): Unit = {
    assertEquals(Bad("--workers must be a whole number of at least 1, not '0'"), parse("--workers", "0"))
    assertEquals(Bad("--workers must be a whole number of at least 1, not 'two'"), parse("--workers", "two"))
    assertEquals(Bad("--clock-limit: 'ten' is not a time (a whole number or a fraction such as 5/2)"), parse("--clock-limit", "ten"))
    assertEquals(Bad("--clock-limit: '5/0' is not a time (a whole number or a fraction such as 5/2)"), parse("-l", "5/0"))
    assertEquals(Bad("--port must be from 0 to 65535, not '65536'"), parse("--port", "65536"))
    assertEquals(Bad("--port must be from 0 to 65535, not '-1'"), parse("--port", "-1"))
    assertEquals(Bad("--record and --replay exclude each other"), parse("--record", "a.json", "--replay", "b.json"))
    assertEquals(Bad("--record-format needs --record FILE"), parse("--record-format", "erlang"))
    assertEquals(Bad("--record-format must be 'cogs' or 'erlang', not 'xml'"), parse("--record", "a", "--record-format", "xml"))
    assertEquals(Bad("--url-prefix needs --port"), parse("--url-prefix", "/x"))
    assertEquals(Bad("--modelapi-static-dir needs --port"), parse("--modelapi-static-dir", "."))
    parse("--port", "0", "--modelapi-index-file", "no-such-page.html") match {
      case Bad(m) => assertTrue(m.startsWith("--modelapi-index-file: no such file: /") && m.endsWith("/no-such-page.html"), m)
      case other => fail(other.toString)
    }
    // The same checks as absc's: one definition.
    assertEquals(Left("--workers must be a whole number of at least 1, not '0'"), OptionChecks.workers("0"))
  }

  @Test def aBadCommandLineIsSaidAsTheLauncherSaidIt(): Unit = {
    assertEquals(Bad("unknown option '--frobnicate'"), parse("--frobnicate"))
    assertEquals(Bad("option --workers needs a value"), parse("--workers"))
    assertEquals(Bad("unexpected argument 'data.txt' (the program's arguments go after '--')"), parse("data.txt"))
    assertEquals(Bad("unexpected argument 'data.txt' (the program's arguments go after '--')"), parse("--strict", "data.txt", "--", "x"))
  }

  @Test def theProgramsArgumentsFollowTheDoubleDash(): Unit = {
    assertEquals(Run(RunOptions(), Nil), parse())
    assertEquals(Run(RunOptions(), List("a", "--workers", "0")), parse("--", "a", "--workers", "0"), "after '--' nothing is an option")
    assertEquals(Run(RunOptions(strict = true), List("a", "--", "b")), parse("--strict", "--", "a", "--", "b"))
  }

  @Test def theCommandLineGoesOverTheProperties(): Unit = {
    // What the system properties give (workers, seed, foreign bindings) stays unless an option replaces it.
    val base = RunOptions(workers = Some(4), seed = Some(7L), foreign = Map("M.C" -> "x.Y"))
    ProgramCommandLine.parse(Array("--clock-limit", "3", "--port", "8080"), base) match {
      case Run(o, Nil) => assertEquals(base.copy(clockLimit = Some("3"), port = Some(8080)), o)
      case other => fail(other.toString)
    }
    assertEquals(Run(base.copy(workers = Some(1)), Nil), ProgramCommandLine.parse(Array("--workers", "1"), base))
    assertEquals(Run(base, List("x")), ProgramCommandLine.parse(Array("--", "x"), base))
  }

  @Test def helpListsEveryOption(): Unit = {
    assertEquals(Help, parse("--help"))
    assertEquals(Help, parse("--workers", "2", "-h"))
    val text = ProgramCommandLine.usage("shop")
    assertTrue(text.startsWith("usage: shop [--workers N] [--clock-limit T]"), text)
    for (o <- List("--workers N", "--clock-limit T", "--port PORT", "--url-prefix PREFIX", "--modelapi-index-file FILE",
        "--modelapi-static-dir DIR", "--record FILE", "--record-format FORMAT", "--replay FILE", "--strict", "--no-end-report",
        "ARGs after '--' are passed to the program", "2 on a bad command line"))
      assertTrue(text.contains(o), s"the help says $o:\n$text")
  }
}
