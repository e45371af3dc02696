package cogs.session.check

import scala.collection.mutable

import cogs.session.Diagnostic
import cogs.session.ast._

/**
 * Inlines sub-protocols (`do Q(A, B);`) into one global protocol over the root's roles, then
 * checks what needs the whole protocol: guarded recursion, unreachable interactions, and one
 * payload signature per message.
 *
 * A `do` of an instance already being inlined (the same protocol with the same roles, further
 * up) is recursion: it becomes `continue do.Q` and that instance is wrapped in `rec do.Q`, as
 * Scribble reads recursive `do`. The rec labels of an inlined protocol get its name as a prefix
 * (`Q.X`), so they cannot capture a `continue` of the protocol that inlines it. Positions stay
 * those of the written text, so errors point at the sub-protocol's own lines.
 */
private[session] object Expand {

  /** Run only on a module that [[Checker]] accepted. */
  def expand(m: Module, root: GlobalProtocol): (List[Interaction], List[Diagnostic]) = {
    val byName = m.protocols.map(p => p.name.text -> p).toMap

    def instance(q: GlobalProtocol, subst: Map[String, String], prefix: String, stack: List[String]): List[Interaction] = {
      val key = instanceKey(q.name.text, q.roleNames.map(subst))
      val body = items(q.body.items, subst, prefix, key :: stack)
      val label = recLabel(q.name.text, q.roleNames, q.roleNames.map(subst))
      if (continues(body, label)) List(Rec(Name(label)(q.pos), Block(body)(q.body.pos))(q.pos)) else body
    }

    def items(xs: List[Interaction], s: Map[String, String], prefix: String, stack: List[String]): List[Interaction] =
      xs.flatMap {
        case msg: Message =>
          List(Message(msg.label, msg.payload, rename(msg.from, s), msg.to.map(rename(_, s)))(msg.pos))
        case c: Choice => List(Choice(rename(c.at, s), c.branches.map(b => Block(items(b.items, s, prefix, stack))(b.pos)))(c.pos))
        case r: Rec =>
          List(Rec(Name(prefix + r.label.text)(r.label.pos), Block(items(r.body.items, s, prefix, stack))(r.body.pos))(r.pos))
        case c: Continue => List(Continue(Name(prefix + c.label.text)(c.label.pos))(c.pos))
        case par: Par    => List(Par(par.branches.map(b => Block(items(b.items, s, prefix, stack))(b.pos)))(par.pos))
        case d: Do =>
          val q = byName(d.proto.text)
          val args = d.args.map(a => s.getOrElse(a.text, a.text))
          if (stack.contains(instanceKey(q.name.text, args)))
            List(Continue(Name(recLabel(q.name.text, q.roleNames, args))(d.pos))(d.pos))
          else instance(q, q.roleNames.zip(args).toMap, prefix + q.name.text + ".", stack)
      }

    val body = instance(root, root.roleNames.map(r => r -> r).toMap, "", Nil)
    val out = mutable.ListBuffer.empty[Diagnostic]
    guarded(body, Set.empty, out)
    signatures(body, out)
    (body, Diagnostic.sorted(out))
  }

  private def instanceKey(q: String, args: List[String]) = s"$q(${args.mkString(",")})"

  /** `do.Q`, or `do.Q(B,A)` when the instance's roles are not the declared ones (not a valid name on purpose: it cannot clash). */
  private def recLabel(q: String, declared: List[String], args: List[String]) =
    if (declared == args) s"do.$q" else s"do.$q(${args.mkString(",")})"

  private[session] def isDoLabel(l: String): Boolean = l.startsWith("do.")

  private def rename(n: Name, s: Map[String, String]): Name = Name(s.getOrElse(n.text, n.text))(n.pos)

  private def continues(xs: List[Interaction], label: String): Boolean = xs.exists {
    case c: Continue => c.label.text == label
    case c: Choice   => c.branches.exists(b => continues(b.items, label))
    case r: Rec      => continues(r.body.items, label)
    case p: Par      => p.branches.exists(b => continues(b.items, label))
    case _           => false
  }

  /**
   * Guarded recursion and reachability in one walk. `unguarded` holds the recs entered with no
   * message since on this path; `continue X` with X in it loops without a message (the monitor
   * of such a loop would never move). Returns the set after the block, or None if the block never
   * falls through (every path ends in a `continue`): then whatever follows it is unreachable, and
   * every role waiting for it would wait forever.
   */
  private def guarded(xs: List[Interaction], unguarded0: Set[String], out: mutable.ListBuffer[Diagnostic]): Option[Set[String]] = {
    var u: Option[Set[String]] = Some(unguarded0)
    var prev: Interaction = null
    for (it <- xs) {
      u match {
        case None =>
          prev match {
            case c: Continue if !isDoLabel(c.label.text) => // Checker reported it: nothing may follow continue
            case c: Continue =>
              out += Diagnostic(it.pos, s"unreachable: nothing may follow a recursive 'do' (it continues ${c.label.text.stripPrefix("do.")} from the start)")
            case _ =>
              out += Diagnostic(it.pos, "unreachable: every path before this interaction ends in 'continue', so it never happens " +
                "and the roles that wait for it would wait forever")
          }
          return None
        case Some(set) =>
          u = it match {
            case _: Message => Some(Set.empty)
            case c: Choice =>
              val rs = c.branches.flatMap(b => guarded(b.items, set, out))
              if (rs.isEmpty) None else Some(rs.reduce(_ ++ _))
            case r: Rec => guarded(r.body.items, set + r.label.text, out).map(_ - r.label.text)
            case c: Continue =>
              if (set.contains(c.label.text)) {
                val what = if (isDoLabel(c.label.text)) s"'do ${c.label.text.stripPrefix("do.")}'" else s"'continue ${c.label.text}'"
                out += Diagnostic(c.pos, s"unguarded recursion: $what is reached with no message since the start of the recursion")
              }
              None
            case p: Par =>
              val rs = p.branches.map(b => guarded(b.items, set, out))
              if (rs.exists(_.isEmpty)) None else Some(rs.flatten.reduce(_ ++ _))
            case _: Do => Some(set) // inlined before
          }
      }
      prev = it
    }
    u
  }

  /** A message (sender, receiver, label) has one payload signature, so a monitor can check it by its label alone. */
  private def signatures(xs: List[Interaction], out: mutable.ListBuffer[Diagnostic]): Unit = {
    val seen = mutable.HashMap.empty[(String, String, String), (List[String], Pos)]
    def walk(xs: List[Interaction]): Unit = xs.foreach {
      case m: Message =>
        val sig = m.payload.map(_.tpe.text)
        for (t <- m.to) seen.get((m.from.text, t.text, m.label.text)) match {
          case Some((s0, p0)) if s0 != sig =>
            out += Diagnostic(m.label.pos, s"message ${m.label.text} from ${m.from.text} to ${t.text} has payload (${sig.mkString(", ")}) here " +
              s"but (${s0.mkString(", ")}) at line ${p0.line}; one message has one signature")
          case Some(_) =>
          case None => seen((m.from.text, t.text, m.label.text)) = (sig, m.pos)
        }
      case c: Choice => c.branches.foreach(b => walk(b.items))
      case r: Rec    => walk(r.body.items)
      case p: Par    => p.branches.foreach(b => walk(b.items))
      case _         =>
    }
    walk(xs)
  }
}
