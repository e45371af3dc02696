package cogs.distributed

import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}

/** The launcher starts three JVMs on loopback that find each other through node 0 and call it. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LauncherTest {
  @Test def threeJvmsFormAClusterAndCallEachOther(): Unit =
    assertEquals(0, Launcher.launch(3, LaunchedNode.getClass.getName.stripSuffix("$"), Nil))
}
