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
 *    not know the branch), or learns the branch from the first message it receives in it: then
 *    it does nothing before that message in any branch, it learns from the same sender in every
 *    branch, and the labels it may first receive differ between branches. A role that acts in
 *    one branch and has nothing to receive in another would wait forever there.
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
    (LocalProtocol(protocol, role, roles, local), out.toList)
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

  private final class Projector(r: String, out: mutable.ListBuffer[Diagnostic]) {
    private def err(p: Pos, m: String): Unit = out += Diagnostic(p, m)

    /**
     * `loopHead`: the label of the innermost rec whose body, for this role, has produced nothing
     * yet at this point; a `continue` of it then means "this very point again" for the role.
     */
    def items(xs: List[Interaction], loopHead: Option[String] = None): List[Local] = {
      var head = loopHead
      xs.flatMap { it =>
        val l = item(it, head)
        if (l.nonEmpty) head = None
        l
      }
    }

    private def item(it: Interaction, loopHead: Option[String]): List[Local] = it match {
      case m: Message =>
        m.to.flatMap { t =>
          val pl = m.payload.map(_.tpe.text)
          if (m.from.text == r) List(Send(m.label.text, pl, t.text)(m.pos))
          else if (t.text == r) List(Recv(m.label.text, pl, m.from.text)(m.pos))
          else Nil
        }
      case c: Choice => choice(c, loopHead)
      case rec: Rec =>
        val body = items(rec.body.items, Some(rec.label.text))
        // A role with nothing to do in the loop does not loop (Scribble prunes it the same way).
        if (hasAction(body)) List(LRec(rec.label.text, body)(rec.pos)) else Nil
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

    private def choice(c: Choice, loopHead: Option[String]): List[Local] = {
      val all = c.branches.map(b => items(b.items))
      val at = c.at.text
      def where(i: Int) = s"branch ${i + 1} of the choice at $at (line ${c.pos.line})"
      if (r == at) {
        val bs = all
        val firstSends = mutable.HashMap.empty[String, Int]
        bs.zipWithIndex.foreach { case (b, i) =>
          if (!hasAction(b)) err(c.branches(i).pos, s"role $at chooses at this choice but takes no part in branch ${i + 1}")
          else {
            val f = firsts(b)
            f.collect { case x: Recv => x }.foreach { x =>
              err(x.pos, s"${where(i)} begins with $at receiving ${x.label} from ${x.from}; the role that chooses must send first")
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
        List(LChoice(at, bs)(c.pos))
      } else if (all.distinct.size == 1) all.head // the role does the same whichever branch is taken
      else {
        // A branch in which this role does nothing and that goes back to the loop's head, where
        // the role is waiting for this choice anyway, is invisible to it: the role just keeps
        // waiting (a logger that hears of some iterations only). The other branches must tell it.
        val idle: List[Local] => Boolean = b => loopHead.exists(x => b == List(LContinue(x)(c.pos)))
        val keep = c.branches.indices.filterNot(i => idle(all(i))).toList
        val bs = keep.map(all)
        val branchPos = keep.map(c.branches(_).pos)
        def where(k: Int) = s"branch ${keep(k) + 1} of the choice at $at (line ${c.pos.line})"
        val learnt = bs.indexWhere(hasAction)
        var ok = true
        bs.zipWithIndex.foreach { case (b, i) =>
          val f = firsts(b)
          if (f.isEmpty) {
            ok = false
            err(branchPos(i), s"role $r would wait forever: it takes part in branch ${keep(learnt) + 1} of the choice at $at " +
              s"but receives nothing in branch ${keep(i) + 1} that tells it this branch was taken")
          } else f.collect { case s: Send => s }.foreach { s =>
            ok = false
            err(s.pos, s"role $r sends ${s.label} to ${s.to} in ${where(i)} before it can know which branch was chosen " +
              "(it must first receive a message in that branch)")
          }
        }
        if (ok) {
          val senders = bs.map(b => firsts(b).collect { case x: Recv => x.from }.distinct)
          val from = senders.flatten.distinct
          if (from.size > 1) {
            err(c.pos, s"role $r learns the choice at $at from different roles (${from.mkString(", ")}); " +
              "it must learn it from the same role in every branch")
          } else {
            val firstRecv = mutable.HashMap.empty[String, Int]
            bs.zipWithIndex.foreach { case (b, i) =>
              firsts(b).map(x => show(x) -> x).distinctBy(_._1).foreach { case (k, x) =>
                firstRecv.get(k) match {
                  case Some(j) if j != i =>
                    err(x.pos, s"role $r cannot tell branch ${keep(j) + 1} from branch ${keep(i) + 1} of the choice at $at: " +
                      s"both begin, for $r, with '$k'")
                  case _ => firstRecv(k) = i
                }
              }
            }
          }
        }
        List(LChoice(at, bs)(c.pos))
      }
    }
  }
}
