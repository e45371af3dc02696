package cogs.absc.lower

import cogs.absc.ast._
import cogs.absc.typecheck._

/** Where code is lowered: its module, its class (what `this` is), and the locals of its body. */
private[lower] final class Ctx(val module: Option[ModuleSym], val cls: Option[ClassSym], val locals: Locals,
    val typeParams: Set[String] = Set.empty)

/** Pure expressions, patterns, types, and the effect expressions (calls, `new`, `get`, `await`). */
private[lower] final class LowerExp(val program: TypedProgram, val names: Names) {
  private val b = program.builtins
  private val localNames = new java.util.IdentityHashMap[LocalSym, String]

  def pos(n: Node): String = s"${n.pos.file}:${n.pos.line}:${n.pos.col}"
  /** `file.abs:line:col` with the file's name only, as reports name places (objects, `get`s, conditions). */
  def site(n: Node): String = s"${java.nio.file.Paths.get(n.pos.file).getFileName}:${n.pos.line}:${n.pos.col}"

  // ------------------------------------------------------------------ locals

  /** Bind a local declared here; its Scala name. */
  def bind(l: LocalSym, ctx: Ctx): String = {
    val n = ctx.locals.bind(l.name)
    localNames.put(l, n)
    n
  }

  def local(l: LocalSym): String = {
    val n = localNames.get(l)
    if (n == null) throw new IllegalStateException(s"absc: local '${l.name}' at ${l.pos} used before its declaration was lowered")
    n
  }

  // ------------------------------------------------------------------ types

  /** The Scala type of an ABS type, as seen from `ctx`'s module (`full`: every user type fully qualified). */
  def tpe(t: Type, ctx: Ctx, full: Boolean = false): T = t match {
    case Type.Data(d, args) if d.module.isPrelude => preludeType(d.name, args.map(tpe(_, ctx, full)))
    case Type.Data(d, args) => T.Ref(userRef(d.module, names.dataType(d), ctx, full), args.map(tpe(_, ctx, full)))
    case Type.Iface(i) if i.module.isPrelude => T.Ref("Active") // ABS.StdLib.Object
    case Type.Iface(i) => T.Ref(userRef(i.module, names.interface(i), ctx, full))
    case Type.Obj(c) => T.Ref(userRef(c.module, names.cls(c), ctx, full))
    case Type.Param(p) => T.Ref(Naming.typeParam(p.name))
    case Type.Fun(ps, r) => T.Fun(ps.map(tpe(_, ctx, full)), tpe(r, ctx, full))
    case Type.Null => T.Ref("Null")
    case Type.Bottom => T.Ref("scala.Nothing")
    case other => throw new IllegalStateException(s"absc: no Scala type for $other")
  }

  private def userRef(m: ModuleSym, name: String, ctx: Ctx, full: Boolean): String =
    if (full) names.full(m, name) else names.ref(m, name, ctx.module)

  private def preludeType(name: String, a: List[T]): T = name match {
    case "Int" => T.Ref("AbsInt")
    case "Rat" => T.Ref("AbsRat")
    case "Float" => T.Ref("Double")
    case "String" => T.Ref("String")
    case "Bool" => T.Ref("Boolean")
    case "Unit" => T.Ref("Unit")
    case "Fut" => T.Ref("Fut", a)
    case "Destiny" => T.Wild("Fut")
    case "Exception" => T.Ref("AbsException")
    case "List" => T.Ref("List", a)
    case "Set" => T.Ref("AbsSet", a)
    case "Map" => T.Ref("AbsMap", a)
    case "Either" => T.Ref("cogs.absc.lib.Either", a)
    case "Process" => T.Ref("AbsProcess") // ABS.Scheduler
    case "Scheduler" => T.Ref("AnyRef") // ABS.Scheduler: only an annotation tag
    case other => T.Ref(other, a)
  }

  def defaultValue(t: Type): S = t match {
    case _ if b.isInt(t) || b.isRat(t) => S.Lit("AbsInt(0)")
    case _ if b.isFloat(t) => S.Lit("0.0")
    case _ if b.isBool(t) => S.Lit("false")
    case _ if b.isUnit(t) => S.Unit
    case _ => S.Null
  }

  // ------------------------------------------------------------------ references to declarations

  def ctorPath(c: ConstructorSym, ctx: Ctx): String = {
    val inCompanion = !c.isException && c.name == c.dataType.name && c.dataType.constructors.length > 1
    if (inCompanion) names.ref(c.module, names.dataType(c.dataType), ctx.module) + "." + names.constructor(c)
    else names.ref(c.module, names.constructor(c), ctx.module)
  }

  def functionRef(f: FunctionSym, ctx: Ctx): String = names.ref(f.module, names.function(f), ctx.module)

  def ifaceRef(i: InterfaceSym, ctx: Ctx): String =
    if (i.module.isPrelude) "Active" // ABS.StdLib.Object
    else names.ref(i.module, names.interface(i), ctx.module)

  def classRef(c: ClassSym, ctx: Ctx): String = names.ref(c.module, names.cls(c), ctx.module)

  def fieldRef(f: FieldSym): S = S.Sel(S.This, names.field(f))

  private def targs(n: Node, ctx: Ctx): List[T] = program.typeArgs(n).map(tpe(_, ctx))

  // ------------------------------------------------------------------ pure expressions

  def exp(x: PureExp, ctx: Ctx): S = x match {
    case IntLit(v) => intLit(v)
    case FloatLit(v) => floatLit(v)
    case StringLit(s) => S.str(s)
    case TemplateString(parts, holes) =>
      val pieces = parts.zipAll(holes.map(h => Some(S.call("absToString", exp(h, ctx)))), "", None).flatMap {
        case (p, h) => (if (p.isEmpty) None else Some(S.str(p))) :: h :: Nil
      }.flatten
      if (pieces.isEmpty) S.str("") else pieces.reduceLeft((l, r) => S.Infix(l, "+", r))
    case NullLit() => S.Null
    case ThisExp() => S.This
    case DestinyExp() => S.Sel(S.Id("Cogs"), "destiny")
    case v: VarUse => variable(v)
    case f: FieldUse => variable(f)
    case f: FnApp => fnApp(f, ctx)
    case f: NAryFnApp => naryApp(f, ctx)
    case f: PartialFnApp => partialApp(f, ctx)
    case c: ConstructorApp => constructor(c, ctx)
    case Unary(UnaryOp.Not, e) => S.Prefix("!", exp(e, ctx))
    case Unary(UnaryOp.Neg, e) => S.Prefix("-", exp(e, ctx))
    case bin: Binary => binary(bin, ctx)
    case LetExp(bindings, body) =>
      ctx.locals.scoped {
        val defs = bindings.map { lb =>
          val rhs = exp(lb.value, ctx) // evaluated before its name is bound: `let x = x + 1` reads the outer x
          St.Def(bind(program.declared(lb).asInstanceOf[LocalSym], ctx), Some(tpe(program.typeOf(lb.tpe), ctx)), rhs, mutable = false)
        }
        S.Block(defs, exp(body, ctx))
      }
    case IfExp(c, t, e) => S.If(exp(c, ctx), exp(t, ctx), exp(e, ctx))
    case CaseExp(scrutinee, branches) =>
      val cases = branches.map { br =>
        ctx.locals.scoped {
          val (p, g) = pattern(br.pattern, ctx)
          Case(p, g, exp(br.body, ctx))
        }
      }
      S.Match(scrutineeOf(scrutinee, ctx), cases :+ matchFail(x, ctx))
    case ImplementsExp(e, _) =>
      S.TypeApp(S.Sel(exp(e, ctx), "isInstanceOf"), List(T.Ref(ifaceRef(program.interfaceOf(x), ctx))))
    case AsExp(e, _) =>
      val i = T.Ref(ifaceRef(program.interfaceOf(x), ctx))
      val o = ctx.locals.temp("o")
      S.Match(exp(e, ctx), List(Case(Pat.Typed(o, i), None, S.Id(o)), Case(Pat.Wild, None, S.Null)))
  }

  /** The default branch of a match: ABS's PatternMatchFailException, naming where the match is. */
  def matchFail[B](at: Node, ctx: Ctx, body: S => B = (s: S) => s): Case[B] = {
    val v = ctx.locals.temp("v")
    Case(Pat.Bind(v), None, body(S.call("matchFail", S.Id(v), S.str(pos(at)))))
  }

  /** A match scrutinee, ascribed to its ABS type so that every constructor of the type is a legal pattern. */
  def scrutineeOf(e: PureExp, ctx: Ctx): S = e match {
    case _: VarUse | _: FieldUse => exp(e, ctx)
    case _ => S.Ascribe(exp(e, ctx), tpe(program.typeOf(e), ctx))
  }

  def intLit(v: BigInt): S =
    if (v.isValidInt) S.Lit(s"AbsInt($v)")
    else if (v.isValidLong) S.Lit(s"AbsInt(${v}L)")
    else S.App(S.Id("AbsInt"), Nil, List(S.Str(v.toString))) // a long one is a constant of its module (Limits)

  private def floatLit(v: Double): S = S.Lit(
    if (v.isNaN) "Double.NaN" else if (v.isInfinite) (if (v > 0) "Double.PositiveInfinity" else "Double.NegativeInfinity")
    else java.lang.Double.toString(v))

  def variable(v: LValue): S = program.variableOf(v) match {
    case f: FieldSym => fieldRef(f)
    case l: LocalSym => S.Id(local(l))
  }

  private def fnApp(f: FnApp, ctx: Ctx): S = {
    val args = f.args.map(exp(_, ctx))
    program.funParamOf(f) match {
      case Some(fp) => S.App(S.Id(local(fp)), Nil, args)
      case None =>
        val fn = program.functionOf(f)
        // The partial functions of the library are told where they are called, for their failure.
        if (fn.module.isPrelude && fn.module.name == Prelude.ModuleName && LowerExp.Partial(fn.name))
          S.App(S.Id(fn.name), Nil, args :+ S.str(pos(f)))
        else if (fn.module.isPrelude) preludeCall(fn, args, if (args.isEmpty) targs(f, ctx) else Nil)
        else if (fn.isPartial) // a partial function calling itself: the same function arguments
          S.App(S.App(S.Id(functionRef(fn, ctx)), targs(f, ctx), fn.funParams.map(p => S.Id(local(p)))), Nil, args)
        else if (selectorCanFail(fn)) S.App(S.Id(functionRef(fn, ctx)), targs(f, ctx), args :+ S.str(pos(f)))
        else S.App(S.Id(functionRef(fn, ctx)), targs(f, ctx), args)
    }
  }

  /**
   * A selector of a user type that some constructor of the type lacks, or of an exception (its
   * argument may be any exception): it is told where it is called, for its failure. A selector
   * every constructor has cannot fail and keeps its one parameter.
   */
  def selectorCanFail(fn: FunctionSym): Boolean = fn.functionKind match {
    case FunctionKind.Selector(dt, arg) if !fn.module.isPrelude =>
      (dt eq b.exception) || !dt.constructors.forall(_.selectorNames.contains(Some(arg)))
    case _ => false
  }

  // Function parameters of partial functions are bound like locals, by their symbol.
  private val funParamNames = new java.util.IdentityHashMap[FunParamSym, String]
  def bindFunParam(p: FunParamSym, ctx: Ctx): String = { val n = ctx.locals.bind(p.name); funParamNames.put(p, n); n }
  private def local(p: FunParamSym): String = funParamNames.get(p)

  /**
   * The library's name of a prelude function: unqualified for ABS.StdLib's (the emitted files import
   * `cogs.absc.lib._`, and no ABS name hides one, see Names), in `AbsProcess` for ABS.Scheduler's,
   * whose short names (`value`, `start`, `method`) models use freely for their own things.
   */
  private def preludeFunction(fn: FunctionSym): String =
    if (fn.module.name == Prelude.SchedulerModule) "AbsProcess." + fn.name
    else if (fn.name == "toString") "absToString"
    else fn.name

  private def preludeCall(fn: FunctionSym, args: List[S], ts: List[T]): S = fn.name match {
    case _ if fn.module.name == Prelude.SchedulerModule => S.App(S.Id(preludeFunction(fn)), Nil, args)
    case "toString" => S.App(S.Id("absToString"), Nil, args)
    case "list" if args.length == 1 => args.head // list(l) is the identity on a list
    case "set" if args.length == 1 => S.App(S.Id("setFromList"), ts, args)
    case "map" if args.length == 1 => S.App(S.Id("mapFromList"), ts, args)
    case other => S.App(S.Id(other), ts, args)
  }

  private def naryApp(f: NAryFnApp, ctx: Ctx): S = {
    val fn = program.functionOf(f)
    val args = f.args.map(exp(_, ctx))
    if (fn.module.isPrelude) S.App(S.Id(preludeFunction(fn)), if (args.isEmpty) targs(f, ctx) else Nil, args)
    else {
      val elem = fn.paramTypes.headOption match {
        case Some(b.ListT(t)) => List(tpe(t, ctx))
        case _ => Nil
      }
      S.App(S.Id(functionRef(fn, ctx)), targs(f, ctx), List(S.App(S.Id("list"), elem, args)))
    }
  }

  private def partialApp(f: PartialFnApp, ctx: Ctx): S = {
    val fn = program.functionOf(f)
    val funArgs = f.funArgs.map {
      case fa: FunName =>
        program.funParamOf(fa) match {
          case Some(fp) => S.Id(local(fp))
          case None =>
            val g = program.functionOf(fa)
            val t = program.typeOf(fa)
            val ps = t.params.indices.map(_ => ctx.locals.temp("a")).toList
            val target =
              if (g.module.isPrelude) S.Id(preludeFunction(g))
              else S.Id(functionRef(g, ctx))
            val ts = if (g.module.isPrelude) Nil else targs(fa, ctx)
            // A partial library function or selector passed by name is told where it is named.
            val at = if (selectorCanFail(g) || (g.module.isPrelude && g.module.name == Prelude.ModuleName && LowerExp.Partial(g.name)))
              List(S.str(pos(fa))) else Nil
            S.Lambda(ps.zip(t.params).map { case (p, pt) => (p, Some(tpe(pt, ctx))) }, S.App(target, ts, ps.map(S.Id) ++ at))
        }
      case af: AnonFun =>
        ctx.locals.scoped {
          val ps = af.params.map(p => (bind(program.declared(p).asInstanceOf[LocalSym], ctx), Some(tpe(program.typeOf(p.tpe), ctx))))
          S.Lambda(ps, exp(af.body, ctx))
        }
    }
    val args = f.args.map(exp(_, ctx))
    val target = if (fn.module.isPrelude) S.Id(preludeFunction(fn)) else S.Id(functionRef(fn, ctx))
    S.App(S.App(target, targs(f, ctx), funArgs), Nil, args)
  }

  private def constructor(c: ConstructorApp, ctx: Ctx): S = {
    val sym = program.constructorOf(c)
    val args = c.args.map(exp(_, ctx))
    if (sym.module.isPrelude) preludeCtor(sym.name, args)
    else if (sym.arity == 0) S.Id(ctorPath(sym, ctx))
    else S.App(S.Id(ctorPath(sym, ctx)), targs(c, ctx), args)
  }

  /** A constructor of ABS.StdLib as an expression (the library's names, Scala's Boolean, List and Unit). */
  private def preludeCtor(name: String, args: List[S]): S = name match {
    case "True" => S.Lit("true")
    case "False" => S.Lit("false")
    case "Unit" => S.Unit
    case "Nil" => S.Id("Nil")
    case "Cons" => S.Infix(args(0), "::", args(1))
    case "Duration" => S.App(S.Id("Duration.Duration"), Nil, args) // the type's companion holds it
    case other if args.isEmpty => S.Id(other)
    case other => S.App(S.Id(other), Nil, args)
  }

  private def binary(x: Binary, ctx: Ctx): S = {
    val l = exp(x.left, ctx)
    val r = exp(x.right, ctx)
    val lt = program.typeOf(x.left)
    val rt = program.typeOf(x.right)
    val numeric = b.isNumeric(lt) && b.isNumeric(rt)
    val float = b.isFloat(lt) || b.isFloat(rt)
    import BinaryOp._
    x.op match {
      case Lt | Le | Gt | Ge if numeric => S.Infix(l, x.op.symbol, r)
      case Lt => S.call("lt", l, r)
      case Le => S.call("le", l, r)
      case Gt => S.call("gt", l, r)
      case Ge => S.call("ge", l, r)
      // A divisor that may be 0 is checked where the ABS operator is, so that the failure names it.
      case Div if float => S.call("fdiv", l, r, S.str(pos(x)))
      case Mod if float => S.call("fmod", l, r, S.str(pos(x)))
      case Div | Mod if !nonZeroLiteral(x.right) => S.Infix(l, x.op.symbol, S.call("nonZero", r, S.str(pos(x))))
      case op => S.Infix(l, op.symbol, r)
    }
  }

  /** A field initialiser that cannot throw: a literal, a variable, `this`, constructors of such. */
  private def cannotFail(e: PureExp): Boolean = e match {
    case _: IntLit | _: FloatLit | _: StringLit | _: NullLit | _: ThisExp | _: VarUse | _: FieldUse => true
    case c: ConstructorApp => c.args.forall(cannotFail)
    case _ => false
  }

  private def nonZeroLiteral(e: PureExp): Boolean = e match {
    case IntLit(v) => v != 0
    case Unary(UnaryOp.Neg, x) => nonZeroLiteral(x)
    case _ => false
  }

  // ------------------------------------------------------------------ patterns

  /**
   * A Scala pattern and a guard for what Scala patterns cannot express (literals of AbsInt,
   * comparisons with a variable in scope). Binders are bound in the current scope of `ctx`.
   */
  def pattern(p: Pattern, ctx: Ctx): (Pat, Option[S]) = {
    val guards = List.newBuilder[S]
    def go(p: Pattern): Pat = p match {
      case WildcardPattern() => Pat.Wild
      case v: VarPattern =>
        program.patternVar(v) match {
          case PatternVarRole.Binds(l) => Pat.Bind(bind(l, ctx))
          case PatternVarRole.Compares(existing) =>
            val n = ctx.locals.temp("v")
            val cur = existing match {
              case f: FieldSym => fieldRef(f)
              case l: LocalSym => S.Id(local(l))
            }
            guards += S.Infix(S.Id(n), "==", cur)
            Pat.Bind(n)
        }
      // A string too long for one class-file constant cannot be a pattern: compared in the guard.
      case LiteralPattern(StringLit(s)) if s.length <= Limits.MaxStringChars => Pat.Const(Naming.stringLit(s))
      case LiteralPattern(lit) =>
        val n = ctx.locals.temp("v")
        guards += S.Infix(S.Id(n), "==", exp(lit, ctx))
        Pat.Bind(n)
      case c: ConstructorPattern =>
        val sym = program.constructorOf(c)
        val args = c.args.map(go)
        if (sym.module.isPrelude) sym.name match {
          case "True" => Pat.Const("true")
          case "False" => Pat.Const("false")
          case "Unit" => Pat.Const("()")
          case "Nil" => Pat.Const("Nil")
          case "Cons" => Pat.Cons(args(0), args(1))
          case "Duration" => Pat.Extract("Duration.Duration", args)
          case other if args.isEmpty => Pat.Const(other)
          case other => Pat.Extract(other, args)
        }
        else if (sym.arity == 0) Pat.Const(ctorPath(sym, ctx))
        else Pat.Extract(ctorPath(sym, ctx), args)
    }
    val pat = go(p)
    val gs = guards.result()
    (pat, if (gs.isEmpty) None else Some(gs.reduceLeft((l, r) => S.Infix(l, "&&", r))))
  }

  // ------------------------------------------------------------------ effects

  /**
   * The target of a call as it is: the `instrument` pass adds the null check (the call site's
   * position names the call; the message knows its method's name, see [[Call]]).
   */
  private def target(t: PureExp, ctx: Ctx): S = t match {
    case ThisExp() => S.This
    case other => exp(other, ctx)
  }

  /**
   * An argument whose evaluation cannot fail nor have an effect, so a null target may be reported
   * after it without anyone seeing the order: a variable, a field, a literal, `destiny`, a
   * constructor or a `list[..]`, `set[..]`, `map[..]` of such, `!`, `-` and the operators other
   * than `/` and `%` (no function call: it may fail or print).
   */
  private def unobservable(e: PureExp): Boolean = e match {
    case _: IntLit | _: FloatLit | _: StringLit | _: NullLit | _: ThisExp | _: VarUse | _: FieldUse => true
    case _: DestinyExp => true
    case c: ConstructorApp => c.args.forall(unobservable)
    // `list[..]`, `set[..]`, `map[..]` of the prelude (an n-ary function of the model may fail)
    case f: NAryFnApp => program.functionOf(f).module.isPrelude && Set("list", "set", "map")(program.functionOf(f).name) &&
      f.args.forall(unobservable)
    case Unary(_, x) => unobservable(x)
    case Binary(op, l, r) => op != BinaryOp.Div && op != BinaryOp.Mod && unobservable(l) && unobservable(r)
    case _ => false
  }

  private def checkFirst(args: List[PureExp]): Boolean = !args.forall(unobservable)

  private def receivers(m: MethodSym): List[ClassSym] = m.owner match {
    case c: ClassSym => List(c)
    case i: InterfaceSym => program.classes.filter(_.allInterfaces.contains(i))
    case _ => program.classes
  }

  /**
   * What the `instrument` pass needs to decide about a call of `m` here (see [[Instrument]]).
   * Outside every class, a call is in the main block (functions make none), which may play
   * session roles too (`roles { C = main }`).
   */
  private def callSite(m: MethodSym, call: Node, ctx: Ctx): CallSite =
    CallSite(ctx.cls.map(_.name), receivers(m).map(_.name), pos(call))

  /** The companion that has the message constructor: the interface's, or the class's for calls on `this`. */
  private def messageOwner(t: PureExp, m: MethodSym, ctx: Ctx): String = program.typeOf(t) match {
    case Type.Obj(cls) => classRef(cls, ctx)
    case _ => m.owner match {
      case i: InterfaceSym => ifaceRef(i, ctx)
      case c: ClassSym => classRef(c, ctx)
      case other => throw new IllegalStateException(s"absc: method owner $other")
    }
  }

  private def message(t: PureExp, m: MethodSym, args: List[S], ctx: Ctx): Message =
    Message(messageOwner(t, m, ctx), names.method(m), args)

  /**
   * `o!m(args)`: a `Fut[T]`; with `oneWay` (the statement `o!m(args);`, whose future nobody can
   * read) a one-way call, which allocates no future. Whether it is traced or checked as a
   * protocol message is the `instrument` pass's decision.
   */
  def asyncCall(c: AsyncCall, ctx: Ctx, oneWay: Boolean = false): S = {
    val m = program.methodOf(c)
    program.deadlineOf(c) match {
      case Some(d) =>
        // [Deadline: d] o!m(..): the deadline (a Duration) is evaluated after the arguments.
        val temps = c.args.map(_ => ctx.locals.temp("arg"))
        val defs = c.args.zip(temps).map { case (a, n) => St.Def(n, None, exp(a, ctx), mutable = false) }
        S.Block(defs, S.SendWithDeadline(Call(target(c.target, ctx), c.method, message(c.target, m, temps.map(S.Id), ctx),
          callSite(m, c, ctx), checkFirst = !unobservable(d)), exp(d, ctx)))
      case None =>
        // The target first, then the arguments, as the plain call evaluates them.
        val t = target(c.target, ctx)
        S.Send(Call(t, c.method, message(c.target, m, c.args.map(exp(_, ctx)), ctx), callSite(m, c, ctx), checkFirst(c.args)), oneWay)
    }
  }

  /** `new C(args)` / `new local C(args)`. */
  def newObject(n: NewExp, ctx: Ctx): S = {
    val c = program.classOf(n)
    // `(new C(..)).at$("f.abs:12:5")`: the object knows where it was created, for reports (one
    // store of a constant; set before the object is published, so before its `run` starts).
    val make = (args: List[S]) => S.App(S.Sel(S.New(T.Ref(classRef(c, ctx)), args), "at$"), Nil, List(S.str(site(n))))
    val dc = program.dcAt(n).map(exp(_, ctx))
    val spawn: List[S] => S = program.schedulerAt(n) match {
      case None if dc.isDefined =>
        // The class and the argument values too: a configuration may place the object on another
        // node (AbsDC.placeOn), where `make` is not evaluated. The arguments are evaluated once (below).
        args => S.App(S.App(S.Id("AbsDC.placeOn"), Nil,
          dc.get :: S.TypeApp(S.Id("classOf"), List(T.Ref(classRef(c, ctx)))) :: S.str(pos(n)) :: args), Nil, List(make(args)))
      case None => args => S.App(S.Sel(S.Id("Cogs"), if (n.local) "spawnLocal" else "spawn"), Nil, List(make(args)))
      case Some(spec) =>
        // Cogs.spawnScheduled((o$1: C) => AbsProcess.policy(queue$2 => f(queue$2, o$1.field)))(new C(..))
        val o = ctx.locals.temp("o")
        val q = ctx.locals.temp("queue")
        val sargs = spec.args.map {
          case None => S.Id(q)
          case Some(field) => S.Sel(S.Id(o), names.field(field))
        }
        val fn = spec.function
        val call = S.App(S.Id(if (fn.module.isPrelude) preludeFunction(fn) else functionRef(fn, ctx)), Nil, sargs)
        val policy = S.Lambda(List((o, Some(T.Ref(classRef(c, ctx))))),
          S.App(S.Id("AbsProcess.policy"), Nil, List(S.Lambda(List((q, None)), call))))
        dc match {
          // As placeOn, with the policy: it may be made on another node, where `make` is not evaluated.
          case Some(d) => args => S.App(S.App(S.Id("AbsDC.placeScheduledOn"), Nil,
            d :: policy :: S.TypeApp(S.Id("classOf"), List(T.Ref(classRef(c, ctx)))) :: S.str(pos(n)) :: args), Nil, List(make(args)))
          case None => args => S.App(S.App(S.Sel(S.Id("Cogs"), "spawnScheduled"), Nil, List(policy)), Nil, List(make(args)))
        }
    }
    // An object of a class that plays a session role is offered its roles as it is created (the
    // `instrument` pass's decision).
    val made: S => S = o => S.Created(o, c.name)
    val placed = dc.isDefined
    if (c.init.isEmpty && c.bodyFields.forall(_.init.forall(cannotFail)) && !placed) made(spawn(n.args.map(exp(_, ctx))))
    else if (c.init.isEmpty && c.bodyFields.forall(_.init.forall(cannotFail))) {
      // The arguments appear twice in placeOn's call (the values, and `make`): evaluated once, before.
      val (defs, args) = n.args.map { a =>
        exp(a, ctx) match {
          case s @ (_: S.Lit | _: S.Str | _: S.Id) => (None, s)
          case s => val t = ctx.locals.temp("arg"); (Some(St.Def(t, None, s, mutable = false)), S.Id(t))
        }
      }.unzip
      if (defs.flatten.isEmpty) made(spawn(args)) else S.Block(defs.flatten, made(spawn(args)))
    }
    else {
      // Creating the object runs ABS code (field initialisers, the init block): a failure there
      // names the class and this `new`. The arguments are evaluated first, outside the `try`.
      val (defs, args) = n.args.map { a =>
        exp(a, ctx) match {
          case s @ (_: S.Lit | _: S.Str | _: S.Id) => (None, s)
          case s => val t = ctx.locals.temp("arg"); (Some(St.Def(t, None, s, mutable = false)), S.Id(t))
        }
      }.unzip
      val e = ctx.locals.temp("e")
      val guarded = S.Catch(made(spawn(args)), e, S.Throw(S.call("initFailed", S.Id(e), S.str(c.name), S.str(pos(n)))))
      if (defs.flatten.isEmpty) guarded else S.Block(defs.flatten, guarded)
    }
  }

  /**
   * A synchronous call as a computation (it may suspend). On `this` it is a plain call of the
   * callee, with no `Proc.defer` around it: the callee's own body is deferred (its method returns
   * `Proc.defer { .. }` after the dead-object check), so building its `Proc` here runs only that
   * check and the arguments, which is what the call does at this point anyway; a chain of
   * self-calls still grows the process's heap stack, not the JVM's.
   */
  def syncCallProc(c: SyncCall, ctx: Ctx): P = {
    val m = program.methodOf(c)
    val args = c.args.map(exp(_, ctx))
    val call = Call(target(c.target, ctx), c.method, message(c.target, m, args, ctx), callSite(m, c, ctx), checkFirst(c.args))
    c.target match {
      case ThisExp() => P.Sync(call, Some(if (program.isFrameCall(c)) names.frameMethod(m) else names.method(m)))
      case _ => P.Sync(call, None)
    }
  }

  /**
   * A synchronous call of a method that does not suspend: its value, now. A direct call (on
   * `this`, of a method that needs no continuation) is one JVM call of `m$now`, with no `Proc`.
   * Only calls on `this` come here (a call through an interface may always suspend).
   */
  def syncCallNow(c: SyncCall, ctx: Ctx): S = {
    val m = program.methodOf(c)
    val args = c.args.map(exp(_, ctx))
    val call = Call(target(c.target, ctx), c.method, message(c.target, m, args, ctx), callSite(m, c, ctx), checkFirst(c.args))
    S.SyncNow(call, if (program.isDirect(c)) Some(names.directMethod(m)) else None)
  }

  /** An effect expression that reaches a scheduling point, as a lowered computation. */
  def suspending(e: EffExp, ctx: Ctx): P = e match {
    case g @ GetExp(f) => P.Get(exp(f, ctx), site(g))
    case AwaitExp(call) => P.AwaitValue(asyncCall(call, ctx))
    case c: SyncCall => syncCallProc(c, ctx)
    case other => P.Done(plainEffect(other, ctx))
  }

  /** An effect expression that does not suspend, as a value. */
  def plainEffect(e: EffExp, ctx: Ctx): S = e match {
    case n: NewExp => newObject(n, ctx)
    case c: AsyncCall => asyncCall(c, ctx)
    case c: SyncCall => syncCallNow(c, ctx)
    // Only reached where the type checker proved no scheduling point is possible.
    case GetExp(f) => S.App(S.Sel(S.Id("Proc"), "now"), Nil, List(S.Sel(exp(f, ctx), "get")))
    case AwaitExp(call) => S.App(S.Sel(S.Id("Proc"), "now"), Nil, List(S.App(S.Sel(S.Id("Proc"), "await"), Nil, List(asyncCall(call, ctx)))))
  }
}

private[lower] object LowerExp {
  /** Library functions that fail on some arguments: their calls pass the ABS position (see `cogs.absc.lib.nonZero`). */
  val Partial: Set[String] = Set("head", "tail", "fromJust", "nth", "lookupUnsafe")
}
