package cogs.absc.lower

/**
 * The `frames` phase, an IR-to-IR pass: every method that may suspend gets its frame form
 * (`LMethod.frameCode`, [[F]]; docs/runtime-design.md, section 3 and step 7), the unit the
 * runtime runs without interpreting: plain JVM code up to a scheduling point, then one frame
 * object holding what runs after it. `m` becomes that method called as data, and so does
 * `m$body` where `Proc` code still calls it (a self-call inside a `try`); elsewhere it goes.
 *
 * What becomes frame code: sequences (`Bind`, `Map`, `Void`), branches (`If`, `Match`), loops
 * (`while`, `foreach`), awaits on a future's value, `get`, `await` of a guard (claims, conditions,
 * conjunctions), raising, and synchronous calls on `this` of a method's frame form (`m$body`, where the effect analysis leaves the failure to the caller;
 * `TypedProgram.isFrameCall`). Everything else stays a `Proc` computation that the frame code
 * hands to the interpreter (`F.Run`): a `try` around a scheduling point, calls of `m` itself
 * (with its failure handler), other objects' synchronous calls and `suspend`. Those run as before; what is gained is the
 * continuation after them, which is a frame instead of a `flatMap` node and closure.
 *
 * This pass also decides how each sequence joins ([[F.Join]]) and names the local methods and
 * values that needs (`k$N`, `r$N`, per method), so that the printer only lays out.
 */
object Frames {

  def apply(p: LProgram): LProgram = {
    val modules = p.modules.map(m => m.copy(decls = m.decls.map(decl)))
    p.copy(modules = modules, mainModule = p.mainModule.flatMap(mm => modules.find(_.objectName == mm.objectName)))
  }

  /** The name of a method's frame form: its Scala name and `$f` (ABS names have no `$`). */
  def frameName(m: LMethod): String = s"${m.sig.name}$$f"

  private def decl(d: LDecl): LDecl = d match {
    case c: LClass =>
      // A self-call of `m$body` (the form without the handler) goes straight to `m$f`.
      val direct: Map[String, String] = c.methods.collect {
        case m if m.cps.isDefined && m.frame.isDefined => m.frame.get -> frameName(m)
      }.toMap
      val framed = c.methods.map { m =>
        m.cps match {
          case Some(body) => m.copy(frameCode = Some(frameName(m) -> new Method(direct).code(body)))
          case None => m
        }
      }
      // `m$body` stays only where `Proc` code still calls it (a self-call inside a `try` around a
      // scheduling point, the init block): the others call `m$f`.
      val used = selfCalls(c.copy(methods = framed.map(m => if (m.frameCode.isDefined) m.copy(cps = None) else m)))
      c.copy(methods = framed.map(m => if (m.frame.exists(b => !used(b))) m.copy(frame = None) else m))
    case other => other
  }

  /** The methods that `P.SelfCall`s name anywhere in `ir` (any IR node: they are all products). */
  private def selfCalls(ir: Product): Set[String] = {
    val found = Set.newBuilder[String]
    def walk(x: Any): Unit = x match {
      case P.SelfCall(m, args) => found += m; args.foreach(walk)
      case p: Product => p.productIterator.foreach(walk)
      case _ =>
    }
    walk(ir)
    found.result()
  }

  /** Whether code may return `Frame.Suspended`. */
  def maySuspend(f: F): Boolean = f match {
    case _: F.Value | _: F.Raise => false
    case F.Then(_, next) => maySuspend(next)
    case _: F.Run | _: F.AwaitValue | _: F.SelfCall | _: F.Get | _: F.Await => true
    case F.Seq(first, _, rest, _) => maySuspend(first) || maySuspend(rest)
    case F.If(_, t, e) => maySuspend(t) || maySuspend(e)
    case F.Match(_, cases) => cases.exists(c => maySuspend(c.body))
    case l: F.While => maySuspend(l.body)
    case l: F.Foreach => maySuspend(l.body)
  }

  /** Whether code returns `Frame.Suspended` on every path that does not throw. */
  def alwaysSuspends(f: F): Boolean = f match {
    case _: F.Run | _: F.AwaitValue => true
    case F.Then(_, next) => alwaysSuspends(next)
    case F.Seq(first, _, rest, _) => alwaysSuspends(first) || alwaysSuspends(rest)
    case F.If(_, t, e) => alwaysSuspends(t) && alwaysSuspends(e)
    case F.Match(_, cases) => cases.nonEmpty && cases.forall(c => alwaysSuspends(c.body))
    // `get` and `await` of a guard go on at once when the future is resolved or the guard holds.
    case _: F.Value | _: F.Raise | _: F.SelfCall | _: F.While | _: F.Foreach | _: F.Get | _: F.Await => false
  }

  /** One method's translation: `direct` maps the `m$body` forms of the class to their frame forms. */
  private final class Method(direct: Map[String, String]) {
    private var conts = 0

    def code(p: P): F = p match {
      case P.Done(v) => F.Value(v)
      case P.Then(ss, next) => F.Then(ss, code(next))
      case P.Bind(first, binder, rest) => seq(code(first), binder, code(rest))
      case P.Map(first, binder, v) => seq(code(first), binder, F.Value(v))
      case P.Void(first) => seq(code(first), None, F.Value(S.Unit))
      case P.AwaitValue(f) => F.AwaitValue(f)
      case P.Get(f, at) => F.Get(f, at)
      case P.Await(g) => F.Await(g)
      case P.If(c, t, e) => F.If(c, code(t), code(e))
      case P.Match(s, cases) => F.Match(s, cases.map(c => Case(c.pat, c.guard, code(c.body))))
      case P.Raise(e) => F.Raise(e)
      case P.SelfCall(m, args) if direct.contains(m) => F.SelfCall(direct(m), args)
      case P.While(c, body) =>
        val b = code(body); val n = next()
        F.While(c, b, s"loop$$$n", iterationValue(b, n))
      case P.Foreach(list, x, i, body) =>
        val b = code(body); val n = next()
        F.Foreach(list, x, i, b, s"it$$$n", s"loop$$$n", iterationValue(b, n))
      case _: P.SelfCall | P.Suspend | _: P.Call | _: P.Try => F.Run(p)
      case x: P.Sync => throw Instrument.notInstrumented(x)
    }

    private def seq(first: F, binder: Option[(String, T)], rest: F): F = {
      val how =
        if (!maySuspend(first)) F.Plain
        else if (alwaysSuspends(first)) F.Suspends
        else { val n = next(); F.Either(s"k$$$n", s"r$$$n") }
      F.Seq(first, binder, rest, how)
    }

    private def iterationValue(body: F, n: Int): Option[String] = if (alwaysSuspends(body)) None else Some(s"r$$$n")

    /** The number of the next local names of this method (`k$N`, `r$N`, `loop$N`, `it$N`). */
    private def next(): Int = { conts += 1; conts }
  }
}
