package cogs.distributed.bench

import java.io.{InputStream, OutputStream}
import java.net.{InetAddress, InetSocketAddress, ServerSocket, Socket}
import java.util.concurrent.{ConcurrentLinkedQueue, LinkedBlockingQueue, ThreadLocalRandom}
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.locks.LockSupport

/**
 * A user-space network link in front of one node, for the latency and loss figures
 * (docs/distributed.md, "Latency and loss"): this machine's kernel has no netem, so the delay and
 * the loss are made here, between the JVMs, not on the kernel's network path.
 *
 * The node binds its real port (`pekko.remote.artery.bind.port`) and advertises the link's
 * (`canonical.port`, the address peers connect to, as behind a NAT): every connection to the node
 * goes through the link, so every message between two nodes crosses exactly one link, once per
 * direction, and a round trip pays `2 * delay`. Both directions of a connection are delayed.
 *
 * - Delay: every chunk read is written `delayNanos` after it was read, in order.
 * - Loss: TCP does not lose bytes; a lost segment stalls the stream until it is retransmitted, and
 *   everything behind it waits (head-of-line blocking). With probability `loss` per chunk read (at
 *   most 64 KiB, loopback's MTU; a segment of a real link is smaller, so this draws fewer losses
 *   per byte than a per-packet loss of the same rate), the chunk and all that follow are held a
 *   further `rtoNanos` (200 ms, Linux's minimum retransmission timeout: a lone lost segment with
 *   no data behind it to trigger a fast retransmit waits that long). That is the effect of loss on
 *   a TCP stream, not packet loss itself: the figures say so.
 *
 * Each direction of a connection has a reader thread (stamps each chunk with its due time) and a
 * writer thread (parks until a chunk is due); the queue between them is the only hand-off.
 */
final class DelayLink(targetPort: Int, delayNanos: Long, loss: Double, rtoNanos: Long = 200L * 1000 * 1000) extends AutoCloseable {
  require(delayNanos >= 0 && loss >= 0 && loss < 1, s"delay $delayNanos ns, loss $loss")

  private val server = new ServerSocket()
  server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress, 0), 64)
  /** The port peers connect to: the node's canonical port. */
  val port: Int = server.getLocalPort
  private val sockets = new ConcurrentLinkedQueue[Socket]
  @volatile private var closed = false
  /** Chunks held back as lost, over the link's life (for the figures' notes). */
  val stalls = new AtomicLong
  val chunks = new AtomicLong

  private def daemon(name: String)(body: => Unit): Unit = {
    val t = new Thread(() => body, name)
    t.setDaemon(true)
    t.start()
  }

  daemon(s"link-$port-accept") {
    while (!closed) {
      val in = try server.accept() catch { case _: java.io.IOException => null } // closed
      if (in ne null) {
        sockets.add(in)
        try {
          in.setTcpNoDelay(true)
          // Refused while the node has not bound its port yet: the peer sees the connection
          // close and retries, as it would against the node itself.
          val out = new Socket(InetAddress.getLoopbackAddress, targetPort)
          out.setTcpNoDelay(true)
          sockets.add(out)
          pipe(in, out, s"link-$port-up")
          pipe(out, in, s"link-$port-down")
        } catch { case _: java.io.IOException => in.close() }
      }
    }
  }

  private final class Chunk(val bytes: Array[Byte], val length: Int, val due: Long)
  private val End = new Chunk(null, -1, 0L)

  private def pipe(from: Socket, to: Socket, name: String): Unit = {
    val queue = new LinkedBlockingQueue[Chunk]
    daemon(name + "-read") {
      val in: InputStream = from.getInputStream
      var lastDue = 0L
      try {
        var n = 0
        while (n >= 0) {
          val buf = new Array[Byte](65536)
          n = in.read(buf)
          if (n > 0) {
            chunks.incrementAndGet()
            // Never before an earlier chunk: a stall holds everything behind it.
            var due = math.max(System.nanoTime() + delayNanos, lastDue)
            if (loss > 0 && ThreadLocalRandom.current().nextDouble() < loss) { due += rtoNanos; stalls.incrementAndGet() }
            lastDue = due
            queue.put(new Chunk(buf, n, due))
          }
        }
      } catch { case _: java.io.IOException => () }
      queue.put(End)
    }
    daemon(name + "-write") {
      val out: OutputStream = to.getOutputStream
      try {
        var c = queue.take()
        while (c ne End) {
          var wait = c.due - System.nanoTime()
          while (wait > 0) { LockSupport.parkNanos(wait); wait = c.due - System.nanoTime() }
          out.write(c.bytes, 0, c.length)
          out.flush()
          c = queue.take()
        }
        to.shutdownOutput()
      } catch { case _: java.io.IOException => () }
    }
  }

  def close(): Unit = {
    closed = true
    server.close()
    sockets.forEach(s => try s.close() catch { case _: java.io.IOException => () })
  }
}

object DelayLink {
  /**
   * The settings that put a node behind `link`: it binds `bindPort` (free, on loopback) and
   * advertises the link's port.
   */
  def nodeSettings(link: DelayLink, bindPort: Int): Map[String, String] = Map(
    "pekko.remote.artery.canonical.hostname" -> "127.0.0.1",
    "pekko.remote.artery.canonical.port" -> link.port.toString,
    "pekko.remote.artery.bind.hostname" -> "127.0.0.1",
    "pekko.remote.artery.bind.port" -> bindPort.toString)

  /** `DELAY_MS` and `LOSS_PERCENT` from system properties `cogs.bench.link.delay-ms` and `.loss-percent`. */
  def fromProperties(): Option[(Long, Double)] = {
    val d = Option(System.getProperty("cogs.bench.link.delay-ms")).map(_.toDouble)
    val l = Option(System.getProperty("cogs.bench.link.loss-percent")).map(_.toDouble)
    if (d.isEmpty && l.isEmpty) None else Some(((d.getOrElse(0.0) * 1e6).toLong, l.getOrElse(0.0) / 100))
  }
}
