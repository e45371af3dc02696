package cogs.session.monitor

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.session.Expected

/**
 * The row-displacement tables: every transition of the machine is found, nothing else is, and
 * the table grows with the transitions, not with states x messages. (No timing here: the cost
 * per message is measured in benchmarks, see session/README.md.)
 */
class TableTest {

  /** A chain of n distinct messages alternating between A and B, looped: n states, n labels per role. */
  private def chain(n: Int): String =
    "global protocol Chain(role A, role B) { rec L {\n" +
      (0 until n).map(i => if (i % 2 == 0) s"  m$i() from A to B;\n" else s"  m$i() from B to A;\n").mkString +
      "  continue L;\n} }"

  @Test def everyTransitionAndNothingElse(): Unit = {
    val n = 1000
    val st = new SessionType(Expected.module(chain(n)).protocol("Chain"), Policy.Reject)
    for (role <- List("A", "B")) {
      val r = if (role == "A") 0 else 1
      val fsm = st.protocol.fsm(role)
      assertEquals(n, fsm.states)
      val table = st.tables(r)
      val ids = st.messages.map(m => (if (m.from == role) s"${m.to}!${m.label}()" else s"${m.from}?${m.label}()") -> m.id).toMap
      val expected = fsm.transitions.map(t => (t.from, ids(t.action.text)) -> t.to).toMap
      for (s <- 0 until fsm.states; m <- 0 until st.messages.size) {
        val e = expected.getOrElse((s, m), -1)
        if (table.step(s, m) != e) fail(s"role $role, state $s, message $m: expected $e, got ${table.step(s, m)}")
      }
      // n transitions in n states over n messages: a full matrix would have n * n cells.
      assertTrue(table.size <= 4 * n, s"table of ${table.size} cells for $n transitions")
    }
  }

  @Test def aSessionRunsTheWholeChain(): Unit = {
    val n = 200
    val st = new SessionType(Expected.module(chain(n)).protocol("Chain"), Policy.Reject)
    val rt = cogs.runtime.CogRuntime()
    try {
      val p = rt.spawn(new cogs.runtime.ActiveObject {})
      val s = st.start(Map("A" -> p, "B" -> p))
      for (round <- 0 until 2; i <- 0 until n) {
        val (from, to) = if (i % 2 == 0) ("A", "B") else ("B", "A")
        s.send[cogs.runtime.ActiveObject, Unit](st.message(from, to, s"m$i"))(_ => cogs.runtime.Proc.unit).join()
      }
      assertTrue(s.violations.isEmpty, s.violations.toString)
      assertEquals((0, 0), (s.stateOf("A"), s.stateOf("B")))
    } finally rt.close()
  }
}
