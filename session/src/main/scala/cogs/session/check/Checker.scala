package cogs.session.check

import scala.collection.mutable

import cogs.session.Diagnostic
import cogs.session.ast._

/**
 * The well-formedness rules that concern one protocol as written (before sub-protocols are
 * inlined): names are declared and used, `continue` is inside its `rec`, nothing follows a
 * `continue`. The rules that need the inlined protocol (guarded recursion, unreachable code,
 * one signature per message) are in [[Expand]]; choice determinacy and mergeability are checked
 * on each role's projection (cogs.session.project.Projection).
 */
private[session] object Checker {

  def check(m: Module): List[Diagnostic] = {
    val out = mutable.ListBuffer.empty[Diagnostic]
    def err(p: Pos, msg: String): Unit = out += Diagnostic(p, msg)

    val types = mutable.LinkedHashMap.empty[String, TypeDecl]
    for (t <- m.types) types.get(t.alias.text) match {
      case Some(first) => err(t.alias.pos, s"payload type '${t.alias.text}' is already declared at line ${first.pos.line}")
      case None        => types(t.alias.text) = t
    }
    val protocols = mutable.LinkedHashMap.empty[String, GlobalProtocol]
    for (p <- m.protocols) protocols.get(p.name.text) match {
      case Some(first) => err(p.name.pos, s"protocol '${p.name.text}' is already declared at line ${first.pos.line}")
      case None        => protocols(p.name.text) = p
    }

    for (p <- m.protocols) {
      val declared = mutable.LinkedHashMap.empty[String, Name]
      for (r <- p.roles) declared.get(r.name.text) match {
        case Some(first) => err(r.name.pos, s"role '${r.name.text}' is declared twice in protocol ${p.name.text} (first at column ${first.pos.col})")
        case None        => declared(r.name.text) = r.name
      }
      val used = mutable.Set.empty[String]
      def role(n: Name, what: String): Unit = {
        used += n.text
        if (!declared.contains(n.text))
          err(n.pos, s"role '${n.text}' is not declared in protocol ${p.name.text} (its roles: ${p.roleNames.mkString(", ")})$what")
      }

      // recs: the labels of the enclosing recs, innermost first, each with whether a `par`
      // lies between it and here (a `continue` may not leave a `par` branch).
      def block(items: List[Interaction], recs: List[(String, Boolean)]): Unit = {
        var prev: Interaction = null
        items.foreach { it =>
          prev match {
            case c: Continue => err(it.pos, s"unreachable: nothing may follow 'continue ${c.label.text}' in its block")
            case _ =>
          }
          prev = it
          it match {
            case msg: Message =>
              role(msg.from, "")
              val seen = mutable.Set.empty[String]
              for (t <- msg.to) {
                role(t, "")
                if (t.text == msg.from.text) err(t.pos, s"role '${t.text}' sends ${msg.label.text} to itself")
                if (!seen.add(t.text)) err(t.pos, s"role '${t.text}' is named twice as a receiver of ${msg.label.text}")
              }
              for (pl <- msg.payload if !types.contains(pl.tpe.text))
                err(pl.tpe.pos, s"payload type '${pl.tpe.text}' is not declared (declare it with: type <java> \"java.lang.Class\" from \"rt.jar\" as ${pl.tpe.text};)")
            case c: Choice =>
              role(c.at, "")
              c.branches.foreach(b => block(b.items, recs))
            case r: Rec =>
              recs.find(_._1 == r.label.text).foreach { _ =>
                err(r.label.pos, s"rec '${r.label.text}' is already the label of an enclosing rec")
              }
              block(r.body.items, (r.label.text, false) :: recs)
            case c: Continue =>
              recs.find(_._1 == c.label.text) match {
                case None => err(c.label.pos, s"'continue ${c.label.text}' is not inside a 'rec ${c.label.text}'")
                case Some((_, true)) =>
                  err(c.label.pos, s"'continue ${c.label.text}' leaves a 'par' branch; a par branch may only continue a rec inside it")
                case _ =>
              }
            case d: Do =>
              d.args.foreach(a => role(a, ""))
              protocols.get(d.proto.text) match {
                case None => err(d.proto.pos, s"protocol '${d.proto.text}' is not declared in module ${m.name}")
                case Some(q) if q.roles.size != d.args.size =>
                  err(d.proto.pos, s"protocol ${q.name.text} has ${q.roles.size} role(s) (${q.roleNames.mkString(", ")}), " +
                    s"but 'do' gives ${d.args.size}")
                case _ =>
              }
              val seen = mutable.Set.empty[String]
              for (a <- d.args if !seen.add(a.text)) err(a.pos, s"role '${a.text}' is given twice to ${d.proto.text}")
            case par: Par =>
              par.branches.foreach(b => block(b.items, recs.map { case (l, _) => (l, true) }))
          }
        }
      }
      block(p.body.items, Nil)
      for ((r, n) <- declared if !used(r))
        err(n.pos, s"role '$r' is declared but takes part in no interaction of protocol ${p.name.text}")
    }
    Diagnostic.sorted(out)
  }
}
