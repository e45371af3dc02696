package cogs.absc.emit

import cogs.absc.ast._
import cogs.absc.typecheck._

/**
 * Statements to Scala. Code that cannot reach a scheduling point stays plain Scala. In code
 * that can, the statements after a scheduling point become its continuation:
 *
 * {{{
 *   x = x + 1;                    x = x + 1
 *   Int v = await o!m(x);   =>    Proc.await(o.send("m")(I.m(x))).flatMap { (v: AbsInt) =>
 *   println(toString(v));           println(absToString(v))
 *   return v;                       Proc.done(v)
 *                                 }
 * }}}
 *
 * Compound statements that contain a scheduling point (if, while, foreach, switch, try, blocks)
 * become `Proc` values themselves (`Proc.loopWhile`, `Proc.foreach`, `recoverWith`, ...), followed
 * by the rest. ABS allows `return` only as the last statement of a method body, so a
 * continuation never has to skip the rest of a method: a `return` is the end of the chain.
 */
private[emit] final class Lowering(em: ScalaEmitter) {
  private val program = em.program
  private val x = em.exps

  private def pos(n: Node): String = Names.stringLit(s"${n.pos.file}:${n.pos.line}:${n.pos.col}")

  private def suspends(s: Stmt): Boolean = em.cpsStmt(s)

  // ------------------------------------------------------------------ plain code

  /** A method body that never suspends: plain statements, then `Proc.done(result)`. */
  def plainBody(ss: List[Stmt], scope: Scope): List[String] = ss.lastOption match {
    case Some(r: ReturnStmt) => plainStmts(ss.init, scope) :+ s"Proc.done(${value(r.exp, scope)})"
    case _ => plainStmts(ss, scope) :+ "Proc.unit"
  }

  def plainBlock(ss: List[Stmt], scope: Scope): List[String] = plainStmts(ss, scope)

  private def plainStmts(ss: List[Stmt], scope: Scope): List[String] = ss.flatMap(plainStmt(_, scope))

  private def value(e: Exp, scope: Scope): String = e match {
    case p: PureExp => x.exp(p, scope)
    case f: EffExp => x.plainEffect(f, scope)
  }

  private def declType(v: VarDeclStmt): String = em.scalaType(program.typeOf(v.tpe))

  private def braces(body: List[String]): List[String] = if (body.isEmpty) List("()") else body

  private def plainStmt(s: Stmt, scope: Scope): List[String] = s match {
    case SkipStmt(_) => Nil
    case v: VarDeclStmt =>
      val init = v.init.map(value(_, scope)).getOrElse(em.defaultValue(program.typeOf(v.tpe)))
      List(s"var ${Names.local(v.name)}: ${declType(v)} = $init")
    case AssignStmt(lv, e, _) => List(s"${x.lvalue(lv, scope)} = ${value(e, scope)}")
    case ExpStmt(c: AsyncCall, _) => List(x.asyncCall(c, scope, oneWay = true))
    case ExpStmt(e, _) => List(value(e, scope))
    case a @ AssertStmt(c, _) => List(s"absAssert(${x.exp(c, scope)}, ${pos(a)})")
    case ThrowStmt(e, _) => List(s"throw ${x.exp(e, scope)}")
    case DieStmt(e, _) => List(s"dead$$ = ${x.exp(e, scope)}", "throw dead$")
    case r: ReturnStmt => List(value(r.exp, scope)) // only reached in the main block or init: a value dropped
    case IfStmt(c, t, e, _) =>
      List(s"if (${x.exp(c, scope)}) {") ++ Out.indent(braces(plainStmt(t, scope))) ++
        e.toList.flatMap(es => List("} else {") ++ Out.indent(braces(plainStmt(es, scope)))) ++ List("}")
    case WhileStmt(c, body, _) =>
      List(s"while (${x.exp(c, scope)}) {") ++ Out.indent(plainStmt(body, scope)) ++ List("}")
    case f: ForeachStmt =>
      val (v, idx) = program.foreachVars(f)
      idx match {
        case None =>
          List(s"${paren(x.exp(f.list, scope))}.foreach { ${Names.local(v.name)} =>") ++ Out.indent(braces(plainStmt(f.body, scope))) ++ List("}")
        case Some(i) =>
          List(s"${paren(x.exp(f.list, scope))}.zipWithIndex.foreach { case (${Names.local(v.name)}, i$$) =>",
            s"  val ${Names.local(i.name)} = AbsInt(i$$)") ++ Out.indent(braces(plainStmt(f.body, scope))) ++ List("}")
      }
    case sw: SwitchStmt =>
      val v = x.freshName("v")
      List(s"${x.scrutineeOf(sw.scrutinee, scope)} match {") ++
        Out.indent(sw.branches.flatMap { br =>
          val (p, g) = x.pattern(br.pattern, scope)
          List(s"case $p${g.map(" if " + _).getOrElse("")} =>") ++ Out.indent(braces(plainStmt(br.body, scope)))
        } ++ List(s"case $v => matchFail($v, ${pos(sw)})")) ++ List("}")
    case t: TryCatchStmt =>
      val e = x.freshName("e")
      val other = x.freshName("other")
      List("try {") ++ Out.indent(braces(plainStmt(t.body, scope))) ++
        (if (t.catches.isEmpty) Nil
         else List(s"} catch { case $e: Throwable =>") ++ Out.indent(
           List(s"AbsException.liftAbs($e) match {") ++ Out.indent(t.catches.flatMap { br =>
             val (p, g) = x.pattern(br.pattern, scope)
             List(s"case $p${g.map(" if " + _).getOrElse("")} =>") ++ Out.indent(braces(plainStmt(br.body, scope)))
           } ++ List(s"case $other => throw $other")) ++ List("}"))) ++
        t.finallyStmt.toList.flatMap(f => List("} finally {") ++ Out.indent(braces(plainStmt(f, scope)))) ++ List("}")
    case Block(ss, _) => List("locally {") ++ Out.indent(braces(plainStmts(ss, scope))) ++ List("}")
    case a: AwaitStmt => throw new IllegalStateException(s"absc: await at ${a.pos} was not marked as suspending")
    case s: SuspendStmt => throw new IllegalStateException(s"absc: suspend at ${s.pos} was not marked as suspending")
    case d: DurationStmt => throw new EmitError(d.pos, "duration statements (Timed ABS) are not supported yet")
    case m: MoveCogToStmt => throw new EmitError(m.pos, "movecogto (deployment components) is not supported yet")
  }

  private def paren(s: String): String = if (s.forall(c => c.isLetterOrDigit || c == '_' || c == '.')) s else s"($s)"

  // ------------------------------------------------------------------ continuations

  /**
   * Statements as an expression of type `Proc[_]`. `tail`: these are the last statements of a
   * method body (a `return` may end them). `end`: the value of the whole when no `return`
   * gives one (the main block's `testresult`).
   */
  def cpsBlock(ss: List[Stmt], scope: Scope, tail: Boolean, end: Option[String] = None): List[String] = {
    val i = ss.indexWhere(suspends)
    if (i < 0) {
      ss.lastOption match {
        case Some(r: ReturnStmt) if tail => plainStmts(ss.init, scope) :+ s"Proc.done(${value(r.exp, scope)})"
        case _ => plainStmts(ss, scope) :+ end.map(e => s"Proc.done($e)").getOrElse("Proc.unit")
      }
    } else {
      val prefix = plainStmts(ss.take(i), scope)
      val s = ss(i)
      val rest = ss.drop(i + 1)
      val last = rest.isEmpty
      prefix ++ suspendingStmt(s, rest, scope, tail, end, last)
    }
  }

  /** `proc.flatMap { binder => rest }`, or just `proc` when nothing follows and its value is the result. */
  private def andThen(proc: List[String], binder: String, rest: List[String]): List[String] =
    if (rest == List("Proc.unit") && binder == "_")
      (if (proc.last.endsWith(".void") || proc.last.startsWith("Proc.await((") || proc.last == "Proc.suspend") proc
       else proc.init :+ (proc.last + ".void"))
    else (proc.init :+ (proc.last + s".flatMap { $binder =>")) ++ Out.indent(rest) ++ List("}")

  private def restOf(rest: List[Stmt], scope: Scope, tail: Boolean, end: Option[String]): List[String] =
    cpsBlock(rest, scope, tail, end)

  private def suspendingStmt(s: Stmt, rest: List[Stmt], scope: Scope, tail: Boolean, end: Option[String], last: Boolean): List[String] = {
    def continue(proc: List[String], binder: String = "_"): List[String] = andThen(proc, binder, restOf(rest, scope, tail, end))
    s match {
      case v: VarDeclStmt =>
        val proc = x.suspendingProc(v.init.get.asInstanceOf[EffExp], scope)
        val name = Names.local(v.name)
        if (Lowering.assigns(rest, v.name)) {
          val tmp = x.freshName(v.name)
          andThen(List(proc), s"($tmp: ${declType(v)})", s"var $name: ${declType(v)} = $tmp" :: restOf(rest, scope, tail, end))
        } else andThen(List(proc), s"($name: ${declType(v)})", restOf(rest, scope, tail, end))
      case AssignStmt(lv, e: EffExp, _) =>
        val tmp = x.freshName("v")
        andThen(List(x.suspendingProc(e, scope)), tmp, s"${x.lvalue(lv, scope)} = $tmp" :: restOf(rest, scope, tail, end))
      // `await o!m();` waits for the call without taking its value: a failure is not rethrown.
      case ExpStmt(AwaitExp(call), _) => continue(List(s"Proc.await((${x.asyncCall(call, scope)}): cogs.runtime.Guard)"))
      case ExpStmt(e: EffExp, _) => continue(List(x.suspendingProc(e, scope)))
      case r @ ReturnStmt(e: EffExp, _) if tail && last => List(x.suspendingProc(e, scope))
      case AwaitStmt(g, _) => continue(List(s"Proc.await(${guard(g, scope)})"))
      case SuspendStmt(_) => continue(List("Proc.suspend"))
      case Block(ss, _) =>
        if (tail && last) cpsBlock(ss, scope, tail = true, end)
        else continue(wrap(cpsBlock(ss, scope, tail = false)))
      case IfStmt(c, t, e, _) =>
        val branchTail = tail && last
        val thenCode = cpsBlock(List(t), scope, branchTail, if (branchTail) end else None)
        val elseCode = e.map(es => cpsBlock(List(es), scope, branchTail, if (branchTail) end else None)).getOrElse(List(end.filter(_ => branchTail).map(v => s"Proc.done($v)").getOrElse("Proc.unit")))
        val code = List(s"(if (${x.exp(c, scope)}) {") ++ Out.indent(thenCode) ++ List("} else {") ++ Out.indent(elseCode) ++ List("})")
        if (branchTail) code else continue(code)
      case WhileStmt(c, body, _) =>
        continue(List(s"Proc.loopWhile(${x.exp(c, scope)}) {") ++ Out.indent(cpsBlock(List(body), scope, tail = false)) ++ List("}"))
      case f: ForeachStmt =>
        val (v, idx) = program.foreachVars(f)
        val loop = idx match {
          case None =>
            List(s"Proc.foreach(${x.exp(f.list, scope)}) { ${Names.local(v.name)} =>") ++ Out.indent(cpsBlock(List(f.body), scope, tail = false)) ++ List("}")
          case Some(i) =>
            List(s"Proc.foreach(${paren(x.exp(f.list, scope))}.zipWithIndex) { case (${Names.local(v.name)}, i$$) =>",
              s"  val ${Names.local(i.name)} = AbsInt(i$$)") ++ Out.indent(cpsBlock(List(f.body), scope, tail = false)) ++ List("}")
        }
        continue(loop)
      case sw: SwitchStmt =>
        val branchTail = tail && last
        val v = x.freshName("v")
        val code = List(s"(${x.scrutineeOf(sw.scrutinee, scope)} match {") ++
          Out.indent(sw.branches.flatMap { br =>
            val (p, g) = x.pattern(br.pattern, scope)
            List(s"case $p${g.map(" if " + _).getOrElse("")} =>") ++ Out.indent(cpsBlock(List(br.body), scope, branchTail, if (branchTail) end else None))
          } ++ List(s"case $v => matchFail($v, ${pos(sw)})")) ++ List("})")
        if (branchTail) code else continue(code)
      case t: TryCatchStmt =>
        val branchTail = tail && last
        val e = x.freshName("e")
        val other = x.freshName("other")
        val body = List("Proc.defer {") ++ Out.indent(cpsBlock(List(t.body), scope, branchTail, if (branchTail) end else None)) ++ List("}")
        val caught =
          if (t.catches.isEmpty) body
          else body.init ++ List(s"}.recoverWith { case $e: Throwable =>") ++ Out.indent(
            List(s"AbsException.liftAbs($e) match {") ++ Out.indent(t.catches.flatMap { br =>
              val (p, g) = x.pattern(br.pattern, scope)
              List(s"case $p${g.map(" if " + _).getOrElse("")} =>") ++ Out.indent(cpsBlock(List(br.body), scope, branchTail, if (branchTail) end else None))
            } ++ List(s"case $other => Proc.raise($other)")) ++ List("}")) ++ List("}")
        val full = t.finallyStmt match {
          case None => caught
          case Some(f) => caught.init ++ List(caught.last + ".guarantee {") ++ Out.indent(cpsBlock(List(f), scope, tail = false)) ++ List("}")
        }
        if (branchTail) full else continue(full)
      case other =>
        // A statement marked as suspending without a scheduling point of its own (a plain
        // statement inside a suspending block): keep it plain.
        plainStmt(other, scope) ++ restOf(rest, scope, tail, end)
    }
  }

  private def wrap(code: List[String]): List[String] =
    if (code.length == 1) code else List("locally {") ++ Out.indent(code) ++ List("}")

  private def guard(g: cogs.absc.ast.Guard, scope: Scope): String = g match {
    case ClaimGuard(lv) => s"(${x.lvalue(lv, scope)}: cogs.runtime.Guard)"
    case e @ ExpGuard(c) =>
      // Named by where it is written: deadlock reports and trace events then point at the await.
      val at = s"${java.nio.file.Paths.get(e.pos.file).getFileName}:${e.pos.line}:${e.pos.col}"
      s"Guard.cond(${Names.stringLit(at)})(${x.exp(c, scope)})"
    case AndGuard(l, r) => s"(${guard(l, scope)} & ${guard(r, scope)})"
    case d: DurationGuard => throw new EmitError(d.pos, "await duration (Timed ABS) is not supported yet")
  }
}

private[emit] object Lowering {
  /** Does any statement (recursively) assign the local `name`? */
  def assigns(ss: List[Stmt], name: String): Boolean = ss.exists(s => exists(s) {
    case AssignStmt(VarUse(n), _, _) if n == name => true
  })

  /** Does any statement nested in `s` (itself included) match `p`? */
  def exists(s: Stmt)(p: PartialFunction[Stmt, Boolean]): Boolean = {
    def go(s: Stmt): Boolean = p.applyOrElse(s, (_: Stmt) => false) || (s match {
      case Block(ss, _) => ss.exists(go)
      case IfStmt(_, t, e, _) => go(t) || e.exists(go)
      case WhileStmt(_, b, _) => go(b)
      case f: ForeachStmt => go(f.body)
      case sw: SwitchStmt => sw.branches.exists(b => go(b.body))
      case t: TryCatchStmt => go(t.body) || t.catches.exists(b => go(b.body)) || t.finallyStmt.exists(go)
      case _ => false
    })
    go(s)
  }
}
