package cogs.session.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.runtime._
import cogs.session.Expected

/** Futures as protocol events: the resolution of a call's future is the reply message. */
class RequestTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  private val rpc =
    """global protocol Rpc(role C, role S, role D) {
      |  rec L {
      |    choice at C {
      |      Req(Int) from C to S;
      |      Res(Int) from S to C;
      |      continue L;
      |    } or {
      |      Log(Int) from C to S;
      |      Note(Int) from S to D;
      |      Ack() from S to C;
      |      continue L;
      |    } or {
      |      Pair(Int) from C to S;
      |      Both(Int, String) from S to C;
      |      continue L;
      |    } or {
      |      Quit() from C to S;
      |      Bye() from S to D;
      |    }
      |  }
      |}""".stripMargin

  final class Server extends ActiveObject {
    var notes = List.empty[Int]
    def square(n: Int): Proc[Int] = Proc.done(n * n)
    def wrong(n: Int): Proc[Any] = Proc.done(s"$n")
    def log(s: Session, st: SessionType, n: Int, noteFirst: Boolean): Proc[Unit] = Proc.delay {
      if (noteFirst) s.tell[Server](st.message("S", "D", "Note"), n)(_.note(n))
    }
    def note(n: Int): Proc[Unit] = Proc.delay { notes ::= n }
    def pair(n: Int): Proc[(Int, String)] = Proc.done((n, n.toString))
  }

  private def setup(policy: Policy = Policy.Reject) = {
    val st = new SessionType(Expected.module(rpc).protocol("Rpc"), policy)
    val c = rt.spawn(new Server) // the client role needs no methods: it only sends and reads futures
    val srv = rt.spawn(new Server)
    val d = rt.spawn(new Server)
    (st, st.start(Map("C" -> c, "S" -> srv, "D" -> d)), d)
  }

  private def violation(f: Fut[_]): ProtocolViolation =
    assertThrows(classOf[CallFailedException], () => f.join()).getCause match {
      case v: ProtocolViolation => v
      case other => fail(s"expected a ProtocolViolation, got $other")
    }

  @Test def repliesAreTheResolutionOfTheFutures(): Unit = {
    val (st, s, d) = setup()
    val req = st.message("C", "S", "Req")
    val res = st.message("S", "C", "Res")
    assertEquals(List(1, 4, 9), (1 to 3).map(i => s.request[Server, Int](req, res, i)(_.square(i)).join()).toList)
    assertEquals((1, "1"), s.request[Server, (Int, String)](st.message("C", "S", "Pair"), st.message("S", "C", "Both"), 1)(_.pair(1)).join())
    // An empty reply payload: the method's value (Unit) is not checked.
    s.request[Server, Unit](st.message("C", "S", "Log"), st.message("S", "C", "Ack"), 7)(_.log(s, st, 7, noteFirst = true)).join()
    s.tell[Server](st.message("C", "S", "Quit"))(srv => Proc.delay(s.tell[Server](st.message("S", "D", "Bye"))(_ => Proc.unit)))
    rt.awaitQuiescence()
    assertEquals(List(7), d.notes)
    val r = s.end()
    assertTrue(r.complete, r.render)
  }

  @Test def aReplyOfTheWrongTypeFailsTheFuture(): Unit = {
    val (st, s, _) = setup()
    val v = violation(s.request[Server, Any](st.message("C", "S", "Req"), st.message("S", "C", "Res"), 3)(_.wrong(3)))
    assertEquals(("S", "sent", "C!Res(Int)"), (v.role, v.side, v.received))
    assertTrue(v.getMessage.contains("(the reply is a java.lang.String, not a Int (java.lang.Integer))"), v.getMessage)
    // A refused reply moves neither machine: this session now waits for a reply that will not come. A new one:
    val (st2, s2, _) = setup()
    val v2 = violation(s2.request[Server, Any](st2.message("C", "S", "Pair"), st2.message("S", "C", "Both"), 3)(_.square(3)))
    assertTrue(v2.getMessage.contains("the reply should be a tuple of 2 values, not java.lang.Integer"), v2.getMessage)
  }

  @Test def aReplyBeforeItsTurnFailsTheFuture(): Unit = {
    // S must tell D a Note before it acknowledges; this server acknowledges at once.
    val (st, s, _) = setup()
    val v = violation(s.request[Server, Unit](st.message("C", "S", "Log"), st.message("S", "C", "Ack"), 7)(_.log(s, st, 7, noteFirst = false)))
    assertEquals("protocol violation in session Rpc#1: role S in state 1 sent C!Ack() (the reply); expected D!Note(Int)", v.getMessage)
  }

  @Test def underLogTheValueStillArrives(): Unit = {
    val (st, s, _) = setup(Policy.LogAndContinue)
    assertEquals(7, s.request[Server, Any](st.message("C", "S", "Log"), st.message("S", "C", "Ack"), 7)(_ => Proc.done(7)).join())
    assertEquals(List(("S", "sent")), s.violations.map(v => (v.role, v.side)))
  }

  @Test def theReplyMustGoBackToTheCaller(): Unit = {
    val (st, s, _) = setup()
    val e = assertThrows(classOf[IllegalArgumentException],
      () => s.request[Server, Unit](st.message("C", "S", "Quit"), st.message("S", "D", "Bye"))(_ => Proc.unit))
    assertEquals("the reply to Quit() from C to S must be a message of Rpc from S to C, not Bye() from S to D", e.getMessage)
  }
}
