package cogs.absc.lower

/**
 * The `optimise` phase, an IR-to-IR pass over computations ([[P]]): two rewrites that each save
 * the run-time interpreter a node and a step, decided here so that the printer only lays out.
 *
 *  - Value dropping: in `Bind(first, None, rest)` the value of `first` is dropped, so the
 *    `Void`s at the ends of its branches (through `Then`, `If` and `Match`) go.
 *  - Map fusion: `Bind(first, binder, Done(v))`, a continuation that only computes the result
 *    (`v` not `()`), is `Map(first, binder, v)`, printed `.map { .. => v }` instead of
 *    `.flatMap { .. => Proc.done(v) }`.
 *
 * It visits the computations of methods, init blocks and main blocks; lowering puts none inside
 * expressions (`S.Proc` only carries what `Limits` moved, after lowering made it).
 */
object Optimise {

  def apply(p: LProgram): LProgram = {
    val modules = p.modules.map(m => m.copy(decls = m.decls.map(decl)))
    p.copy(modules = modules, mainModule = p.mainModule.flatMap(mm => modules.find(_.objectName == mm.objectName)))
  }

  private def decl(d: LDecl): LDecl = d match {
    case c: LClass => c.copy(init = c.init.map(i => i.copy(suspending = i.suspending.map(proc))),
      methods = c.methods.map(m => m.copy(cps = m.cps.map(proc))))
    case m: LMethod => m.copy(cps = m.cps.map(proc))
    case m: LMain => m.copy(body = proc(m.body))
    case other => other
  }

  def proc(p: P): P = p match {
    case P.Then(ss, next) => P.Then(ss, proc(next))
    case P.Bind(first, binder, rest) =>
      val f = if (binder.isEmpty) valueDropped(proc(first)) else proc(first)
      proc(rest) match {
        case P.Done(v) if v != S.Unit => P.Map(f, binder, v)
        case r => P.Bind(f, binder, r)
      }
    case P.Map(first, binder, v) => P.Map(proc(first), binder, v)
    case P.Void(first) => P.Void(proc(first))
    case P.If(c, t, e) => P.If(c, proc(t), proc(e))
    case P.While(c, body) => P.While(c, proc(body))
    case P.Foreach(l, x, i, body) => P.Foreach(l, x, i, proc(body))
    case P.Match(s, cases) => P.Match(s, cases.map(c => c.copy(body = proc(c.body))))
    case P.Try(body, handler, fin) => P.Try(proc(body), handler.map { case (e, h) => (e, proc(h)) }, fin.map(proc))
    case _: P.Done | _: P.Await | _: P.AwaitValue | P.Suspend | _: P.Get | _: P.Call | _: P.SelfCall | _: P.Raise => p
    case x: P.Sync => throw Instrument.notInstrumented(x)
  }

  /** `p` where its value is dropped: the `Void`s at the ends of its branches are not needed. */
  private def valueDropped(p: P): P = p match {
    case P.Void(first) => first
    case P.Then(ss, next) => P.Then(ss, valueDropped(next))
    case P.If(c, t, e) => P.If(c, valueDropped(t), valueDropped(e))
    case P.Match(s, cases) => P.Match(s, cases.map(c => c.copy(body = valueDropped(c.body))))
    case other => other
  }
}
