package cogs.distributed

import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._

/** A child JVM of a multi-JVM test (output and errors merged into one stream), whose whole output a thread collects. */
final class ChildJvm(name: String, val process: Process) {
  private val out = new StringBuffer
  private val reader = new Thread(() => {
    val in = new BufferedReader(new InputStreamReader(process.getInputStream, UTF_8))
    Iterator.continually(in.readLine()).takeWhile(_ != null).foreach(l => out.append(l).append('\n'))
  })
  reader.setDaemon(true)
  reader.start()

  /** Its exit status; fails the test if it has not ended within `seconds` (a liveness bound). */
  def await(seconds: Long): Int = {
    assertTrue(process.waitFor(seconds, TimeUnit.SECONDS), s"$name did not end within $seconds s; its output:\n$output")
    reader.join(5000)
    process.exitValue()
  }

  def output: String = out.toString

  /** The first line that starts with `prefix`, once printed; fails if the JVM ends or `seconds` pass first. */
  def awaitLine(prefix: String, seconds: Long): String = {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
    while (System.nanoTime() < deadline) {
      output.linesIterator.find(_.startsWith(prefix)).foreach(l => return l)
      assertTrue(process.isAlive, s"$name ended before printing '$prefix'; its output:\n$output")
      Thread.sleep(50)
    }
    fail(s"$name printed no '$prefix' within $seconds s; its output:\n$output")
  }

  def kill(): Unit = process.destroyForcibly()
}
