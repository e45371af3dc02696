package cogs.absc.typecheck

import cogs.absc.ast._

/**
 * Deep copies of AST subtrees, positions kept. A trait's method is copied into every class
 * that uses it, so that each class has its own nodes: the checker keys types and resolved
 * names by node identity, and the same trait method means different fields (and `this`)
 * in different classes.
 */
private[typecheck] object AstCopy extends AstRewrite(v => VarUse(v.name)(v.pos))

/**
 * A deep copy that replaces each variable read (`VarUse` as an expression, not as an assignment
 * target or claim guard) by `onVar(v)`: the flattening phase substitutes a delta's parameters so.
 */
private[absc] class AstRewrite(onVar: VarUse => PureExp) {

  def method(m: MethodDecl): MethodDecl = MethodDecl(sig(m.sig), block(m.body))(m.pos)

  def sig(s: MethodSig): MethodSig =
    MethodSig(s.name, typeRef(s.resultType), s.params.map(param), s.annotations.map(ann))(s.pos)

  def param(p: Param): Param = Param(p.name, typeRef(p.tpe), p.annotations.map(ann))(p.pos)

  def typeRef(t: TypeRef): TypeRef = TypeRef(t.name, t.args.map(typeRef), t.annotations.map(ann))(t.pos)

  def ann(a: Annotation): Annotation = Annotation(a.tag, pure(a.value))(a.pos)

  def block(b: Block): Block = Block(b.stmts.map(stmt), b.annotations.map(ann))(b.pos)

  def stmt(s: Stmt): Stmt = {
    implicit val p: Pos = s.pos
    val as = s.annotations.map(ann)
    s match {
      case b: Block => block(b)
      case SkipStmt(_) => SkipStmt(as)
      case SuspendStmt(_) => SuspendStmt(as)
      case VarDeclStmt(n, t, i, _) => VarDeclStmt(n, typeRef(t), i.map(exp), as)
      case AssignStmt(t, v, _) => AssignStmt(lvalue(t), exp(v), as)
      case ExpStmt(e, _) => ExpStmt(exp(e), as)
      case AssertStmt(c, _) => AssertStmt(pure(c), as)
      case AwaitStmt(g, _) => AwaitStmt(guard(g), as)
      case ReturnStmt(e, _) => ReturnStmt(exp(e), as)
      case ThrowStmt(e, _) => ThrowStmt(pure(e), as)
      case DieStmt(e, _) => DieStmt(pure(e), as)
      case IfStmt(c, t, e, _) => IfStmt(pure(c), stmt(t), e.map(stmt), as)
      case WhileStmt(c, body, _) => WhileStmt(pure(c), stmt(body), as)
      case ForeachStmt(v, i, l, body, _) => ForeachStmt(v, i, pure(l), stmt(body), as)
      case SwitchStmt(e, bs, _) => SwitchStmt(pure(e), bs.map(branch), as)
      case TryCatchStmt(body, cs, f, _) => TryCatchStmt(stmt(body), cs.map(branch), f.map(stmt), as)
      case DurationStmt(min, max, _) => DurationStmt(pure(min), max.map(pure), as)
      case MoveCogToStmt(t, _) => MoveCogToStmt(pure(t), as)
    }
  }

  def branch(b: SwitchBranch): SwitchBranch = SwitchBranch(pattern(b.pattern), stmt(b.body))(b.pos)

  def guard(g: Guard): Guard = {
    implicit val p: Pos = g.pos
    g match {
      case ClaimGuard(f) => ClaimGuard(lvalue(f))
      case ExpGuard(c) => ExpGuard(pure(c))
      case AndGuard(l, r) => AndGuard(guard(l), guard(r))
      case DurationGuard(min, max) => DurationGuard(pure(min), max.map(pure))
    }
  }

  def lvalue(l: LValue): LValue = l match {
    case v: VarUse => VarUse(v.name)(v.pos)
    case f: FieldUse => FieldUse(f.name)(f.pos)
  }

  def exp(e: Exp): Exp = e match {
    case p: PureExp => pure(p)
    case n: NewExp => NewExp(n.cls, n.args.map(pure), n.local)(n.pos)
    case c: AsyncCall => asyncCall(c)
    case c: SyncCall => SyncCall(pure(c.target), c.method, c.args.map(pure))(c.pos)
    case g: GetExp => GetExp(pure(g.future))(g.pos)
    case a: AwaitExp => AwaitExp(asyncCall(a.call))(a.pos)
  }

  private def asyncCall(c: AsyncCall): AsyncCall = AsyncCall(pure(c.target), c.method, c.args.map(pure))(c.pos)

  def pure(e: PureExp): PureExp = {
    implicit val p: Pos = e.pos
    e match {
      case IntLit(v) => IntLit(v)
      case FloatLit(v) => FloatLit(v)
      case StringLit(v) => StringLit(v)
      case TemplateString(parts, holes) => TemplateString(parts, holes.map(pure))
      case NullLit() => NullLit()
      case ThisExp() => ThisExp()
      case DestinyExp() => DestinyExp()
      case v: VarUse => onVar(v)
      case l: LValue => lvalue(l)
      case FnApp(f, as) => FnApp(f, as.map(pure))
      case PartialFnApp(f, fas, as) => PartialFnApp(f, fas.map(funArg), as.map(pure))
      case NAryFnApp(f, as) => NAryFnApp(f, as.map(pure))
      case ConstructorApp(c, as) => ConstructorApp(c, as.map(pure))
      case Unary(op, a) => Unary(op, pure(a))
      case Binary(op, l, r) => Binary(op, pure(l), pure(r))
      case LetExp(bs, body) => LetExp(bs.map(x => LetBinding(x.name, typeRef(x.tpe), pure(x.value))(x.pos)), pure(body))
      case IfExp(c, t, f) => IfExp(pure(c), pure(t), pure(f))
      case CaseExp(s, bs) => CaseExp(pure(s), bs.map(x => CaseBranch(pattern(x.pattern), pure(x.body))(x.pos)))
      case ImplementsExp(a, i) => ImplementsExp(pure(a), i)
      case AsExp(a, i) => AsExp(pure(a), i)
    }
  }

  def funArg(f: FunArg): FunArg = f match {
    case n: FunName => FunName(n.name)(n.pos)
    case a: AnonFun => AnonFun(a.params.map(param), pure(a.body))(a.pos)
  }

  def pattern(p: Pattern): Pattern = {
    implicit val pos: Pos = p.pos
    p match {
      case WildcardPattern() => WildcardPattern()
      case VarPattern(n) => VarPattern(n)
      case LiteralPattern(l) => LiteralPattern(pure(l).asInstanceOf[Literal])
      case ConstructorPattern(c, ps) => ConstructorPattern(c, ps.map(pattern))
    }
  }
}
