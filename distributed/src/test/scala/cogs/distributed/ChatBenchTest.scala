package cogs.distributed

import cogs.distributed.bench.ChatBench
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}

/**
 * The chat macrobenchmark end to end, tiny, Cogs and plain Pekko: locally in this JVM and on two
 * JVMs. The run itself checks every round's accounting (every client acted once, every follow-up
 * announced by a bump reported, the count never went below zero) and fails its exit status
 * otherwise; the mix makes every action kind likely in a few rounds. No timing is checked.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ChatBenchTest {
  private val tiny = Seq("--clients", "24", "--directories", "3", "--rounds", "12", "--warmup", "1", "--befriend", "20", "--mix", "20,40,10,30")

  @Test def local(): Unit = assertEquals(0, ChatBench.local(tiny))
  @Test def onTwoJvms(): Unit = assertEquals(0, ChatBench.launch(2, tiny))
}
