package cogs.distributed.bench

import cogs.distributed.{Launcher, Node, RemoteRef, TestNodes}
import com.typesafe.config.ConfigFactory
import java.io.{DataInputStream, DataOutputStream}
import java.net.{InetAddress, ServerSocket, Socket}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}
import scala.jdk.CollectionConverters._

/** The benchmark's user-space link: it delays and stalls, and loses and reorders nothing. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DelayLinkTest {

  /** An echo server; returns its port. Each connection echoes what it reads until the peer closes. */
  private def echo(): ServerSocket = {
    val s = new ServerSocket(0, 8, InetAddress.getLoopbackAddress)
    val t = new Thread(() => try while (true) {
      val c = s.accept()
      val e = new Thread(() => try { c.getInputStream.transferTo(c.getOutputStream); c.close() } catch { case _: java.io.IOException => () })
      e.setDaemon(true); e.start()
    } catch { case _: java.io.IOException => () })
    t.setDaemon(true); t.start()
    s
  }

  @Test def bytesArriveIntactInOrderAndNoSoonerThanTheDelayBothWays(): Unit = {
    val server = echo()
    // A short stall, so that the test draws many of them quickly.
    val link = new DelayLink(server.getLocalPort, delayNanos = 3L * 1000 * 1000, loss = 0.2, rtoNanos = 2L * 1000 * 1000)
    try {
      val c = new Socket(InetAddress.getLoopbackAddress, link.port)
      c.setTcpNoDelay(true)
      val out = new DataOutputStream(c.getOutputStream)
      val in = new DataInputStream(c.getInputStream)
      for (round <- 0 until 50) {
        val t0 = System.nanoTime()
        out.writeInt(round)
        out.flush()
        assertEquals(round, in.readInt())
        // Through the link to the echo server and back: two crossings, each delayed (a lower bound only).
        assertTrue(System.nanoTime() - t0 >= 6L * 1000 * 1000, s"round $round came back sooner than two delays")
      }
      // A stream of many writes: every int, in order, even where stalls hold a chunk back.
      val reader = new Thread(() => (0 until 20000).foreach(i => assertEquals(i, in.readInt())))
      var failure: Throwable = null
      reader.setUncaughtExceptionHandler((_, e) => failure = e)
      reader.start()
      for (i <- 0 until 20000) { out.writeInt(i); if (i % 100 == 0) out.flush() }
      out.flush()
      reader.join(60000)
      assertFalse(reader.isAlive, "the echo did not bring every int back")
      assertNull(failure)
      assertTrue(link.stalls.get > 0, s"loss 0.2 held nothing back over ${link.chunks.get} chunks")
      c.close()
    } finally { link.close(); server.close() }
  }

  @Test def twoNodesBehindLinksCallEachOther(): Unit = {
    val bind = Launcher.freePorts(2)
    val links = bind.map(p => new DelayLink(p, delayNanos = 1L * 1000 * 1000, loss = 0.05, rtoNanos = 20L * 1000 * 1000))
    def conf(i: Int, seeds: Seq[String]) =
      ConfigFactory.parseMap(DelayLink.nodeSettings(links(i), bind(i)).asJava).withFallback(TestNodes.config(seeds))
    var nodes = Vector.empty[Node]
    try {
      val a = Node.start(conf(0, Nil))
      nodes :+= a
      val b = Node.start(conf(1, Seq(a.address.toString)))
      nodes :+= b
      TestNodes.registerAll(b)
      nodes.foreach(_.awaitMembers(2, 60, TimeUnit.SECONDS))
      // Every node's address is its link's, not the port it bound.
      assertEquals(Some(links(1).port), b.address.port)
      val store: RemoteRef = a.create(b.address, "store", 0).join(60, TimeUnit.SECONDS)
      val replies = (1 to 200).map(i => store.send[Int]("add", i))
      assertEquals((1 to 200).scanLeft(0)(_ + _).tail.toList, replies.map(_.join(60, TimeUnit.SECONDS)).toList)
      assertTrue(links.map(_.chunks.get).sum > 0)
    } finally { TestNodes.closeAll(nodes); links.foreach(_.close()) }
  }
}
