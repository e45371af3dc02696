package cogs.absc.emit

import cogs.absc.ast._
import cogs.absc.typecheck._

/** Pure expressions, patterns, and the effect expressions that do not suspend. */
private[emit] final class Expressions(em: ScalaEmitter) {
  private val program = em.program
  private val b = em.b
  private var fresh = 0

  def freshName(base: String): String = { fresh += 1; s"$base$$$fresh" }

  private def pos(n: Node): String = Names.stringLit(s"${n.pos.file}:${n.pos.line}:${n.pos.col}")

  // ------------------------------------------------------------------ pure expressions

  def exp(x: PureExp, scope: Scope): String = x match {
    case IntLit(v) => intLit(v)
    case FloatLit(v) => floatLit(v)
    case StringLit(s) => Names.stringLit(s)
    case TemplateString(parts, holes) =>
      val pieces = parts.zipAll(holes.map(h => s"absToString(${exp(h, scope)})"), "", "").flatMap {
        case (p, h) => List(if (p.isEmpty) None else Some(Names.stringLit(p)), if (h.isEmpty) None else Some(h)).flatten
      }
      if (pieces.isEmpty) "\"\"" else pieces.mkString("(", " + ", ")")
    case NullLit() => "null"
    case ThisExp() => "this"
    case DestinyExp() => "Cogs.destiny"
    case v: VarUse => variable(v, scope)
    case f: FieldUse => s"this.${Names.member(f.name)}"
    case f: FnApp => fnApp(f, scope)
    case f: NAryFnApp => naryApp(f, scope)
    case f: PartialFnApp => partialApp(f, scope)
    case c: ConstructorApp => constructor(c, scope)
    case Unary(UnaryOp.Not, e) => s"!${paren(e, scope)}"
    case Unary(UnaryOp.Neg, e) => s"-${paren(e, scope)}"
    case bin: Binary => binary(bin, scope)
    case LetExp(bindings, body) =>
      val vals = bindings.map(lb => s"val ${Names.local(lb.name)}: ${em.scalaType(program.typeOf(lb.tpe))} = ${exp(lb.value, scope)}; ")
      s"{ ${vals.mkString}${exp(body, scope)} }"
    case IfExp(c, t, e) => s"(if (${exp(c, scope)}) ${exp(t, scope)} else ${exp(e, scope)})"
    case CaseExp(scrutinee, branches) =>
      val cases = branches.map { br =>
        val (p, g) = pattern(br.pattern, scope)
        s"case $p${g.map(" if " + _).getOrElse("")} => ${exp(br.body, scope)}"
      }
      val v = freshName("v")
      s"(${scrutineeOf(scrutinee, scope)} match { ${cases.mkString("; ")}; case $v => matchFail($v, ${pos(x)}) })"
    case ImplementsExp(e, _) => s"${paren(e, scope)}.isInstanceOf[${em.ifaceType(program.interfaceOf(x))}]"
    case AsExp(e, _) =>
      val i = em.ifaceType(program.interfaceOf(x))
      s"(${exp(e, scope)} match { case o: $i => o; case _ => null })"
  }

  /** A match scrutinee, ascribed to its ABS type so that every constructor of the type is a legal pattern. */
  def scrutineeOf(e: PureExp, scope: Scope): String = e match {
    case _: VarUse | _: FieldUse => exp(e, scope)
    case _ => s"(${exp(e, scope)}: ${em.scalaType(program.typeOf(e))})"
  }

  private def paren(e: PureExp, scope: Scope): String = e match {
    case _: VarUse | _: FieldUse | _: IntLit | _: StringLit | _: FnApp | _: ThisExp | _: NullLit => exp(e, scope)
    case c: ConstructorApp if c.args.isEmpty => exp(e, scope)
    case _ => s"(${exp(e, scope)})"
  }

  def intLit(v: BigInt): String =
    if (v.isValidInt) s"AbsInt($v)"
    else if (v.isValidLong) s"AbsInt(${v}L)"
    else s"""AbsInt("$v")"""

  private def floatLit(v: Double): String =
    if (v.isNaN) "Double.NaN" else if (v.isInfinite) (if (v > 0) "Double.PositiveInfinity" else "Double.NegativeInfinity")
    else java.lang.Double.toString(v)

  private def variable(v: VarUse, scope: Scope): String = program.variableOf(v) match {
    case f: FieldSym => s"this.${Names.member(f.name)}"
    case l: LocalSym => Names.local(l.name)
  }

  def lvalue(lv: LValue, scope: Scope): String = lv match {
    case v: VarUse => variable(v, scope)
    case f: FieldUse => s"this.${Names.member(f.name)}"
    case other => exp(other, scope)
  }

  private def typeArgs(n: Node): String = {
    val ts = program.typeArgs(n)
    if (ts.isEmpty) "" else ts.map(em.scalaType).mkString("[", ", ", "]")
  }

  private def fnApp(f: FnApp, scope: Scope): String = {
    val args = f.args.map(exp(_, scope))
    program.funParamOf(f) match {
      case Some(fp) => s"${Names.local(fp.name)}(${args.mkString(", ")})"
      case None =>
        val fn = program.functionOf(f)
        if (fn.module.isPrelude) preludeCall(fn.name, f.args, args, if (args.isEmpty) typeArgs(f) else "")
        else if (fn.isPartial) // a partial function calling itself: same function arguments
          s"${em.qualified(fn.module, fn.name)}${typeArgs(f)}(${fn.funParams.map(p => Names.local(p.name)).mkString(", ")})(${args.mkString(", ")})"
        else s"${em.qualified(fn.module, fn.name)}${typeArgs(f)}(${args.mkString(", ")})"
    }
  }

  private def preludeCall(name: String, argExps: List[PureExp], args: List[String], targs: String): String = name match {
    case "toString" => s"absToString(${args.mkString(", ")})"
    case "list" if args.length == 1 => args.head // list(l) is the identity on a list
    case "set" if args.length == 1 => s"setFromList$targs(${args.head})"
    case "map" if args.length == 1 => s"mapFromList$targs(${args.head})"
    case other => s"${Names.id(other)}$targs(${args.mkString(", ")})"
  }

  private def naryApp(f: NAryFnApp, scope: Scope): String = {
    val fn = program.functionOf(f)
    val args = f.args.map(exp(_, scope))
    if (fn.module.isPrelude) s"${Names.id(fn.name)}${if (args.isEmpty) typeArgs(f) else ""}(${args.mkString(", ")})"
    else {
      val elem = fn.paramTypes.headOption match {
        case Some(b.ListT(t)) => s"[${em.scalaType(t)}]"
        case _ => ""
      }
      s"${em.qualified(fn.module, fn.name)}${typeArgs(f)}(list$elem(${args.mkString(", ")}))"
    }
  }

  private def partialApp(f: PartialFnApp, scope: Scope): String = {
    val fn = program.functionOf(f)
    val funArgs = f.funArgs.map {
      case fa: FunName =>
        program.funParamOf(fa) match {
          case Some(fp) => Names.local(fp.name)
          case None =>
            val g = program.functionOf(fa)
            val t = program.typeOf(fa)
            val ps = t.params.indices.map(i => s"a$i").toList
            val typed = ps.zip(t.params).map { case (p, pt) => s"$p: ${em.scalaType(pt)}" }
            val target = if (g.module.isPrelude) (if (g.name == "toString") "absToString" else Names.id(g.name)) else em.qualified(g.module, g.name)
            val targs = if (g.module.isPrelude) "" else typeArgs(fa)
            s"((${typed.mkString(", ")}) => $target$targs(${ps.mkString(", ")}))"
        }
      case af: AnonFun =>
        val ps = af.params.map(p => s"${Names.local(p.name)}: ${em.scalaType(program.typeOf(p.tpe))}")
        s"((${ps.mkString(", ")}) => ${exp(af.body, scope)})"
    }
    val args = f.args.map(exp(_, scope))
    val target = if (fn.module.isPrelude) Names.id(fn.name) else em.qualified(fn.module, fn.name)
    s"$target${typeArgs(f)}(${funArgs.mkString(", ")})(${args.mkString(", ")})"
  }

  private def constructor(c: ConstructorApp, scope: Scope): String = {
    val sym = program.constructorOf(c)
    val args = c.args.map(exp(_, scope))
    if (sym.module.isPrelude) preludeCtor(sym.name, args)
    else {
      val name = em.ctorRef(sym)
      if (sym.arity == 0) name else s"$name${typeArgs(c)}(${args.mkString(", ")})"
    }
  }

  /** A constructor of ABS.StdLib, as an expression or a pattern (the library's names, Scala's Boolean, List and Unit). */
  private def preludeCtor(name: String, args: List[String]): String = name match {
    case "True" => "true"
    case "False" => "false"
    case "Unit" => "()"
    case "Nil" => "Nil"
    case "Cons" => s"(${args(0)} :: ${args(1)})"
    case other if args.isEmpty => Names.id(other)
    case other => s"${Names.id(other)}(${args.mkString(", ")})"
  }

  private def binary(x: Binary, scope: Scope): String = {
    val l = paren(x.left, scope)
    val r = paren(x.right, scope)
    val lt = program.typeOf(x.left)
    val rt = program.typeOf(x.right)
    val numeric = b.isNumeric(lt) && b.isNumeric(rt)
    val float = b.isFloat(lt) || b.isFloat(rt)
    import BinaryOp._
    x.op match {
      case Or => s"$l || $r"
      case And => s"$l && $r"
      case Eq => s"$l == $r"
      case Ne => s"$l != $r"
      case Lt | Le | Gt | Ge if numeric => s"$l ${x.op.symbol} $r"
      case Lt => s"lt($l, $r)"
      case Le => s"le($l, $r)"
      case Gt => s"gt($l, $r)"
      case Ge => s"ge($l, $r)"
      case Div if float => s"fdiv($l, $r)"
      case Mod if float => s"fmod($l, $r)"
      case op => s"$l ${op.symbol} $r"
    }
  }

  // ------------------------------------------------------------------ patterns

  /** A Scala pattern and a guard for the parts Scala patterns cannot express (literals of AbsInt, comparisons with variables). */
  def pattern(p: Pattern, scope: Scope): (String, Option[String]) = {
    val guards = List.newBuilder[String]
    def go(p: Pattern): String = p match {
      case WildcardPattern() => "_"
      case v: VarPattern =>
        program.patternVar(v) match {
          case PatternVarRole.Binds(l) => Names.local(l.name)
          case PatternVarRole.Compares(existing) =>
            val n = freshName("v")
            val cur = existing match {
              case f: FieldSym => s"this.${Names.member(f.name)}"
              case l: LocalSym => Names.local(l.name)
            }
            guards += s"$n == $cur"
            n
        }
      case LiteralPattern(StringLit(s)) => Names.stringLit(s)
      case LiteralPattern(lit) =>
        val n = freshName("v")
        guards += s"$n == ${exp(lit, scope)}"
        n
      case c: ConstructorPattern =>
        val sym = program.constructorOf(c)
        val args = c.args.map(go)
        if (sym.module.isPrelude) preludeCtor(sym.name, args)
        else {
          val name = em.ctorRef(sym)
          if (sym.arity == 0) name else s"$name(${args.mkString(", ")})"
        }
    }
    val text = go(p)
    val gs = guards.result()
    (text, if (gs.isEmpty) None else Some(gs.mkString(" && ")))
  }

  // ------------------------------------------------------------------ effects

  /** The target of a call, evaluated now; null targets raise ABS's NullPointerException. */
  private def target(t: PureExp, scope: Scope): String = t match {
    case ThisExp() => "this"
    case other => s"nullCheck(${exp(other, scope)}, ${Names.stringLit("call target")})"
  }

  /**
   * `o!m(args)`: a `Fut[T]` expression; with `oneWay` (the statement `o!m(args);`, whose future
   * nobody can read) a one-way call, which allocates no future (`destiny` in the callee still
   * works: the runtime makes its future on first use).
   */
  def asyncCall(c: AsyncCall, scope: Scope, oneWay: Boolean = false): String = {
    val m = program.methodOf(c)
    val msg = messageOwner(c.target, m, scope)
    if (em.observedCall(m)) {
      // Observed by a monitor: the arguments, evaluated once, also go into the trace event. An
      // observed call keeps its future even as a statement: the future is the call's identity in
      // the trace (`call-answered` pairs a call with its completion by it).
      val names = c.args.indices.map(i => s"arg$$$i").toList
      val binds = c.args.zip(names).map { case (a, n) => s"val $n = ${exp(a, scope)}; " }.mkString
      s"{ ${binds}cogs.runtime.Cogs.sendWithArgs(${target(c.target, scope)}, ${Names.stringLit(c.method)}, " +
        s"List[Any](${names.mkString(", ")}), $msg.${Names.member(m.name)}(${names.mkString(", ")})) }"
    } else {
      val args = c.args.map(exp(_, scope)).mkString(", ")
      s"${target(c.target, scope)}.${if (oneWay) "tell" else "send"}(${Names.stringLit(c.method)})($msg.${Names.member(m.name)}($args))"
    }
  }

  /** The companion that has the message constructor: the interface's, or the class's for calls on `this`. */
  private def messageOwner(t: PureExp, m: MethodSym, scope: Scope): String = program.typeOf(t) match {
    case Type.Obj(cls) => em.qualified(cls.module, em.className(cls))
    case _ => m.owner match {
      case i: InterfaceSym => em.ifaceType(i)
      case c: ClassSym => em.qualified(c.module, em.className(c))
      case other => throw new IllegalStateException(s"absc: method owner $other")
    }
  }

  /** `new C(args)` / `new local C(args)`. */
  def newObject(n: NewExp, scope: Scope): String = {
    val c = program.classOf(n)
    val args = n.args.map(exp(_, scope)).mkString(", ")
    val make = s"new ${em.qualified(c.module, em.className(c))}($args)"
    if (n.local) s"Cogs.spawnLocal($make)" else s"Cogs.spawn($make)"
  }

  /** A synchronous call as a `Proc[T]` (it may suspend). */
  def syncCallProc(c: SyncCall, scope: Scope): String = {
    val m = program.methodOf(c)
    val args = c.args.map(exp(_, scope)).mkString(", ")
    c.target match {
      case ThisExp() => s"Proc.defer(this.${Names.member(m.name)}($args))"
      case t =>
        val msg = messageOwner(t, m, scope)
        s"Proc.sync(${target(t, scope)}, ${Names.stringLit(c.method)})($msg.${Names.member(m.name)}($args))"
    }
  }

  /** A synchronous call on `this` of a method that does not suspend: its value, now. */
  def syncCallNow(c: SyncCall, scope: Scope): String = {
    val m = program.methodOf(c)
    val args = c.args.map(exp(_, scope)).mkString(", ")
    c.target match {
      case ThisExp() => s"Proc.now(this.${Names.member(m.name)}($args))"
      case t => s"Proc.now(${target(t, scope)}.${Names.member(m.name)}($args))"
    }
  }

  /** An effect expression that reaches a scheduling point, as a `Proc[T]`. */
  def suspendingProc(e: EffExp, scope: Scope): String = e match {
    case GetExp(f) => s"${paren(f, scope)}.get"
    case AwaitExp(call) => s"Proc.await(${asyncCall(call, scope)})"
    case c: SyncCall => syncCallProc(c, scope)
    case other => s"Proc.done(${plainEffect(other, scope)})"
  }

  /** An effect expression that does not suspend, as a value. */
  def plainEffect(e: EffExp, scope: Scope): String = e match {
    case n: NewExp => newObject(n, scope)
    case c: AsyncCall => asyncCall(c, scope)
    case c: SyncCall => syncCallNow(c, scope)
    case GetExp(f) => s"Proc.now(${paren(f, scope)}.get)" // only reached for resolved futures; never emitted for suspending code
    case AwaitExp(call) => s"Proc.now(Proc.await(${asyncCall(call, scope)}))"
  }

  /** Does this effect expression reach a scheduling point? */
  def suspends(e: Exp): Boolean = e match {
    case _: GetExp | _: AwaitExp => true
    case c: SyncCall => em.cpsCall(c)
    case _ => false
  }
}
