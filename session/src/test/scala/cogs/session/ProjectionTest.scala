package cogs.session

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import Expected._

/**
 * Projections of 21 protocols (50 machines) checked against machines derived by hand (see Expected for how
 * they are compared). Each expected machine was written from the protocol's meaning, not from
 * this code's output.
 */
class ProjectionTest {

  @Test def pingPong(): Unit = {
    val p = module("global protocol PingPong(role A, role B) { ping() from A to B; pong() from B to A; }").protocol("PingPong")
    assertFsm("0 B!ping() 1 \n 1 B?pong() 2 \n final 2", p.fsm("A"))
    assertFsm("0 A?ping() 1 \n 1 A!pong() 2 \n final 2", p.fsm("B"))
  }

  @Test def purchase3Roles(): Unit = {
    val p = module(purchase).protocol("Purchase")
    assertFsm(
      """0 S!login(String) 1
        |1 A?authenticate(String) 2
        |2 S!request(String) 3
        |3 S?quote(Int) 4
        |2 S!buy(String) 5
        |5 S?delivery(String) 4
        |2 S!quit() 4
        |final 4""".stripMargin, p.fsm("B"))
    assertFsm(
      """0 B?login(String) 1
        |1 A!login(String) 2
        |2 A?authenticate(String) 3
        |3 B?request(String) 4
        |4 B!quote(Int) 6
        |3 B?buy(String) 5
        |5 B!delivery(String) 6
        |3 B?quit() 6
        |final 6""".stripMargin, p.fsm("S"))
    // A takes no part in the choice: all its branches project to nothing.
    assertFsm("0 S?login(String) 1 \n 1 B!authenticate(String) 2 \n 2 S!authenticate(String) 3 \n final 3", p.fsm("A"))
  }

  @Test def storeLoadLoopWithExit(): Unit = {
    val p = module(
      """global protocol StoreLoad(role D, role S) {
        |  rec Rec {
        |    choice at S {
        |      request(String, Int) from S to D;
        |      put(String, Int) from D to S;
        |      continue Rec;
        |    } or {
        |      quit() from S to D;
        |      acc() from D to S;
        |    }
        |  }
        |}""".stripMargin).protocol("StoreLoad")
    assertFsm("0 D!request(String, Int) 1 \n 1 D?put(String, Int) 0 \n 0 D!quit() 2 \n 2 D?acc() 3 \n final 3", p.fsm("S"))
    assertFsm("0 S?request(String, Int) 1 \n 1 S!put(String, Int) 0 \n 0 S?quit() 2 \n 2 S!acc() 3 \n final 3", p.fsm("D"))
  }

  @Test def multicastIsOneMessageToEachReceiverInOrder(): Unit = {
    val p = module("global protocol Hello(role A, role B, role C) { hello() from A to B, C; done() from C to A; }").protocol("Hello")
    assertFsm("0 B!hello() 1 \n 1 C!hello() 2 \n 2 C?done() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?hello() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?hello() 1 \n 1 A!done() 2 \n final 2", p.fsm("C"))
  }

  @Test def endlessServerLoopHasNoFinalState(): Unit = {
    val p = module("global protocol Server(role C, role S) { rec L { req(Int) from C to S; res(Int) from S to C; continue L; } }").protocol("Server")
    assertFsm("0 S!req(Int) 1 \n 1 S?res(Int) 0", p.fsm("C"))
    assertFsm("0 C?req(Int) 1 \n 1 C!res(Int) 0", p.fsm("S"))
  }

  @Test def roleOutsideAChoiceDoesNotSeeIt(): Unit = {
    val p = module("global protocol Relay(role A, role B, role C) { choice at A { x() from A to B; } or { y() from A to B; } z() from B to C; }")
      .protocol("Relay")
    assertFsm("0 B!x() 1 \n 0 B!y() 1 \n final 1", p.fsm("A"))
    assertFsm("0 A?x() 1 \n 0 A?y() 1 \n 1 C!z() 2 \n final 2", p.fsm("B"))
    assertFsm("0 B?z() 1 \n final 1", p.fsm("C"))
  }

  @Test def roleLearnsTheBranchFromAnotherThanTheChooser(): Unit = {
    val p = module(
      """global protocol Forward(role A, role B, role C) {
        |  choice at A { ok() from A to B; ok() from B to C; }
        |  or { ko() from A to B; ko() from B to C; fix() from C to A; }
        |}""".stripMargin).protocol("Forward")
    assertFsm("0 B!ok() 1 \n 0 B!ko() 2 \n 2 C?fix() 1 \n final 1", p.fsm("A"))
    assertFsm("0 A?ok() 1 \n 1 C!ok() 3 \n 0 A?ko() 2 \n 2 C!ko() 3 \n final 3", p.fsm("B"))
    assertFsm("0 B?ok() 1 \n 0 B?ko() 2 \n 2 A!fix() 1 \n final 1", p.fsm("C"))
  }

  private val auth = "global protocol Auth(role U, role V) { login(String) from U to V; token(String) from V to U; }\n"

  @Test def subProtocolIsInlinedWithItsRoles(): Unit = {
    val p = module(auth + "global protocol Main(role C, role S) { do Auth(C, S); get() from C to S; }").protocol("Main")
    assertFsm("0 S!login(String) 1 \n 1 S?token(String) 2 \n 2 S!get() 3 \n final 3", p.fsm("C"))
    assertFsm("0 C?login(String) 1 \n 1 C!token(String) 2 \n 2 C?get() 3 \n final 3", p.fsm("S"))
  }

  @Test def subProtocolWithRolesSwapped(): Unit = {
    val p = module(auth + "global protocol Both(role X, role Y) { do Auth(X, Y); do Auth(Y, X); }").protocol("Both")
    assertFsm("0 Y!login(String) 1 \n 1 Y?token(String) 2 \n 2 Y?login(String) 3 \n 3 Y!token(String) 4 \n final 4", p.fsm("X"))
    assertFsm("0 X?login(String) 1 \n 1 X!token(String) 2 \n 2 X!login(String) 3 \n 3 X?token(String) 4 \n final 4", p.fsm("Y"))
  }

  @Test def recursiveDoIsALoop(): Unit = {
    val p = module("global protocol Stream(role P, role Q) { choice at P { item(Int) from P to Q; do Stream(P, Q); } or { end() from P to Q; } }")
      .protocol("Stream")
    assertFsm("0 Q!item(Int) 0 \n 0 Q!end() 1 \n final 1", p.fsm("P"))
    assertFsm("0 P?item(Int) 0 \n 0 P?end() 1 \n final 1", p.fsm("Q"))
  }

  @Test def parIsTheInterleavingOfItsBranches(): Unit = {
    val p = module("global protocol Parallel(role A, role B, role C) { par { a() from A to B; } and { c() from A to C; } done() from B to A; }")
      .protocol("Parallel")
    assertFsm("0 B!a() 1 \n 0 C!c() 2 \n 1 C!c() 3 \n 2 B!a() 3 \n 3 B?done() 4 \n final 4", p.fsm("A"))
    assertFsm("0 A?a() 1 \n 1 A!done() 2 \n final 2", p.fsm("B"))
    assertFsm("0 A?c() 1 \n final 1", p.fsm("C"))
  }

  @Test def parOfTwoSendersToOneReceiver(): Unit = {
    val p = module("global protocol Gather(role A, role B, role M) { par { r1(Int) from A to M; } and { r2(Int) from B to M; } sum(Int) from M to A; }")
      .protocol("Gather")
    assertFsm("0 A?r1(Int) 1 \n 0 B?r2(Int) 2 \n 1 B?r2(Int) 3 \n 2 A?r1(Int) 3 \n 3 A!sum(Int) 4 \n final 4", p.fsm("M"))
    assertFsm("0 M!r1(Int) 1 \n 1 M?sum(Int) 2 \n final 2", p.fsm("A"))
    assertFsm("0 M!r2(Int) 1 \n final 1", p.fsm("B"))
  }

  @Test def nestedChoiceByTheOtherRole(): Unit = {
    val p = module("global protocol Nested(role A, role B) { choice at A { a() from A to B; choice at B { x() from B to A; } or { y() from B to A; } } or { b() from A to B; } }")
      .protocol("Nested")
    assertFsm("0 B!a() 1 \n 1 B?x() 2 \n 1 B?y() 2 \n 0 B!b() 2 \n final 2", p.fsm("A"))
    assertFsm("0 A?a() 1 \n 1 A!x() 2 \n 1 A!y() 2 \n 0 A?b() 2 \n final 2", p.fsm("B"))
  }

  @Test def nestedLoops(): Unit = {
    val p = module(
      """global protocol Loops(role A, role B) {
        |  rec Outer {
        |    start() from A to B;
        |    rec Inner {
        |      choice at A { step() from A to B; continue Inner; }
        |      or { stop() from A to B; }
        |    }
        |    choice at B { again() from B to A; continue Outer; } or { bye() from B to A; }
        |  }
        |}""".stripMargin).protocol("Loops")
    assertFsm("0 B!start() 1 \n 1 B!step() 1 \n 1 B!stop() 2 \n 2 B?again() 0 \n 2 B?bye() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?start() 1 \n 1 A?step() 1 \n 1 A?stop() 2 \n 2 A!again() 0 \n 2 A!bye() 3 \n final 3", p.fsm("B"))
  }

  @Test def loopThatFallsThroughToWhatFollows(): Unit = {
    val p = module("global protocol After(role A, role B) { rec L { choice at A { more() from A to B; continue L; } or { enough() from A to B; } } total(Int) from B to A; }")
      .protocol("After")
    assertFsm("0 B!more() 0 \n 0 B!enough() 1 \n 1 B?total(Int) 2 \n final 2", p.fsm("A"))
    assertFsm("0 A?more() 0 \n 0 A?enough() 1 \n 1 A!total(Int) 2 \n final 2", p.fsm("B"))
  }

  @Test def namedPayloadsKeepTheirTypes(): Unit = {
    val p = module("global protocol Order(role C, role S) { order(item: String, qty: Int) from C to S; }").protocol("Order")
    assertFsm("0 S!order(String, Int) 1 \n final 1", p.fsm("C"))
    assertFsm("0 C?order(String, Int) 1 \n final 1", p.fsm("S"))
  }

  @Test def equalContinuationsAreMerged(): Unit = {
    val p = module("global protocol Same(role A, role B) { choice at A { x() from A to B; ack() from B to A; } or { y() from A to B; ack() from B to A; } }")
      .protocol("Same")
    assertFsm("0 B!x() 1 \n 0 B!y() 1 \n 1 B?ack() 2 \n final 2", p.fsm("A"))
    assertFsm("0 A?x() 1 \n 0 A?y() 1 \n 1 A!ack() 2 \n final 2", p.fsm("B"))
  }

  @Test def parInsideALoopIsAProductThatReturnsToTheLoop(): Unit = {
    val p = module(
      """global protocol Rounds(role C, role W1, role W2) {
        |  rec R {
        |    choice at C {
        |      par { job() from C to W1; res() from W1 to C; } and { job() from C to W2; res() from W2 to C; }
        |      continue R;
        |    } or {
        |      stop() from C to W1, W2;
        |    }
        |  }
        |}""".stripMargin).protocol("Rounds")
    // States of C named by the progress of the two workers: 00 = neither sent, 10 = job sent to W1, 20 = W1 answered, ...
    // 22 (both answered) is 00 again (the loop), so it is state 0.
    assertFsm(
      """0 W1!job() 10
        |0 W2!job() 1
        |0 W1!stop() 90
        |90 W2!stop() 91
        |10 W1?res() 20
        |10 W2!job() 11
        |1 W1!job() 11
        |1 W2?res() 2
        |20 W2!job() 21
        |2 W1!job() 12
        |11 W1?res() 21
        |11 W2?res() 12
        |21 W2?res() 0
        |12 W1?res() 0
        |final 91""".stripMargin, p.fsm("C"))
    assertFsm("0 C?job() 1 \n 1 C!res() 0 \n 0 C?stop() 2 \n final 2", p.fsm("W1"))
    assertFsm("0 C?job() 1 \n 1 C!res() 0 \n 0 C?stop() 2 \n final 2", p.fsm("W2"))
  }

  @Test def choiceInsideParBranch(): Unit = {
    val p = module(
      """global protocol Mixed(role A, role B, role C) {
        |  par { choice at A { x() from A to B; } or { y() from A to B; } } and { z() from C to A; }
        |}""".stripMargin).protocol("Mixed")
    assertFsm("0 B!x() 1 \n 0 B!y() 1 \n 0 C?z() 2 \n 1 C?z() 3 \n 2 B!x() 3 \n 2 B!y() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?x() 1 \n 0 A?y() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A!z() 1 \n final 1", p.fsm("C"))
  }

  @Test def aRoleHearsOfSomeIterationsOnly(): Unit = {
    // D takes part only when C logs or quits; the other iterations go back to where D waits anyway.
    val p = module(
      """global protocol Rpc(role C, role S, role D) {
        |  rec L {
        |    choice at C { Req(Int) from C to S; Res(Int) from S to C; continue L; }
        |    or { Log(Int) from C to S; Note(Int) from S to D; Ack() from S to C; continue L; }
        |    or { Quit() from C to S; Bye() from S to D; }
        |  }
        |}""".stripMargin).protocol("Rpc")
    assertFsm("0 S?Note(Int) 0 \n 0 S?Bye() 1 \n final 1", p.fsm("D"))
    assertFsm(
      """0 S!Req(Int) 1
        |1 S?Res(Int) 0
        |0 S!Log(Int) 2
        |2 S?Ack() 0
        |0 S!Quit() 3
        |final 3""".stripMargin, p.fsm("C"))
    assertFsm(
      """0 C?Req(Int) 1
        |1 C!Res(Int) 0
        |0 C?Log(Int) 2
        |2 D!Note(Int) 4
        |4 C!Ack() 0
        |0 C?Quit() 3
        |3 D!Bye() 5
        |final 5""".stripMargin, p.fsm("S"))
    val q = module("global protocol Tail(role A, role B, role C) { rec X { choice at A { m() from A to B; continue X; } or { stop() from A to B; n() from B to C; } } }")
      .protocol("Tail")
    assertFsm("0 B?n() 1 \n final 1", q.fsm("C"))
  }

  @Test def localProtocolText(): Unit = {
    val p = module(purchase).protocol("Purchase")
    assertEquals(
      """local protocol Purchase at B(role B, role S, role A) {
        |  login(String) to S;
        |  authenticate(String) from A;
        |  choice at B {
        |    request(String) to S;
        |    quote(Int) from S;
        |  } or {
        |    buy(String) to S;
        |    delivery(String) from S;
        |  } or {
        |    quit() to S;
        |  }
        |}
        |""".stripMargin, p.local("B").text)
  }

  @Test def dotRendering(): Unit = {
    val f = module("global protocol PingPong(role A, role B) { ping() from A to B; pong() from B to A; }").protocol("PingPong").fsm("A")
    assertEquals(
      """digraph "PingPong@A" {
        |  rankdir=LR;
        |  node [shape=circle];
        |  start [shape=point];
        |  start -> 0;
        |  2 [shape=doublecircle];
        |  0 -> 1 [label="B!ping()"];
        |  1 -> 2 [label="B?pong()"];
        |}
        |""".stripMargin, f.dot)
  }

  /** The comparison itself can fail: a wrong target, a missing transition, a wrong final state, an extra state. */
  @Test def comparisonRejectsWrongMachines(): Unit = {
    val f = module("global protocol PingPong(role A, role B) { ping() from A to B; pong() from B to A; }").protocol("PingPong").fsm("A")
    for (wrong <- List(
        "0 B!ping() 1 \n 1 B?pong() 0 \n final 2",
        "0 B!ping() 1 \n final 1",
        "0 B!ping() 1 \n 1 B?pong() 2 \n final 1",
        "0 B!ping() 1 \n 1 B?pong() 2 \n 2 B?pong() 3 \n final 2",
        "0 B?ping() 1 \n 1 B?pong() 2 \n final 2"))
      assertThrows(classOf[AssertionError], () => assertFsm(wrong, f), wrong)
  }
}
