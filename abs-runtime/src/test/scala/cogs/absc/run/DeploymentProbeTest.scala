package cogs.absc.run

import java.net.{URL, URLClassLoader}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import com.typesafe.config.ConfigFactory
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Issue 13, target 1: a run of an ABS model loads Typesafe Config only when something could map
 * a deployment component ([[RemotePlacement.mayBeConfigured]]). Each case builds a class loader
 * with no parent: the runtime's and the monitor's class locations (their own `reference.conf`s),
 * plus a directory with the resource under test; the probe must say yes whenever Config finds a
 * mapping there. No timing.
 */
class DeploymentProbeTest {

  private def location(c: Class[_]): URL = c.getProtectionDomain.getCodeSource.getLocation

  private def loaderWith(resources: (String, String)*): ClassLoader = {
    val dir = Files.createTempDirectory("cogs-probe")
    for ((name, text) <- resources) Files.writeString(dir.resolve(name), text, UTF_8)
    new URLClassLoader(Array(location(classOf[cogs.runtime.CogRuntime]), location(classOf[cogs.monitor.pipeline.Pipeline]),
      location(classOf[ConfigFactory]), dir.toUri.toURL), null)
  }

  private def configMaps(loader: ClassLoader): Boolean = {
    ConfigFactory.invalidateCaches()
    val c = ConfigFactory.load(loader)
    c.hasPath(RemotePlacement.DeploymentKey) && !c.getObject(RemotePlacement.DeploymentKey).isEmpty
  }

  @Test def cogsOwnDefaultsMapNothingAndNeedNoConfig(): Unit = {
    val l = loaderWith()
    assertFalse(configMaps(l), "the runtime's and the monitor's reference.conf map no deployment component")
    assertFalse(RemotePlacement.mayBeConfigured(l))
  }

  @Test def aMappingInAnyOtherResourceIsSeen(): Unit = {
    val mapping = "cogs.distributed.deployment { Server = \"node-1\" }\n"
    for (name <- List("application.conf", "application.json", "application.properties", "reference.conf")) {
      val text = if (name.endsWith(".properties")) "cogs.distributed.deployment.Server=node-1\n"
        else if (name.endsWith(".json")) "{ \"cogs\": { \"distributed\": { \"deployment\": { \"Server\": \"node-1\" } } } }\n"
        else mapping
      val l = loaderWith(name -> text)
      assertTrue(configMaps(l), s"Config reads the mapping in $name")
      assertTrue(RemotePlacement.mayBeConfigured(l), s"the probe misses the mapping in $name")
    }
  }

  @Test def anotherLibrarysReferenceConfIsReadNotFeared(): Unit = {
    // The distributed module's own reference.conf is such a library's: settings under
    // cogs.distributed, the deployment only in a comment.
    val quiet = loaderWith("reference.conf" -> "some.library.setting = 3\ncogs.distributed { join-timeout = 60s }\n# deployment { S = n1 }\n")
    assertFalse(configMaps(quiet))
    assertFalse(RemotePlacement.mayBeConfigured(quiet))
    val mapping = loaderWith("reference.conf" -> "cogs {\n  distributed {\n    deployment.Server = node-1\n  }\n}\n")
    assertTrue(configMaps(mapping))
    assertTrue(RemotePlacement.mayBeConfigured(mapping))
  }

  @Test def whatTheProbeCannotFollowIsAFalseAlarmNotAMiss(): Unit = {
    val l = loaderWith("reference.conf" -> "include \"other.conf\"\n")
    assertFalse(configMaps(l))
    assertTrue(RemotePlacement.mayBeConfigured(l))
  }
}

/** The program [[DeploymentProbeColdTest]] runs: an ABS-like main block that does nothing. */
object DeploymentProbeColdMain {
  def main(args: Array[String]): Unit =
    ProgramRunner.runMain(args, (_: cogs.runtime.CogRuntime) => cogs.runtime.Proc.done(()))
}

class DeploymentProbeColdTest {
  private def loaded(extra: String*): List[String] = loadedWith(extra.toList, Nil)

  private def loadedWith(extra: List[String], args: List[String]): List[String] = {
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val log: Path = Files.createTempFile("cogs-cold", ".log")
    try {
      val cmd = List(java) ++ extra ++ List(s"-Xlog:class+load=info:file=$log", "-cp",
        System.getProperty("java.class.path"), "cogs.absc.run.DeploymentProbeColdMain") ++ args
      val p = new ProcessBuilder(cmd.asJava).redirectErrorStream(true).start()
      val out = new String(p.getInputStream.readAllBytes())
      assertEquals(0, p.waitFor(), out)
      Files.readAllLines(log).asScala.toList
    } finally Files.deleteIfExists(log)
  }

  @Test def aModelRunOnTheDefaultsLoadsNoConfig(): Unit = {
    val classes = loaded()
    assertTrue(classes.exists(_.contains(" cogs.absc.run.ProgramRunner$ ")), "the class-load log is read")
    assertEquals(Nil, classes.filter(_.contains(" com.typesafe.config.")).take(3))
  }

  /**
   * A program's command line is parsed by picocli (ProgramCommandLine), but one without options
   * (none, or `--` and the program's arguments: every fast-path run of `absc run`) loads none of it.
   */
  @Test def aCommandLineWithoutOptionsLoadsNoPicocli(): Unit = {
    for (args <- List(Nil, List("--", "--workers", "0"))) {
      val classes = loadedWith(Nil, args)
      assertTrue(classes.exists(_.contains(" cogs.absc.run.ProgramRunner$ ")), "the class-load log is read")
      assertEquals(Nil, classes.filter(_.contains(" picocli.")).take(3), s"args: $args")
    }
    assertTrue(loadedWith(Nil, List("--no-end-report")).exists(_.contains(" picocli.CommandLine ")), "an option is parsed by picocli")
  }

  @Test def aConfigPropertyLoadsConfig(): Unit = {
    // A property that changes what Config reads (here: environment overrides, with nothing to
    // override): Config is loaded and, since it maps nothing, no cluster is joined.
    val classes = loaded("-Dconfig.override_with_env_vars=true")
    assertTrue(classes.exists(_.contains(" com.typesafe.config.ConfigFactory ")))
  }
}
