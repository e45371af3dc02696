package cogs.absc.typecheck

import cogs.absc.ast._

/**
 * Timed ABS's statement annotations with a meaning at run time, checked and recorded for the
 * lowering:
 *  - `[Cost: e] s`: before `s` runs, the process consumes `e` (an `Int` or `Rat`) of the Speed
 *    of its COG's deployment component, which may take several time units (it blocks the COG);
 *  - `[Deadline: d] o!m(..)`: the call's process has the deadline `d` (a `Duration`) from now,
 *    which it reads with `deadline()`;
 *  - `[DC: dc] new C(..)`: the new COG runs on the deployment component `dc` (module ABS.DC);
 *  - `[DataSize: s] o!m(..)`: before the call is sent, the message consumes `s` of the Bandwidth
 *    of `o`'s deployment component (unless the caller is on the same one), which may take
 *    several time units (it blocks the caller's COG). Results (`return`) cost no bandwidth.
 * What each expression means is evaluated where the statement runs, in its scope.
 */
private[typecheck] trait TimedAnnotations { self: Checker =>

  def checkTimedAnnotations(s: Stmt, ctx: Ctx): Unit = for (a <- s.annotations; tag <- a.tag) tag.name match {
    case "Cost" =>
      val t = checkPure(a.value, ctx)
      if (expect(a.value.pos, t, b.RatT, " in the cost")) tables.costs.put(s, a.value)
    case "DataSize" =>
      callOf(s) match {
        case None =>
          warning(a.pos, "'[DataSize: ..]' applies to statements that make an asynchronous call ('o!m(..)'); it is ignored here")
        case Some(c) =>
          if (expect(a.value.pos, checkPure(a.value, ctx), b.RatT, " in the data size")) tables.dataSizes.put(s, (a.value, c))
      }
    case "Deadline" =>
      callOf(s) match {
        case None =>
          warning(a.pos, "'[Deadline: ..]' applies to statements that make an asynchronous call ('o!m(..)'); it is ignored here")
        case Some(c) =>
          val t = checkPure(a.value, ctx)
          val duration = find(mods.stdlib, Namespace.Type, QName(None, "Duration")).collect { case d: DataTypeSym => Type.Data(d, Nil): Type }
          if (duration.exists(expect(a.value.pos, t, _, " in the deadline"))) tables.deadlines.put(c, a.value)
      }
    case "DC" =>
      val created = s match {
        case VarDeclStmt(_, _, Some(n: NewExp), _) => Some(n)
        case AssignStmt(_, n: NewExp, _) => Some(n)
        case ExpStmt(n: NewExp, _) => Some(n)
        case _ => None
      }
      val dcType = mods.byName.get(Library.DeploymentModule)
        .flatMap(m => find(m, Namespace.Type, QName(None, "DeploymentComponent")))
        .collect { case i: InterfaceSym => Type.Iface(i): Type }
      created match {
        case None =>
          warning(a.pos, "'[DC: ..]' applies to statements that create an object with 'new'; it is ignored here")
        case Some(n) if n.local =>
          warning(a.pos, "'[DC: ..]' is ignored on 'new local': the object joins the creator's COG, on the creator's component")
        case Some(n) => dcType match {
          case None => error(a.pos, "'[DC: ..]' needs the module ABS.DC: add 'import * from ABS.DC;'")
          case Some(t) =>
            if (expect(a.value.pos, checkPure(a.value, ctx), t, " in the deployment component")) tables.newDCs.put(n, a.value)
        }
      }
    case _ =>
  }

  private def callOf(s: Stmt): Option[AsyncCall] = {
    def callIn(e: Exp): Option[AsyncCall] = e match {
      case c: AsyncCall => Some(c)
      case AwaitExp(c) => Some(c)
      case _ => None
    }
    s match {
      case VarDeclStmt(_, _, Some(e), _) => callIn(e)
      case AssignStmt(_, e, _) => callIn(e)
      case ExpStmt(e, _) => callIn(e)
      case ReturnStmt(e, _) => callIn(e)
      case _ => None
    }
  }
}
