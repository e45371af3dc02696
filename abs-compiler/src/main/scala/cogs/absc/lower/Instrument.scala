package cogs.absc.lower

import cogs.absc.monitoring.SessionEntry

/**
 * The `instrument` phase, an IR-to-IR pass: the call sites lowering leaves as data ([[S.Send]],
 * [[S.SendWithDeadline]], [[S.Created]], [[S.SyncNow]], [[P.Sync]]) become plain code, traced for
 * a monitor or checked against a session protocol where the configuration ([[Instrumentation]])
 * asks for it, and the plain call everywhere else. Its output has none of those nodes, so the
 * later passes and the printer never see one ([[notInstrumented]]).
 *
 * This is the one place that decides what is instrumented: lowering records at each call site
 * who calls, which classes may receive the call and where it is ([[CallSite]]); here that is held
 * against the configuration.
 *
 *  - A call that may be a protocol message (the caller's class plays a role that sends it to a
 *    role of a receiving class) goes through the session helper (`cogs.absc.monitoring.AbsSessions`),
 *    which decides at run time from the roles and checks it, naming the call's ABS position.
 *  - A call that may reach an observed method goes into the trace with its arguments
 *    (`AbsCall.sendWithArgs`, the runtime's `Cogs.sendWithArgs`, or the traced list of a call with a deadline). It keeps its future even
 *    as a statement: the future is the call's identity in the trace.
 *  - `new` of a class that plays a role offers the object its roles.
 *
 * An instrumented call evaluates its arguments first, into names of their own (`sent$N`), and
 * then its target: the arguments appear twice (the trace's list and the message).
 */
object Instrument {

  def apply(p: LProgram, instrumentation: Instrumentation): LProgram = {
    val pass = new Instrument(instrumentation)
    val modules = p.modules.map(m => m.copy(decls = m.decls.map(pass.decl)))
    p.copy(modules = modules, mainModule = p.mainModule.flatMap(mm => modules.find(_.objectName == mm.objectName)),
      monitorConfig = instrumentation.monitorConfig)
  }

  /** What a later phase throws when it meets a call site the `instrument` pass should have replaced (an internal error). */
  def notInstrumented(node: Product): IllegalStateException =
    new IllegalStateException(s"absc: ${node.productPrefix} after the instrument phase (it replaces every call site)")
}

private final class Instrument(on: Instrumentation) {
  private var temps = 0
  private def temp(): String = { temps += 1; s"sent$$$temps" }

  private def caller(site: CallSite): String = site.caller.getOrElse(SessionEntry.MainBlock)

  private def sessionCall(c: Call): Boolean =
    on.sessions.nonEmpty && on.sessionCall(caller(c.site), c.method, c.site.receivers)

  private def observed(c: Call): Boolean =
    on.enabled && c.site.receivers.exists(r => on.observesClass(r) && on.observesMethod(r, c.method))

  private def sender(c: Call): S = if (c.site.caller.isDefined) S.This else S.Sel(S.Id("Cogs"), "self")

  private def anyList(xs: List[S]): S = S.App(S.Id("List"), List(T.Ref("Any")), xs)

  /** `{ val sent$1 = a1; ..; body(the names, the message over them) }` */
  private def argsFirst(c: Call)(body: (List[S], S) => S): S = {
    val names = c.message.args.map(_ => temp())
    val defs = c.message.args.zip(names).map { case (a, n) => St.Def(n, None, a, mutable = false) }
    val ids = names.map(S.Id)
    S.Block(defs, body(ids, c.message.copy(args = ids).exp))
  }

  /** A synchronous call checked by the session helper: a `Proc` of the call, run by the caller. */
  private def checkedSync(c: Call): S = argsFirst(c) { (ids, msg) =>
    S.App(S.App(S.Id("cogs.absc.monitoring.AbsSessions.sync"), Nil, List(sender(c), c.target, anyList(ids), S.str(c.site.pos))), Nil, List(msg))
  }

  // ------------------------------------------------------------------ the call sites

  private def send(c: Call, oneWay: Boolean): S =
    if (sessionCall(c)) argsFirst(c) { (ids, msg) =>
      S.App(S.App(S.Id("cogs.absc.monitoring.AbsSessions.send"), Nil, List(sender(c), c.target, anyList(ids), S.str(c.site.pos))), Nil, List(msg))
    }
    else if (observed(c)) argsFirst(c) { (ids, msg) =>
      // The arguments are names evaluated before the target, so the target may be checked last
      // (after the message is built from those names) and the message gives the method's name.
      val on = if (c.target == S.This) List(S.This, anyList(ids)) else List(c.target, S.str(c.site.pos), anyList(ids))
      S.App(S.App(S.Sel(S.Id("AbsCall"), "sendWithArgs"), Nil, on), Nil, List(msg))
    }
    else plain(if (oneWay) "tell" else "send", c)

  /**
   * The plain call `f(target, "f.abs:3:5")(message)` (`f`: `send`, `tell` or `sync` of the
   * library), which takes the method's name from the message and checks the target after the
   * arguments; `f(this)(message)` on `this`; and `f(nullCheck(target, "m", "f.abs:3:5"))(message)`
   * where an argument may fail or have an effect, so that a null target is still reported first.
   */
  private def plain(f: String, c: Call): S = {
    val on =
      if (c.target == S.This) List(S.This)
      else if (c.checkFirst) List(c.checkedTarget)
      else List(c.target, S.str(c.site.pos))
    S.App(S.App(S.Id(f), Nil, on), Nil, List(c.message.exp))
  }

  // Calls with a deadline are never protocol messages (sessions do not model deadlines).
  // The message gives the method's name; the target is checked last unless the deadline may fail
  // or print (`checkFirst`), as for a plain call.
  private def sendWithDeadline(c: Call, deadline: S): S = {
    val traced = if (observed(c)) anyList(c.message.args) else S.Id("Nil")
    val on =
      if (c.target == S.This) List(S.This, traced, deadline)
      else if (c.checkFirst) List(c.checkedTarget, traced, deadline)
      else List(c.target, S.str(c.site.pos), traced, deadline)
    S.App(S.App(S.Id("AbsTime.sendWithDeadline"), Nil, on), Nil, List(c.message.exp))
  }

  private def created(make: S, cls: String): S =
    if (on.playsRole(cls)) S.App(S.Id("cogs.absc.monitoring.AbsSessions.created"), Nil, List(make, S.str(cls))) else make

  // A call that may be a protocol message must not skip its check because the effect analysis
  // made it a plain call: it runs the checked step now. That step has no synchronous-call node for
  // a call on the caller itself (AbsSessions.sync), so `Proc.now` runs it, and the method it runs
  // cannot suspend (that is why this call is here); a refused call throws the violation.
  private def syncNow(c: Call, direct: Option[String]): S =
    if (sessionCall(c)) S.App(S.Sel(S.Id("Proc"), "now"), Nil, List(checkedSync(c)))
    else direct match {
      case Some(m) => S.App(S.Sel(S.This, m), Nil, c.message.args)
      case None => S.App(S.Sel(S.Id("Proc"), "now"), Nil, List(S.App(S.Sel(c.checkedTarget, c.message.name), Nil, c.message.args)))
    }

  private def sync(c: Call, self: Option[String]): P =
    if (sessionCall(c)) P.Call(checkedSync(c))
    else self match {
      case Some(m) => P.SelfCall(m, c.message.args)
      case None => P.Call(plain("sync", c))
    }

  // ------------------------------------------------------------------ the traversal (children first)

  private def call(c: Call): Call =
    c.copy(target = exp(c.target), message = c.message.copy(args = c.message.args.map(exp)))

  def exp(e: S): S = e match {
    case S.Send(c, oneWay) => send(call(c), oneWay)
    case S.SendWithDeadline(c, d) => sendWithDeadline(call(c), exp(d))
    case S.Created(make, cls) => created(exp(make), cls)
    case S.SyncNow(c, direct) => syncNow(call(c), direct)
    case _: S.Lit | _: S.Str | _: S.Id => e
    case S.Sel(q, n) => S.Sel(exp(q), n)
    case S.App(f, ts, as) => S.App(exp(f), ts, as.map(exp))
    case S.TypeApp(f, ts) => S.TypeApp(exp(f), ts)
    case S.Infix(l, op, r) => S.Infix(exp(l), op, exp(r))
    case S.Prefix(op, x) => S.Prefix(op, exp(x))
    case S.Lambda(ps, b) => S.Lambda(ps, exp(b))
    case S.Block(ss, r) => S.Block(stats(ss), exp(r))
    case S.If(c, t, f) => S.If(exp(c), exp(t), exp(f))
    case S.Match(sc, cs) => S.Match(exp(sc), cs.map(c => Case(c.pat, c.guard.map(exp), exp(c.body))))
    case S.Ascribe(x, t) => S.Ascribe(exp(x), t)
    case S.New(c, as) => S.New(c, as.map(exp))
    case S.Throw(x) => S.Throw(exp(x))
    case S.Catch(b, n, h) => S.Catch(exp(b), n, exp(h))
    case S.Proc(p) => S.Proc(proc(p))
  }

  private def stats(ss: List[St]): List[St] = ss.map(stat)

  private def stat(s: St): St = s match {
    case St.Def(n, t, rhs, m) => St.Def(n, t, exp(rhs), m)
    case St.Assign(l, r) => St.Assign(exp(l), exp(r))
    case St.Eval(x) => St.Eval(exp(x))
    case St.If(c, t, f) => St.If(exp(c), stats(t), stats(f))
    case St.While(c, b) => St.While(exp(c), stats(b))
    case St.Foreach(l, x, i, b) => St.Foreach(exp(l), x, i, stats(b))
    case St.Match(sc, cs) => St.Match(exp(sc), cs.map(c => Case(c.pat, c.guard.map(exp), stats(c.body))))
    case St.Try(b, h, f) => St.Try(stats(b), h.map { case (n, hs) => (n, stats(hs)) }, stats(f))
    case St.Block(b) => St.Block(stats(b))
    case St.Part(n, b) => St.Part(n, stats(b))
    case _: St.Comment | _: St.Line => s
  }

  private def proc(p: P): P = p match {
    case P.Sync(c, self) => sync(call(c), self)
    case P.Done(v) => P.Done(exp(v))
    case P.Then(ss, next) => P.Then(stats(ss), proc(next))
    case P.Bind(f, b, r) => P.Bind(proc(f), b, proc(r))
    case P.Map(f, b, v) => P.Map(proc(f), b, exp(v))
    case P.Void(f) => P.Void(proc(f))
    case P.Await(g) => P.Await(guard(g))
    case P.AwaitValue(f) => P.AwaitValue(exp(f))
    case P.Suspend => p
    case P.Get(f, at) => P.Get(exp(f), at)
    case P.Call(x) => P.Call(exp(x))
    case P.SelfCall(m, as) => P.SelfCall(m, as.map(exp))
    case P.If(c, t, f) => P.If(exp(c), proc(t), proc(f))
    case P.While(c, b) => P.While(exp(c), proc(b))
    case P.Foreach(l, x, i, b) => P.Foreach(exp(l), x, i, proc(b))
    case P.Match(sc, cs) => P.Match(exp(sc), cs.map(c => Case(c.pat, c.guard.map(exp), proc(c.body))))
    case P.Try(b, h, f) => P.Try(proc(b), h.map { case (n, hp) => (n, proc(hp)) }, f.map(proc))
    case P.Raise(x) => P.Raise(exp(x))
  }

  private def guard(g: G): G = g match {
    case G.Claim(f) => G.Claim(exp(f))
    case G.Cond(at, c) => G.Cond(at, exp(c))
    case G.And(l, r) => G.And(guard(l), guard(r))
  }

  def decl(d: LDecl): LDecl = d match {
    case c: LClass => c.copy(
      fields = c.fields.map { case (n, t, init) => (n, t, exp(init)) },
      init = c.init.map(i => LInit(i.plain.map(stats), i.suspending.map(proc))),
      recover = c.recover.map(k => Case(k.pat, k.guard.map(exp), stats(k.body))),
      methods = c.methods.map(method))
    case m: LMethod => method(m)
    case f: LFunction => f.copy(body = exp(f.body))
    case m: LMain => m.copy(body = proc(m.body))
    case k: LConst => k.copy(rhs = exp(k.rhs))
    case _: LData | _: LCtor | _: LInterface | _: LException => d
  }

  private def method(m: LMethod): LMethod =
    m.copy(plain = m.plain.map { case (ss, r) => (stats(ss), exp(r)) }, cps = m.cps.map(proc))
}
