package cogs.session.monitor

import cogs.session.fsm.Fsm

/**
 * One role's transition function as a row-displacement table (the compression of parser and
 * lexer tables): row `s` of the full states x messages matrix is laid over one shared array at
 * offset `base(s)`, placed first-fit where its entries fall into free slots, and `check` records
 * which row owns each slot. A look-up is two array reads and a compare, whatever the machine's
 * size; the arrays grow with the number of transitions, not with states x messages (a
 * 10,000-state protocol with 10,000 labels would need 10^8 cells as a full matrix).
 */
private[session] final class Table(val states: Int, rows: Array[Array[(Int, Int)]], finalStates: Set[Int]) {
  private[this] val base = new Array[Int](states)
  private[this] var check: Array[Int] = Array.fill(16)(-1)
  private[this] var next: Array[Int] = new Array[Int](16)
  val finals: Array[Boolean] = Array.tabulate(states)(finalStates)

  {
    var lowestFree = 0
    var s = 0
    while (s < states) {
      val row = rows(s).sortBy(_._1)
      if (row.nonEmpty) {
        var b = math.max(0, lowestFree - row.head._1)
        while (!row.forall { case (m, _) => b + m >= check.length || check(b + m) < 0 }) b += 1
        val need = b + row.last._1 + 1
        if (need > check.length) {
          val n = math.max(need, check.length * 2)
          val c2 = Array.fill(n)(-1); System.arraycopy(check, 0, c2, 0, check.length); check = c2
          next = java.util.Arrays.copyOf(next, n)
        }
        row.foreach { case (m, t) => check(b + m) = s; next(b + m) = t }
        base(s) = b
        while (lowestFree < check.length && check(lowestFree) >= 0) lowestFree += 1
      } else base(s) = 0
      s += 1
    }
  }

  /** The state after message `msg` in state `state`, or -1 if the machine has no such transition. */
  def step(state: Int, msg: Int): Int = {
    val i = base(state) + msg
    if (i < check.length && check(i) == state) next(i) else -1
  }

  /** Cells used (for the docs' size figures). */
  def size: Int = check.length
}

private[session] object Table {
  /** `msgId` gives the protocol-wide id of a transition's message, or -1 if it is not one of this role's. */
  def apply(fsm: Fsm, msgId: cogs.session.fsm.Action => Int): Table = {
    val rows = Array.fill(fsm.states)(Array.newBuilder[(Int, Int)])
    fsm.transitions.foreach(t => rows(t.from) += ((msgId(t.action), t.to)))
    new Table(fsm.states, rows.map(_.result()), fsm.finals)
  }
}
