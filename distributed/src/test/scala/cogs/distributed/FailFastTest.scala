package cogs.distributed

import java.net.{InetAddress, ServerSocket}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}

/**
 * Distribution fails fast and clearly (issue 28, item 3), each case in JVMs of its own on
 * loopback: a wrong seed address ends the node within its join timeout, naming the address; a
 * port in use, or a host name that does not resolve, is a one-paragraph error; a node whose `awaitMembers` times out ends its JVM with
 * nothing else (no `System.exit`: Pekko's threads must not keep it alive); a serving node whose
 * main node is killed exits with status 1 and says so. Every JVM is killed in `finally`; the
 * bounds are liveness bounds, nothing is timed.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FailFastTest {

  /** A JVM of the test class path. */
  private def jvm(main: String, props: Map[String, String]): ChildJvm =
    new ChildJvm(main, Launcher.startJvm(main, Nil, props, inheritIO = false))

  private def loopback(port: Int, seedPort: Int): Map[String, String] = Map(
    "pekko.remote.artery.canonical.hostname" -> "127.0.0.1",
    "pekko.remote.artery.canonical.port" -> port.toString,
    "pekko.cluster.seed-nodes.0" -> s"pekko://cogs@127.0.0.1:$seedPort")

  @Test def aWrongSeedAddressEndsTheNodeNamingIt(): Unit = {
    // Nobody listens at the seed's port: Pekko alone would try to join it forever.
    val Seq(own, nobody) = Launcher.freePorts(2)
    val j = jvm("cogs.distributed.abs.ServeModel",
      loopback(own, nobody) ++ Map("cogs.distributed.node-name" -> "n1", "cogs.distributed.join-timeout" -> "3s"))
    try {
      assertEquals(1, j.await(120))
      val out = j.output
      assertTrue(out.contains(s"cogs: node pekko://cogs@127.0.0.1:$own could not join the cluster: " +
        s"no seed node let it in within 3000 ms (cogs.distributed.join-timeout); it tried pekko://cogs@127.0.0.1:$nobody (pekko.cluster.seed-nodes)"), out)
      assertFalse(out.contains("serves the model"), out)
      // Pekko's start-up and membership lines are INFO: not shown by default.
      assertFalse(out.contains("[INFO]"), out)
    } finally j.kill()
  }

  @Test def aPortInUseIsAOneParagraphError(): Unit = {
    val taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))
    val port = taken.getLocalPort
    val j = jvm("cogs.distributed.abs.ServeModel", loopback(port, port) ++ Map("cogs.distributed.node-name" -> "n1"))
    try {
      assertEquals(1, j.await(120))
      val out = j.output
      assertTrue(out.contains(s"cogs: the node cannot serve the model: cannot start the node: the address 127.0.0.1:$port " +
        "(pekko.remote.artery.canonical.hostname and .port) is in use by another program (another node?): " +
        "give this node another port, or 0 for any free one."), out)
      assertFalse(out.contains("\tat "), out) // no stack trace
      assertTrue(out.linesIterator.count(_.nonEmpty) <= 3, out)
    } finally { j.kill(); taken.close() }
  }

  @Test def aHostNameThatDoesNotResolveIsAOneParagraphError(): Unit = {
    // .invalid never resolves (RFC 2606).
    val j = jvm("cogs.distributed.abs.ServeModel", Map("cogs.distributed.node-name" -> "n1",
      "pekko.remote.artery.canonical.hostname" -> "no-such-host.invalid", "pekko.remote.artery.canonical.port" -> "0"))
    try {
      assertEquals(1, j.await(120))
      val out = j.output
      assertTrue(out.contains("cogs: the node cannot serve the model: cannot start the node: the host name 'no-such-host.invalid' " +
        "(pekko.remote.artery.canonical.hostname) is not known on this machine: use an address or a name it resolves."), out)
      assertFalse(out.contains("\tat "), out)
      assertTrue(out.linesIterator.count(_.nonEmpty) <= 3, out)
    } finally j.kill()
  }

  @Test def aNodeWhoseAwaitMembersTimesOutEndsItsJvm(): Unit = {
    val Seq(own) = Launcher.freePorts(1)
    // AwaitTwo lets the exception out of main: the JVM must end anyway, with status 1.
    val j = jvm(AwaitTwo.getClass.getName.stripSuffix("$"), loopback(own, own))
    try {
      assertEquals(1, j.await(120))
      assertTrue(j.output.contains(s"node pekko://cogs@127.0.0.1:$own: 1 member(s) up after 2 seconds, wanted 2"), j.output)
      assertTrue(j.output.contains("the node is closed"), j.output)
    } finally j.kill()
  }

  @Test def killingTheMainNodeEndsTheServingNodeWithStatus1(): Unit = {
    val detection = Map(
      "pekko.cluster.failure-detector.heartbeat-interval" -> "200ms",
      "pekko.cluster.failure-detector.acceptable-heartbeat-pause" -> "1s",
      "pekko.cluster.unreachable-nodes-reaper-interval" -> "250ms",
      "cogs.distributed.lost-after" -> "1s")
    // The main node: a plain node with the role of a model's main node (ChildNode picks its own port).
    val main = jvm("cogs.distributed.ChildNode", Map("pekko.cluster.roles.0" -> "cogs-abs-main"))
    var serving: ChildJvm = null
    try {
      val address = main.awaitLine("READY ", 120).stripPrefix("READY ")
      val Seq(own) = Launcher.freePorts(1)
      serving = jvm("cogs.distributed.abs.ServeModel", detection ++ Map(
        "pekko.remote.artery.canonical.hostname" -> "127.0.0.1",
        "pekko.remote.artery.canonical.port" -> own.toString,
        "pekko.cluster.seed-nodes.0" -> address,
        "cogs.distributed.node-name" -> "n1"))
      serving.awaitLine("cogs: node 'n1' serves the model", 120)
      main.kill()
      assertEquals(1, serving.await(120))
      val out = serving.output
      assertTrue(out.contains(s"cogs: node 'n1' stops: main node $address was lost (unreachable for 1000 ms) before the model's main program ended"), out)
    } finally {
      main.kill()
      if (serving ne null) serving.kill()
    }
  }
}

/** A node alone that waits for a second member that never comes, and lets the exception out of main. */
object AwaitTwo {
  def main(args: Array[String]): Unit = {
    val node = Node.start()
    node.awaitMembers(2, 2, TimeUnit.SECONDS)
  }
}
