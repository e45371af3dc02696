package cogs.session.monitor

import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.runtime._
import cogs.session.Expected

/**
 * The invitation step: roles open until accepted, one object per role, the session starts when
 * the last role is bound (callbacks registered before and after), its messages are checked as
 * in a session started with all bindings; and a stress test of concurrent accepts and callbacks.
 */
class InvitationTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  final class Peer(name: String) extends ActiveObject {
    val log = new ConcurrentLinkedQueue[String]
    def on(label: String): Proc[Unit] = Proc.delay { log.add(label); () }
    override def toString: String = name
  }

  private val st = new SessionType(Expected.module(
    "global protocol Three(role A, role B, role C) { go() from A to B; done() from B to C; }").protocol("Three"), Policy.Reject)

  @Test def theSessionStartsWhenTheLastRoleIsAccepted(): Unit = {
    val a = rt.spawn(new Peer("a")); val b = rt.spawn(new Peer("b")); val c = rt.spawn(new Peer("c")); val other = rt.spawn(new Peer("x"))
    val inv = st.invite("three")
    val early = new AtomicInteger
    inv.whenStarted(_ => early.incrementAndGet())
    assertEquals(List("A", "B", "C"), inv.open)
    assertTrue(inv.accept("A", a))
    assertFalse(inv.accept("A", other), "a role is taken once")
    assertEquals(Some(a), inv.boundTo("A"))
    assertTrue(inv.accept("C", c))
    assertFalse(inv.isStarted)
    assertEquals(None, inv.session)
    assertEquals(0, early.get)
    assertTrue(inv.accept("B", b))
    assertTrue(inv.isStarted)
    assertEquals(1, early.get, "a callback registered before the start runs once, at the start")
    val late = new AtomicInteger
    inv.whenStarted(_ => late.incrementAndGet())
    assertEquals(1, late.get, "a callback registered after the start runs at once")
    assertFalse(inv.accept("B", other))
    assertEquals(1, early.get)

    val s = inv.session.get
    assertEquals("three", s.id)
    assertSame(b, s.role("B"))
    // Messages of the started session are checked: done before go is refused.
    val bad = s.send[Peer, Unit](st.message("B", "C", "done"))(_.on("done"))
    rt.awaitQuiescence()
    assertTrue(bad.poll.exists(_.isFailure))
    s.send[Peer, Unit](st.message("A", "B", "go"))(_.on("go"))
    // B may send `done` only once it has received `go`, which its process does when it starts:
    // sent at once, `done` would race with that (it failed so on JDK 25).
    rt.awaitQuiescence()
    s.send[Peer, Unit](st.message("B", "C", "done"))(_.on("done"))
    rt.awaitQuiescence()
    assertEquals(List("go"), b.log.asScala.toList)
    assertEquals(List("done"), c.log.asScala.toList)
    assertTrue(s.end().roles.forall(_.isFinal))
  }

  @Test def anUnknownRoleOrNullIsRefused(): Unit = {
    val inv = st.invite()
    val e = assertThrows(classOf[NoSuchElementException], () => inv.accept("D", rt.spawn(new Peer("d"))))
    assertTrue(e.getMessage.contains("has no role 'D' (its roles: A, B, C)"), e.getMessage)
    assertThrows(classOf[NullPointerException], () => inv.accept("A", null))
    assertEquals(List("A", "B", "C"), inv.open)
  }

  @Test def oneObjectMayAcceptSeveralRoles(): Unit = {
    val p = rt.spawn(new Peer("p")); val c = rt.spawn(new Peer("c"))
    val inv = st.invite()
    assertTrue(inv.accept("A", p)); assertTrue(inv.accept("B", p)); assertTrue(inv.accept("C", c))
    assertSame(p, inv.session.get.role("A"))
    assertSame(p, inv.session.get.role("B"))
  }

  /**
   * Threads race to accept the roles (each tries every role with its own object) while others
   * register callbacks. Each role must be bound exactly once, the session must start once, and
   * every callback must run exactly once (a lost or doubled one is caught by the counts).
   */
  @Test def concurrentAcceptsAndCallbacks(): Unit = {
    val objs = (0 until 4).map(i => rt.spawn(new Peer(s"p$i")))
    for (round <- 0 until 300) {
      val inv = st.invite(s"r$round")
      val runs = new AtomicInteger
      val won = new AtomicInteger
      val sessions = new ConcurrentLinkedQueue[Session]
      val go = new CountDownLatch(1)
      val callbacksPerThread = 50
      val acceptors = objs.map { o =>
        new Thread(() => {
          go.await()
          for (r <- List("C", "A", "B")) if (inv.accept(r, o)) won.incrementAndGet()
        })
      }
      val registrars = (0 until 2).map { _ =>
        new Thread(() => {
          go.await()
          for (_ <- 0 until callbacksPerThread) inv.whenStarted { s => sessions.add(s); runs.incrementAndGet() }
        })
      }
      val all = acceptors ++ registrars
      all.foreach(_.start()); go.countDown(); all.foreach(_.join(10000))
      assertEquals(3, won.get, s"round $round: each role is accepted once")
      assertTrue(inv.isStarted)
      assertEquals(2 * callbacksPerThread, runs.get, s"round $round: every callback runs exactly once")
      assertEquals(1, sessions.asScala.toSet.size, s"round $round: one session")
      assertSame(inv.session.get, sessions.peek())
    }
  }
}

/**
 * The main block of `CogRuntime.run` plays a role: it binds its own object (`Cogs.self`), and its
 * requests and their replies are checked like any role's; the report names it `main`.
 */
class MainBlockRoleTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  private val st = new SessionType(Expected.module(
    "global protocol Ask(role C, role S) { Q(Int) from C to S; A(Int) from S to C; }").protocol("Ask"), Policy.Reject)

  final class Server extends ActiveObject { def twice(n: Int): Proc[Int] = Proc.done(2 * n) }

  @Test def theMainBlockPlaysARole(): Unit = {
    val server = rt.spawn(new Server)
    val q = st.message("C", "S", "Q"); val a = st.message("S", "C", "A")
    val (answer, report) = rt.run {
      val inv = st.invite("ask")
      assertTrue(inv.accept("C", Cogs.self))
      assertTrue(inv.accept("S", server))
      val s = inv.session.get
      Proc.await(s.request[Server, Int](q, a, 21)(_.twice(21))).flatMap { v =>
        // The protocol is over: a second question is refused at the main block's role.
        val again = s.request[Server, Int](q, a, 1)(_.twice(1))
        Proc.await(again: Guard).map(_ => (v, (again.poll.get.failed.get, s.end())))
      }
    }
    assertEquals(42, answer)
    val (failure, r) = report
    // The refused call's future fails with the violation (as the callee's failure).
    val refused = failure match { case c: CallFailedException => c.getCause; case other => other }
    assertTrue(refused.isInstanceOf[ProtocolViolation], failure.toString)
    assertTrue(refused.getMessage.contains("role C in state 2 sent S!Q(Int)"), refused.getMessage)
    assertTrue(r.render.contains("C (main): finished"), r.render)
    assertTrue(r.render.contains("S (") && r.roles.forall(_.isFinal), r.render)
  }
}
