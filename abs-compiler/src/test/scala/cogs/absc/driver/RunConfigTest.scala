package cogs.absc.driver

import java.nio.file.{Files, Paths}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.run.{ProgramCommandLine, RunOptions}

/**
 * A run in a JVM of its own (the main node of `absc run --nodes`) gets the run's options as its
 * command line (`RunConfig.commandLine`): parsed there (`ProgramCommandLine`), it gives the
 * options absc hands a run in its own JVM (`RunConfig.runOptions`), files resolved against
 * absc's client's directory.
 */
class RunConfigTest {

  @Test def theCommandLineParsesToTheRunOptions(): Unit = {
    val base = Files.createTempDirectory("absc-runconfig")
    val page = Files.writeString(base.resolve("index.html"), "<html/>")
    val program = ProgramOptions(workers = Some(3), clockLimit = Some("7/2"), record = Some("runs/r.json"),
      recordFormat = Some("erlang"), port = Some(0), modelApiIndexFile = Some("index.html"), urlPrefix = Some("/p"),
      strict = true, endReport = false)
    val config = RunConfig(program, baseDir = Some(base))
    val line = config.commandLine(Array("x", "--workers"))
    assertEquals(List("--", "x", "--workers"), line.toList.dropWhile(_ != "--"), "the program's arguments after '--'")
    ProgramCommandLine.parse(line, RunOptions()) match {
      case ProgramCommandLine.Run(o, args) =>
        assertEquals(config.runOptions.copy(seed = None), o)
        assertEquals(List("x", "--workers"), args)
        assertEquals(Some(base.resolve("runs/r.json").toAbsolutePath), o.record)
        assertEquals(Some(page.toAbsolutePath), o.indexFile)
      case other => fail(s"${line.mkString(" ")}: $other")
    }
    assertEquals(Nil, RunConfig(ProgramOptions()).commandLine(Array.empty).toList, "no options, no arguments: an empty command line")
    assertEquals(List("cogs.executor.parallelism" -> "3"), config.properties, "only the runtime's key travels as a property")
  }
}
