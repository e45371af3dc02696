package cogs.absc.driver

import java.nio.file.Files

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * The options of `absc run --nodes` / `--node` checked before anything starts ([[Nodes.plan]]):
 * what each wrong combination says, and what a right one plans. Running the nodes is tested end
 * to end in the module distributed (`AbsRunNodesTest`), which has Pekko.
 */
class NodesPlanTest {
  private def conf(text: String): String = {
    val f = Files.createTempFile("cluster", ".conf")
    Files.writeString(f, text)
    f.toFile.deleteOnExit()
    f.toString
  }

  private def error(nodes: Option[String], node: Option[String], config: Option[String], deploy: List[String]): String =
    Nodes.plan(nodes, node, config, deploy) match {
      case Left(why) => why
      case Right(p)  => fail(s"expected an error, got $p")
    }

  @Test def noNodeOptionsNoPlan(): Unit =
    assertEquals(Right(None), Nodes.plan(None, None, None, Nil))

  @Test def localNodesWithDeploy(): Unit =
    Nodes.plan(Some("local:3"), None, None, List("Right=n1,Left=main", "Far = n2")) match {
      case Right(Some(p: Nodes.Local)) =>
        assertEquals(List("main", "n1", "n2"), p.names)
        assertEquals(Map("Right" -> "n1", "Left" -> "main", "Far" -> "n2"), p.deployment)
      case other => fail(s"$other")
    }

  @Test def deployOverridesTheFile(): Unit = {
    val f = conf("cogs.distributed.deployment { Right = n2, Left = main }")
    Nodes.plan(Some("local:2"), None, Some(f), List("Right=n1")) match {
      case Right(Some(p: Nodes.Local)) => assertEquals(Map("Right" -> "n1", "Left" -> "main"), p.deployment)
      case other => fail(s"$other")
    }
  }

  @Test def badNodesValues(): Unit = {
    for (spec <- List("local:1", "local:0", "local:65", "local:x", "remote:2", "2"))
      assertTrue(error(Some(spec), None, None, List("R=n1")).startsWith(s"--nodes: '$spec' is not local:N with N from 2 to 64"), spec)
  }

  @Test def aComponentOnANodeThatIsNotStarted(): Unit =
    assertEquals("deployment component 'Right' is mapped to node 'n2', but --nodes local:2 starts the nodes main, n1",
      error(Some("local:2"), None, None, List("Right=n2")))

  @Test def otherMistakes(): Unit = {
    assertTrue(error(Some("local:2"), None, None, Nil).startsWith("no deployment component is mapped to a node"))
    assertTrue(error(Some("local:2"), Some("n1"), None, List("R=n1")).contains("exclude each other"))
    assertTrue(error(None, None, None, List("R=n1")).startsWith("--deploy maps deployment components"))
    assertTrue(error(Some("local:2"), None, None, List("Right")).startsWith("--deploy: 'Right' is not COMPONENT=NODE"))
    assertTrue(error(Some("local:2"), None, Some("/no/such/file.conf"), Nil).startsWith("--config: no such file"))
    assertTrue(error(Some("local:2"), None, Some(conf("cogs.distributed.deployment { Right = ")), Nil).startsWith("--config: "))
    assertTrue(error(Some("local:2"), None, None, List("a.b=n1")).contains("has a '.' in its name"))
  }

  @Test def oneNodeOfAConfiguredCluster(): Unit = {
    val f = conf("""cogs.distributed {
                   |  nodes { main = "10.0.0.1:25520", n1 = "10.0.0.2:25521" }
                   |  deployment { Right = n1 }
                   |}""".stripMargin)
    Nodes.plan(None, Some("n1"), Some(f), Nil) match {
      case Right(Some(p: Nodes.One)) =>
        assertEquals(Map("main" -> ("10.0.0.1" -> 25520), "n1" -> ("10.0.0.2" -> 25521)), p.addresses)
        assertEquals(Map("Right" -> "n1"), p.deployment)
      case other => fail(s"$other")
    }
    assertTrue(error(None, Some("n1"), None, List("Right=n1")).startsWith("--node n1 needs --config FILE"))
    assertTrue(error(None, Some("n3"), Some(f), Nil).startsWith("--node: no node named 'n3'"))
    assertTrue(error(None, Some("n1"), Some(f), List("Right=n2")).startsWith("deployment component 'Right' is mapped to node 'n2', but"))
    val noMain = conf("""cogs.distributed { nodes { n1 = "h:1" }, deployment { R = n1 } }""")
    assertTrue(error(None, Some("n1"), Some(noMain), Nil).contains("has no node named 'main'"))
    val badPort = conf("""cogs.distributed { nodes { main = "h:1", n1 = "h:99999" }, deployment { R = n1 } }""")
    assertTrue(error(None, Some("n1"), Some(badPort), Nil).contains("n1 = \"h:99999\" is not an address HOST:PORT"))
  }

  /** `--cluster-clock`: only with nodes; then every node's JVM gets the setting, and without it none does. */
  @Test def clusterClockGoesToEveryNode(): Unit = {
    assertEquals("--cluster-clock is one simulated clock for the nodes of --nodes or --node: give one of them " +
      "(a run in one JVM has one clock already: leave --cluster-clock out)",
      Nodes.plan(None, None, None, Nil, clusterClock = true).left.getOrElse(fail("expected an error")))
    // The other checks still come first: a bad --nodes is said as without the option.
    assertTrue(Nodes.plan(Some("local:1"), None, None, List("R=n1"), clusterClock = true).left.exists(_.startsWith("--nodes: 'local:1'")))
    def property(p: Nodes.Plan, name: String): Option[String] =
      Nodes.nodeProperties(p, name, "127.0.0.1", 25520, "pekko://cogs@127.0.0.1:25520").toMap.get(Nodes.ClusterClockKey)
    Nodes.plan(Some("local:3"), None, None, List("R=n1"), clusterClock = true) match {
      case Right(Some(p: Nodes.Local)) =>
        assertTrue(p.clusterClock)
        for (n <- p.names) assertEquals(Some("on"), property(p, n), n)
      case other => fail(s"$other")
    }
    Nodes.plan(Some("local:2"), None, None, List("R=n1")) match {
      case Right(Some(p: Nodes.Local)) =>
        assertFalse(p.clusterClock)
        // Not "off" either: a --config FILE's own cogs.distributed.cluster-clock must hold.
        for (n <- p.names) assertEquals(None, property(p, n), n)
      case other => fail(s"$other")
    }
    val f = conf("""cogs.distributed { nodes { main = "h:1", n1 = "h:2" }, deployment { R = n1 } }""")
    Nodes.plan(None, Some("n1"), Some(f), Nil, clusterClock = true) match {
      case Right(Some(p: Nodes.One)) =>
        assertTrue(p.clusterClock)
        assertEquals(Some("on"), property(p, "n1"))
      case other => fail(s"$other")
    }
  }

  /**
   * `--spread-components`: only with nodes; it stands in for a mapping (none needed), and every
   * node gets the same order, serving nodes first (numerically), main last.
   */
  @Test def spreadComponentsGoesToEveryNodeInOneOrder(): Unit = {
    assertEquals("--spread-components spreads the deployment components over the nodes of --nodes or --node: give one of them " +
      "(e.g. --nodes local:2 --spread-components)",
      Nodes.plan(None, None, None, Nil, spread = true).left.getOrElse(fail("expected an error")))
    assertTrue(Nodes.plan(Some("local:2"), None, None, Nil).left.exists(_.contains("or --spread-components")))
    def property(p: Nodes.Plan, name: String): Option[String] =
      Nodes.nodeProperties(p, name, "127.0.0.1", 25520, "pekko://cogs@127.0.0.1:25520").toMap.get(Nodes.SpreadKey)
    Nodes.plan(Some("local:2"), None, None, Nil, clusterClock = true, spread = true) match {
      case Right(Some(p: Nodes.Local)) =>
        assertEquals(List("n1", "main"), p.spreadOrder)
        assertTrue(p.deployment.isEmpty)
        for (n <- p.names) assertEquals(Some("n1,main"), property(p, n), n)
      case other => fail(s"$other")
    }
    // n10 after n2: by number, not by text.
    Nodes.plan(Some("local:11"), None, None, List("R=n3"), spread = true) match {
      case Right(Some(p: Nodes.Local)) =>
        assertEquals((1 to 10).map(i => s"n$i").toList :+ "main", p.spreadOrder)
        assertEquals(Map("R" -> "n3"), p.deployment)
      case other => fail(s"$other")
    }
    Nodes.plan(Some("local:2"), None, None, List("R=n1")) match {
      case Right(Some(p: Nodes.Local)) => for (n <- p.names) assertEquals(None, property(p, n), n)
      case other => fail(s"$other")
    }
    val f = conf("""cogs.distributed { nodes { main = "h:1", n1 = "h:2", edge = "h:3" } }""")
    Nodes.plan(None, Some("edge"), Some(f), Nil, spread = true) match {
      case Right(Some(p: Nodes.One)) =>
        assertEquals(List("n1", "edge", "main"), p.spreadOrder)
        assertEquals(Some("n1,edge,main"), property(p, "edge"))
      case other => fail(s"$other")
    }
  }
}
