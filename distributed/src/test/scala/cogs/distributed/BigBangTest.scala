package cogs.distributed

import cogs.distributed.bench.BigBang
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}

/**
 * Big and Bang end to end on two JVMs, tiny: a fixed number of rounds, Cogs then plain Pekko.
 * Node 0 checks that the pongs counted over all nodes are exactly the expected number and that
 * every round's pongs carried its pings' numbers; its exit status says so (no timing is checked).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class BigBangTest {
  @Test def bigOnTwoJvms(): Unit = assertEquals(0, BigBang.launch(2, Seq("big", "--rounds", "200")))
  @Test def bangOnTwoJvms(): Unit = assertEquals(0, BigBang.launch(2, Seq("bang", "--rounds", "50", "--burst", "8")))
}
