package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit

import org.junit.jupiter.api.Assertions._

import DriverTestSupport._

/**
 * ABS models compiled in this JVM (absc's, normal heap) and run as a user's cached run is, each in
 * a JVM of its own: `java OPTIONS -cp CLASSES:... absmodel_main.Main`, with its output in files
 * under `dir` (or a pipe, see [[startPiped]]). Every wait is bounded; a JVM still alive at the
 * bound is killed and the test fails.
 */
final class ForkedModels(dir: Path) {
  import ForkedModels._

  /** The classes directory of `text` compiled as `name.abs`. */
  def compile(name: String, text: String): Path = {
    val err = new java.io.ByteArrayOutputStream
    val driver = new Driver(AbsBackend, new java.io.PrintStream(err, true, UTF_8), verbose = false)
    val sources = driver.readSources(List(absFile(dir, name, text))).toOption.get
    val built = driver.build(sources, CachePolicy.Cached(dir.resolve("cache")), None)
    assertTrue(built.isRight, err.toString(UTF_8))
    built.toOption.get.program.classes
  }

  private def command(classes: Path, jvmOptions: Seq[String]): List[String] = {
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    List(java) ++ jvmOptions ++
      List("-cp", classes.toString + _root_.java.io.File.pathSeparator + System.getProperty("java.class.path"), "absmodel_main.Main")
  }

  /** Started, its stdout and stderr going to `name.out` and `name.err`. */
  def start(classes: Path, name: String, jvmOptions: String*): (Process, Path, Path) = {
    val out = dir.resolve(s"$name.out")
    val err = dir.resolve(s"$name.err")
    val p = new ProcessBuilder(command(classes, jvmOptions): _*).redirectOutput(out.toFile).redirectError(err.toFile).start()
    p.getOutputStream.close()
    (p, out, err)
  }

  /** Started with its stdout a pipe to this JVM (`Process.getInputStream`), stderr to `name.err`. */
  def startPiped(classes: Path, name: String, jvmOptions: String*): (Process, Path) = {
    val err = dir.resolve(s"$name.err")
    val p = new ProcessBuilder(command(classes, jvmOptions): _*).redirectError(err.toFile).start()
    p.getOutputStream.close()
    (p, err)
  }

  def await(p: Process, out: Path, err: Path, what: String): Ended = {
    // Not a timing assertion: the bound only turns a JVM that never ends into a failure.
    if (!p.waitFor(3, TimeUnit.MINUTES)) {
      p.destroyForcibly()
      fail(s"$what: the JVM did not end by itself:\n${Files.readString(err)}")
    }
    Ended(p.exitValue, Files.readString(out), Files.readString(err))
  }

  def run(name: String, text: String, jvmOptions: String*): Ended = {
    val (p, out, err) = start(compile(name, text), name, jvmOptions: _*)
    await(p, out, err, name)
  }
}

object ForkedModels {
  final case class Ended(status: Int, out: String, err: String)

  /** Status 1, one paragraph: no stack trace, no deadlock report, no internal error. */
  def assertClean(e: Ended): Unit = {
    assertEquals(1, e.status, e.err)
    assertFalse(e.err.contains("\tat "), s"no stack trace:\n${e.err}")
    assertFalse(e.err.contains("deadlock"), s"no deadlock report:\n${e.err}")
    assertFalse(e.err.contains("internal error"), e.err)
    assertFalse(e.err.contains("Exception in thread"), e.err)
  }
}
