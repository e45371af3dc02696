package cogs.absc.typecheck

import scala.collection.mutable

import cogs.absc.ast._

/**
 * Phase 3, expressions and patterns: the type of every expression, what every name in
 * it denotes, and the type arguments inferred at each use of a parametric function or
 * constructor.
 */
private[typecheck] trait ExpressionPhase { self: Checker =>

  import Type._

  // ---------------------------------------------------------------------------------
  // Entry points

  /** Any expression: pure, or with effects (at the top of a statement). */
  def checkExp(e: Exp, ctx: Ctx): Type = e match {
    case p: PureExp => checkPure(p, ctx)
    case n: NewExp => record(n, checkNew(n, ctx))
    case c: AsyncCall =>
      val r = checkCall(c, c.target, c.method, c.args, ctx)
      record(c, if (r == Error) Error else b.FutT(r))
    case c: SyncCall => record(c, checkCall(c, c.target, c.method, c.args, ctx))
    case g: GetExp =>
      restricted(g.pos, "'.get'", ctx)
      record(g, checkGet(g, ctx))
    case a: AwaitExp =>
      restricted(a.pos, "'await'", ctx)
      val ft = checkExp(a.call, ctx)
      Option(tables.refs.get(a.call)).foreach(refer(a, _))
      record(a, inf.current(ft) match {
        case b.FutT(t) => t
        case _ => Error
      })
  }

  /** Reports a construct that is not allowed in an init, recovery or finally block. */
  def restricted(pos: Pos, what: String, ctx: Ctx): Unit =
    ctx.restricted.foreach(where => error(pos, s"$what is not allowed in $where"))

  def checkPure(e: PureExp, ctx: Ctx): Type = record(e, pureType(e, ctx))

  private def pureType(e: PureExp, ctx: Ctx): Type = e match {
    case IntLit(_) => b.IntT
    case FloatLit(_) => b.FloatT
    case StringLit(_) => b.StringT
    case TemplateString(_, holes) =>
      holes.foreach(checkPure(_, ctx))
      b.StringT
    case NullLit() => Null
    case ThisExp() =>
      ctx.cls match {
        case Some(c) => Obj(c)
        case None =>
          error(e.pos, if (ctx.isFunction) "'this' cannot be used in a function" else "'this' can only be used in a class")
          Error
      }
    case DestinyExp() =>
      ctx.where match {
        case Where.InFunction(_) => error(e.pos, "'destiny' cannot be used in a function"); Error
        case Where.InMain(_) => error(e.pos, "'destiny' can only be used in methods (the main block has no future)"); Error
        case _ => b.DestinyT
      }
    case v: VarUse => varUse(v, ctx)
    case f: FieldUse => fieldUse(f, ctx)
    case a: FnApp => fnApp(a, ctx)
    case a: PartialFnApp => partialApp(a, ctx)
    case a: NAryFnApp => naryApp(a, ctx)
    case a: ConstructorApp => constructorApp(a, ctx)
    case u: Unary => unary(u, ctx)
    case x: Binary => binary(x, ctx)
    case LetExp(bindings, body) =>
      val inner = bindings.foldLeft(ctx) { (c, bnd) =>
        val t = resolveType(bnd.tpe, c.module, c.tparams)
        val vt = checkPure(bnd.value, c)
        expect(bnd.value.pos, vt, t)
        val l = newLocal(bnd.name, LocalKind.LetVar, bnd, bnd.pos, t)
        refer(bnd, l)
        c.withVar(l)
      }
      checkPure(body, inner)
    case IfExp(c, t, f) =>
      expect(c.pos, checkPure(c, ctx), b.BoolT)
      val tt = checkPure(t, ctx)
      val ft = checkPure(f, ctx)
      inf.join(tt, ft).getOrElse {
        if (!Type.hasError(tt) && !Type.hasError(ft))
          error(e.pos, s"the branches of this conditional have incompatible types: ${show(tt)} and ${show(ft)}")
        Error
      }
    case CaseExp(scrutinee, branches) =>
      val st = checkPure(scrutinee, ctx)
      val types = branches.map { br =>
        val inner = checkPatternTop(br.pattern, st, ctx, inCatch = false)
        (br, checkPure(br.body, inner))
      }
      types.tail.foldLeft(types.head._2) { case (acc, (br, t)) =>
        inf.join(acc, t).getOrElse {
          if (!Type.hasError(acc) && !Type.hasError(t))
            error(br.body.pos, s"the branches of this case have incompatible types: ${show(acc)} and ${show(t)}")
          Error
        }
      }
    case ImplementsExp(x, iname) =>
      objectOperand(x, "implements", ctx)
      interfaceName(e, iname, ctx)
      b.BoolT
    case AsExp(x, iname) =>
      objectOperand(x, "as", ctx)
      interfaceName(e, iname, ctx).map(Iface(_)).getOrElse(Error)
  }

  private def objectOperand(x: PureExp, op: String, ctx: Ctx): Unit = {
    val t = inf.current(checkPure(x, ctx))
    t match {
      case Iface(_) | Obj(_) | Null | Error | _: Var =>
      case other => error(x.pos, s"'$op' needs an object, found ${show(other)}")
    }
  }

  private def interfaceName(e: PureExp, n: QName, ctx: Ctx): Option[InterfaceSym] =
    mods.lookup(ctx.module, Namespace.Type, n) match {
      case Modules.Found(i: InterfaceSym) =>
        refer(e, i)
        Some(i)
      case Modules.Found(other) =>
        error(e.pos, s"'$n' is a ${other.kind}, not an interface")
        None
      case Modules.Missing if find(ctx.module, Namespace.Class, n).isDefined =>
        error(e.pos, s"'$n' is a class, not an interface")
        None
      case _ =>
        lookup(ctx.module, Namespace.Type, n, e.pos, "interface")
        None
    }

  // ---------------------------------------------------------------------------------
  // Variables and fields

  /** A variable in scope: local, else field (respecting initialisation order in field initialisers). */
  def varInScope(name: String, ctx: Ctx): Option[VarSym] =
    ctx.vars.get(name).orElse(ctx.cls.flatMap(_.field(name)).filter(f => ctx.fieldsReady.forall(_(f.name))))

  private def varUse(v: VarUse, ctx: Ctx): Type = resolveVar(v, ctx).map(_.tpe).getOrElse(Error)

  /** Resolves `x` (a use, or an assignment target) to a local or a field, reporting unknown names. */
  def resolveVar(v: VarUse, ctx: Ctx): Option[VarSym] = varInScope(v.name, ctx) match {
    case Some(s) =>
      refer(v, s)
      Some(s)
    case None =>
      val notReady = ctx.cls.flatMap(_.field(v.name)).isDefined
      if (notReady) error(v.pos, s"field '${v.name}' is used before it is initialised")
      else if (ctx.funParams.contains(v.name))
        error(v.pos, s"function parameter '${v.name}' can only be called, as in ${v.name}(..)")
      else {
        val candidates = ctx.vars.keys ++ ctx.cls.toList.flatMap(_.fields.map(_.name))
        error(v.pos, s"'${v.name}' is not defined" + Suggest.hint(v.name, candidates))
      }
      None
  }

  private def fieldUse(f: FieldUse, ctx: Ctx): Type = resolveField(f, ctx).map(_.tpe).getOrElse(Error)

  def resolveField(f: FieldUse, ctx: Ctx): Option[FieldSym] = ctx.cls match {
    case None =>
      error(f.pos, s"'this.${f.name}' can only be used in a class")
      None
    case Some(c) =>
      c.field(f.name) match {
        case Some(fs) if ctx.fieldsReady.forall(_(fs.name)) =>
          refer(f, fs)
          Some(fs)
        case Some(_) =>
          error(f.pos, s"field '${f.name}' is used before it is initialised")
          None
        case None =>
          error(f.pos, s"class '${c.name}' has no field '${f.name}'" + Suggest.hint(f.name, c.fields.map(_.name)))
          None
      }
  }

  // ---------------------------------------------------------------------------------
  // Function applications

  private def arity(pos: Pos, what: String, expected: Int, found: Int): Boolean =
    if (expected == found) true
    else {
      error(pos, s"$what expects ${plural(expected, "argument")}, found $found")
      false
    }

  private def fnApp(e: FnApp, ctx: Ctx): Type = {
    val n = e.fn
    if (!n.isQualified && ctx.funParams.contains(n.name)) callFunParam(ctx.funParams(n.name), e, ctx)
    else ctx.partial match {
      case Some(p) if !n.isQualified && n.name == p.name => callFunction(p, e.args, e, ctx, recursive = true)
      case _ =>
        mods.lookup(ctx.module, Namespace.Function, n) match {
          case Modules.Found(f: FunctionSym) => callFunction(f, e.args, e, ctx, recursive = false)
          case Modules.Missing if find(ctx.module, Namespace.PartialFunction, n).isDefined =>
            e.args.foreach(checkPure(_, ctx))
            error(e.pos, s"'$n' is a partial function: give it function arguments first, as in $n(f)(..)")
            Error
          case Modules.Missing if n.name == "original" && !n.isQualified =>
            error(e.pos, "'original()' calls the method that a trait method replaces (`modifies`): it can only be " +
              "the whole expression of a statement (`original();`, `x = original();`, `return original();`) " +
              "in a method that replaces another")
            Error
          case Modules.Missing if !n.isQualified && varInScope(n.name, ctx).isDefined =>
            e.args.foreach(checkPure(_, ctx))
            error(e.pos, s"'${n.name}' is a variable, not a function")
            Error
          case _ =>
            e.args.foreach(checkPure(_, ctx))
            lookup(ctx.module, Namespace.Function, n, e.pos)
            Error
        }
    }
  }

  /** Calls of a partial function inside its own body, to patch their type arguments once extra ones are known. */
  private val recursiveCalls = mutable.HashMap.empty[FunctionSym, List[Node]]

  private def callFunction(f: FunctionSym, args: List[PureExp], node: Node, ctx: Ctx, recursive: Boolean): Type = {
    refer(node, f)
    val ats = args.map(checkPure(_, ctx))
    if (!arity(node.pos, s"function '${f.name}'", f.params.length, args.length)) Error
    else {
      val (targs, s) =
        if (recursive) {
          recursiveCalls(f) = node :: recursiveCalls.getOrElse(f, Nil)
          (f.tparams.map(Param(_)), Map.empty[TypeParamSym, Type])
        } else inf.instantiate(f.tparams)
      for (((a, t), pt) <- args.zip(ats).zip(f.paramTypes)) expect(a.pos, t, Type.subst(pt, s))
      tables.typeArgs.put(node, targs)
      Type.subst(f.resultType, s)
    }
  }

  /** `f(args)` where `f` is a function parameter of the enclosing partial function. */
  private def callFunParam(p: FunParamSym, e: FnApp, ctx: Ctx): Type = {
    refer(e, p)
    val ats = e.args.map(checkPure(_, ctx))
    val ft = funParamType(p, e.args.length)
    if (ft.params.length != e.args.length) {
      error(e.pos, s"function parameter '${p.name}' is called with ${plural(e.args.length, "argument")} here, " +
        s"but with ${ft.params.length} elsewhere")
      Error
    } else {
      for (((a, t), pt) <- e.args.zip(ats).zip(ft.params)) expect(a.pos, t, pt)
      ft.result
    }
  }

  private def funParamType(p: FunParamSym, n: Int): Fun = p.fun.getOrElse {
    val f = Fun(List.tabulate(n)(i => inf.fresh(s"${p.name}$i")), inf.fresh(s"${p.name}Result"))
    p.fun = Some(f)
    f
  }

  private val partialState = new java.util.IdentityHashMap[FunctionSym, Integer]

  /**
   * Checks a partial function's body (once), which infers the types of its function
   * parameters; unconstrained parts of those types become extra type parameters.
   */
  def ensurePartial(f: FunctionSym, usePos: Pos): Boolean = Option(partialState.get(f)).map(_.intValue).getOrElse(0) match {
    case 2 => true
    case 1 =>
      error(usePos, s"partial function '${f.name}' is used in its own definition: " +
        s"call it recursively without function arguments, as in ${f.name}(..), and not through other partial functions")
      false
    case _ =>
      partialState.put(f, 1)
      checkFunctionBody(f)
      val extra = mutable.ListBuffer.empty[TypeParamSym]
      for (p <- f.fps; ft <- p.fun) {
        for (v <- inf.freeVars(ft)) {
          val tp = new TypeParamSym(freshParamName(f, extra.toList), p.pos)
          extra += tp
          inf.sub(Param(tp), v)
        }
        p.fun = Some(inf.resolve(ft).asInstanceOf[Fun])
      }
      f.tparams = f.tparams ++ extra
      for (n <- recursiveCalls.getOrElse(f, Nil)) tables.typeArgs.put(n, f.tparams.map(Param(_)))
      partialState.put(f, 2)
      true
  }

  private def freshParamName(f: FunctionSym, extra: List[TypeParamSym]): String = {
    val taken = (f.tparams ++ extra).map(_.name).toSet
    Iterator.from(1).map(i => s"F$i").find(n => !taken(n)).get
  }

  /** The body of a function defined by an expression. */
  def checkFunctionBody(f: FunctionSym): Unit = f.decl.foreach { d =>
    def ctx = Ctx(
      module = f.module,
      where = Where.InFunction(f),
      tparams = f.tparams.map(p => p.name -> p).toMap,
      vars = f.params.map(l => l.name -> l).toMap,
      funParams = f.funParams.map(p => p.name -> p).toMap,
      partial = if (f.isPartial) Some(f) else None)
    d.body match {
      case ExpBody(body) =>
        val t = checkPure(body, ctx)
        expect(body.pos, t, f.resultType)
      case bb @ BuiltinBody(VarUse(SqliteQuery.Keyword) :: args) => checkSqliteQuery(f, d, bb, args, ctx)
      case BuiltinBody(_) =>
    }
  }

  /**
   * `def List<T> f(..) = builtin(sqlite3, "file", "SQL", params..)` (the ABS manual, "Embedded
   * SQLite database queries"): the file and the query are literals, each parameter is a value SQL
   * can take, and each row of the result can become a `T`. The query itself is SQLite's to judge,
   * when it runs.
   */
  private def checkSqliteQuery(f: FunctionSym, d: FunctionDecl, bb: BuiltinBody, args: List[PureExp], ctx: Ctx): Unit = {
    def literal(e: PureExp, what: String): Unit = e match {
      case StringLit(_) | TemplateString(_, Nil) =>
      case TemplateString(_, _) =>
        error(e.pos, s"the $what of an SQLite query must be a string literal (a template string with $$..$$ holes is not; " +
          "pass values as '?' parameters)")
      case _ => error(e.pos, s"the $what of an SQLite query must be a string literal")
    }
    args match {
      case db :: sql :: params =>
        literal(db, "database file")
        literal(sql, "SQL text")
        for (p <- params) {
          val t = inf.current(checkPure(p, ctx))
          if (!hasError(t) && SqliteQuery.valueKind(b, t).isEmpty)
            error(p.pos, s"an SQLite query parameter must be an Int, Float, Rat, Bool or String, found ${t.show}")
        }
      case _ =>
        error(bb.pos, s"an SQLite query is builtin(sqlite3, \"database file\", \"SQL text\", parameters..): " +
          s"found ${plural(args.length + 1, "argument")}")
    }
    SqliteQuery.rowShape(b, f.resultType) match {
      case Left(why) if !hasError(f.resultType) =>
        error(d.resultType.pos, s"an SQLite query function must return a List of Int, Float, Rat, Bool or String values, " +
          s"or of a data type with one constructor whose arguments are such values (one per column): $why")
      case _ =>
    }
  }

  private def partialApp(e: PartialFnApp, ctx: Ctx): Type = {
    val n = e.fn
    mods.lookup(ctx.module, Namespace.PartialFunction, n) match {
      case Modules.Found(f: FunctionSym) =>
        refer(e, f)
        val ok = ensurePartial(f, e.pos)
        val ats = e.args.map(checkPure(_, ctx))
        if (!ok) {
          e.funArgs.foreach(checkFunArg(_, None, ctx, report = false))
          Error
        } else if (e.funArgs.length != f.funParams.length) {
          error(e.pos, s"partial function '${f.name}' expects ${plural(f.funParams.length, "function argument")}, " +
            s"found ${e.funArgs.length}")
          e.funArgs.foreach(checkFunArg(_, None, ctx, report = false))
          Error
        } else {
          val (targs, s) = inf.instantiate(f.tparams)
          // value arguments first: their types make better messages about function arguments
          val argsOk = arity(e.pos, s"partial function '${f.name}'", f.params.length, e.args.length)
          if (argsOk) for (((a, t), pt) <- e.args.zip(ats).zip(f.paramTypes)) expect(a.pos, t, Type.subst(pt, s))
          for ((fa, fp) <- e.funArgs.zip(f.funParams))
            checkFunArg(fa, fp.tpe.map(t => Type.subst(t, s).asInstanceOf[Fun]), ctx)
          if (!argsOk) Error
          else {
            tables.typeArgs.put(e, targs)
            Type.subst(f.resultType, s)
          }
        }
      case Modules.Missing if find(ctx.module, Namespace.Function, n).isDefined =>
        e.args.foreach(checkPure(_, ctx))
        e.funArgs.foreach(checkFunArg(_, None, ctx, report = false))
        error(e.pos, s"'$n' is not a partial function: call it without function arguments, as in $n(..)")
        Error
      case _ =>
        e.args.foreach(checkPure(_, ctx))
        e.funArgs.foreach(checkFunArg(_, None, ctx, report = false))
        lookup(ctx.module, Namespace.PartialFunction, n, e.pos)
        Error
    }
  }

  /** A function argument of a partial function application, against the type expected for it. */
  private def checkFunArg(fa: FunArg, expected: Option[Fun], ctx: Ctx, report: Boolean = true): Unit = fa match {
    case FunName(n) if !n.isQualified && ctx.funParams.contains(n.name) =>
      val p = ctx.funParams(n.name)
      refer(fa, p)
      expected.foreach { ex =>
        val pt = funParamType(p, ex.params.length)
        if (!inf.sub(pt, ex))
          error(fa.pos, s"function parameter '${p.name}' does not fit here: expected ${show(ex)}, found ${show(pt)}")
      }
    case FunName(n) =>
      (if (report) lookup(ctx.module, Namespace.Function, n, fa.pos) else find(ctx.module, Namespace.Function, n)) match {
        case Some(f: FunctionSym) =>
          refer(fa, f)
          val (targs, s) = inf.instantiate(f.tparams)
          tables.typeArgs.put(fa, targs)
          val ft = Fun(f.paramTypes.map(Type.subst(_, s)), Type.subst(f.resultType, s))
          record(fa, ft)
          expected.foreach { ex =>
            if (ex.params.length != ft.params.length)
              error(fa.pos, s"function '${f.name}' takes ${plural(ft.params.length, "argument")}, " +
                s"but is called with ${ex.params.length} here")
            else if (!inf.sub(ft, ex))
              error(fa.pos, s"function '${f.name}' does not fit here: expected ${show(ex)}, found ${show(ft)}")
          }
        case _ =>
      }
    case AnonFun(ps, body) =>
      val locals = ps.map { p =>
        checkAnnotations(p.annotations, "parameter")
        val l = newLocal(p.name, LocalKind.AnonParam, p, p.pos, resolveType(p.tpe, ctx.module, ctx.tparams))
        refer(p, l)
        l
      }
      val seen = mutable.HashSet.empty[String]
      for (p <- ps if !seen.add(p.name)) error(p.pos, s"parameter '${p.name}' is already declared")
      val inner = locals.foldLeft(ctx)(_.withVar(_))
      val bt = checkPure(body, inner)
      val ft = Fun(locals.map(_.tpe), bt)
      record(fa, ft)
      expected.foreach { ex =>
        if (ex.params.length != ps.length)
          error(fa.pos, s"this anonymous function takes ${plural(ps.length, "argument")}, " +
            s"but is called with ${ex.params.length}")
        else {
          for ((p, (et, l)) <- ps.zip(ex.params.zip(locals)) if !inf.sub(et, l.tpe))
            error(p.pos, s"type mismatch: parameter '${p.name}' receives ${show(et)}, but is declared ${show(l.tpe)}")
          expect(body.pos, bt, ex.result)
        }
      }
  }

  /** `f[a, b, c]`: the one-parameter function `f` applied to the list of the arguments. */
  private def naryApp(e: NAryFnApp, ctx: Ctx): Type = {
    val elem = inf.fresh("A")
    for (a <- e.args) {
      val t = checkPure(a, ctx)
      if (!inf.sub(t, elem) && !Type.hasError(t))
        error(a.pos, s"the elements of this list have incompatible types: ${show(elem)} and ${show(t)}")
    }
    lookup(ctx.module, Namespace.Function, e.fn, e.pos) match {
      case Some(f: FunctionSym) =>
        refer(e, f)
        val (targs, s) = inf.instantiate(f.tparams)
        f.paramTypes match {
          case List(pt) if inf.current(pt).isInstanceOf[Data] && b.ListT.unapply(inf.current(pt)).isDefined =>
            expect(e.pos, b.ListT(elem), Type.subst(pt, s))
            tables.typeArgs.put(e, targs)
            Type.subst(f.resultType, s)
          case _ =>
            error(e.pos, s"function '${f.name}' cannot be called with [..]: that needs a function of one List parameter")
            Error
        }
      case _ => Error
    }
  }

  private def constructorApp(e: ConstructorApp, ctx: Ctx): Type = {
    val n = e.constructor
    val ats = e.args.map(checkPure(_, ctx))
    mods.lookup(ctx.module, Namespace.Constructor, n) match {
      case Modules.Found(c: ConstructorSym) =>
        refer(e, c)
        if (c.module.isPrelude && (c.name == "Insert" || c.name == "InsertAssoc") && !ctx.module.isPrelude)
          warning(e.pos, s"constructor '${c.name}' exposes how sets and maps are represented; " +
            "use insertElement, insert or put instead")
        if (!arity(e.pos, s"constructor '${c.name}'", c.arity, e.args.length)) Error
        else {
          val (targs, s) = inf.instantiate(c.dataType.tparams)
          for (((a, t), pt) <- e.args.zip(ats).zip(c.argTypes)) expect(a.pos, t, Type.subst(pt, s))
          tables.typeArgs.put(e, targs)
          Data(c.dataType, targs)
        }
      case Modules.Missing if find(ctx.module, Namespace.Class, n).isDefined =>
        error(e.pos, s"'$n' is a class: create its objects with 'new $n(..)'")
        Error
      case _ =>
        lookup(ctx.module, Namespace.Constructor, n, e.pos)
        Error
    }
  }

  // ---------------------------------------------------------------------------------
  // Operators

  private def unary(u: Unary, ctx: Ctx): Type = {
    val t = checkPure(u.operand, ctx)
    u.op match {
      case UnaryOp.Not =>
        expect(u.operand.pos, t, b.BoolT)
        b.BoolT
      case UnaryOp.Neg =>
        inf.current(t) match {
          case c if b.isNumeric(c) => c
          case _: Var | Error => t
          case other =>
            error(u.pos, s"operator '-' needs a number, found ${show(other)}")
            Error
        }
    }
  }

  private def binary(e: Binary, ctx: Ctx): Type = {
    val lt = checkPure(e.left, ctx)
    val rt = checkPure(e.right, ctx)
    import BinaryOp._
    e.op match {
      case And | Or =>
        expect(e.left.pos, lt, b.BoolT)
        expect(e.right.pos, rt, b.BoolT)
        b.BoolT
      case Eq | Ne | Lt | Le | Gt | Ge =>
        if (inf.join(lt, rt).isEmpty && !Type.hasError(lt) && !Type.hasError(rt))
          error(e.pos, s"cannot compare ${show(lt)} and ${show(rt)} with '${e.op.symbol}'")
        b.BoolT
      case Add if b.isString(inf.current(lt)) || b.isString(inf.current(rt)) =>
        val (l, r) = (inf.current(lt), inf.current(rt))
        var ok = true
        for ((t, side) <- List((l, e.left), (r, e.right)) if !b.isString(t)) t match {
          case v: Var => inf.sub(v, b.StringT)
          case Error => ok = false
          case other =>
            ok = false
            error(side.pos, s"operator '+' cannot join a String and ${article(other)}; " +
              "use toString(..) to turn a value into a String")
        }
        if (ok) b.StringT else Error
      case Add | Sub | Mul | Div | Mod => arithmetic(e, lt, rt)
    }
  }

  private def article(t: Type): String = {
    val s = show(t)
    if ("AEIOU".contains(s.head)) s"an $s" else s"a $s"
  }

  private def arithmetic(e: Binary, lt: Type, rt: Type): Type = {
    val (l, r) = (inf.current(lt), inf.current(rt))
    def numeric(t: Type, side: PureExp): Boolean = t match {
      case _: Var | Error => true
      case x if b.isNumeric(x) => true
      case other =>
        error(side.pos, s"operator '${e.op.symbol}' needs numbers, found ${show(other)}")
        false
    }
    val ok = numeric(l, e.left) & numeric(r, e.right)
    if (!ok) Error
    else (l, r) match {
      case (Error, _) | (_, Error) => Error
      case (_: Var, _: Var) =>
        inf.sub(lt, rt)
        if (e.op == BinaryOp.Div) b.RatT else rt
      case (_: Var, y) =>
        inf.sub(y, lt)
        result(e, y, y)
      case (x, _: Var) =>
        inf.sub(x, rt)
        result(e, x, x)
      case (x, y) =>
        if (b.isFloat(x) != b.isFloat(y)) {
          error(e.pos, s"operator '${e.op.symbol}' cannot combine ${show(x)} and ${show(y)}: " +
            "Float does not mix with Int and Rat; convert with float(..) or rat(..)")
          Error
        } else result(e, x, y)
    }
  }

  private def result(e: Binary, x: Type, y: Type): Type =
    if (b.isFloat(x)) b.FloatT
    else if (e.op == BinaryOp.Div) b.RatT
    else if (b.isInt(x) && b.isInt(y)) b.IntT
    else b.RatT

  // ---------------------------------------------------------------------------------
  // Objects: new, calls, get

  private def checkNew(n: NewExp, ctx: Ctx): Type = {
    val ats = n.args.map(checkPure(_, ctx))
    mods.lookup(ctx.module, Namespace.Class, n.cls) match {
      case Modules.Found(c: ClassSym) =>
        refer(n, c)
        if (!arity(n.pos, s"class '${c.name}'", c.params.length, n.args.length)) Obj(c)
        else {
          for (((a, t), p) <- n.args.zip(ats).zip(c.params)) expect(a.pos, t, p.tpe)
          Obj(c)
        }
      case Modules.Missing if find(ctx.module, Namespace.Type, n.cls).exists(_.isInstanceOf[InterfaceSym]) =>
        error(n.pos, s"'${n.cls}' is an interface: 'new' needs a class that implements it")
        Error
      case _ =>
        lookup(ctx.module, Namespace.Class, n.cls, n.pos)
        Error
    }
  }

  /** A method call `o!m(args)` or `o.m(args)`: the method's result type (the caller wraps async results in a future). */
  private def checkCall(node: Node, target: PureExp, name: String, args: List[PureExp], ctx: Ctx): Type = {
    val tt = checkPure(target, ctx)
    val ats = args.map(checkPure(_, ctx))
    val method: Option[MethodSym] = inf.current(tt) match {
      case Iface(i) =>
        val m = i.method(name)
        if (m.isEmpty) error(node.pos, s"interface '${i.name}' has no method '$name'" + Suggest.hint(name, i.methods.keys))
        m
      case Obj(c) =>
        val m = c.method(name)
        if (m.isEmpty) error(node.pos, s"class '${c.name}' has no method '$name'" + Suggest.hint(name, c.methods.keys))
        m
      case Null =>
        error(node.pos, s"cannot call method '$name' on null")
        None
      case Error => None
      case other =>
        error(node.pos, s"cannot call method '$name' on a value of type ${show(other)}: only objects have methods")
        None
    }
    method match {
      case None => Error
      case Some(m) =>
        refer(node, m)
        if (arity(node.pos, s"method '$name'", m.params.length, args.length))
          for (((a, t), pt) <- args.zip(ats).zip(m.paramTypes)) expect(a.pos, t, pt)
        m.resultType
    }
  }

  private def checkGet(g: GetExp, ctx: Ctx): Type = {
    val t = checkPure(g.future, ctx)
    inf.current(t) match {
      case b.FutT(x) => x
      case d if b.isDestiny(d) => Bottom
      case Error => Error
      case v: Var =>
        val x = inf.fresh("T")
        inf.sub(v, b.FutT(x))
        x
      case other =>
        error(g.pos, s"'.get' needs a future, found ${show(other)}")
        Error
    }
  }

  // ---------------------------------------------------------------------------------
  // Patterns

  /** Checks a pattern against the type of the value matched; returns the context with its variables bound. */
  def checkPatternTop(p: Pattern, expected: Type, ctx: Ctx, inCatch: Boolean): Ctx = {
    val bound = mutable.LinkedHashMap.empty[String, LocalSym]
    checkPattern(p, expected, ctx, bound, inCatch)
    bound.values.foldLeft(ctx)(_.withVar(_))
  }

  private def checkPattern(p: Pattern, expected: Type, ctx: Ctx, bound: mutable.LinkedHashMap[String, LocalSym],
      inCatch: Boolean): Unit = {
    record(p, expected)
    p match {
      case WildcardPattern() =>
      case VarPattern(n) =>
        bound.get(n) match {
          case Some(l) =>
            refer(p, l)
          case None =>
            varInScope(n, ctx) match {
              case Some(v) =>
                refer(p, v)
                if (inCatch)
                  error(p.pos, s"'$n' is already a variable: a catch pattern cannot compare with it; use a new name")
                else if (!inf.compatible(expected, v.tpe) && !Type.hasError(expected))
                  error(p.pos, s"type mismatch: '$n' is already a variable of type ${show(v.tpe)} " +
                    s"(the pattern compares with it), but the value matched is of type ${show(expected)}")
              case None =>
                val l = newLocal(n, LocalKind.PatternVar, p, p.pos, expected)
                refer(p, l)
                bound(n) = l
            }
        }
      case LiteralPattern(lit) =>
        val lt = checkPure(lit, ctx)
        if (!inf.compatible(lt, expected)) mismatch(p.pos, expected, lt, hints = false)
      case ConstructorPattern(n, ps) =>
        mods.lookup(ctx.module, Namespace.Constructor, n) match {
          case Modules.Found(c: ConstructorSym) =>
            refer(p, c)
            val (targs, s) = inf.instantiate(c.dataType.tparams)
            tables.typeArgs.put(p, targs)
            val ct: Type = Data(c.dataType, targs)
            val fits = inf.current(expected) match {
              case Data(d, _) if d ne c.dataType => false
              case Error => true
              case _ => inf.sub(expected, ct)
            }
            if (!fits)
              error(p.pos, s"constructor '${c.name}' of type ${show(c.dataType.genericType)} " +
                s"cannot match a value of type ${show(expected)}")
            if (ps.length != c.arity) {
              error(p.pos, s"constructor '${c.name}' has ${plural(c.arity, "argument")}, but the pattern gives ${ps.length}")
              ps.foreach(checkPattern(_, Error, ctx, bound, inCatch))
            } else {
              for ((sp, at) <- ps.zip(c.argTypes))
                checkPattern(sp, if (fits) Type.subst(at, s) else Error, ctx, bound, inCatch)
            }
          case _ =>
            lookup(ctx.module, Namespace.Constructor, n, p.pos)
            ps.foreach(checkPattern(_, Error, ctx, bound, inCatch))
        }
    }
  }
}
