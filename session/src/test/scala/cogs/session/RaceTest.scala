package cogs.session

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import Expected._

/** Mailbox-race warnings (cogs.session.check.Races): reported where a correct program can be flagged, and nowhere else. */
class RaceTest {
  private def warnings(body: String): List[String] = module(body).warnings.map(_.header)

  private def race(line: Int, col: Int, r: String, m: String, from: String, prev: String, prevFrom: String, prevLine: Int) =
    s"test.scr:$line:$col: warning: role $r may receive $m from $from before $prev from $prevFrom (line $prevLine): " +
      "nothing orders the two sends, and an object has one inbox; its monitor would see them in the order they were sent"

  @Test def thePapersPurchaseHasARace(): Unit =
    assertEquals(List(
      race(9, 5, "S", "request", "B", "authenticate", "A", 7),
      race(12, 5, "S", "buy", "B", "authenticate", "A", 7),
      race(15, 5, "S", "quit", "B", "authenticate", "A", 7)),
      warnings(purchase))

  @Test def tellingTheSellerFirstRemovesIt(): Unit =
    assertEquals(Nil, warnings(
      """global protocol Purchase(role B, role S, role A) {
        |  login(String) from B to S;
        |  login(String) from S to A;
        |  authenticate(String) from A to S, B;
        |  choice at B { buy(String) from B to S; delivery(String) from S to B; } or { quit() from B to S; }
        |}""".stripMargin))

  @Test def twoUnrelatedSendersToOneRole(): Unit =
    assertEquals(List(race(4, 64, "B", "b", "C", "a", "A", 4)),
      warnings("global protocol Two(role A, role B, role C) { a() from A to B; b() from C to B; }"))

  @Test def aRaceInsideALoop(): Unit =
    // A sends z to B and at once done to C; B, on z, sends w to C: done can overtake w.
    assertEquals(List(race(7, 44, "C", "done", "A", "w", "B", 7)), warnings(
      """global protocol Loop(role A, role B, role C) {
        |  rec L {
        |    choice at A { x() from A to B; y() from B to C; continue L; }
        |    or { z() from A to B; w() from B to C; done() from A to C; }
        |  }
        |}""".stripMargin))

  @Test def noRaceWhereTheProtocolOrdersTheSends(): Unit = {
    // Same sender; a chain through the receiver; par branches (either order is accepted); a loop with replies.
    assertEquals(Nil, warnings("global protocol P(role A, role B) { a() from A to B; b() from A to B; }"))
    assertEquals(Nil, warnings("global protocol P(role A, role B, role C) { a() from A to B; go() from B to C; c() from C to B; }"))
    assertEquals(Nil, warnings("global protocol P(role A, role B, role M) { par { r1() from A to M; } and { r2() from B to M; } sum() from M to A; }"))
    assertEquals(Nil, warnings(
      "global protocol P(role C, role S) { rec L { choice at C { req() from C to S; res() from S to C; continue L; } or { quit() from C to S; } } }"))
  }
}
