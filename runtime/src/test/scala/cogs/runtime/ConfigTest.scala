package cogs.runtime

import com.typesafe.config.{ConfigException, ConfigFactory}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** Point 9: configuration with documented defaults, and a clean shutdown. */
class ConfigTest {
  @Test def defaultsComeFromReferenceConf(): Unit = {
    val s = CogRuntime.Settings(ConfigFactory.load())
    assertEquals(Runtime.getRuntime.availableProcessors, s.parallelism)
    assertEquals(32, s.throughput)
    assertEquals("cogs-worker", s.threadNamePrefix)
  }

  @Test def theBuiltInDefaultsAreWhatReferenceConfSays(): Unit =
    assertEquals(CogRuntime.Settings(ConfigFactory.defaultReference()), CogRuntime.Settings.defaults)

  // CogRuntime() reads no configuration when nothing can override the defaults (ConfigProbe); each
  // way of overriding must still reach it.

  @Test def aSystemPropertyStillOverridesTheDefaults(): Unit = {
    System.setProperty("cogs.throughput", "9")
    ConfigFactory.invalidateCaches()
    try {
      val rt = CogRuntime()
      try assertEquals(9, rt.settings.throughput) finally rt.close()
    } finally {
      System.clearProperty("cogs.throughput")
      ConfigFactory.invalidateCaches()
    }
    val rt = CogRuntime()
    try assertEquals(32, rt.settings.throughput) finally rt.close()
  }

  @Test def anApplicationConfStillOverridesTheDefaults(): Unit =
    withResource("application.conf", "cogs.executor.thread-name-prefix = from-app\ncogs { throughput = 11 }") { rt =>
      assertEquals(11, rt.settings.throughput)
      assertEquals("from-app", rt.settings.threadNamePrefix)
    }

  // Config merges every reference.conf, an earlier one on the class path winning: this one comes first.
  @Test def anotherReferenceConfStillOverridesTheDefaults(): Unit =
    withResource("reference.conf", "# a library's defaults\ncogs {\n  throughput = 12\n}\n", first = true) { rt =>
      assertEquals(12, rt.settings.throughput)
    }

  @Test def aReferenceConfOfOtherKeysLeavesTheDefaults(): Unit =
    withResource("reference.conf", "cogs.monitor { runtime { executor { parallelism = 1 } } }\n") { rt =>
      assertEquals(CogRuntime.Settings.defaults, rt.settings)
    }

  /** Runs `check` on `CogRuntime()` made with a context class loader that also sees `name` with `text`. */
  private def withResource(name: String, text: String, first: Boolean = false)(check: CogRuntime => Unit): Unit = {
    val dir = java.nio.file.Files.createTempDirectory("cogs-config")
    val file = dir.resolve(name)
    java.nio.file.Files.writeString(file, text)
    val t = Thread.currentThread()
    val saved = t.getContextClassLoader
    val loader =
      if (!first) new java.net.URLClassLoader(Array(dir.toUri.toURL), saved)
      else {
        // Resources only: the runtime's own classes and reference.conf, behind `dir`.
        val own = classOf[CogRuntime].getProtectionDomain.getCodeSource.getLocation
        new java.net.URLClassLoader(Array(dir.toUri.toURL, own), ClassLoader.getPlatformClassLoader)
      }
    t.setContextClassLoader(loader)
    ConfigFactory.invalidateCaches()
    try {
      val rt = CogRuntime()
      try check(rt) finally rt.close()
    } finally {
      t.setContextClassLoader(saved)
      ConfigFactory.invalidateCaches()
      loader.close()
      java.nio.file.Files.delete(file)
      java.nio.file.Files.delete(dir)
    }
  }

  @Test def overridesApply(): Unit = {
    val rt = CogRuntime.withOverrides("cogs { executor.parallelism = 3, throughput = 7 }")
    try {
      assertEquals(3, rt.settings.parallelism)
      assertEquals(7, rt.settings.throughput)
      assertEquals(1, rt.run(Proc.done(1)))
    } finally rt.close()
  }

  @Test def badValuesAreRejectedWithTheKeyNamed(): Unit = {
    val e = assertThrows(classOf[IllegalArgumentException], () => CogRuntime.withOverrides("cogs.throughput = 0"): Unit)
    assertTrue(e.getMessage.contains("cogs.throughput"), e.getMessage)
    val w = assertThrows(classOf[ConfigException.WrongType], () => CogRuntime.withOverrides("cogs.throughput = lots"): Unit)
    assertTrue(w.getMessage.contains("throughput"), w.getMessage)
  }

  @Test def closeStopsTheWorkersAndIsIdempotent(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.executor.thread-name-prefix = close-test")
    assertEquals(2, rt.run(Proc.done(2)))
    rt.close(); rt.close()
    Thread.sleep(50)
    val alive = Thread.getAllStackTraces.keySet.toArray(new Array[Thread](0)).count(_.getName.startsWith("close-test"))
    assertEquals(0, alive, "worker threads end after close")
  }
}
