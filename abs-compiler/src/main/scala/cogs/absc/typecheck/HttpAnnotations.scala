package cogs.absc.typecheck

import cogs.absc.ast._

/**
 * Checks the Model API's annotations (as the reference toolchain does) and records them for the
 * later phases:
 *
 *  - `[HTTPName: e]` on a statement that declares or assigns a variable, or on `new C(..);`:
 *    `e` is a String, and the object is of an interface type; lowering registers the object
 *    under that name after the statement;
 *  - `[HTTPCallable]` on a method declaration of an interface: its parameters are of the types a
 *    request can carry (Bool, Int, Float, String, and List<A> and Map<String, A> of those); any
 *    result type is fine. Every class implementing the interface exposes the method.
 */
private[typecheck] trait HttpAnnotations { self: Checker =>

  /** The annotation of a statement; after the statement was checked. */
  def checkStatementHttpName(s: Stmt, ctx: Ctx): Unit =
    s.annotations.find(a => a.tag.exists(_.name == Annotations.HttpName)).foreach { a =>
      val nameOk = expect(a.value.pos, checkPure(a.value, ctx), b.StringT, " in the name of [HTTPName: ..]")
      val objectType: Option[Type] = s match {
        case v: VarDeclStmt => Option(tables.refs.get(v)).collect { case l: VarSym => l.tpe }
        case AssignStmt(lv, _, _) => Option(tables.refs.get(lv)).collect { case l: VarSym => l.tpe }
        case ExpStmt(n: NewExp, _) => Option(tables.types.get(n))
        case _ =>
          error(a.pos, "'[HTTPName: ..]' applies to a statement that declares or assigns a variable, or to 'new C(..);'")
          None
      }
      objectType.map(inf.resolve).foreach {
        case Type.Iface(_) | Type.Obj(_) => if (nameOk) tables.httpNames.put(s, a.value)
        case Type.Error => ()
        case t => error(a.pos, s"'[HTTPName: ..]' exposes an object; this statement gives a value of type ${show(t)}")
      }
    }

  /** `[HTTPCallable]` on the methods of an interface; and a warning where it means nothing. */
  def checkHttpCallable(d: DeclSym): Unit = d match {
    case i: InterfaceSym =>
      for (m <- i.ownMethods if Annotations.has(m.sig.annotations, Annotations.HttpCallable); p <- m.params)
        if (!usableFromHttp(p.tpe))
          error(p.pos, s"parameter '${p.name}' of the [HTTPCallable] method '${m.name}' has type ${show(p.tpe)}; " +
            "the Model API passes only Bool, Int, Float, String, and List<A> and Map<String, A> of these")
    case c: ClassSym =>
      for (m <- c.methods.values; d <- m.decl if Annotations.has(d.sig.annotations, Annotations.HttpCallable))
        m.sig.annotations.find(a => Annotations.nameOf(a).contains(Annotations.HttpCallable)).foreach { a =>
          warning(a.pos, s"'[HTTPCallable]' applies to method declarations of interfaces; it is ignored on the method '${m.name}' of class '${c.name}'")
        }
    case _ => ()
  }

  private def usableFromHttp(t: Type): Boolean = inf.resolve(t) match {
    case x if b.isBool(x) || b.isInt(x) || b.isFloat(x) || b.isString(x) => true
    case b.ListT(e) => usableFromHttp(e)
    case Type.Data(d, List(k, v)) if d eq b.map => b.isString(inf.resolve(k)) && usableFromHttp(v)
    case _ => false
  }
}
