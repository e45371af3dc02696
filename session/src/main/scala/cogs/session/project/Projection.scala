package cogs.session.project

import scala.collection.mutable

import cogs.session.Diagnostic
import cogs.session.ast._

/**
 * Projection of an (inlined, checked) global protocol on one role, with the rules that are
 * about what a role can know:
 *
 *  - The role that chooses (`choice at R`) sends first in every branch, and its first messages
 *    differ between branches (so its own machine is deterministic).
 *  - Every other role either does the same in every branch (its projections are equal, it need
 *    not know the branch), or learns the branch from the first message it receives after the
 *    choice (in the branch, or after it when the branch is empty for it: the end of its block,
 *    the head of the loop it continues): then it does nothing before that message, it learns
 *    from the same sender in every branch, and the labels it may first receive differ between
 *    branches. A branch that leads the role back to this very choice with nothing done is
 *    invisible to it (a logger that hears of some iterations only) and is dropped. A role that
 *    acts in one branch and has nothing more to do in another would wait forever there.
 *  - A loop in which a role does nothing is erased for it (Scribble's rule: the recursion is not
 *    the role's), replaced by the way the loop ends for the role: nothing (it falls through to
 *    what follows) or `continue` of an enclosing loop. When it may end both ways, or continue
 *    different loops, it stays, and its choices are checked as above.
 *  - Inside a `par`, a role's actions in different branches are distinct, so that each message
 *    belongs to one branch (what makes the product of the branches' machines deterministic).
 *
 * This is the strict reading of Scribble's rules (no merging of receives that share a label);
 * it rejects a few protocols that full merging would accept, never the other way round.
 */
private[session] object Projection {

  def project(protocol: String, roles: List[String], body: List[Interaction], role: String): (LocalProtocol, List[Diagnostic]) = {
    val out = mutable.ListBuffer.empty[Diagnostic]
    val local = new Projector(role, out).items(body)
    val checked = new Learning(role, out).block(local, Nil, Map.empty)
    (LocalProtocol(protocol, role, roles, checked), out.toList)
  }

  private[session] def hasAction(xs: List[Local]): Boolean = xs.exists {
    case _: Send | _: Recv => true
    case c: LChoice        => c.branches.exists(hasAction)
    case r: LRec           => hasAction(r.body)
    case _: LContinue      => false
    case p: LPar           => p.branches.exists(hasAction)
  }

  /** The actions that may come first (empty if the list may start with a `continue` or nothing). */
  private[session] def firsts(xs: List[Local]): List[Local] = xs match {
    case Nil                                => Nil
    case (a @ (_: Send | _: Recv)) :: _     => List(a)
    case (c: LChoice) :: _                  => c.branches.flatMap(firsts)
    case (r: LRec) :: _                     => firsts(r.body)
    case (_: LContinue) :: _                => Nil
    case (p: LPar) :: _                     => p.branches.flatMap(firsts)
  }

  private def actions(xs: List[Local]): List[Local] = xs.flatMap {
    case a @ (_: Send | _: Recv) => List(a)
    case c: LChoice              => c.branches.flatMap(actions)
    case r: LRec                 => actions(r.body)
    case _: LContinue            => Nil
    case p: LPar                 => p.branches.flatMap(actions)
  }

  private def show(a: Local): String = a match {
    case s: Send => s"${s.label} to ${s.to}"
    case r: Recv => s"${r.label} from ${r.from}"
    case _       => a.toString
  }

  /** The ways an action-free block ends: None = falls through, Some(x) = `continue x` with x not in `bound`. */
  private def exits(xs: List[Local], bound: Set[String]): Set[Option[String]] = xs match {
    case Nil                    => Set(None)
    case (c: LContinue) :: _    => if (bound(c.label)) Set.empty else Set(Some(c.label))
    case (c: LChoice) :: rest   => c.branches.toSet.flatMap((b: List[Local]) => exits(b, bound)).flatMap(e => if (e.isEmpty) exits(rest, bound) else Set(e))
    case (r: LRec) :: rest      => exits(r.body, bound + r.label).flatMap(e => if (e.isEmpty) exits(rest, bound) else Set(e))
    case _ :: rest              => exits(rest, bound) // no actions here: a par without actions was dropped
  }

  private final class Projector(r: String, out: mutable.ListBuffer[Diagnostic]) {
    private def err(p: Pos, m: String): Unit = out += Diagnostic(p, m)

    def items(xs: List[Interaction]): List[Local] = xs.flatMap(item)

    private def item(it: Interaction): List[Local] = it match {
      case m: Message =>
        m.to.flatMap { t =>
          val pl = m.payload.map(_.tpe.text)
          if (m.from.text == r) List(Send(m.label.text, pl, t.text)(m.pos))
          else if (t.text == r) List(Recv(m.label.text, pl, m.from.text)(m.pos))
          else Nil
        }
      case c: Choice => choice(c)
      case rec: Rec =>
        val label = rec.label.text
        val body = items(rec.body.items)
        if (hasAction(body)) List(LRec(label, body)(rec.pos))
        else {
          // The role takes no part in the loop: for it the loop is only the way it ends.
          val e = exits(body, Set(label))
          if (e.forall(_.isEmpty)) Nil
          else if (e.size == 1) List(LContinue(e.head.get)(rec.pos))
          else List(LRec(label, body)(rec.pos)) // ends in several ways: Learning checks that the role can tell them apart
        }
      case c: Continue => List(LContinue(c.label.text)(c.pos))
      case p: Par =>
        val bs = p.branches.map(b => items(b.items)).filter(hasAction)
        bs match {
          case Nil      => Nil
          case b :: Nil => b
          case _ =>
            val seen = mutable.HashMap.empty[String, Int]
            bs.zipWithIndex.foreach { case (b, i) =>
              actions(b).map(a => show(a) -> a).distinctBy(_._1).foreach { case (k, a) =>
                seen.get(k) match {
                  case Some(j) if j != i =>
                    err(a.pos, s"role $r does '$k' in branches ${j + 1} and ${i + 1} of the par at line ${p.pos.line}; " +
                      "a monitor could not tell which branch the message belongs to")
                  case _ => seen(k) = i
                }
              }
            }
            List(LPar(bs)(p.pos))
        }
      case _: Do => Nil // inlined before projection
    }

    private def choice(c: Choice): List[Local] = {
      val all = c.branches.map(b => items(b.items))
      val at = c.at.text
      if (r == at) {
        val firstSends = mutable.HashMap.empty[String, Int]
        all.zipWithIndex.foreach { case (b, i) =>
          if (!hasAction(b)) err(c.branches(i).pos, s"role $at chooses at this choice but takes no part in branch ${i + 1}")
          else {
            val f = firsts(b)
            f.collect { case x: Recv => x }.foreach { x =>
              err(x.pos, s"branch ${i + 1} of the choice at $at (line ${c.pos.line}) begins with $at receiving ${x.label} from ${x.from}; " +
                "the role that chooses must send first")
            }
            f.collect { case s: Send => s }.map(s => show(s) -> s).distinctBy(_._1).foreach { case (k, s) =>
              firstSends.get(k) match {
                case Some(j) if j != i =>
                  err(s.pos, s"branches ${j + 1} and ${i + 1} of the choice at $at both begin with '$k'; the labels must be distinct")
                case _ => firstSends(k) = i
              }
            }
          }
        }
        List(LChoice(at, all)(c.pos, c.branches.map(_.pos), all.indices.toList))
      } else if (all.distinct.size == 1) all.head // the role does the same whichever branch is taken
      else List(LChoice(at, all)(c.pos, c.branches.map(_.pos), all.indices.toList)) // checked by Learning
    }
  }

  /**
   * What follows a point of a role's projection, innermost block first: the rest of each
   * enclosing block, with the loops in scope there. `Nil` is the end of the protocol (or of a
   * `par` branch, whose end is not the role's next step).
   */
  private final case class Frame(rest: List[Local], loops: Map[String, Loop])
  /** A loop in scope: its body, what follows it, and the loops in scope at it. */
  private final case class Loop(body: List[Local], after: List[Frame], outer: Map[String, Loop])

  /**
   * The second half of projection: checks at each choice the role does not make that it can
   * learn the branch taken, looking past the branch into what follows it, and drops the
   * branches it cannot see. Loops over blocks (not a call per item), so the stack grows with
   * the nesting only.
   */
  private final class Learning(r: String, out: mutable.ListBuffer[Diagnostic]) {
    private def err(p: Pos, m: String): Unit = out += Diagnostic(p, m)

    def block(xs: List[Local], after: List[Frame], loops: Map[String, Loop]): List[Local] = {
      val b = List.newBuilder[Local]
      var rest = xs
      while (rest.nonEmpty) {
        val it = rest.head
        val tail = rest.tail
        def next = Frame(tail, loops) :: after
        b += (it match {
          case c: LChoice if c.at == r => LChoice(c.at, c.branches.map(block(_, next, loops)))(c.pos, c.branchPos, c.index)
          case c: LChoice              => external(c, next, loops)
          case l: LRec =>
            val k = next
            val inner = loops + (l.label -> Loop(l.body, k, loops))
            LRec(l.label, block(l.body, k, inner))(l.pos)
          case p: LPar => LPar(p.branches.map(block(_, Nil, loops)))(p.pos)
          case other   => other
        })
        rest = tail
      }
      b.result()
    }

    /**
     * The actions the role may do first from `xs` followed by `after`, and whether some path
     * comes back to `target` with no action on the way (a path that does is the target's own
     * loop: it adds nothing the target's other branches do not). `seen`: loops re-entered on
     * this path, so a path that goes round a loop with no action ends.
     */
    private def firsts(xs: List[Local], after: List[Frame], loops: Map[String, Loop], target: LChoice, seen: Set[String]): (List[Local], Boolean) =
      xs match {
        case Nil => after match {
          case Nil    => (Nil, false)
          case f :: k => firsts(f.rest, k, f.loops, target, seen)
        }
        case (a @ (_: Send | _: Recv)) :: _ => (List(a), false)
        case (c: LChoice) :: tail =>
          if (c eq target) (Nil, true)
          else {
            val k = Frame(tail, loops) :: after
            val rs = c.branches.map(firsts(_, k, loops, target, seen))
            (rs.flatMap(_._1), rs.exists(_._2))
          }
        case (l: LRec) :: tail =>
          val k = Frame(tail, loops) :: after
          firsts(l.body, k, loops + (l.label -> Loop(l.body, k, loops)), target, seen)
        case (c: LContinue) :: _ =>
          if (seen(c.label)) (Nil, false)
          else loops.get(c.label) match {
            case Some(l) => firsts(l.body, l.after, l.outer + (c.label -> l), target, seen + c.label)
            case None    => (Nil, false) // a loop outside a par branch: cannot happen (Checker)
          }
        case (p: LPar) :: _ =>
          val rs = p.branches.map(firsts(_, Nil, loops, target, seen))
          (rs.flatMap(_._1), rs.exists(_._2))
      }

    private def external(c: LChoice, after: List[Frame], loops: Map[String, Loop]): LChoice = {
      val at = c.at
      val fs = c.branches.map(b => firsts(b, after, loops, c, Set.empty))
      // Invisible: the branch leads back to this choice with nothing done by the role.
      val keep = c.branches.indices.filterNot(i => fs(i)._1.isEmpty && fs(i)._2).toList
      val index = keep.map(c.index)
      val pos = keep.map(c.branchPos)
      val firstOf = keep.map(i => fs(i)._1)
      def where(k: Int) = s"branch ${index(k) + 1} of the choice at $at (line ${c.pos.line})"
      val learnt = firstOf.indexWhere(_.nonEmpty)
      var ok = true
      if (learnt >= 0) firstOf.zipWithIndex.foreach { case (f, i) =>
        if (f.isEmpty) {
          ok = false
          err(pos(i), s"role $r would wait forever: it takes part in branch ${index(learnt) + 1} of the choice at $at " +
            s"but receives nothing in branch ${index(i) + 1} that tells it this branch was taken")
        } else f.collect { case s: Send => s }.distinctBy(s => (s.label, s.to, s.pos)).foreach { s =>
          ok = false
          err(s.pos, s"role $r sends ${s.label} to ${s.to} in ${where(i)} before it can know which branch was chosen " +
            "(it must first receive a message in that branch)")
        }
      }
      if (ok && learnt >= 0) {
        val from = firstOf.flatMap(_.collect { case x: Recv => x.from }).distinct
        if (from.size > 1) {
          err(c.pos, s"role $r learns the choice at $at from different roles (${from.mkString(", ")}); " +
            "it must learn it from the same role in every branch")
        } else {
          val firstRecv = mutable.HashMap.empty[String, Int]
          firstOf.zipWithIndex.foreach { case (f, i) =>
            f.map(x => show(x) -> x).distinctBy(_._1).foreach { case (k, x) =>
              firstRecv.get(k) match {
                case Some(j) if j != i =>
                  err(x.pos, s"role $r cannot tell branch ${index(j) + 1} from branch ${index(i) + 1} of the choice at $at: " +
                    s"both begin, for $r, with '$k'")
                case _ => firstRecv(k) = i
              }
            }
          }
        }
      }
      LChoice(at, keep.map(i => block(c.branches(i), after, loops)))(c.pos, pos, index)
    }
  }
}
