package cogs.session.fsm

import scala.collection.mutable

import cogs.session.project._

/** What a role does on a transition: send `label(payload)` to `peer`, or receive it from `peer`. */
final case class Action(send: Boolean, peer: String, label: String, payload: List[String]) {
  /** `S!login(String)` for a send to S, `B?login(String)` for a receive from B. */
  def text: String = s"$peer${if (send) "!" else "?"}$label(${payload.mkString(", ")})"
  override def toString: String = text
}

final case class Transition(from: Int, action: Action, to: Int)

/**
 * A deterministic finite state machine of one role. States are 0 until `states`, numbered in
 * breadth-first order from the initial state 0, following transitions in the order of their
 * action's text; with minimality this makes the machine canonical: two protocols whose
 * projections on a role behave the same get the same machine.
 */
final class Fsm private[fsm] (val protocol: String, val role: String, val states: Int, val finals: Set[Int], val transitions: Vector[Transition]) {
  val initial: Int = 0

  def outgoing(s: Int): Vector[Transition] = transitions.filter(_.from == s)

  /** `fsm P@B: 3 states, initial 0, final {2}` then one transition a line. */
  def text: String = {
    val b = new StringBuilder
    b ++= s"fsm $protocol@$role: $states state${if (states == 1) "" else "s"}, initial 0, final {${finals.toList.sorted.mkString(", ")}}\n"
    transitions.foreach(t => b ++= s"  ${t.from} -> ${t.to}  ${t.action.text}\n")
    b.result()
  }

  /** Graphviz: `dot -Tsvg`. Final states are double circles. */
  def dot: String = {
    val b = new StringBuilder
    b ++= s"digraph \"$protocol@$role\" {\n  rankdir=LR;\n  node [shape=circle];\n  start [shape=point];\n  start -> 0;\n"
    finals.toList.sorted.foreach(f => b ++= s"  $f [shape=doublecircle];\n")
    transitions.foreach(t => b ++= s"  ${t.from} -> ${t.to} [label=\"${t.action.text.replace("\"", "\\\"")}\"];\n")
    b ++= "}\n"
    b.result()
  }

  override def toString: String = text
}

/**
 * From a local protocol to its role's deterministic machine:
 *
 *  1. A Thompson-style automaton with silent moves: a message is a state with one transition; a
 *     choice is a state with a silent move into each branch; `rec X` is a state with a silent move
 *     into its body, which `continue X` jumps back to; the end of a block moves on silently to
 *     what follows it (the construction passes the continuation down, so a choice or rec in the
 *     middle of a block needs no join state).
 *  2. `par`: each branch becomes a machine of its own (recursively, by this whole construction),
 *     and the par is their product: a product state is a vector of branch states, each
 *     transition moves one component, and the product can move on to what follows the par when
 *     every component is final. Why the product and not one monitor per branch: the role's
 *     messages arrive as one ordered stream, and projection made the branches' actions disjoint,
 *     so each message moves exactly one component and the product is deterministic; its
 *     language is exactly the interleavings (shuffle) of the branches' languages, and the
 *     monitor stays one state and one table look-up per message. The price is size: the product
 *     of branches with n1 and n2 states has up to n1 * n2 states (built once, before any session).
 *  3. Subset construction (deterministic; with the determinacy rules of projection the subsets
 *     hold one state with a transition on each action), then Hopcroft's partition refinement to
 *     the minimal machine, numbered canonically.
 */
object Fsm {

  def fromLocal(local: LocalProtocol): Fsm = build(local.protocol, local.role, local.body)

  private def build(protocol: String, role: String, body: List[Local]): Fsm = {
    val n = new Nfa
    val fin = n.fresh()
    val init = n.build(body, fin, Map.empty, protocol, role)
    minimal(protocol, role, determinize(n, init, fin))
  }

  private final class Nfa {
    val eps = mutable.ArrayBuffer.empty[mutable.ArrayBuffer[Int]]
    val edges = mutable.ArrayBuffer.empty[mutable.ArrayBuffer[(Action, Int)]]
    def fresh(): Int = { eps += mutable.ArrayBuffer.empty; edges += mutable.ArrayBuffer.empty; eps.size - 1 }

    /**
     * The entry state of `xs` followed by `next`. A block is built from its last item back to
     * its first, each item's entry state being the continuation of the one before it: a loop,
     * not a call per item, so the depth of the JVM stack grows with the nesting of choices, recs
     * and pars as written, never with the length of a block (a 10,000-message protocol used to
     * overflow a default stack here; LargeProtocolTest).
     */
    def build(xs: List[Local], next: Int, recs: Map[String, Int], protocol: String, role: String): Int = {
      // What follows a continue was rejected as unreachable, so only the prefix up to the first
      // continue matters, and that continue's target is the block's continuation.
      val upTo = xs.indexWhere(_.isInstanceOf[LContinue])
      val items = if (upTo < 0) xs else xs.take(upTo + 1)
      items.reverseIterator.foldLeft(next) { (k, item) =>
        item match {
          case s: Send      => edge(Action(send = true, s.to, s.label, s.payload), k)
          case r: Recv      => edge(Action(send = false, r.from, r.label, r.payload), k)
          case c: LChoice =>
            val s = fresh()
            c.branches.foreach(b => eps(s) += build(b, k, recs, protocol, role))
            s
          case r: LRec =>
            val s = fresh()
            eps(s) += build(r.body, k, recs + (r.label -> s), protocol, role)
            s
          case c: LContinue => recs(c.label)
          case p: LPar      => product(p.branches.map(b => Fsm.build(protocol, role, b)), k)
        }
      }
    }

    private def edge(a: Action, to: Int): Int = { val s = fresh(); edges(s) += ((a, to)); s }

    /** Embeds the product of `ms` (reachable part), moving on silently to `k` from states where all are final. */
    private def product(ms: List[Fsm], k: Int): Int = {
      val ids = mutable.HashMap.empty[List[Int], Int]
      val work = mutable.Queue.empty[List[Int]]
      def id(v: List[Int]): Int = ids.getOrElseUpdate(v, { work += v; fresh() })
      val out = ms.map(m => m.transitions.groupBy(_.from))
      val start = id(ms.map(_ => 0))
      while (work.nonEmpty) {
        val v = work.dequeue()
        val s = ids(v)
        v.indices.foreach { i =>
          out(i).getOrElse(v(i), Vector.empty).foreach(t => edges(s) += ((t.action, id(v.updated(i, t.to)))))
        }
        if (v.indices.forall(i => ms(i).finals(v(i)))) eps(s) += k
      }
      start
    }
  }

  /** Subset construction over silent closures: (transitions of each subset, accepting subsets), subset 0 initial. */
  private def determinize(n: Nfa, init: Int, fin: Int): (Vector[Vector[(Action, Int)]], Set[Int]) = {
    def closure(xs: Iterable[Int]): Vector[Int] = {
      val seen = mutable.BitSet.empty
      val stack = mutable.Stack.from(xs)
      while (stack.nonEmpty) { val s = stack.pop(); if (seen.add(s)) n.eps(s).foreach(stack.push) }
      seen.toVector
    }
    val ids = mutable.HashMap.empty[Vector[Int], Int]
    val sets = mutable.ArrayBuffer.empty[Vector[Int]]
    def id(set: Vector[Int]): Int = ids.getOrElseUpdate(set, { sets += set; sets.size - 1 })
    id(closure(List(init)))
    val trans = mutable.ArrayBuffer.empty[Vector[(Action, Int)]]
    var i = 0
    while (i < sets.size) {
      val byAction = mutable.LinkedHashMap.empty[Action, mutable.ArrayBuffer[Int]]
      sets(i).foreach(s => n.edges(s).foreach { case (a, t) => byAction.getOrElseUpdate(a, mutable.ArrayBuffer.empty) += t })
      trans += byAction.toVector.map { case (a, ts) => a -> id(closure(ts)) }
      i += 1
    }
    (trans.toVector, sets.indices.filter(j => sets(j).contains(fin)).toSet)
  }

  /**
   * Hopcroft's partition refinement to the minimal machine, then canonical breadth-first
   * numbering. The machine is partial (no sink state: a sink would need states x actions
   * transitions), which Hopcroft's algorithm handles when the initial partition already separates
   * states by finality and by the set of actions they have transitions on: every block is then
   * uniform in its defined actions, so the implicit sink never splits anything, and refining by
   * the real transitions' predecessors alone is enough. O(m log n) for m transitions; Moore's
   * simpler refinement needs n rounds on a chain of n states, which at 10,000 states is too slow.
   */
  private def minimal(protocol: String, role: String, dfa: (Vector[Vector[(Action, Int)]], Set[Int])): Fsm = {
    val (trans, finals) = dfa
    val n = trans.size
    val actionId = mutable.HashMap.empty[Action, Int]
    val out: Array[Array[(Int, Int)]] = trans.map(_.map { case (a, t) => (actionId.getOrElseUpdate(a, actionId.size), t) }.toArray).toArray
    // Predecessors by action: pred(t) = (action, source) pairs.
    val pred = Array.fill(n)(mutable.ArrayBuffer.empty[(Int, Int)])
    for (s <- 0 until n; (c, t) <- out(s)) pred(t) += ((c, s))

    // Blocks are ranges of `elems`; a block's marked members are moved to the front of its range.
    val elems = new Array[Int](n)
    val pos = new Array[Int](n)
    val blk = new Array[Int](n)
    val first, end, mid = mutable.ArrayBuffer.empty[Int]
    val initial = (0 until n).groupBy(s => (finals(s), out(s).map(_._1).sorted.toList)).values.toList.sortBy(_.head)
    var k = 0
    initial.foreach { members =>
      val b = first.size
      first += k; mid += k
      members.foreach { s => elems(k) = s; pos(s) = k; blk(s) = b; k += 1 }
      end += k
    }
    val work = mutable.Queue.from(first.indices)
    val inWork = mutable.BitSet.fromSpecific(first.indices)

    while (work.nonEmpty) {
      val a = work.dequeue()
      inWork -= a
      val splitter = (first(a) until end(a)).map(elems(_))
      val bySymbol = mutable.HashMap.empty[Int, mutable.ArrayBuffer[Int]]
      splitter.foreach(t => pred(t).foreach { case (c, s) => bySymbol.getOrElseUpdate(c, mutable.ArrayBuffer.empty) += s })
      bySymbol.valuesIterator.foreach { xs =>
        val touched = mutable.ArrayBuffer.empty[Int]
        xs.foreach { s =>
          val b = blk(s)
          if (mid(b) == first(b)) touched += b
          val i = pos(s)
          val j = mid(b)
          val other = elems(j)
          elems(j) = s; pos(s) = j
          elems(i) = other; pos(other) = i
          mid(b) = j + 1
        }
        touched.foreach { b =>
          if (mid(b) == end(b)) mid(b) = first(b) // every member marked: no split
          else {
            val nb = first.size
            first += first(b); end += mid(b); mid += first(b)
            (first(nb) until end(nb)).foreach(i => blk(elems(i)) = nb)
            first(b) = end(nb); mid(b) = first(b)
            if (inWork(b)) { work += nb; inWork += nb }
            else {
              val smaller = if (end(nb) - first(nb) <= end(b) - first(b)) nb else b
              work += smaller; inWork += smaller
            }
          }
        }
      }
    }

    // Canonical numbering of the blocks from the initial state's.
    val rep = mutable.HashMap.empty[Int, Int] // block -> a state in it
    (0 until n).foreach(s => rep.getOrElseUpdate(blk(s), s))
    val number = mutable.LinkedHashMap.empty[Int, Int]
    val queue = mutable.Queue(blk(0))
    number(blk(0)) = 0
    val ts = mutable.ArrayBuffer.empty[Transition]
    while (queue.nonEmpty) {
      val b = queue.dequeue()
      trans(rep(b)).sortBy(_._1.text).foreach { case (a, t) =>
        val tb = blk(t)
        if (!number.contains(tb)) { number(tb) = number.size; queue += tb }
        ts += Transition(number(b), a, number(tb))
      }
    }
    val fs = number.collect { case (b, i) if finals(rep(b)) => i }.toSet
    new Fsm(protocol, role, number.size, fs, ts.toVector)
  }
}
