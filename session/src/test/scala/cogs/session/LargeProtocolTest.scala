package cogs.session

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.session.monitor.{Policy, SessionType}

/**
 * A protocol of 10,000 messages is parsed, checked, projected, turned into machines and tables,
 * and run, on a thread with a 512 KB stack (smaller than a JVM's default of 1 MB on x86-64 Linux;
 * the build's tests otherwise run with -Xss4m, which would hide a recursion once per message).
 * The construction used to recurse once per message and overflowed there.
 */
class LargeProtocolTest {

  private val N = 10000

  /** On a thread with `stackBytes` of stack; rethrows whatever it threw (a StackOverflowError included). */
  private def onSmallStack[A](stackBytes: Long)(body: => A): A = {
    var result: Option[A] = None
    var failure: Throwable = null
    val t = new Thread(null, () => try result = Some(body) catch { case e: Throwable => failure = e }, "small-stack", stackBytes)
    t.start()
    t.join()
    if (failure != null) throw new AssertionError(s"failed on a ${stackBytes / 1024} KB stack: $failure", failure)
    result.get
  }

  /** n messages between A and B in a loop, with a two-way choice in the middle (so the nesting is exercised too). */
  private def protocol(n: Int): String = {
    val b = new StringBuilder("module big;\nglobal protocol Big(role A, role B) {\n  rec L {\n")
    (0 until n).foreach { i =>
      if (i == n / 2) b ++= "    choice at A { left() from A to B; } or { right() from A to B; back() from B to A; }\n"
      b ++= (if (i % 3 == 2) s"    m$i() from B to A;\n" else s"    m$i() from A to B;\n")
    }
    b ++= "    continue L;\n  }\n}\n"
    b.result()
  }

  @Test def tenThousandMessagesOnAHalfMegabyteStack(): Unit = {
    val (statesA, statesB, finished) = onSmallStack(512L * 1024) {
      val st = new SessionType(ProtocolModule.parse("big.scr", protocol(N)).protocol("Big"), Policy.Reject)
      val a = st.protocol.fsm("A")
      val b = st.protocol.fsm("B")
      // One pass around the loop, the `left` branch, through both roles' tables.
      val rt = cogs.runtime.CogRuntime()
      try {
        val p = rt.spawn(new cogs.runtime.ActiveObject {})
        val s = st.start(Map("A" -> p, "B" -> p))
        def msg(i: Int) = if (i % 3 == 2) st.message("B", "A", s"m$i") else st.message("A", "B", s"m$i")
        (0 until N).foreach { i =>
          if (i == N / 2) s.send[cogs.runtime.ActiveObject, Unit](st.message("A", "B", "left"))(_ => cogs.runtime.Proc.unit).join()
          s.send[cogs.runtime.ActiveObject, Unit](msg(i))(_ => cogs.runtime.Proc.unit).join()
        }
        assertTrue(s.violations.isEmpty, s.violations.toString)
        (a.states, b.states, (s.stateOf("A"), s.stateOf("B")))
      } finally rt.close()
    }
    // A state before each of the N messages, one before the choice, and one between `right`
    // and `back` (`left` and `right; back` lead from the choice to the same state).
    assertEquals(N + 2, statesA)
    assertEquals(N + 2, statesB)
    assertEquals((0, 0), finished, "after one whole pass both roles are back at the loop's head")
  }
}
