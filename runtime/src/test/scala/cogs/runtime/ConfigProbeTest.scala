package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** ConfigProbe.mayTouchRuntimeKeys: every way a HOCON text can set a runtime key is caught. */
class ConfigProbeTest {
  private def touches(text: String) = ConfigProbe.mayTouchRuntimeKeys(text)

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
}
