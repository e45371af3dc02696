package cogs.absc.typecheck

import cogs.absc.ast._

/**
 * `original()` in a trait method that `modifies` another: it calls the method it replaces. The
 * replaced definition is kept in the class under a hidden name (`m$original$1`: `$` cannot occur
 * in an ABS identifier, so it never meets a name of the model), and each `original(args)` that is
 * the whole expression of a statement (`original();`, `x = original();`, `T x = original();`,
 * `return original();`) becomes the synchronous call `this.m$original$1(args)`. An `original()`
 * anywhere else stays a function application, which the expression phase reports. The
 * flattening phase (cogs.absc.spl) does the same for a delta's `modifies` of a class method.
 */
private[absc] object TraitOriginal {
  private def isOriginal(e: Exp): Boolean = e match {
    case FnApp(QName(None, "original"), _) => true
    case _ => false
  }

  /** Does the method call `original()` as a statement's whole expression? */
  def calls(m: MethodDecl): Boolean = {
    var found = false
    def go(s: Stmt): Unit = s match {
      case Block(ss, _) => ss.foreach(go)
      case VarDeclStmt(_, _, Some(e), _) => found ||= isOriginal(e)
      case AssignStmt(_, e, _) => found ||= isOriginal(e)
      case ExpStmt(e, _) => found ||= isOriginal(e)
      case ReturnStmt(e, _) => found ||= isOriginal(e)
      case IfStmt(_, t, e, _) => go(t); e.foreach(go)
      case WhileStmt(_, b, _) => go(b)
      case f: ForeachStmt => go(f.body)
      case sw: SwitchStmt => sw.branches.foreach(b => go(b.body))
      case t: TryCatchStmt => go(t.body); t.catches.foreach(b => go(b.body)); t.finallyStmt.foreach(go)
      case _ =>
    }
    go(m.body)
    found
  }

  /** The replaced method under its hidden name. */
  def renamed(old: MethodDecl, hidden: String): MethodDecl =
    MethodDecl(MethodSig(hidden, old.sig.resultType, old.sig.params, old.sig.annotations)(old.sig.pos), old.body)(old.pos)

  /** The replacing method with its `original(..)` statements calling `hidden` on `this`. */
  def rewrite(m: MethodDecl, hidden: String): MethodDecl = {
    def exp(e: Exp): Exp = e match {
      case f @ FnApp(QName(None, "original"), args) => SyncCall(ThisExp()(f.pos), hidden, args)(f.pos)
      case other => other
    }
    def go(s: Stmt): Stmt = {
      implicit val p: Pos = s.pos
      s match {
        case Block(ss, as) => Block(ss.map(go), as)
        case VarDeclStmt(n, t, i, as) => VarDeclStmt(n, t, i.map(exp), as)
        case AssignStmt(t, e, as) => AssignStmt(t, exp(e), as)
        case ExpStmt(e, as) => ExpStmt(exp(e), as)
        case ReturnStmt(e, as) => ReturnStmt(exp(e), as)
        case IfStmt(c, t, e, as) => IfStmt(c, go(t), e.map(go), as)
        case WhileStmt(c, b, as) => WhileStmt(c, go(b), as)
        case f: ForeachStmt => f.copy(body = go(f.body))(f.pos)
        case sw: SwitchStmt => sw.copy(branches = sw.branches.map(b => SwitchBranch(b.pattern, go(b.body))(b.pos)))(sw.pos)
        case t: TryCatchStmt =>
          t.copy(body = go(t.body), catches = t.catches.map(b => SwitchBranch(b.pattern, go(b.body))(b.pos)),
            finallyStmt = t.finallyStmt.map(go))(t.pos)
        case other => other
      }
    }
    MethodDecl(m.sig, go(m.body).asInstanceOf[Block])(m.pos)
  }
}
