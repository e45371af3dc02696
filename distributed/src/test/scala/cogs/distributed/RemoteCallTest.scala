package cogs.distributed

import cogs.runtime._
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance, Timeout}

/** Two nodes on loopback, in this JVM: creation, calls, values, failures, await and get, order. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteCallTest {
  private var nodes: Vector[Node] = _
  private def a = nodes(0)
  private def b = nodes(1)

  // A small window, so that the order test also runs through the backlog and its refill.
  @BeforeAll def up(): Unit = nodes = TestNodes.start(2, "cogs.distributed.max-in-flight = 8")
  @AfterAll def down(): Unit = TestNodes.closeAll(nodes)

  private def store(start: Int = 0): RemoteRef = a.create(b.address, "store", start).join(30, TimeUnit.SECONDS)

  @Test def createAndCall(): Unit = {
    val s = store(10)
    assertEquals(b.address, s.node)
    assertEquals("Store", s.className)
    assertEquals(15, s.send[Int]("add", 5).join(30, TimeUnit.SECONDS))
    assertEquals(17, s.send[Int]("add", 2).join(30, TimeUnit.SECONDS))
    assertEquals(17, s.send[Int]("total").join(30, TimeUnit.SECONDS))
  }

  /**
   * A caller's deadline travels as the time it had left, and the callee's process on the other
   * node has it (what absc's stand-in for a remote object sends for `[Deadline: d] o!m(..)`).
   */
  @Test def aDeadlineTravelsWithItsCall(): Unit = {
    val s = store()
    assertEquals(SimTime(7, 2).toString, a.call[String](s, "deadlineLeft", Nil, SimTime(7, 2)).join(30, TimeUnit.SECONDS))
    assertEquals(SimTime(-1).toString, a.call[String](s, "deadlineLeft", Nil, SimTime(-1)).join(30, TimeUnit.SECONDS))
    assertEquals("none", s.send[String]("deadlineLeft").join(30, TimeUnit.SECONDS))
  }

  @Test def valuesTravel(): Unit = {
    val s = store()
    assertEquals(Point(4, 2, "p!"), s.send[Point]("move", Point(1, 2, "p"), 3).join(30, TimeUnit.SECONDS))
    for (v <- List[Any]("text", 42L, 2.5d, 1.5f, true, 'c', (7: Short), (3: Byte), null, (), Point(0, 0, "")))
      assertEquals(v, s.send[Any]("echo", v).join(30, TimeUnit.SECONDS), s"echo of $v")
  }

  @Test def unserialisableArgumentNamesItsClass(): Unit = {
    val s = store()
    val e = assertThrows(classOf[CallFailedException], () => s.send[Any]("echo", Opaque(1)).join(30, TimeUnit.SECONDS))
    val cause = e.getCause.asInstanceOf[NotSerializableValueException]
    assertEquals(classOf[Opaque].getName, cause.valueClass)
    assertTrue(cause.getMessage.contains("argument 1 of Store.echo"), cause.getMessage)
    assertTrue(cause.getMessage.contains("cogs.distributed.Opaque"), cause.getMessage)
  }

  @Test def unserialisableResultNamesItsClass(): Unit = {
    val s = store()
    val e = assertThrows(classOf[CallFailedException], () => s.send[Any]("leak").join(30, TimeUnit.SECONDS))
    val cause = e.getCause.asInstanceOf[RemoteCallException]
    assertEquals(classOf[NotSerializableValueException].getName, cause.remoteClass)
    assertTrue(cause.getMessage.contains("the result of Store.leak"), cause.getMessage)
    assertTrue(cause.getMessage.contains("cogs.distributed.Opaque"), cause.getMessage)
  }

  @Test def valuesLargerThanAFrameFailTheCallInsteadOfVanishing(): Unit = {
    val s = store()
    val big = "x" * 300000 // Artery's frame is 256 KiB
    val e = assertThrows(classOf[CallFailedException], () => s.send[Any]("echo", big).join(30, TimeUnit.SECONDS))
    assertTrue(e.getCause.getMessage.contains("the arguments of Store.echo (object") && e.getCause.getMessage.contains("more than a frame holds"),
      e.getCause.getMessage)
    val r = assertThrows(classOf[CallFailedException], () => s.send[String]("big", 300000).join(30, TimeUnit.SECONDS))
    // 300,000 characters and a few bytes of framing (Values: format, count, tag, length).
    assertTrue(r.getCause.getMessage.matches("(?s).*the result of Store\\.big is 3000\\d\\d bytes serialised, more than a frame holds.*"), r.getCause.getMessage)
    assertEquals(100000, s.send[String]("big", 100000).join(30, TimeUnit.SECONDS).length)
  }

  @Test def remoteFailuresNameCallNodeAndException(): Unit = {
    val s = store()
    val e = assertThrows(classOf[CallFailedException], () => s.send[Int]("fail", "boom").join(30, TimeUnit.SECONDS))
    val msg = e.getCause.getMessage
    assertTrue(msg.contains("Store.fail") && msg.contains(b.address.toString) && msg.contains("IllegalArgumentException: boom"), msg)
    val m = assertThrows(classOf[CallFailedException], () => s.send[Int]("nosuch", 1).join(30, TimeUnit.SECONDS))
    assertTrue(m.getCause.getMessage.contains("Store has no public method nosuch(Integer)"), m.getCause.getMessage)
    val f = assertThrows(classOf[CallFailedException], () => a.create(b.address, "nothing").join(30, TimeUnit.SECONDS))
    assertTrue(f.getCause.getMessage.contains("no factory named 'nothing' (registered: broken, relay, store)"), f.getCause.getMessage)
    val g = assertThrows(classOf[CallFailedException], () => a.create(b.address, "broken").join(30, TimeUnit.SECONDS))
    assertTrue(g.getCause.getMessage.contains("the broken factory always throws"), g.getCause.getMessage)
  }

  @Test def aProcessCatchesTheRemoteExceptionByType(): Unit = {
    val s = store()
    val r = a.runtime.run {
      Proc.await(s.send[Int]("fail", "x")).map(_ => "no").recover { case e: RemoteCallException => e.remoteClass }
    }
    assertEquals(classOf[IllegalArgumentException].getName, r)
  }

  @Test def aWireExceptionArrivesAsItselfAndIsCaughtByItsType(): Unit = {
    val s = store(3)
    // A Scala case class: the original class, equal to what was thrown, with its message.
    val e = assertThrows(classOf[CallFailedException], () => s.send[Int]("outOfStock", "tea").join(30, TimeUnit.SECONDS))
    assertEquals(OutOfStock("tea", 3), e.getCause, String.valueOf(e.getCause))
    assertEquals("out of tea (3 left)", e.getCause.getMessage)
    // Where it was thrown travels along as a suppressed RemoteCallException (node and call).
    val where = e.getCause.getSuppressed.collectFirst { case r: RemoteCallException => r }
    assertTrue(where.exists(w => w.node == b.address.toString && w.call.contains("Store.outOfStock")), e.getCause.getSuppressed.toList.toString)
    // In a process: the await raises it, a handler catches it by its type.
    val r = a.runtime.run {
      Proc.await(s.send[Int]("outOfStock", "milk")).map(_ => "no").recover { case OutOfStock(item, left) => s"$item $left" }
    }
    assertEquals("milk 3", r)
    // A Java class with a one-String constructor.
    val j = assertThrows(classOf[CallFailedException], () => s.send[Int]("refuseJava", "not today").join(30, TimeUnit.SECONDS))
    assertEquals(classOf[JavaRefusal], j.getCause.getClass, String.valueOf(j.getCause))
    assertEquals("not today", j.getCause.getMessage)
  }

  @Test def aWireExceptionThatCannotBeRebuiltArrivesAsText(): Unit = {
    val s = store()
    val e = assertThrows(classOf[CallFailedException], () => s.send[Int]("unreadable", 7).join(30, TimeUnit.SECONDS))
    val text = e.getCause match {
      case r: RemoteCallException => r
      case other => throw new AssertionError(s"expected a RemoteCallException, got $other", other)
    }
    assertEquals(classOf[JavaUnreadable].getName, text.remoteClass)
    assertEquals("unreadable 7", text.remoteMessage)
    assertEquals(b.address.toString, text.node)
    assertTrue(text.getMessage.contains("Store.unreadable"), text.getMessage)
  }

  @Test def callsFromOneSenderKeepTheirOrder(): Unit = {
    val s = store()
    val clients = (0 until 4).map(_ => a.runtime.spawn(new Client(s)))
    // Four processes in four COGs, each sending 500 calls without waiting (window 8: most go
    // through the backlog), plus the main thread's own 500.
    val futs = clients.zipWithIndex.map { case (c, i) => Cogs.send(c, "burst", (c: Client) => c.burst(i, 500)) }
    val own = (0 until 500).map(k => s.send[Unit]("append", 99, k))
    futs.foreach(f => assertEquals(500, f.join(60, TimeUnit.SECONDS)))
    own.foreach(_.join(60, TimeUnit.SECONDS))
    assertEquals("received=2500 outOfOrder=0 senders=5", s.send[String]("orderReport").join(30, TimeUnit.SECONDS))
  }

  @Test def oneWayCallsWaitForNothingAndKeepTheirPlaceAmongCalls(): Unit = {
    val s = store()
    assertEquals(0, a.pendingCalls)
    // One-way calls alone: nothing waits for an answer, not even for a moment.
    (0 until 300).foreach(i => s.tell("append", 7, i))
    assertEquals(0, a.pendingCalls)
    // Mixed with calls from the same thread through a window of 8: the one-way calls queue behind
    // the calls in the backlog and are sent, in order, without taking a place in the window.
    val futs = (300 until 1300).flatMap { i => if (i % 3 == 0) Some(s.send[Unit]("append", 7, i)) else { s.tell("append", 7, i); None } }
    futs.foreach(_.join(60, TimeUnit.SECONDS))
    assertEquals("received=1300 outOfOrder=0 senders=1", s.send[String]("orderReport").join(30, TimeUnit.SECONDS))
    assertEquals(0, a.pendingCalls)
  }

  @Test def aOneWayCallsFailureIsTheCalleesRuntimes(): Unit = {
    val s = store()
    val failedBefore = b.runtime.failedProcesses
    s.tell("fail", "one-way boom")
    s.tell("nosuch", 1)
    // Counted on the callee's node (bounded by the class's timeout); the caller has nothing waiting.
    while (b.runtime.failedProcesses < failedBefore + 2) Thread.sleep(10)
    assertEquals(0, a.pendingCalls)
    assertEquals(5, s.send[Int]("add", 5).join(30, TimeUnit.SECONDS))
    // An argument that cannot be serialised is refused at the call, naming its class.
    val e = assertThrows(classOf[NotSerializableValueException], () => s.tell("echo", Opaque(2)))
    assertTrue(e.getMessage.contains("argument 1 of Store.echo") && e.getMessage.contains("cogs.distributed.Opaque"), e.getMessage)
  }

  @Test def oneWayCallsFromProcessesKeepTheirOrder(): Unit = {
    val s = store()
    val clients = (0 until 4).map(_ => a.runtime.spawn(new Client(s)))
    val futs = clients.zipWithIndex.map { case (c, i) => Cogs.send(c, "tellBurst", (c: Client) => c.tellBurst(i, 400)) }
    futs.foreach(f => assertEquals(400, f.join(60, TimeUnit.SECONDS)))
    // Every burst ended with an awaited call, which started after all the one-way calls before it.
    assertEquals("received=1600 outOfOrder=0 senders=4", s.send[String]("orderReport").join(30, TimeUnit.SECONDS))
  }

  /** Polls `rt.deadlockReport()` (bounded by the class's timeout) until `pred` holds. */
  private def reportUntil(rt: CogRuntime)(pred: List[String] => Boolean): List[String] = {
    var r = rt.deadlockReport()
    while (!pred(r)) { Thread.sleep(10); r = rt.deadlockReport() }
    r
  }

  @Test def awaitSuspendsOnlyTheProcess(): Unit = {
    val s = store()
    val c = a.runtime.spawn(new Client(s))
    val waiting = Cogs.send(c, "awaitGate", (c: Client) => c.awaitGate())
    // The process waits on node b, reported as such, and its COG still runs other processes.
    val r = reportUntil(a.runtime)(_.exists(_.contains("Client.awaitGate awaits the reply of Store.waitOpen")))
    assertTrue(r.exists(_.contains(s"from node ${b.address}")), r.mkString("\n"))
    Cogs.send(c, "note", (c: Client) => c.note("other process ran")).join(30, TimeUnit.SECONDS)
    assertFalse(waiting.isDone)
    s.send[Unit]("openGate").join(30, TimeUnit.SECONDS)
    assertEquals(1, waiting.join(30, TimeUnit.SECONDS))
    assertEquals(List("other process ran", "awaitGate done"), c.log.toArray.toList)
  }

  @Test def getBlocksTheCog(): Unit = {
    val s = store()
    val c = a.runtime.spawn(new Client(s))
    val blocked = Cogs.send(c, "getGate", (c: Client) => c.getGate())
    reportUntil(a.runtime)(_.exists(_.contains("Client.getGate blocks its COG in get, waiting for the reply of Store.waitOpen")))
    val other = Cogs.send(c, "note", (c: Client) => c.note("other process ran"))
    // The other process is queued behind the blocked COG; the report says so (no timing involved).
    reportUntil(a.runtime)(_.exists(_.contains("Client.note is ready but the COG is blocked")))
    assertFalse(other.isDone)
    s.send[Unit]("openGate").join(30, TimeUnit.SECONDS)
    assertEquals(1, blocked.join(30, TimeUnit.SECONDS))
    other.join(30, TimeUnit.SECONDS)
    assertEquals(List("getGate done", "other process ran"), c.log.toArray.toList)
  }

  @Test def runWaitsForRemoteRepliesInsteadOfReportingADeadlock(): Unit = {
    val s = store()
    // The main block's process only waits on the network: the runtime has nothing to run, yet
    // `run` must wait for the reply (a pending remote call is outstanding work, not a deadlock).
    val r = a.runtime.run {
      Proc.await(s.send[Int]("add", 1)).flatMap(x => Proc.await(s.send[Int]("add", x)))
    }
    assertEquals(2, r)
  }
}
