package cogs.session

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import Expected._

/**
 * Every shape of "a role takes no part in a loop or in a branch" (issue 28): 12 accepted
 * protocols, each with every role's machine derived by hand from what the protocol means, and
 * the shapes in which the role cannot know what to do next, rejected at the right place. The
 * first one crashed projection (`IndexOutOfBoundsException: -1`) before; several others were
 * wrongly rejected ("would wait forever") because projection did not look past the branch.
 */
class AbsentRoleTest {

  private val loopAB = "rec L { choice at A { m() from A to B; continue L; } or { stop() from A to B; } }"

  /** The protocol: C is not in the loop and acts after it. */
  @Test def roleAbsentFromALoopActsAfterIt(): Unit = {
    val p = module(s"global protocol P(role A, role B, role C) { $loopAB done() from A to C; }").protocol("P")
    assertFsm("0 B!m() 0 \n 0 B!stop() 1 \n 1 C!done() 2 \n final 2", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?stop() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?done() 1 \n final 1", p.fsm("C"))
    assertEquals("local protocol P at C(role A, role B, role C) {\n  done() from A;\n}\n", p.local("C").text)
  }

  @Test def roleAbsentFromALoopActsBeforeAndAfterIt(): Unit = {
    val p = module(s"global protocol P(role A, role B, role C) { x() from C to A; $loopAB y() from A to C; }").protocol("P")
    assertFsm("0 C?x() 1 \n 1 B!m() 1 \n 1 B!stop() 2 \n 2 C!y() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?stop() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A!x() 1 \n 1 A?y() 2 \n final 2", p.fsm("C"))
  }

  /** C's part ends before a loop that never ends: the loop is not C's, C is done. */
  @Test def roleAbsentFromAnEndlessLoopIsDoneBeforeIt(): Unit = {
    val p = module("global protocol P(role A, role B, role C) { x() from A to C; rec L { m() from A to B; continue L; } }").protocol("P")
    assertFsm("0 C!x() 1 \n 1 B!m() 1", p.fsm("A"))
    assertFsm("0 A?m() 0", p.fsm("B"))
    assertFsm("0 A?x() 1 \n final 1", p.fsm("C"))
  }

  /** C is absent from the inner loop, whose only way out goes back to the outer one: for C the inner loop is `continue O`. */
  @Test def roleAbsentFromAnInnerLoopThatContinuesTheOuterOne(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  rec O {
        |    a() from A to C;
        |    rec I { choice at A { m() from A to B; continue I; } or { n() from A to B; continue O; } }
        |  }
        |}""".stripMargin).protocol("P")
    assertFsm("0 C!a() 1 \n 1 B!m() 1 \n 1 B!n() 0", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?n() 0", p.fsm("B"))
    assertFsm("0 A?a() 0", p.fsm("C"))
    assertEquals("local protocol P at C(role A, role B, role C) {\n  rec O {\n    a() from A;\n    continue O;\n  }\n}\n", p.local("C").text)
  }

  /** The inner loop, C's no business, ends two ways for C (back to the outer loop, or on after it); C tells them apart by what it receives next. */
  @Test def roleAbsentFromALoopThatEndsTwoWaysLearnsWhichFromWhatFollows(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  rec O {
        |    a() from A to C;
        |    rec I {
        |      choice at A { m() from A to B; continue I; }
        |      or { n() from A to B; continue O; }
        |      or { q() from A to B; }
        |    }
        |    z() from A to C;
        |  }
        |}""".stripMargin).protocol("P")
    assertFsm("0 C!a() 1 \n 1 B!m() 1 \n 1 B!n() 0 \n 1 B!q() 2 \n 2 C!z() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?n() 0 \n 0 A?q() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?a() 1 \n 1 A?a() 1 \n 1 A?z() 2 \n final 2", p.fsm("C"))
  }

  /** C hears of every iteration but not of the exit branch; the message after the loop tells it the loop ended (was rejected before). */
  @Test def roleAbsentFromTheExitBranchLearnsTheExitAfterTheLoop(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  rec L { x() from A to C; choice at A { m() from A to B; continue L; } or { stop() from A to B; } }
        |  done() from A to C;
        |}""".stripMargin).protocol("P")
    assertFsm("0 C!x() 1 \n 1 B!m() 0 \n 1 B!stop() 2 \n 2 C!done() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?stop() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?x() 1 \n 1 A?x() 1 \n 1 A?done() 2 \n final 2", p.fsm("C"))
  }

  /** C is absent from one branch of a plain choice and learns it from the message after the choice. */
  @Test def roleAbsentFromABranchLearnsItFromWhatFollowsTheChoice(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  choice at A { m() from A to B; x() from A to C; } or { n() from A to B; }
        |  y() from A to C;
        |}""".stripMargin).protocol("P")
    assertFsm("0 B!m() 1 \n 1 C!x() 2 \n 0 B!n() 2 \n 2 C!y() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?m() 1 \n 0 A?n() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?x() 1 \n 1 A?y() 2 \n 0 A?y() 2 \n final 2", p.fsm("C"))
  }

  /** A loop with two exits, C in one of them and after the loop: the other exit shows C the message after the loop. */
  @Test def roleInOneOfTwoExitsOfALoop(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  rec L {
        |    choice at A { m() from A to B; continue L; }
        |    or { s1() from A to B; x() from A to C; }
        |    or { s2() from A to B; }
        |  }
        |  done() from A to C;
        |}""".stripMargin).protocol("P")
    assertFsm("0 B!m() 0 \n 0 B!s1() 1 \n 1 C!x() 2 \n 0 B!s2() 2 \n 2 C!done() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?s1() 1 \n 0 A?s2() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?x() 1 \n 1 A?done() 2 \n 0 A?done() 2 \n final 2", p.fsm("C"))
  }

  /** C skips the inner loop's iterations, hears of a return to the outer loop and of the end. */
  @Test def roleSkipsInnerIterationsAndHearsOfTheOuterOnes(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  rec O {
        |    rec I {
        |      choice at A { m() from A to B; continue I; }
        |      or { n() from A to B; k() from A to C; continue O; }
        |      or { q() from A to B; e() from A to C; }
        |    }
        |  }
        |}""".stripMargin).protocol("P")
    assertFsm("0 B!m() 0 \n 0 B!n() 1 \n 1 C!k() 0 \n 0 B!q() 2 \n 2 C!e() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?n() 0 \n 0 A?q() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?k() 0 \n 0 A?e() 1 \n final 1", p.fsm("C"))
  }

  /** The loop C is absent from is one branch of a par: for C the par is its other branch (crashed before). */
  @Test def roleAbsentFromALoopInAParBranch(): Unit = {
    val p = module(s"global protocol P(role A, role B, role C) { par { $loopAB } and { c() from A to C; } }").protocol("P")
    // A's states: (loop state, c sent?): 0 = (0, no), 1 = (0, yes), 2 = (1, no), 3 = (1, yes), final.
    assertFsm("0 B!m() 0 \n 0 B!stop() 2 \n 0 C!c() 1 \n 1 B!m() 1 \n 1 B!stop() 3 \n 2 C!c() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?stop() 1 \n final 1", p.fsm("B"))
    assertFsm("0 A?c() 1 \n final 1", p.fsm("C"))
  }

  /** A loop chosen by B, which C is absent from, inside one branch of A's choice; C learns A's choice after it. */
  @Test def roleAbsentFromALoopInsideABranch(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  choice at A {
        |    go() from A to B;
        |    rec L { choice at B { m() from B to A; continue L; } or { stop() from B to A; } }
        |    r() from A to C;
        |  } or {
        |    no() from A to B; s() from A to C;
        |  }
        |}""".stripMargin).protocol("P")
    assertFsm("0 B!go() 1 \n 1 B?m() 1 \n 1 B?stop() 2 \n 2 C!r() 3 \n 0 B!no() 4 \n 4 C!s() 3 \n final 3", p.fsm("A"))
    assertFsm("0 A?go() 1 \n 1 A!m() 1 \n 1 A!stop() 2 \n 0 A?no() 2 \n final 2", p.fsm("B"))
    assertFsm("0 A?r() 1 \n 0 A?s() 1 \n final 1", p.fsm("C"))
  }

  /** Two loops in a row, C absent from both and acting between and after them. */
  @Test def roleAbsentFromTwoLoopsInARow(): Unit = {
    val p = module(
      """global protocol P(role A, role B, role C) {
        |  rec L { choice at A { m() from A to B; continue L; } or { stop() from A to B; } }
        |  mid() from A to C;
        |  rec K { choice at B { k() from B to A; continue K; } or { end() from B to A; } }
        |  last() from A to C;
        |}""".stripMargin).protocol("P")
    assertFsm("0 B!m() 0 \n 0 B!stop() 1 \n 1 C!mid() 2 \n 2 B?k() 2 \n 2 B?end() 3 \n 3 C!last() 4 \n final 4", p.fsm("A"))
    assertFsm("0 A?m() 0 \n 0 A?stop() 1 \n 1 A!k() 1 \n 1 A!end() 2 \n final 2", p.fsm("B"))
    assertFsm("0 A?mid() 1 \n 1 A?last() 2 \n final 2", p.fsm("C"))
  }

  // ------------------------------------------------------------------ rejected: the role cannot know

  private def assertErrors(body: String, expected: String*): Unit = assertEquals(expected.toList, errors(body))

  /** C hears of the iterations but nothing tells it the loop ended: it would wait for x forever. */
  @Test def roleThatHearsOfIterationsButNotOfTheEndWaitsForever(): Unit =
    assertErrors("global protocol P(role A, role B, role C) {\n  rec L { choice at A { m() from A to B; x() from A to C; continue L; }\n  or { stop() from A to B; } }\n}",
      "test.scr:6:6: error: role C would wait forever: it takes part in branch 1 of the choice at A but receives nothing in branch 2 " +
        "that tells it this branch was taken")

  /** The loop C is absent from ends two ways, and C would hear of them from different roles. */
  @Test def roleAbsentFromALoopThatEndsTwoWaysToldByDifferentRoles(): Unit =
    assertErrors(
      "global protocol P(role A, role B, role C) {\n  rec O { a() from A to C;\n" +
        "    rec I { choice at A { m() from A to B; continue I; } or { n() from A to B; continue O; } or { q() from A to B; } }\n" +
        "    z() from B to C; }\n}",
      "test.scr:6:13: error: role C learns the choice at A from different roles (A, B); it must learn it from the same role in every branch")

  /** After a loop it is absent from, C must act differently depending on how it ended, with nothing to tell it. */
  @Test def roleAbsentFromALoopMustSendBeforeItKnowsHowItEnded(): Unit =
    assertErrors(
      "global protocol P(role A, role B, role C) {\n  rec O { a() from A to C;\n" +
        "    rec I { choice at A { m() from A to B; continue I; } or { n() from A to B; continue O; } or { q() from A to B; } }\n" +
        "    z() from C to A; }\n}",
      "test.scr:7:5: error: role C sends z to A in branch 3 of the choice at A (line 6) before it can know which branch was chosen " +
        "(it must first receive a message in that branch)")
}
