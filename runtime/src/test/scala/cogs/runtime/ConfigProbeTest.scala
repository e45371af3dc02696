package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** ConfigProbe.maySetIn on the runtime's keys: every way a HOCON text can set a runtime key is caught. */
class ConfigProbeTest {
  private def touches(text: String) = ConfigProbe.maySetIn(text, List("cogs.executor", "cogs.throughput", "cogs.on-fatal-error", "cogs.shutdown-timeout"))

  @Test def keysOfTheRuntimeAreCaughtInEverySpelling(): Unit = {
    for (t <- List(
        "cogs.throughput = 8",
        "cogs.throughput: 8",
        "cogs.throughput 8",
        "cogs { throughput = 8 }",
        "cogs {\n  executor {\n    parallelism = 1\n  }\n}",
        "cogs.executor.parallelism = 1",
        "cogs.executor { thread-name-prefix = x }",
        "cogs.on-fatal-error = continue",
        "cogs { shutdown-timeout = 1s }",
        "a = 1\ncogs.throughput += 8",
        "other { x = 1 }, cogs.throughput = 8",
        "x = \"a string, with } and { and a # inside\"\ncogs.throughput = 8",
        "x = \"\"\"multi\nline } { \"\"\"\ncogs.throughput = 8",
        "x = [1, 2, {a = 1}]\ncogs { throughput = 8 }",
        "x = ${?HOME}\n// a comment } {\ncogs.throughput = 8",
        "cogs = ${other}",
        "cogs = null"))
      assertTrue(touches(t), t)
  }

  @Test def whatCannotBeFollowedCountsAsAnOverride(): Unit = {
    for (t <- List(
        "include \"other.conf\"",
        "include required(\"x\")",
        "\"cogs\".throughput = 8",
        "{ cogs.throughput = 8 }",
        "cogs.monitor { x = 1",
        "}",
        "x = \"unterminated\ncogs.throughput = 8"))
      assertTrue(touches(t), t)
  }

  @Test def otherKeysAreNot(): Unit = {
    for (t <- List(
        "",
        "# cogs.throughput = 8 in a comment\n// cogs { throughput = 8 }",
        "cogs.monitor {\n  runtime {\n    executor {\n      parallelism = 0\n      thread-name-prefix = \"cogs-monitor\"\n    }\n  }\n}",
        "cogs.distributed { shutdown-timeout = 5s, throughput = 3 }",
        "cogs { monitor { throughput = 1 } }",
        "other { cogs { throughput = 8 } }",
        "x = \"cogs.throughput = 8\"",
        "x = [ { cogs.throughput = 8 } ]",
        "pekko.actor.provider = cluster\npekko { loglevel = INFO }"))
      assertFalse(touches(t), t)
  }

  // The same analysis asked about a deeper key, as absc's runner asks about deployment components.
  @Test def aDeeperKeyIsCaughtAtItsPathAboveItAndInsideIt(): Unit = {
    val key = List("cogs.distributed.deployment")
    for (t <- List(
        "cogs.distributed.deployment { Server = n1 }",
        "cogs { distributed { deployment { Server = n1 } } }",
        "cogs.distributed { deployment.Server = n1 }",
        "cogs.distributed.deployment.Server = n1",
        "cogs.distributed = null",
        "cogs = ${other}",
        // Spaces Config takes for whitespace and Java does not.
        "cogs.distributed.deployment\u00a0{ n = m }",
        "\u00a0cogs.distributed.deployment { n = m }",
        "cogs.distributed.deployment\u202f= { n = m }",
        "cogs.distributed.deployment\u2007{ n = m }"))
      assertTrue(ConfigProbe.maySetIn(t, key), t)
    for (t <- List(
        "cogs.distributed { system-name = x, lost-after = 5s }",
        "cogs.distributed.deployment-timeout = 5s",
        "cogs { throughput = 8, executor { parallelism = 2 } }",
        "# deployment { Server1 = \"n1\" }\ncogs.distributed { join-timeout = 60s }"))
      assertFalse(ConfigProbe.maySetIn(t, key), t)
  }
}
