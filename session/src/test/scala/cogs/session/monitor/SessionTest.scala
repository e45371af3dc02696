package cogs.session.monitor

import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.runtime._
import cogs.session.Expected

/**
 * Sessions on the runtime: a correct run completes, each policy does what it says on the
 * sending and on the receiving side, payload types are checked, the end report names the
 * roles that did not finish, and objects play several roles in several sessions.
 */
class SessionTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  /** A role player that logs what it receives and reacts with a scripted step (which may send). */
  final class Peer(name: String) extends ActiveObject {
    val log = new ConcurrentLinkedQueue[String]
    @volatile var reactions: Map[String, () => Unit] = Map.empty
    def on(label: String, args: Any*): Proc[Unit] = Proc.delay {
      log.add(if (args.isEmpty) label else s"$label(${args.mkString(",")})")
      reactions.get(label).foreach(_())
    }
    def received: List[String] = log.asScala.toList
    override def toString: String = name
  }

  // The paper's Purchase, with the authenticator telling the seller before the buyer: the seller
  // then always receives authenticate before the buyer's choice (see README, "Mailbox order").
  private val purchase = Expected.purchaseSellerFirst

  private def sessionType(policy: Policy, body: String = purchase, name: String = "Purchase") =
    new SessionType(Expected.module(body).protocol(name), policy)

  private final class World(policy: Policy) {
    val st = sessionType(policy)
    val buyer = rt.spawn(new Peer("buyer"))
    val seller = rt.spawn(new Peer("seller"))
    val auth = rt.spawn(new Peer("auth"))
    val session = st.start(Map("B" -> buyer, "S" -> seller, "A" -> auth))
    def msg(from: String, to: String, label: String) = st.message(from, to, label)
    /** Send `label` from `from` to `to` in the session, the call being `on(label, args)`. */
    def send(from: String, to: String, label: String, args: Any*): Fut[Unit] =
      session.send[Peer, Unit](msg(from, to, label), args: _*)(_.on(label, args: _*))
    def tell(from: String, to: String, label: String, args: Any*): Unit =
      session.tell[Peer](msg(from, to, label), args: _*)(_.on(label, args: _*))
  }

  private def violationOf(f: Fut[_]): ProtocolViolation = {
    rt.awaitQuiescence()
    f.poll match {
      case Some(scala.util.Failure(e: CallFailedException)) if e.getCause.isInstanceOf[ProtocolViolation] => e.getCause.asInstanceOf[ProtocolViolation]
      case other => fail(s"expected a ProtocolViolation, got $other")
    }
  }

  @Test def aCorrectRunCompletes(): Unit = {
    val w = new World(Policy.Reject)
    import w._
    seller.reactions = Map(
      "login" -> (() => w.tell("S", "A", "login", "alice")),
      "buy"   -> (() => w.tell("S", "B", "delivery", "parcel")))
    auth.reactions = Map("login" -> (() => { w.tell("A", "S", "authenticate", "t0k"); w.tell("A", "B", "authenticate", "t0k") }))
    buyer.reactions = Map("authenticate" -> (() => w.tell("B", "S", "buy", "book")))
    w.tell("B", "S", "login", "alice")
    rt.awaitQuiescence()
    assertEquals(List("authenticate(t0k)", "delivery(parcel)"), buyer.received)
    assertEquals(List("login(alice)", "authenticate(t0k)", "buy(book)"), seller.received)
    assertEquals(List("login(alice)"), auth.received)
    val report = session.end()
    assertTrue(report.complete, report.render)
    assertEquals(0, rt.failedProcesses)
  }

  @Test def rejectOnTheSendingSide(): Unit = {
    val w = new World(Policy.Reject)
    val f = w.send("B", "S", "quit")
    val v = violationOf(f)
    assertEquals(
      "protocol violation in session Purchase#1: role B in state 0 sent S!quit(); expected S!login(String)", v.getMessage)
    assertEquals(("Purchase#1", "B", 0, List("S!login(String)"), "S!quit()", "sent"), (v.session, v.role, v.state, v.expected, v.received, v.side))
    assertEquals(Nil, w.seller.received, "the method did not run")
    assertEquals(0, w.session.stateOf("B"))
    assertEquals(List(v.getMessage), w.session.violations.map(_.getMessage))
  }

  @Test def rejectOnTheReceivingSideBeforeTheMethodRuns(): Unit = {
    // C may send b at once, but B must first receive a from A: only B's monitor can see it.
    val st = sessionType(Policy.Reject, "global protocol Two(role A, role B, role C) { a() from A to B; b() from C to B; }", "Two")
    val p = rt.spawn(new Peer("p"))
    val s = st.start("two", Map("A" -> p, "B" -> p, "C" -> p))
    val f = s.send[Peer, Unit](st.message("C", "B", "b"))(_.on("b"))
    val v = violationOf(f)
    assertEquals("protocol violation in session two: role B in state 0 received C?b(); expected A?a()", v.getMessage)
    assertEquals("received", v.side)
    assertEquals(Nil, p.received)
    assertEquals(1, s.stateOf("C"), "the sender's machine moved: its own side was right")
    assertEquals(0, s.stateOf("B"))
  }

  @Test def payloadTypesAreChecked(): Unit = {
    val w = new World(Policy.Reject)
    val v = violationOf(w.send("B", "S", "login", 42))
    assertEquals("protocol violation in session Purchase#1: role B in state 0 sent S!login(String) " +
      "(argument 1 is a java.lang.Integer, not a String (java.lang.String)); expected S!login(String)", v.getMessage)
    val v2 = violationOf(w.send("B", "S", "login"))
    assertTrue(v2.getMessage.contains("(0 argument(s) for a payload of 1)"), v2.getMessage)
    assertEquals(Nil, w.seller.received)
    // Named by sender, receiver and label instead of a MessageRef:
    w.session.send[Peer, Unit]("B", "S", "login", "alice")(_.on("login", "alice")).join()
    assertEquals(List("login(alice)"), w.seller.received)
  }

  @Test def logAndContinueRunsTheMethodAndKeepsTheState(): Unit = {
    val w = new World(Policy.LogAndContinue)
    w.send("B", "S", "quit").join()
    assertEquals(List("quit"), w.seller.received)
    // Both monitors saw it: the buyer's when sent, the seller's when received.
    assertEquals(List(("B", "sent"), ("S", "received")), w.session.violations.map(v => (v.role, v.side)))
    assertEquals(0, w.session.stateOf("B"))
    assertEquals(0, w.session.stateOf("S"))
    w.send("B", "S", "login", "alice").join()
    assertEquals(1, w.session.stateOf("B"))
  }

  @Test def dropDiscardsOneWayCallsAndFailsCallsWithAFuture(): Unit = {
    val w = new World(Policy.Drop)
    w.tell("B", "S", "quit")
    rt.awaitQuiescence()
    assertEquals(Nil, w.seller.received)
    assertEquals(0, rt.failedProcesses, "a dropped one-way call is not a failed process")
    assertEquals(1, w.session.violations.size)
    val v = violationOf(w.send("B", "S", "quit"))
    assertEquals("B", v.role)
    assertEquals(Nil, w.seller.received)
  }

  @Test def rejectedOneWayCallIsAFailedProcess(): Unit = {
    val w = new World(Policy.Reject)
    w.tell("B", "S", "quit")
    rt.awaitQuiescence()
    assertEquals(1, rt.failedProcesses)
    assertTrue(rt.firstFailure.exists(_.contains("protocol violation in session Purchase#1: role B")), rt.firstFailure.toString)
  }

  @Test def endSessionRejectsEverythingAfterTheViolation(): Unit = {
    val w = new World(Policy.EndSession)
    val v = violationOf(w.send("B", "S", "quit"))
    assertFalse(v.afterEnd)
    assertTrue(w.session.isEnded)
    val after = violationOf(w.send("B", "S", "login", "alice")) // right in itself, but the session is over
    assertTrue(after.afterEnd)
    assertTrue(after.getMessage.contains("the session ended: violation: protocol violation in session Purchase#1: role B in state 0 sent S!quit()"),
      after.getMessage)
    assertEquals(Nil, w.seller.received)
    assertEquals(1, w.session.violations.size)
  }

  @Test def endReportNamesTheRolesThatDidNotFinish(): Unit = {
    val w = new World(Policy.Reject)
    w.send("B", "S", "login", "alice").join()
    val r = w.session.end()
    assertFalse(r.complete)
    assertEquals(
      """session Purchase#1 (Purchase): 3 role(s) not finished, 0 violation(s)
        |  B (buyer): not finished, stopped in state 1 waiting for A?authenticate(String)
        |  S (seller): not finished, stopped in state 1 waiting for A!login(String)
        |  A (auth): not finished, stopped in state 0 waiting for S?login(String)""".stripMargin, r.render)
    val v = violationOf(w.send("S", "A", "login", "alice"))
    assertTrue(v.getMessage.contains("the session ended: end() was called"), v.getMessage)
  }

  @Test def unknownAndMissingRolesAreRefusedAtStart(): Unit = {
    val st = sessionType(Policy.Reject)
    val p = rt.spawn(new Peer("p"))
    val e1 = assertThrows(classOf[IllegalArgumentException], () => st.start(Map("B" -> p, "S" -> p)))
    assertTrue(e1.getMessage.contains("no object plays role(s) A"), e1.getMessage)
    val e2 = assertThrows(classOf[IllegalArgumentException], () => st.start(Map("B" -> p, "S" -> p, "A" -> p, "X" -> p)))
    assertTrue(e2.getMessage.contains("has no role(s) X"), e2.getMessage)
    assertThrows(classOf[NoSuchElementException], () => st.message("B", "S", "nope"))
  }

  @Test def violationsGoIntoTheRuntimesTrace(): Unit = {
    val events = new ConcurrentLinkedQueue[cogs.trace.TraceEvent]
    val tracing = new cogs.trace.Tracing {
      def observes(cls: String): Boolean = true
      def tracerFor(obj: cogs.trace.ObjRef, creator: cogs.trace.ObjRef, creatorTracer: cogs.trace.Tracer): cogs.trace.Tracer = (e: cogs.trace.TraceEvent) => { events.add(e); () }
    }
    val trt = CogRuntime.withTracing(tracing)
    try {
      val st = sessionType(Policy.Reject, "global protocol Two(role A, role B, role C) { a() from A to B; b() from C to B; }", "Two")
      val p = trt.spawn(new Peer("p"))
      val s = st.start("two", Map("A" -> p, "B" -> p, "C" -> p))
      s.send[Peer, Unit](st.message("C", "B", "b"))(_.on("b"))
      trt.awaitQuiescence()
      val users = events.asScala.toList.collect { case u: cogs.trace.TraceEvent.User => (u.obj.cls, u.name, u.payload.toList) }
      assertEquals(List(("Peer", Session.ViolationEvent, List("two", "Two", "B", 0, "C?b()", "received", List("A?a()")))), users)
    } finally trt.close()
  }

  // ------------------------------------------------------------------ several roles, several sessions

  private val pingPong =
    """global protocol PingPong(role A, role B) {
      |  rec L { choice at A { ping(Int) from A to B; pong(Int) from B to A; continue L; } or { bye() from A to B; } }
      |}""".stripMargin

  /** A player of PingPong: plays A in some sessions and B in others, at the same time. */
  final class Player extends ActiveObject {
    def ping(s: Session, st: SessionType, n: Int): Proc[Unit] = Proc.delay {
      s.tell[Player](st.message("B", "A", "pong"), n)(_.pong(s, st, n))
    }
    def pong(s: Session, st: SessionType, n: Int): Proc[Unit] = Proc.delay {
      if (n > 0) s.tell[Player](st.message("A", "B", "ping"), n - 1)(_.ping(s, st, n - 1))
      else s.tell[Player](st.message("A", "B", "bye"))(_.bye())
    }
    def bye(): Proc[Unit] = Proc.unit
  }

  @Test def objectsPlaySeveralRolesInManySessionsAtOnce(): Unit = {
    val st = sessionType(Policy.Reject, pingPong, "PingPong")
    val players = Vector.fill(4)(rt.spawn(new Player))
    // Session i: player i plays A, player i+1 plays B; so each player is A in one session and B in
    // another, and the sessions run at once. Plus sessions where one object plays both roles.
    val sessions = (0 until 40).map { i =>
      val (a, b) = if (i % 5 == 4) (players(i % 4), players(i % 4)) else (players(i % 4), players((i + 1) % 4))
      st.start(Map("A" -> a, "B" -> b))
    }
    sessions.foreach(s => s.tell[Player](st.message("A", "B", "ping"), 50)(_.ping(s, st, 50)))
    rt.awaitQuiescence()
    sessions.foreach { s =>
      val r = s.end()
      assertTrue(r.complete, r.render)
    }
    assertEquals(0, rt.failedProcesses)
  }

  @Test def theSessionTravelsWithTheCall(): Unit = {
    // One object, the same role (B) in two sessions: a message of session 1 moves only session 1's machine.
    val st = sessionType(Policy.Reject, pingPong, "PingPong")
    val a = rt.spawn(new Player)
    val b = rt.spawn(new Player)
    val s1 = st.start("one", Map("A" -> a, "B" -> b))
    val s2 = st.start("two", Map("A" -> a, "B" -> b))
    s1.send[Player, Unit](st.message("A", "B", "ping"), 0)(_ => Proc.unit).join()
    assertEquals((2, 2), (s1.stateOf("A"), s1.stateOf("B"))) // after ping (state 1 is after bye: states follow the actions' order)
    assertEquals((0, 0), (s2.stateOf("A"), s2.stateOf("B")))
    // In session two, B has not received ping: its pong is refused there.
    val v = violationOf(s2.send[Player, Unit](st.message("B", "A", "pong"), 0)(_ => Proc.unit))
    assertEquals(("two", "B", 0), (v.session, v.role, v.state))
  }
}
