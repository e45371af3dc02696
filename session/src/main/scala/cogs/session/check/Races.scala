package cogs.session.check

import scala.collection.immutable.BitSet
import scala.collection.mutable

import cogs.session.Diagnostic
import cogs.session.ast._

/**
 * Mailbox races: warnings, not errors. Scribble's semantics gives each pair of roles its own
 * FIFO channel, so a role that receives `a` from P and then `b` from Q reads them in that order
 * whatever order they were sent in. An active object has one inbox, so its monitor sees them in
 * the order they were sent: if nothing in the protocol makes the send of `b` happen after the
 * send of `a`, a correct program can deliver `b` first and be reported as a violation. (The
 * paper's own Purchase protocol has one: A tells B, then S; B, on hearing, sends `buy` to S,
 * which can overtake A's message to S.)
 *
 * The analysis follows every path of the (inlined) protocol, loops unrolled twice, and keeps per
 * role the set of messages whose sends happen before its current point (the causal past: a
 * role's own sends, and the past of every message it received). A message's send happens after
 * its sender's past; a receive adds the message and its past to the receiver's. Each receive is
 * checked against the role's previous receive(s): the earlier message must be in the later one's
 * past. Checking consecutive receives is enough, since the past is transitive. `par` branches
 * start from the same state and are joined by union: receives in different branches are
 * unordered by the protocol itself, and their machine accepts either order. It gives up (no
 * warnings) on protocols with more paths than [[Budget]] message visits.
 */
private[session] object Races {
  final val Budget = 200000

  def check(body: List[Interaction]): List[Diagnostic] = {
    val out = mutable.LinkedHashSet.empty[Diagnostic]
    val msgs = mutable.ArrayBuffer.empty[(Message, String)] // id -> (message, receiver)
    var visits = 0
    final class GiveUp extends RuntimeException(null, null, false, false)

    // Pasts as bit sets of message ids: each message unites two pasts, and on a long protocol
    // whose roles take turns hash sets made that quadratic with a large constant (42 s for
    // 10,000 messages); word-wise unions keep it at milliseconds.
    final case class St(known: Map[String, BitSet], last: Map[String, Set[Int]]) {
      def past(r: String): BitSet = known.getOrElse(r, BitSet.empty)
    }
    final case class Loop(body: List[Interaction], unfoldings: Int, after: St => Unit)

    def walk(xs: List[Interaction], st: St, loops: Map[String, Loop], k: St => Unit): Unit = xs match {
      case Nil => k(st)
      case (m: Message) :: rest =>
        var s = st
        for (t <- m.to) {
          visits += 1
          if (visits > Budget) throw new GiveUp
          val id = msgs.size
          msgs += ((m, t.text))
          val from = m.from.text
          val past = s.past(from)
          for (prev <- s.last.getOrElse(t.text, Set.empty) if !past.contains(prev)) {
            val (pm, _) = msgs(prev)
            out += Diagnostic(m.pos, s"role ${t.text} may receive ${m.label.text} from $from before ${pm.label.text} from ${pm.from.text} " +
              s"(line ${pm.pos.line}): nothing orders the two sends, and an object has one inbox; its monitor would see " +
              "them in the order they were sent", warning = true)
          }
          s = St(s.known.updated(from, past + id).updated(t.text, s.past(t.text) ++ past + id), s.last.updated(t.text, Set(id)))
        }
        walk(rest, s, loops, k)
      case (c: Choice) :: rest => c.branches.foreach(b => walk(b.items, st, loops, s => walk(rest, s, loops, k)))
      case (r: Rec) :: rest =>
        val after: St => Unit = s => walk(rest, s, loops, k)
        walk(r.body.items, st, loops.updated(r.label.text, Loop(r.body.items, 1, after)), after)
      case (c: Continue) :: _ =>
        loops.get(c.label.text).foreach { l =>
          if (l.unfoldings < 2) walk(l.body, st, loops.updated(c.label.text, l.copy(unfoldings = l.unfoldings + 1)), l.after)
        }
      case (p: Par) :: rest =>
        // Each branch's end states (a branch only continues recs inside it), then every combination, joined.
        val ends = p.branches.map { b =>
          val acc = mutable.ArrayBuffer.empty[St]
          walk(b.items, st, loops, acc += _)
          acc.toList
        }
        val joined = ends.foldLeft(List(St(Map.empty, Map.empty))) { (combos, branchEnds) =>
          for (c <- combos; e <- branchEnds) yield St(
            (c.known.keySet ++ e.known.keySet).map(r => r -> (c.past(r) ++ e.past(r))).toMap,
            (c.last.keySet ++ e.last.keySet).map(r => r -> (c.last.getOrElse(r, Set.empty) ++ e.last.getOrElse(r, Set.empty))).toMap)
        }
        joined.foreach(s => walk(rest, s, loops, k))
      case (_: Do) :: rest => walk(rest, st, loops, k) // inlined before
    }

    try { walk(body, St(Map.empty, Map.empty), Map.empty, _ => ()); Diagnostic.sorted(out) }
    catch { case _: GiveUp => Nil }
  }
}
