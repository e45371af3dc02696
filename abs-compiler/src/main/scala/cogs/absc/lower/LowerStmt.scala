package cogs.absc.lower

import cogs.absc.ast._
import cogs.absc.typecheck._

/**
 * Statements to the lowered form. Code that needs no continuation (the effect phase decides:
 * `TypedProgram.needsContinuation`) stays plain ([[St]]). In code that does, the statements
 * after a scheduling point become its continuation:
 *
 * {{{
 *   x = x + 1;                    Then([x = x + 1],
 *   Int v = await o!m(x);   =>      Bind(AwaitValue(o.send("m")(I.m(x))), v: AbsInt,
 *   return v;                         Done(v)))
 * }}}
 *
 * Compound statements that contain a scheduling point (if, while, foreach, switch, try, blocks)
 * become computations themselves, followed by the rest. ABS allows `return` only as the last
 * statement of a method body, so a continuation never has to skip the rest of a method: a
 * `return` is the end of the chain.
 */
private[lower] final class LowerStmt(x: LowerExp) {
  private val program = x.program

  private def cps(s: Stmt): Boolean = program.needsContinuation(s)

  private def value(e: Exp, ctx: Ctx): S = e match {
    case p: PureExp => x.exp(p, ctx)
    case f: EffExp => x.plainEffect(f, ctx)
  }

  private def declType(v: VarDeclStmt, ctx: Ctx): T = x.tpe(program.typeOf(v.tpe), ctx)

  /** The locals that some statement of `ss` assigns (declared with `var`; every other local is a `val`). */
  def assignedLocals(ss: List[Stmt]): Set[LocalSym] = {
    val b = Set.newBuilder[LocalSym]
    ss.foreach(s => LowerStmt.foreachStmt(s) {
      case AssignStmt(v: VarUse, _, _) => program.variableOf(v) match {
        case l: LocalSym => b += l
        case _ => ()
      }
      case _ => ()
    })
    b.result()
  }

  // ------------------------------------------------------------------ plain code

  def plainStmts(ss: List[Stmt], ctx: Ctx, assigned: Set[LocalSym]): List[St] = ss.flatMap(plainStmt(_, ctx, assigned))

  private def scopedBody(s: Stmt, ctx: Ctx, assigned: Set[LocalSym]): List[St] = ctx.locals.scoped(s match {
    case Block(ss, _) => plainStmts(ss, ctx, assigned)
    case other => plainStmt(other, ctx, assigned)
  })

  // ------------------------------------------------------------------ [HTTPName]

  private def register(name: S, obj: S): S = S.App(S.Id("_root_.cogs.absc.modelapi.HttpObjects.register"), Nil, List(name, obj))

  /** After a statement `[HTTPName: name] x = ..` or `[HTTPName: name] I x = ..`: registers the object in `x`. */
  private def httpRegistration(s: Stmt, ctx: Ctx): List[St] = program.httpNameOf(s).toList.flatMap { name =>
    (s match {
      case v: VarDeclStmt => Some(S.Id(x.local(program.declared(v).asInstanceOf[LocalSym])))
      case AssignStmt(lv, _, _) => Some(x.variable(lv))
      case _ => None
    }).map(obj => St.Eval(register(x.exp(name, ctx), obj)))
  }

  /** The statement's ABS line, for the module's line table (see [[St.Line]]). */
  private def line(s: Stmt): List[St] = if (s.pos.line > 0 && !s.isInstanceOf[Block]) List(St.Line(s.pos.line)) else Nil

  private def plainStmt(s: Stmt, ctx: Ctx, assigned: Set[LocalSym]): List[St] = line(s) ++ plainStmtOf(s, ctx, assigned)

  private def plainStmtOf(s: Stmt, ctx: Ctx, assigned: Set[LocalSym]): List[St] = program.httpNameOf(s) match {
    case None => plainStmtItself(s, ctx, assigned)
    case Some(name) => s match {
      case ExpStmt(e, _) => List(St.Eval(register(x.exp(name, ctx), value(e, ctx))))
      case _ => plainStmtItself(s, ctx, assigned) ++ httpRegistration(s, ctx)
    }
  }

  private def plainStmtItself(s: Stmt, ctx: Ctx, assigned: Set[LocalSym]): List[St] = s match {
    case SkipStmt(_) => Nil
    case v: VarDeclStmt =>
      val l = program.declared(v).asInstanceOf[LocalSym]
      val init = v.init.map(value(_, ctx)).getOrElse(x.defaultValue(program.typeOf(v.tpe)))
      List(St.Def(x.bind(l, ctx), Some(declType(v, ctx)), init, mutable = assigned(l)))
    case AssignStmt(lv, e, _) => List(St.Assign(x.variable(lv), value(e, ctx)))
    case ExpStmt(c: AsyncCall, _) => List(St.Eval(x.asyncCall(c, ctx, oneWay = true)))
    case ExpStmt(e, _) => List(St.Eval(value(e, ctx)))
    case a @ AssertStmt(c, _) => List(St.Eval(S.call("absAssert", x.exp(c, ctx), S.str(x.pos(a)))))
    case t @ ThrowStmt(e, _) => List(St.Eval(S.Throw(S.call("thrown", x.exp(e, ctx), S.str(x.pos(t))))))
    case DieStmt(e, _) => List(St.Assign(S.Id("dead$"), x.exp(e, ctx)), St.Eval(S.Throw(S.Id("dead$"))))
    case r: ReturnStmt => List(St.Eval(value(r.exp, ctx))) // only reached in the main block or init: a value dropped
    case IfStmt(c, t, e, _) =>
      List(St.If(x.exp(c, ctx), scopedBody(t, ctx, assigned), e.map(scopedBody(_, ctx, assigned)).getOrElse(Nil)))
    // Cogs.stopPoint first in every loop: where a runtime that was stopped (absc test --timeout)
    // ends a loop that reaches no scheduling point; one read of the thread's interrupt flag
    // otherwise.
    case WhileStmt(c, body, _) =>
      List(St.While(x.exp(c, ctx), St.Eval(S.call("Cogs.stopPoint")) :: scopedBody(body, ctx, assigned)))
    case f: ForeachStmt =>
      val list = x.exp(f.list, ctx)
      ctx.locals.scoped {
        val (v, idx) = program.foreachVars(f)
        val elem = x.bind(v, ctx)
        val index = idx.map(x.bind(_, ctx))
        List(St.Foreach(list, elem, index, scopedBody(f.body, ctx, assigned)))
      }
    case sw: SwitchStmt =>
      val scrutinee = x.scrutineeOf(sw.scrutinee, ctx)
      val cases = sw.branches.map { br =>
        ctx.locals.scoped {
          val (p, g) = x.pattern(br.pattern, ctx)
          Case(p, g, scopedBody(br.body, ctx, assigned))
        }
      }
      List(St.Match(scrutinee, cases :+ x.matchFail[List[St]](sw, ctx, s => List(St.Eval(s)))))
    case t: TryCatchStmt =>
      val body = scopedBody(t.body, ctx, assigned)
      val handler = catchHandler[List[St]](t.catches, ctx, scopedBody(_, ctx, assigned),
        other => List(St.Eval(S.Throw(other))), (s, cases) => List(St.Match(s, cases)))
      List(St.Try(body, handler, t.finallyStmt.map(scopedBody(_, ctx, assigned)).getOrElse(Nil)))
    case Block(ss, _) => List(St.Block(ctx.locals.scoped(plainStmts(ss, ctx, assigned))))
    case a: AwaitStmt => throw new IllegalStateException(s"absc: await at ${a.pos} was not marked as suspending")
    case s: SuspendStmt => throw new IllegalStateException(s"absc: suspend at ${s.pos} was not marked as suspending")
    case d: DurationStmt => throw new IllegalStateException(s"absc: duration at ${d.pos} was not marked as suspending")
    case m: MoveCogToStmt => throw new LowerError(m.pos, "'movecogto' is not supported (the checker reports it)")
  }

  /**
   * The handler of a `try`'s catch branches, plain or as a computation: the exception `e` caught
   * (any throwable) is matched as an ABS exception (`AbsException.liftAbs`); one that no branch
   * matches is rethrown (`rethrow`). None when there is no branch.
   */
  private def catchHandler[B](catches: List[SwitchBranch], ctx: Ctx, body: Stmt => B, rethrow: S => B,
      matchOn: (S, List[Case[B]]) => B): Option[(String, B)] =
    if (catches.isEmpty) None
    else {
      val e = ctx.locals.temp("e")
      val cases = catches.map { br =>
        ctx.locals.scoped {
          val (p, g) = x.pattern(br.pattern, ctx)
          Case(p, g, body(br.body))
        }
      }
      // No branch matched: what was caught goes on as it came (with the place of its `throw`, see
      // cogs.absc.lib.ThrownAt), not as the value the patterns saw.
      Some((e, matchOn(S.call("AbsException.liftAbs", S.Id(e)), cases :+ Case(Pat.Wild, None, rethrow(S.Id(e))))))
    }

  // ------------------------------------------------------------------ continuations

  /**
   * Statements as a computation. `tail`: these are the last statements of a method body (a
   * `return` may end them). `end`: the value of the whole when no `return` gives one (the main
   * block's `testresult`).
   */
  def cpsBlock(ss: List[Stmt], ctx: Ctx, assigned: Set[LocalSym], tail: Boolean, end: Option[LocalSym] = None): P = {
    val i = ss.indexWhere(cps)
    if (i < 0) {
      ss.lastOption match {
        case Some(r: ReturnStmt) if tail =>
          val stats = plainStmts(ss.init, ctx, assigned)
          then(stats, P.Done(value(r.exp, ctx)))
        case _ =>
          val stats = plainStmts(ss, ctx, assigned)
          then(stats, P.Done(end.map(l => S.Id(x.local(l))).getOrElse(S.Unit)))
      }
    } else {
      val prefix = plainStmts(ss.take(i), ctx, assigned)
      then(prefix ++ line(ss(i)), suspendingStmt(ss(i), ss.drop(i + 1), ctx, assigned, tail, end))
    }
  }

  private def then(stats: List[St], next: P): P =
    if (stats.isEmpty) next else next match {
      case P.Then(more, n) => P.Then(stats ++ more, n)
      case _ => P.Then(stats, next)
    }

  /** Computations whose value is `()` already: no `.void` needed to drop it. */
  private def givesUnit(p: P): Boolean = p match {
    case _: P.Await | P.Suspend | _: P.While | _: P.Foreach | _: P.Void => true
    case P.Done(S.Unit) => true
    case _ => false
  }

  /**
   * `first`, then `rest`; just `first` (its value dropped) when nothing follows. A `first` that is
   * itself a sequence is re-associated (`(a; b) >>= r` is `a; (b >>= r)`), so that the printed
   * code is one flat chain. This never captures a name: a local of `first` that shares its name
   * with one visible in `rest` was renamed when it was bound (see [[Locals]]), and the locals
   * `rest` declares are inside its own lambda.
   */
  private def andThen(first: P, binder: Option[(String, T)], rest: P): P = first match {
    case P.Then(ss, n) => then(ss, andThen(n, binder, rest))
    case P.Bind(a, b, r) => P.Bind(a, b, andThen(r, binder, rest))
    // `Proc.done(v).flatMap { x => rest }` is `val x = v; rest` for a constant or a name.
    case P.Done(v @ (S.Lit(_) | S.Str(_) | S.Id(_))) => binder match {
      case None => rest
      case Some((n, t)) => then(List(St.Def(n, Some(t), v, mutable = false)), rest)
    }
    case _ if rest == P.Unit && binder.isEmpty => if (givesUnit(first)) first else P.Void(first)
    case _ => P.Bind(first, binder, rest)
  }

  private def scopedCps(s: Stmt, ctx: Ctx, assigned: Set[LocalSym], tail: Boolean, end: Option[LocalSym]): P =
    ctx.locals.scoped(s match {
      case Block(ss, _) => cpsBlock(ss, ctx, assigned, tail, end)
      case other => cpsBlock(List(other), ctx, assigned, tail, end)
    })

  private def suspendingStmt(s: Stmt, rest: List[Stmt], ctx: Ctx, assigned: Set[LocalSym], tail: Boolean,
      end: Option[LocalSym], costPaid: Boolean = false): P = {
    val last = rest.isEmpty
    val branchTail = tail && last
    val branchEnd = if (branchTail) end else None
    // The object of `[HTTPName: ..] x = await ..` is registered once the value is there.
    def restOf: P = httpRegistration(s, ctx) match {
      case Nil => cpsBlock(rest, ctx, assigned, tail, end)
      case reg => then(reg, cpsBlock(rest, ctx, assigned, tail, end))
    }
    def continue(first: P): P = andThen(first, None, restOf)
    val payments = program.costOf(s).map(c => P.Call(S.call("AbsTime.cost", x.exp(c, ctx)))).toList ++
      program.dataSizeOf(s).map { case (size, call) => P.Call(S.call("AbsTime.transfer", x.exp(call.target, ctx), x.exp(size, ctx))) }
    payments match {
      // `[Cost: c] s`, `[DataSize: d] s`: pay first (it may block the COG over time units), then `s`
      // as usual: a statement with nothing to wait for of its own is plain code after the payment.
      // The call's target is evaluated for the payment and again for the call (it is pure).
      case _ :: _ if !costPaid =>
        val pay = payments.map(p => p: P).reduceLeft((a, b) => andThen(a, None, b))
        val stmt = s match {
          case r: ReturnStmt if r.exp.isInstanceOf[PureExp] && branchTail => P.Done(value(r.exp, ctx))
          case r: ReturnStmt if !branchTail => then(plainStmt(r, ctx, assigned), restOf)
          case VarDeclStmt(_, _, None | Some(_: PureExp), _) | AssignStmt(_, _: PureExp, _) | ExpStmt(_: PureExp, _) |
              _: SkipStmt | _: AssertStmt | _: ThrowStmt | _: DieStmt =>
            then(plainStmt(s, ctx, assigned), restOf)
          case _ => suspendingStmt(s, rest, ctx, assigned, tail, end, costPaid = true)
        }
        return andThen(pay, None, stmt)
      case _ =>
    }
    s match {
      case v: VarDeclStmt =>
        val first = x.suspending(v.init.get.asInstanceOf[EffExp], ctx)
        val l = program.declared(v).asInstanceOf[LocalSym]
        val t = declType(v, ctx)
        if (assigned(l)) {
          val tmp = ctx.locals.temp(l.name)
          val name = x.bind(l, ctx)
          P.Bind(first, Some((tmp, t)), then(List(St.Def(name, Some(t), S.Id(tmp), mutable = true)), restOf))
        } else {
          val name = x.bind(l, ctx)
          P.Bind(first, Some((name, t)), restOf)
        }
      case AssignStmt(lv, e: EffExp, _) =>
        val first = x.suspending(e, ctx)
        val tmp = ctx.locals.temp("v")
        val tt = x.tpe(program.typeOf(e), ctx)
        P.Bind(first, Some((tmp, tt)), then(List(St.Assign(x.variable(lv), S.Id(tmp))), restOf))
      // `await o!m();` waits for the call without taking its value: a failure is not rethrown.
      case ExpStmt(AwaitExp(call), _) => continue(P.Await(G.Claim(x.asyncCall(call, ctx))))
      case ExpStmt(e: EffExp, _) => continue(x.suspending(e, ctx))
      case ReturnStmt(e: EffExp, _) if branchTail => x.suspending(e, ctx)
      // A duration alone is one node of the runtime that the clock keeps, with no future
      // (AbsTime.awaitDuration); inside `&` it stays a future of the clock (`guard`).
      case AwaitStmt(DurationGuard(min, max), _) =>
        val lo = x.exp(min, ctx)
        continue(P.Call(S.call("AbsTime.awaitDuration", lo, max.map(x.exp(_, ctx)).getOrElse(lo))))
      case AwaitStmt(g, _) => continue(P.Await(guard(g, ctx)))
      case DurationStmt(min, max, _) =>
        val lo = x.exp(min, ctx)
        continue(P.Call(S.call("AbsTime.duration", lo, max.map(x.exp(_, ctx)).getOrElse(lo))))
      case SuspendStmt(_) => continue(P.Suspend)
      case Block(ss, _) =>
        if (branchTail) ctx.locals.scoped(cpsBlock(ss, ctx, assigned, tail = true, end))
        else continue(ctx.locals.scoped(cpsBlock(ss, ctx, assigned, tail = false)))
      case IfStmt(c, t, e, _) =>
        val cond = x.exp(c, ctx)
        val thenp = scopedCps(t, ctx, assigned, branchTail, branchEnd)
        val elsep = e.map(scopedCps(_, ctx, assigned, branchTail, branchEnd))
          .getOrElse(P.Done(branchEnd.map(l => S.Id(x.local(l))).getOrElse(S.Unit)))
        val code = P.If(cond, thenp, elsep)
        if (branchTail) code else continue(code)
      case WhileStmt(c, body, _) =>
        continue(P.While(x.exp(c, ctx), scopedCps(body, ctx, assigned, tail = false, None)))
      case f: ForeachStmt =>
        val list = x.exp(f.list, ctx)
        val loop = ctx.locals.scoped {
          val (v, idx) = program.foreachVars(f)
          val elem = x.bind(v, ctx)
          val index = idx.map(x.bind(_, ctx))
          P.Foreach(list, elem, index, scopedCps(f.body, ctx, assigned, tail = false, None))
        }
        continue(loop)
      case sw: SwitchStmt =>
        val scrutinee = x.scrutineeOf(sw.scrutinee, ctx)
        val cases = sw.branches.map { br =>
          ctx.locals.scoped {
            val (p, g) = x.pattern(br.pattern, ctx)
            Case(p, g, scopedCps(br.body, ctx, assigned, branchTail, branchEnd))
          }
        }
        val code = P.Match(scrutinee, cases :+ x.matchFail[P](sw, ctx, s => P.Done(s)))
        if (branchTail) code else continue(code)
      case t: TryCatchStmt =>
        val body = scopedCps(t.body, ctx, assigned, branchTail, branchEnd)
        val handler = catchHandler[P](t.catches, ctx, scopedCps(_, ctx, assigned, branchTail, branchEnd),
          P.Raise(_), P.Match(_, _))
        val fin = t.finallyStmt.map(scopedCps(_, ctx, assigned, tail = false, None))
        val code = P.Try(body, handler, fin)
        if (branchTail) code else continue(code)
      case other =>
        // Marked as needing a continuation without a scheduling point of its own: keep it plain.
        then(plainStmt(other, ctx, assigned), restOf)
    }
  }

  private def guard(g: cogs.absc.ast.Guard, ctx: Ctx): G = g match {
    case ClaimGuard(lv) => G.Claim(x.variable(lv))
    case e @ ExpGuard(c) =>
      // Named by where it is written: deadlock reports and trace events then point at the await.
      G.Cond(s"${java.nio.file.Paths.get(e.pos.file).getFileName}:${e.pos.line}:${e.pos.col}", x.exp(c, ctx))
    case AndGuard(l, r) => G.And(guard(l, ctx), guard(r, ctx))
    case DurationGuard(min, max) =>
      val lo = x.exp(min, ctx)
      G.Claim(S.call("AbsTime.timer", lo, max.map(x.exp(_, ctx)).getOrElse(lo)))
  }
}

private[lower] object LowerStmt {
  /** Visit `s` and every statement nested in it. */
  def foreachStmt(s: Stmt)(f: Stmt => Unit): Unit = {
    f(s)
    s match {
      case Block(ss, _) => ss.foreach(foreachStmt(_)(f))
      case IfStmt(_, t, e, _) => foreachStmt(t)(f); e.foreach(foreachStmt(_)(f))
      case WhileStmt(_, b, _) => foreachStmt(b)(f)
      case fe: ForeachStmt => foreachStmt(fe.body)(f)
      case sw: SwitchStmt => sw.branches.foreach(b => foreachStmt(b.body)(f))
      case t: TryCatchStmt =>
        foreachStmt(t.body)(f); t.catches.foreach(b => foreachStmt(b.body)(f)); t.finallyStmt.foreach(foreachStmt(_)(f))
      case _ => ()
    }
  }

  def exists(s: Stmt)(p: Stmt => Boolean): Boolean = {
    var found = false
    foreachStmt(s)(x => if (!found && p(x)) found = true)
    found
  }
}

/** An ABS construct absc cannot translate yet: reported as an ABS error at its position, not a crash. */
final class LowerError(val pos: Pos, message: String) extends RuntimeException(message)
