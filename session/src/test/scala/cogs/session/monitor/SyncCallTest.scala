package cogs.session.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.runtime._
import cogs.session.Expected

/** Synchronous calls (ABS `o.m(..)`) as protocol messages: `Session.sync` and `Session.syncRequest`. */
class SyncCallTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  private val rpc =
    """global protocol Rpc(role C, role S) {
      |  rec L {
      |    choice at C {
      |      Req(Int) from C to S;
      |      Res(Int) from S to C;
      |      continue L;
      |    } or {
      |      Quit() from C to S;
      |    }
      |  }
      |}""".stripMargin

  final class Server extends ActiveObject {
    @volatile var ran = 0
    def square(n: Int): Proc[Int] = Proc.delay { ran += 1; n * n }
    def wrong(n: Int): Proc[Any] = Proc.delay { ran += 1; s"$n" }
    def quit(): Proc[Unit] = Proc.delay { ran += 1 }
  }

  /** The client role: plays its part of the protocol with synchronous calls in one process. */
  final class Client extends ActiveObject {
    def run[A](p: => Proc[A]): Proc[A] = Proc.defer(p)
  }

  private def sessionType(policy: Policy) = new SessionType(Expected.module(rpc).protocol("Rpc"), policy)

  private def violation(f: Fut[_]): ProtocolViolation =
    assertThrows(classOf[CallFailedException], () => f.join()).getCause match {
      case v: ProtocolViolation => v
      case other => fail(s"expected a ProtocolViolation, got $other")
    }

  /** Two requests and a quit, each a synchronous call from the client's process. */
  private def play(s: Session, st: SessionType): Proc[Int] = {
    val req = st.message("C", "S", "Req")
    val res = st.message("S", "C", "Res")
    for {
      a <- s.syncRequest[Server, Int](req, res, 3)(_.square(3))
      b <- s.syncRequest[Server, Int](req, res, 4)(_.square(4))
      _ <- s.sync[Server, Unit](st.message("C", "S", "Quit"))(_.quit())
    } yield a + b
  }

  @Test def callsToAnotherCogAreCheckedAndMoveBothMachines(): Unit = {
    val st = sessionType(Policy.Reject)
    val c = rt.spawn(new Client)
    val srv = rt.spawn(new Server)
    val s = st.start(Map("C" -> c, "S" -> srv))
    assertEquals(25, Cogs.send(c, "run", (cl: Client) => cl.run(play(s, st))).join())
    assertEquals(3, srv.ran)
    val r = s.end()
    assertTrue(r.complete, r.render)
  }

  @Test def callsInsideOneCogAreCheckedToo(): Unit = {
    // The server shares the client's COG, so the client's process runs each method itself.
    val st = sessionType(Policy.Reject)
    val c = rt.spawn(new Client)
    val (sum, s, srv) = Cogs.send(c, "run", (cl: Client) => cl.run {
      val srv = Cogs.spawnLocal(new Server)
      val s = st.start(Map("C" -> cl, "S" -> srv))
      play(s, st).map(v => (v, s, srv))
    }).join()
    assertEquals(25, sum)
    assertEquals(3, srv.ran)
    assertTrue(s.end().complete, s.report.render)
  }

  @Test def aRefusedCallFailsTheCallerAndDoesNotRunTheMethod(): Unit = {
    val st = sessionType(Policy.Reject)
    val c = rt.spawn(new Client)
    val srv = rt.spawn(new Server)
    val s = st.start(Map("C" -> c, "S" -> srv))
    val quit = st.message("C", "S", "Quit")
    // Built before the first quit runs: the check is made when the call runs, not when it is built.
    val second = s.sync[Server, Unit](quit)(_.quit())
    val v = violation(Cogs.send(c, "run", (cl: Client) => cl.run(s.sync[Server, Unit](quit)(_.quit()).andThen(second))))
    assertEquals(1, srv.ran)
    assertEquals(("C", "sent", "S!Quit()", Nil), (v.role, v.side, v.received, v.expected))
    assertTrue(v.getMessage.startsWith(s"protocol violation in session ${s.id}: role C in state "), v.getMessage)
    // The caller may handle it like any failure of a synchronous call.
    val req = st.message("C", "S", "Req")
    val handled = Cogs.send(c, "run", (cl: Client) => cl.run(s.sync[Server, Int](req, 1)(_.square(1)).recover { case _: ProtocolViolation => -1 }))
    assertEquals(-1, handled.join())
    assertEquals(1, srv.ran)
    assertEquals(List(("C", "sent"), ("C", "sent")), s.violations.map(v => (v.role, v.side)))
  }

  @Test def aReplyOfTheWrongTypeFailsTheCaller(): Unit = {
    val st = sessionType(Policy.Reject)
    val c = rt.spawn(new Client)
    val srv = rt.spawn(new Server)
    val s = st.start(Map("C" -> c, "S" -> srv))
    val v = violation(Cogs.send(c, "run", (cl: Client) =>
      cl.run(s.syncRequest[Server, Any](st.message("C", "S", "Req"), st.message("S", "C", "Res"), 3)(_.wrong(3)))))
    assertEquals(1, srv.ran) // the method ran; its value was refused
    assertEquals(("S", "sent", "C!Res(Int)"), (v.role, v.side, v.received))
    assertTrue(v.getMessage.contains("(the reply is a java.lang.String, not a Int (java.lang.Integer))"), v.getMessage)
  }

  @Test def underLogBothSidesRecordAndTheMethodRuns(): Unit = {
    val st = sessionType(Policy.LogAndContinue)
    val c = rt.spawn(new Client)
    val srv = rt.spawn(new Server)
    val s = st.start(Map("C" -> c, "S" -> srv))
    val quit = st.message("C", "S", "Quit")
    // After the quit both roles have finished: the request is refused by the sender's machine and
    // by the receiver's, logged both times, and runs anyway.
    val f = Cogs.send(c, "run", (cl: Client) => cl.run(
      s.sync[Server, Unit](quit)(_.quit()).andThen(s.sync[Server, Int](st.message("C", "S", "Req"), 5)(_.square(5)))))
    assertEquals(25, f.join())
    assertEquals(2, srv.ran)
    assertEquals(List(("C", "sent"), ("S", "received")), s.violations.map(v => (v.role, v.side)))
  }

  @Test def dropCannotDropACallWhoseCallerWaits(): Unit = {
    val st = sessionType(Policy.Drop)
    val c = rt.spawn(new Client)
    val srv = rt.spawn(new Server)
    val s = st.start(Map("C" -> c, "S" -> srv))
    val v = violation(Cogs.send(c, "run", (cl: Client) => cl.run(s.sync[Server, Int](st.message("C", "S", "Req"), "x")(_.square(0)))))
    assertEquals(0, srv.ran)
    assertTrue(v.getMessage.contains("(argument 1 is a java.lang.String, not a Int (java.lang.Integer))"), v.getMessage)
  }

  @Test def endSessionRejectsLaterCalls(): Unit = {
    val st = sessionType(Policy.EndSession)
    val c = rt.spawn(new Client)
    val srv = rt.spawn(new Server)
    val s = st.start(Map("C" -> c, "S" -> srv))
    val res = st.message("S", "C", "Res")
    val req = st.message("C", "S", "Req")
    violation(Cogs.send(c, "run", (cl: Client) => cl.run(s.syncRequest[Server, Any](req, res, 3)(_.wrong(3)))))
    assertTrue(s.isEnded)
    val v = violation(Cogs.send(c, "run", (cl: Client) => cl.run(s.sync[Server, Int](req, 2)(_.square(2)))))
    assertTrue(v.afterEnd)
    assertEquals(1, srv.ran)
  }
  /** An object that plays both roles (absc: `this.m(..)` of a class bound to C and S). */
  final class Both extends ActiveObject {
    @volatile var ran = 0
    def square(n: Int): Proc[Int] = Proc.delay { ran += 1; n * n }
    def quit(): Proc[Unit] = Proc.delay { ran += 1 }
  }

  @Test def aCallOnTheCallerItselfRunsInPlaceAndNamesItsPosition(): Unit = {
    // absc's path for `this.m(..)` (self) with the call's ABS position (at): the step has no
    // synchronous-call node, so `Proc.now` runs it where absc proved the method cannot suspend.
    val st = sessionType(Policy.Reject)
    val b = rt.spawn(new Both)
    val s = st.start(Map("C" -> b, "S" -> b))
    val (req, res, quit) = (st.message("C", "S", "Req"), st.message("S", "C", "Res"), st.message("C", "S", "Quit"))
    def now[A](msg: MessageRef, reply: MessageRef, args: List[Any], call: Both => Proc[A], at: String): Fut[Any] =
      Cogs.send(b, "run", (_: Both) => Proc.delay(Proc.now(s.syncCall(msg, reply, args, call, java = false, self = true, at = at))))
    assertEquals(9, now(req, res, List(3), _.square(3), "T.abs:4:7").join())
    now(quit, null, Nil, _.quit(), "T.abs:5:7").join()
    assertEquals(2, b.ran)
    val v = violation(now(req, res, List(4), _.square(4), "T.abs:6:7"))
    assertEquals(2, b.ran) // refused before the method
    assertEquals(("C", "sent", "S!Req(Int)"), (v.role, v.side, v.received))
    assertTrue(v.getMessage.contains("sent S!Req(Int) (at T.abs:6:7); expected nothing"), v.getMessage)
    assertEquals(List("C"), s.violations.map(_.role))
  }
}
