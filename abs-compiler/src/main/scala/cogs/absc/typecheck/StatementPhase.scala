package cogs.absc.typecheck

import cogs.absc.ast._

/**
 * Phase 3, statements and bodies: functions, classes (field initialisers, init block,
 * recovery block, methods) and main blocks.
 */
private[typecheck] trait StatementPhase { self: Checker =>

  def checkBodies(): Unit = {
    val all = mods.modules.flatMap(_.decls)
    all.foreach {
      case f: FunctionSym if f.isPartial => ensurePartial(f, f.pos)
      case _ =>
    }
    all.foreach {
      case f: FunctionSym if !f.isPartial => checkFunctionBody(f)
      case _ =>
    }
    all.foreach {
      case c: ClassSym => checkClass(c)
      case _ =>
    }
    all.foreach(checkHttpCallable)
    for (m <- mods.modules; main <- m.decl.main) {
      checkAnnotations(main.annotations, "block")
      val ctx = Ctx(module = m, where = Where.InMain(m))
      checkStmts(main.stmts, ctx)
    }
  }

  // ---------------------------------------------------------------------------------
  // Classes

  private def checkClass(c: ClassSym): Unit = {
    val base = Ctx(module = c.module, where = Where.InFieldInit(c), cls = Some(c))
    // field initialisers see the class parameters and the fields declared before
    var ready = c.params.map(_.name).toSet
    for (f <- c.bodyFields) {
      f.init.foreach { e =>
        val t = checkPure(e, base.copy(fieldsReady = Some(ready)))
        expect(e.pos, t, f.tpe)
      }
      if (f.init.isEmpty) requireInitialiser(f.decl.pos, "field", f.name, f.tpe)
      ready += f.name
    }
    c.init.foreach { blk =>
      checkAnnotations(blk.annotations, "block")
      checkStmts(blk.stmts, Ctx(module = c.module, where = Where.InInit(c), cls = Some(c), restricted = Some("an init block")))
    }
    for (br <- c.recover) {
      val ctx = Ctx(module = c.module, where = Where.InRecover(c), cls = Some(c), restricted = Some("a recovery block"))
      val inner = checkPatternTop(br.pattern, b.ExceptionT, ctx, inCatch = true)
      checkStmt(br.body, inner)
    }
    for (m <- c.methods.values; d <- m.decl) checkMethod(m, d)
    checkClassScheduler(c)
  }

  /** `x = d.get` with `d` a `Destiny`: the value cannot be used (reports it; true if so). */
  private def destinyGet(e: Exp, t: Type): Boolean = e match {
    case g: GetExp if t == Type.Bottom =>
      error(g.pos, "the value of a future of type Destiny cannot be obtained: '.get' on it can only wait")
      true
    case _ => false
  }

  /** Variables and fields without an initialiser must be of a type that has `null` (interfaces) or futures. */
  private def requireInitialiser(pos: Pos, what: String, name: String, t: Type): Unit = inf.current(t) match {
    case Type.Iface(_) | Type.Error => ()
    case x if b.FutT.unapply(x).isDefined || b.isDestiny(x) => ()
    case other => error(pos, s"$what '$name' of type ${show(other)} needs an initial value")
  }

  private def checkMethod(m: MethodSym, d: MethodDecl): Unit = {
    val c = m.ownerClass.get
    val ctx = Ctx(module = c.module, where = Where.InMethod(m), cls = Some(c),
      vars = m.params.map(l => l.name -> l).toMap)
    val stmts = d.body.stmts
    checkAnnotations(d.body.annotations, "block")
    stmts.zipWithIndex.foldLeft(ctx) { case (cx, (s, i)) =>
      checkStmt(s, cx.copy(returnAllowed = i == stmts.length - 1))
    }
    val returns = stmts.lastOption.exists(_.isInstanceOf[ReturnStmt])
    if (!returns && !b.isUnit(m.resultType) && m.resultType != Type.Error)
      error(m.pos, s"method '${m.name}' must end with a 'return' statement: it returns ${show(m.resultType)}")
  }

  // ---------------------------------------------------------------------------------
  // Statements

  def checkStmts(ss: List[Stmt], ctx: Ctx): Ctx = ss.foldLeft(ctx)((c, s) => checkStmt(s, c.copy(returnAllowed = false)))

  /** Checks a statement; returns the context for the statements after it (with its variable, for a declaration). */
  def checkStmt(s: Stmt, ctx: Ctx): Ctx = {
    val after = checkStmtItself(s, ctx)
    if (s.annotations.nonEmpty) {
      checkStatementScheduler(s, ctx)
      checkTimedAnnotations(s, ctx)
      checkStatementHttpName(s, ctx)
    }
    after
  }

  private def checkStmtItself(s: Stmt, ctx: Ctx): Ctx = {
    checkAnnotations(s.annotations, s match {
      case _: VarDeclStmt => "variable"
      case _ => "statement"
    })
    // only a method's last top-level statement may return: nested statements never
    val cx = ctx.copy(returnAllowed = false)
    s match {
      case Block(ss, _) =>
        checkStmts(ss, ctx)
        ctx
      case SkipStmt(_) => ctx
      case SuspendStmt(_) =>
        restricted(s.pos, "'suspend'", ctx)
        ctx
      case VarDeclStmt(name, tref, init, _) =>
        val t = resolveType(tref, ctx.module, ctx.tparams)
        ctx.vars.get(name).foreach { prev =>
          error(s.pos, s"${prev.kind} '$name' is already declared at ${at(prev.pos, s.pos)}")
        }
        init match {
          case Some(e) =>
            val it = checkExp(e, ctx)
            if (!destinyGet(e, it)) expect(e.pos, it, t)
          case None => requireInitialiser(s.pos, "variable", name, t)
        }
        val l = newLocal(name, LocalKind.Variable, s, s.pos, t)
        refer(s, l)
        ctx.withVar(l)
      case AssignStmt(target, value, _) =>
        val vt = checkExp(value, ctx)
        destinyGet(value, vt)
        val sym: Option[VarSym] = target match {
          case v: VarUse => resolveVar(v, ctx)
          case f: FieldUse => resolveField(f, ctx)
        }
        sym.foreach { v =>
          record(target, v.tpe)
          if (v.isFinal) error(target.pos, s"'${v.name}' is declared [Final] and cannot be assigned")
          v match {
            case _: LocalSym if ctx.isFunction =>
            case f: FieldSym =>
              ctx.method.filter(_.isReadonly).foreach { m =>
                error(target.pos, s"method '${m.name}' is declared [Readonly] but assigns field '${f.name}'")
              }
            case _ =>
          }
          expect(value.pos, vt, v.tpe)
        }
        ctx
      case ExpStmt(e, _) =>
        checkExp(e, ctx)
        ctx
      case AssertStmt(c, _) =>
        expect(c.pos, checkPure(c, ctx), b.BoolT)
        ctx
      case AwaitStmt(g, _) =>
        restricted(s.pos, "'await'", ctx)
        checkGuard(g, ctx)
        ctx
      case ReturnStmt(e, _) =>
        val t = checkExp(e, ctx)
        val unusable = destinyGet(e, t)
        ctx.where match {
          case Where.InMethod(m) =>
            if (!ctx.returnAllowed) error(s.pos, "'return' must be the last statement of the method")
            if (!unusable) expect(e.pos, t, m.resultType)
          case Where.InMain(_) => error(s.pos, "the main block cannot 'return'")
          case Where.InInit(_) => error(s.pos, "an init block cannot 'return'")
          case Where.InRecover(_) => error(s.pos, "a recovery block cannot 'return'")
          case _ => error(s.pos, "'return' is not allowed here")
        }
        ctx
      case ThrowStmt(e, _) =>
        restricted(s.pos, "'throw'", ctx)
        expect(e.pos, checkPure(e, ctx), b.ExceptionT)
        ctx
      case DieStmt(e, _) =>
        restricted(s.pos, "'die'", ctx)
        expect(e.pos, checkPure(e, ctx), b.ExceptionT)
        ctx
      case IfStmt(c, t, e, _) =>
        expect(c.pos, checkPure(c, ctx), b.BoolT)
        checkStmt(t, cx)
        e.foreach(checkStmt(_, cx))
        ctx
      case WhileStmt(c, body, _) =>
        expect(c.pos, checkPure(c, ctx), b.BoolT)
        checkStmt(body, cx)
        ctx
      case f @ ForeachStmt(v, i, list, body, _) =>
        val lt = checkPure(list, ctx)
        val elem: Type = inf.current(lt) match {
          case b.ListT(x) => x
          case Type.Error => Type.Error
          case x: Type.Var =>
            val e = inf.fresh("A")
            inf.sub(x, b.ListT(e))
            e
          case other =>
            error(list.pos, s"foreach needs a list, found ${show(other)}")
            Type.Error
        }
        for (n <- v :: i.toList; prev <- ctx.vars.get(n))
          error(s.pos, s"loop variable '$n' is already declared as ${prev.kind} at ${at(prev.pos, s.pos)}")
        if (i.contains(v)) error(s.pos, s"the loop variable and the loop index cannot both be '$v'")
        val vl = newLocal(v, LocalKind.ForeachValue, f, s.pos, elem)
        val il = i.map(n => newLocal(n, LocalKind.ForeachIndex, f, s.pos, b.IntT))
        tables.foreachVars.put(f, (vl, il))
        checkStmt(body, il.foldLeft(cx.withVar(vl))(_.withVar(_)))
        ctx
      case SwitchStmt(e, branches, _) =>
        val st = checkPure(e, ctx)
        for (br <- branches) checkStmt(br.body, checkPatternTop(br.pattern, st, cx, inCatch = false))
        ctx
      case TryCatchStmt(body, catches, fin, _) =>
        checkStmt(body, cx)
        for (br <- catches) checkStmt(br.body, checkPatternTop(br.pattern, b.ExceptionT, cx, inCatch = true))
        fin.foreach(f => checkStmt(f, cx.copy(restricted = ctx.restricted.orElse(Some("a finally block")))))
        ctx
      case DurationStmt(min, max, _) =>
        restricted(s.pos, "'duration'", ctx)
        expect(min.pos, checkPure(min, ctx), b.RatT, " in the minimum duration")
        max.foreach(m => expect(m.pos, checkPure(m, ctx), b.RatT, " in the maximum duration"))
        ctx
      case MoveCogToStmt(_, _) =>
        error(s.pos, "'movecogto' is not supported: it moves this COG to another deployment component, and the " +
          "reference's Java and Erlang backends do not implement it either (only its retired Maude backend ran it), " +
          "so there is no reference behaviour to match")
        ctx
    }
  }

  private def checkGuard(g: Guard, ctx: Ctx): Unit = g match {
    case ClaimGuard(lv) =>
      val sym: Option[VarSym] = lv match {
        case v: VarUse => resolveVar(v, ctx)
        case f: FieldUse => resolveField(f, ctx)
      }
      sym.foreach { v =>
        record(lv, v.tpe)
        inf.current(v.tpe) match {
          case b.FutT(_) | Type.Error =>
          case d if b.isDestiny(d) =>
          case other => error(g.pos, s"'await ${lv.name}?' needs a future, found ${show(other)}")
        }
      }
    case ExpGuard(c) =>
      val ok = expect(c.pos, checkPure(c, ctx), b.BoolT)
      c match {
        case _ if !ok =>
        case ConstructorApp(QName(_, "True" | "False"), Nil) =>
        case _ if readsState(c, ctx) =>
        case _ =>
          warning(g.pos, "this guard reads no field, so waiting cannot change its value")
      }
    case AndGuard(l, r) =>
      checkGuard(l, ctx)
      checkGuard(r, ctx)
    case DurationGuard(min, max) =>
      expect(min.pos, checkPure(min, ctx), b.RatT, " in the minimum duration")
      max.foreach(m => expect(m.pos, checkPure(m, ctx), b.RatT, " in the maximum duration"))
  }

  /** Does a guard expression read a field, or call a function (whose result might change)? */
  private def readsState(e: PureExp, ctx: Ctx): Boolean = {
    def go(e: PureExp): Boolean = e match {
      case _: FieldUse => true
      case v: VarUse => tables.refs.get(v).isInstanceOf[FieldSym]
      case _: FnApp | _: NAryFnApp | _: PartialFnApp => true
      case ConstructorApp(_, as) => as.exists(go)
      case TemplateString(_, hs) => hs.exists(go)
      case Unary(_, a) => go(a)
      case Binary(_, l, r) => go(l) || go(r)
      case LetExp(bs, body) => bs.exists(x => go(x.value)) || go(body)
      case IfExp(c, t, f) => go(c) || go(t) || go(f)
      case CaseExp(s, bs) => go(s) || bs.exists(x => go(x.body))
      case ImplementsExp(a, _) => go(a)
      case AsExp(a, _) => go(a)
      case _ => false
    }
    go(e)
  }
}
