package cogs.session

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import Expected._

/**
 * Every syntax and well-formedness rule rejects what it should, at the place it should. The
 * protocols follow a 3-line header (module and types), so their first line is line 4.
 */
class RejectionTest {

  private def assertErrors(body: String, expected: String*): Unit = assertEquals(expected.toList, errors(body))
  private def assertHasError(body: String, expected: String): Unit = {
    val es = errors(body)
    assertTrue(es.contains(expected), s"expected\n  $expected\namong\n  ${es.mkString("\n  ")}")
  }

  // ------------------------------------------------------------------ syntax

  @Test def missingSemicolonIsReportedAfterTheMessage(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping() from A to B\n}",
      "test.scr:5:21: error: expected ',' or ';', found '}'")

  @Test def badCharacter(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping() from A to B; #\n}", "test.scr:5:23: error: unexpected '#'")

  @Test def missingKeyword(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  choice A { ping() from A to B; }\n}", "test.scr:5:9: error: expected 'at', found 'A'")

  @Test def unclosedPayload(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping( from A to B;\n}", "test.scr:5:9: error: unexpected 'from'; expected ')' or a name")

  @Test def syntaxErrorIsRenderedWithTheLineAndACaret(): Unit = {
    val text = "module m;\nglobal protocol P(role A, role B) {\n  ping() from A to B\n}\n"
    val ds = ProtocolModule.check("m.scr", text).swap.getOrElse(fail("accepted"))
    assertEquals("m.scr:3:21: error: expected ',' or ';', found '}'\n  ping() from A to B\n                    ^", ds.head.render(text))
    val e = assertThrows(classOf[ProtocolException], () => ProtocolModule.parse("m.scr", text))
    assertEquals(ds.head.render(text), e.getMessage)
  }

  @Test def moduleHeaderIsRequired(): Unit =
    assertEquals(List("x.scr:1:9: error: expected ';', found end of file"),
      ProtocolModule.check("x.scr", "module x").swap.getOrElse(fail("accepted")).map(_.header))

  // ------------------------------------------------------------------ names

  @Test def undeclaredRole(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping() from A to C;\n}",
      "test.scr:4:32: error: role 'B' is declared but takes part in no interaction of protocol P",
      "test.scr:5:20: error: role 'C' is not declared in protocol P (its roles: A, B)")

  @Test def unusedRole(): Unit =
    assertErrors("global protocol P(role A, role B, role C) {\n  ping() from A to B;\n}",
      "test.scr:4:40: error: role 'C' is declared but takes part in no interaction of protocol P")

  @Test def roleDeclaredTwice(): Unit =
    assertErrors("global protocol P(role A, role B, role A) {\n  ping() from A to B;\n}",
      "test.scr:4:40: error: role 'A' is declared twice in protocol P (first at column 24)")

  @Test def messageToItself(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping() from A to A, B;\n}", "test.scr:5:20: error: role 'A' sends ping to itself")

  @Test def undeclaredPayloadType(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping(Long) from A to B;\n}",
      "test.scr:5:8: error: payload type 'Long' is not declared (declare it with: type <java> \"java.lang.Class\" from \"rt.jar\" as Long;)")

  @Test def protocolDeclaredTwice(): Unit =
    assertErrors("global protocol P(role A, role B) { m() from A to B; }\nglobal protocol P(role A, role B) { m() from A to B; }",
      "test.scr:5:17: error: protocol 'P' is already declared at line 4")

  @Test def doOfAnUnknownProtocol(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  do Q(A, B);\n}", "test.scr:5:6: error: protocol 'Q' is not declared in module test")

  @Test def doWithTheWrongNumberOfRoles(): Unit =
    assertHasError("global protocol Q(role A) { }\nglobal protocol P(role A, role B) {\n  do Q(A, B);\n}",
      "test.scr:6:6: error: protocol Q has 1 role(s) (A), but 'do' gives 2")

  @Test def doWithARoleTwice(): Unit =
    assertHasError("global protocol P(role A, role B) {\n  do Q(A, A);\n}\nglobal protocol Q(role X, role Y) { m() from X to Y; }",
      "test.scr:5:11: error: role 'A' is given twice to Q")

  @Test def oneSignaturePerMessage(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  m(Int) from A to B;\n  m(String) from A to B;\n}",
      "test.scr:6:3: error: message m from A to B has payload (String) here but (Int) at line 5; one message has one signature")

  // ------------------------------------------------------------------ recursion

  @Test def continueOutsideItsRec(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping() from A to B;\n  continue X;\n}", "test.scr:6:12: error: 'continue X' is not inside a 'rec X'")

  @Test def nothingFollowsContinue(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  rec X {\n    ping() from A to B;\n    continue X;\n    pong() from B to A;\n  }\n}",
      "test.scr:8:5: error: unreachable: nothing may follow 'continue X' in its block")

  @Test def recLabelShadowsAnEnclosingOne(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  rec X { m() from A to B; rec X { continue X; } }\n}",
      "test.scr:5:32: error: rec 'X' is already the label of an enclosing rec")

  @Test def unguardedRecursion(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  ping() from A to B;\n  rec X { continue X; }\n}",
      "test.scr:6:11: error: unguarded recursion: 'continue X' is reached with no message since the start of the recursion")

  @Test def unguardedRecursionInOneBranch(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  rec X {\n    choice at A { m() from A to B; continue X; }\n    or { continue X; }\n  }\n}",
      "test.scr:7:10: error: unguarded recursion: 'continue X' is reached with no message since the start of the recursion")

  @Test def unguardedRecursiveDo(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  do P(A, B);\n}",
      "test.scr:5:3: error: unguarded recursion: 'do P' is reached with no message since the start of the recursion")

  @Test def recursiveDoMustBeLast(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  choice at A { m() from A to B; do P(A, B); n() from A to B; }\n  or { e() from A to B; }\n}",
      "test.scr:5:46: error: unreachable: nothing may follow a recursive 'do' (it continues P from the start)")

  @Test def nothingAfterALoopThatNeverEnds(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  rec L { m() from A to B; continue L; }\n  n() from B to A;\n}",
      "test.scr:6:3: error: unreachable: every path before this interaction ends in 'continue', so it never happens " +
        "and the roles that wait for it would wait forever")

  // ------------------------------------------------------------------ choice

  @Test def chooserMustSendFirst(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  choice at A { m() from B to A; }\n  or { n() from A to B; }\n}",
      "test.scr:5:17: error: branch 1 of the choice at A (line 5) begins with A receiving m from B; the role that chooses must send first",
      "test.scr:5:17: error: role B sends m to A in branch 1 of the choice at A (line 5) before it can know which branch was chosen " +
        "(it must first receive a message in that branch)")

  @Test def chooserMustTakePartInEveryBranch(): Unit =
    assertHasError("global protocol P(role A, role B, role C) {\n  choice at A { m() from A to B; }\n  or { n() from B to C; }\n}",
      "test.scr:6:6: error: role A chooses at this choice but takes no part in branch 2")

  @Test def branchLabelsMustBeDistinct(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  choice at A { m() from A to B; x() from B to A; }\n  or { m() from A to B; y() from B to A; }\n}",
      "test.scr:6:8: error: branches 1 and 2 of the choice at A both begin with 'm to B'; the labels must be distinct",
      "test.scr:6:8: error: role B cannot tell branch 1 from branch 2 of the choice at A: both begin, for B, with 'm from A'")

  @Test def roleLeftWaitingForever(): Unit =
    assertErrors("global protocol P(role A, role B, role C) {\n  choice at A { m() from A to B; x() from B to C; }\n  or { n() from A to B; }\n}",
      "test.scr:6:6: error: role C would wait forever: it takes part in branch 1 of the choice at A but receives nothing in branch 2 " +
        "that tells it this branch was taken")

  @Test def roleMustLearnTheChoiceFromOneRole(): Unit =
    assertErrors("global protocol P(role A, role B, role C) {\n  choice at A { m() from A to B; m() from A to C; }\n  or { n() from A to C; x() from C to B; }\n}",
      "test.scr:5:3: error: role B learns the choice at A from different roles (A, C); it must learn it from the same role in every branch")

  @Test def roleActsBeforeItKnowsTheBranch(): Unit =
    assertErrors("global protocol P(role A, role B, role C) {\n  choice at A { m() from A to B; x() from C to B; }\n  or { n() from A to B; y() from C to B; }\n}",
      "test.scr:5:34: error: role C sends x to B in branch 1 of the choice at A (line 5) before it can know which branch was chosen " +
        "(it must first receive a message in that branch)",
      "test.scr:6:25: error: role C sends y to B in branch 2 of the choice at A (line 5) before it can know which branch was chosen " +
        "(it must first receive a message in that branch)")

  @Test def errorsInASubProtocolPointAtItsOwnLines(): Unit =
    assertErrors("global protocol Sub(role X, role Y) {\n  choice at X { a() from X to Y; } or { a() from X to Y; }\n}\n" +
      "global protocol Main(role A, role B) { do Sub(A, B); }",
      // Checked once as a protocol of its own and once as inlined in Main, with Main's roles. Y need not know the
      // branch: it receives the same in both.
      "test.scr:5:41: error: branches 1 and 2 of the choice at A both begin with 'a to B'; the labels must be distinct",
      "test.scr:5:41: error: branches 1 and 2 of the choice at X both begin with 'a to Y'; the labels must be distinct")

  @Test def aRoleThatSkipsIterationsMustStillLearnTheExit(): Unit =
    assertErrors("global protocol P(role A, role B, role C) {\n  rec X { choice at A { m() from A to B; continue X; }\n  or { stop() from A to B; n() from C to B; } }\n}",
      "test.scr:6:28: error: role C sends n to B in branch 2 of the choice at A (line 5) before it can know which branch was chosen " +
        "(it must first receive a message in that branch)")

  // ------------------------------------------------------------------ par

  @Test def parBranchesMustNotShareAMessage(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  par { m() from A to B; }\n  and { m() from A to B; }\n}",
      "test.scr:6:9: error: role A does 'm to B' in branches 1 and 2 of the par at line 5; a monitor could not tell which branch the message belongs to",
      "test.scr:6:9: error: role B does 'm from A' in branches 1 and 2 of the par at line 5; a monitor could not tell which branch the message belongs to")

  @Test def continueMayNotLeaveAParBranch(): Unit =
    assertErrors("global protocol P(role A, role B) {\n  rec X {\n    par { m() from A to B; continue X; }\n    and { n() from A to B; }\n  }\n}",
      "test.scr:6:37: error: 'continue X' leaves a 'par' branch; a par branch may only continue a rec inside it")
}
