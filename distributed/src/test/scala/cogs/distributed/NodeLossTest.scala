package cogs.distributed

import cogs.runtime._
import java.util.concurrent.TimeUnit
import scala.jdk.CollectionConverters._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}

/** A node leaves or crashes: every future waiting on it fails, naming the node and the call; nothing hangs. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NodeLossTest {

  private def lostCause(f: Fut[_]): NodeLostException = {
    val e = assertThrows(classOf[CallFailedException], () => f.join(60, TimeUnit.SECONDS))
    e.getCause match {
      case n: NodeLostException => n
      case other                => fail(s"expected NodeLostException, got $other", e)
    }
  }

  @Test def aNodeThatLeavesFailsTheCallsWaitingOnIt(): Unit = {
    val nodes = TestNodes.start(3)
    try {
      val Vector(a, b, c) = nodes
      val onC = a.create(c.address, "store").join(30, TimeUnit.SECONDS)
      val onB = a.create(b.address, "store").join(30, TimeUnit.SECONDS)
      val client = a.runtime.spawn(new Client(onC))
      val waiting = Cogs.send(client, "awaitGate", (x: Client) => x.awaitGate())
      val direct = onC.send[Int]("waitOpen")
      // Both calls reached c (two waiters) before it leaves.
      while (onC.send[Int]("waiters").join(30, TimeUnit.SECONDS) < 2) Thread.sleep(10)
      c.close()
      for (f <- List(waiting, direct)) {
        val n = lostCause(f)
        assertEquals(c.address.toString, n.node)
        // A node that leaves is usually reported as having left; on a loaded machine the failure
        // detector can see it unreachable first, or the cluster can down it before its leaving is
        // seen (CI-like load 9, JDK 25: "was lost (it was downed)"), and that report wins the race.
        // Each names the node and the call.
        assertTrue(n.getMessage.contains("Store.waitOpen") &&
          (n.getMessage.contains("left the cluster") || n.getMessage.contains("unreachable for") ||
            n.getMessage.contains("was downed")), n.getMessage)
      }
      // Calls to the lost node now fail at once; the other nodes go on.
      assertTrue(lostCause(onC.send[Int]("total")).getMessage.contains("Store.total"))
      // A one-way call to it is dropped (counted), and nothing waits for it.
      val dropped = a.oneWayDropped.get
      onC.tell("add", 1)
      assertEquals(dropped + 1, a.oneWayDropped.get)
      assertEquals(3, onB.send[Int]("add", 3).join(30, TimeUnit.SECONDS))
      // Nothing is left outstanding: the runtime is quiescent and reports no waiting process.
      assertTrue(a.runtime.awaitQuiescence(30, TimeUnit.SECONDS))
      assertEquals(Nil, a.runtime.deadlockReport())
    } finally TestNodes.closeAll(nodes)
  }

  /** A node in a child JVM (ChildNode) that has joined `a`'s cluster: `body` gets its address and the JVM, killed in the end. */
  private def withChild(a: Node)(body: (org.apache.pekko.actor.Address, Process) => Unit): Unit = {
    val child = Launcher.startJvm(ChildNode.getClass.getName.stripSuffix("$"), Seq(a.address.toString), Map.empty, inheritIO = false)
    try {
      val out = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream))
      var line = out.readLine()
      while (line != null && !line.startsWith("READY ")) line = out.readLine()
      assertNotNull(line, "the child node ended before it was ready")
      val childAddress = line.stripPrefix("READY ").trim
      // Keep reading its output, so that a full pipe never stalls the child.
      val drain = new Thread(() => try while (out.readLine() != null) {} catch { case _: java.io.IOException => () })
      drain.setDaemon(true)
      drain.start()
      a.awaitMembers(2, 60, TimeUnit.SECONDS)
      val addr = a.members.find(_.toString == childAddress).getOrElse(fail(s"$childAddress is not a member: ${a.members}"))
      body(addr, child)
    } finally child.destroyForcibly()
  }

  @Test def aCrashedJvmFailsTheCallsWaitingOnIt(): Unit = {
    val nodes = TestNodes.start(1)
    val a = nodes(0)
    try withChild(a) { (addr, child) =>
      val childAddress = addr.toString
      val s = a.create(addr, "store").join(30, TimeUnit.SECONDS)
      val client = a.runtime.spawn(new Client(s))
      val viaAwait = Cogs.send(client, "awaitGate", (x: Client) => x.awaitGate())
      val viaGet = Cogs.send(a.runtime.spawn(new Client(s)), "getGate", (x: Client) => x.getGate())
      while (s.send[Int]("waiters").join(30, TimeUnit.SECONDS) < 2) Thread.sleep(10)
      child.destroyForcibly().waitFor()
      for (f <- List(viaAwait, viaGet)) {
        val n = lostCause(f)
        assertEquals(childAddress, n.node)
        assertTrue(n.getMessage.contains("Store.waitOpen") && n.getMessage.contains("unreachable"), n.getMessage)
      }
      assertTrue(a.runtime.awaitQuiescence(30, TimeUnit.SECONDS))
      assertEquals(Nil, a.runtime.deadlockReport())
    } finally TestNodes.closeAll(nodes)
  }

  @Test def aJvmKilledInTheMiddleOfABurstLosesNothingAcknowledgedAndHangsNothing(): Unit = {
    // A small window: the burst runs through the backlog while the node dies.
    val nodes = TestNodes.start(1, "cogs.distributed.max-in-flight = 16")
    val a = nodes(0)
    try withChild(a) { (addr, child) =>
      val s = a.create(addr, "store").join(30, TimeUnit.SECONDS)
      // Four threads each send 5,000 calls add(1) without waiting, and one-way calls in between;
      // the child JVM is killed once 2,000 replies came back.
      val replies = new java.util.concurrent.atomic.AtomicInteger
      val futs = new java.util.concurrent.ConcurrentLinkedQueue[Fut[Int]]
      val senders = (0 until 4).map { _ =>
        new Thread(() => for (i <- 0 until 5000) {
          val f = s.send[Int]("add", 1)
          f.onComplete(r => if (r.isSuccess) replies.incrementAndGet())
          futs.add(f)
          if (i % 10 == 0) s.tell("add", 0)
        })
      }
      senders.foreach(_.start())
      // The senders only queue (the window lets 16 out at a time): they are done long before the replies.
      while (replies.get < 2000) Thread.sleep(1)
      child.destroyForcibly().waitFor()
      senders.foreach(_.join(60000))
      // Nothing hangs: every call ends, with its reply or with the node named as lost.
      val results = futs.asScala.toList.map(f => try Right(f.join(60, TimeUnit.SECONDS)) catch { case e: CallFailedException => Left(e.getCause) })
      assertEquals(20000, results.size)
      results.collect { case Left(e) => e }.foreach(e => assertTrue(e.isInstanceOf[NodeLostException], String.valueOf(e)))
      // Nothing acknowledged is lost: each reply is the total after its own add, so the totals
      // acknowledged are distinct (each add ran once) and none exceeds the number of calls.
      val totals = results.collect { case Right(v) => v }
      assertTrue(totals.size >= 2000, s"${totals.size} replies")
      assertEquals(totals.size, totals.distinct.size)
      assertTrue(totals.forall(t => t >= 1 && t <= 20000))
      assertEquals(0, a.pendingCalls)
      assertTrue(a.runtime.awaitQuiescence(30, TimeUnit.SECONDS))
      assertEquals(Nil, a.runtime.deadlockReport())
    } finally TestNodes.closeAll(nodes)
  }
}
