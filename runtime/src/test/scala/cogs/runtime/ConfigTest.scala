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
