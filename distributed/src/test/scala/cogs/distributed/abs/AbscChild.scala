package cogs.distributed.abs

import java.io.{BufferedReader, InputStream, InputStreamReader}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions.assertTrue
import scala.jdk.CollectionConverters._

/**
 * absc (`cogs.absc.driver.Main`) in a child JVM on this module's class path, as a user runs it:
 * for the tests that start models on several nodes through absc's own options. The child and
 * every JVM it started are killed when the call returns, whatever happened.
 */
private[abs] object AbscChild {

  /** `absc COMMAND --cache-dir CACHE ARGS..`: exit status, stdout and stderr; fails the test after `limitSeconds`. */
  def apply(cache: Path, limitSeconds: Int, command: String, args: String*): (Int, String, String) = {
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val cmd = List(java, "-Xss16m", "-cp", System.getProperty("java.class.path"), "cogs.absc.driver.Main", command,
      "--cache-dir", cache.toString) ++ args
    val p = new ProcessBuilder(cmd: _*).start()
    val out = new StringBuffer
    val err = new StringBuffer
    val readers = List(collect(p.getInputStream, out), collect(p.getErrorStream, err))
    try {
      assertTrue(p.waitFor(limitSeconds.toLong, TimeUnit.SECONDS),
        s"absc $command ${args.mkString(" ")} did not end within $limitSeconds s; stdout:\n$out\nstderr:\n$err")
      readers.foreach(_.join(5000))
      (p.exitValue(), out.toString, err.toString)
    } finally {
      p.descendants().iterator().asScala.foreach(_.destroyForcibly())
      p.destroyForcibly()
    }
  }

  // A stream read to its end by a daemon thread, so that a child that fills a pipe never blocks.
  private def collect(in: InputStream, into: StringBuffer): Thread = {
    val t = new Thread(() => {
      val r = new BufferedReader(new InputStreamReader(in, UTF_8))
      try Iterator.continually(r.readLine()).takeWhile(_ != null).foreach(l => into.append(l).append('\n'))
      catch { case _: java.io.IOException => }
    })
    t.setDaemon(true)
    t.start()
    t
  }

  def deleteTree(p: Path): Unit =
    if (Files.exists(p)) {
      val s = Files.walk(p)
      try s.sorted(java.util.Comparator.reverseOrder[Path]()).forEach(f => Files.deleteIfExists(f))
      finally s.close()
    }
}
