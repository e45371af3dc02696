package cogs.runtime

import java.nio.file.{Files, Paths}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.jdk.CollectionConverters._

/**
 * Issue 13, target 1: a program on the defaults that logs nothing starts neither Typesafe Config
 * nor java.util.logging (together some 180 ms of a cold start on JDK 17). Runs [[ColdStartMain]]
 * in a fresh JVM with class loading logged; checks which classes were loaded, never a time.
 */
class ColdStartTest {
  private def loadedClasses(extraJvmArgs: String*): (List[String], String) = {
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val log = Files.createTempFile("cogs-cold", ".log")
    try {
      // java.class.path is surefire's booter jar, whose manifest names the test classes and dependencies.
      val cmd = List(java) ++ extraJvmArgs ++ List(s"-Xlog:class+load=info:file=$log", "-cp",
        System.getProperty("java.class.path"), "cogs.runtime.ColdStartMain")
      val p = new ProcessBuilder(cmd.asJava).redirectErrorStream(true).start()
      val out = new String(p.getInputStream.readAllBytes())
      assertEquals(0, p.waitFor(), out)
      (Files.readAllLines(log).asScala.toList, out)
    } finally Files.deleteIfExists(log)
  }

  @Test def aRunOnTheDefaultsLoadsNeitherConfigNorLogging(): Unit = {
    val (classes, out) = loadedClasses()
    assertTrue(out.contains("cold start ran 2 calls (cell 7)"), out)
    assertTrue(classes.exists(_.contains(" cogs.runtime.CogRuntime ")), "the class-load log is read")
    assertEquals(Nil, classes.filter(_.contains(" com.typesafe.config.")).take(3))
    assertEquals(Nil, classes.filter(_.contains(" java.util.logging.")).take(3))
  }

  @Test def aSystemPropertyOverrideLoadsConfigAndIsApplied(): Unit = {
    val (classes, out) = loadedClasses("-Dcogs.throughput=5")
    assertTrue(out.contains("throughput 5"), out)
    assertTrue(classes.exists(_.contains(" com.typesafe.config.ConfigFactory ")))
  }
}

/** The program [[ColdStartTest]] runs. */
object ColdStartMain {
  def main(args: Array[String]): Unit = {
    val rt = CogRuntime()
    try {
      val c = rt.spawn(new TestObjects.CellImpl)
      val n = rt.run(Proc.await(c.send("set")(_.set(7))).flatMap(_ => Proc.await(c.send("get")(_.get()))))
      println(s"cold start ran 2 calls (cell $n), throughput ${rt.settings.throughput}")
    } finally rt.close()
  }
}
