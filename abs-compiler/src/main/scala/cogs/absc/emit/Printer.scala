package cogs.absc.emit

import cogs.absc.lower._

/**
 * The lowered program as Scala text. Layout only: every name, every continuation and every
 * piece of scaffolding is decided by lowering. Output goes into one builder with an indentation
 * depth, so printing is linear in the size of the program however deep its nesting.
 */
private[emit] final class Printer {
  private val sb = new java.lang.StringBuilder
  private var depth = 0

  // The line table (see St.Line): the output lines where an ABS line starts, and 0 where a
  // declaration starts whose code has no ABS line of its own (so that it is not blamed on the line
  // above it). Output lines are counted incrementally, so recording stays linear in the output.
  private val tableAt = new scala.collection.mutable.ArrayBuilder.ofInt
  private val tableLine = new scala.collection.mutable.ArrayBuilder.ofInt
  private var counted = 0
  private var outputLine = 1
  private var lastAbsLine = -1
  private var fileName = ""
  // The class whose methods are being printed (null elsewhere), and the frames of its methods whose
  // rest is a constant (`return 1;`, the `()` of a Unit method after its last await): such a frame
  // holds nothing, so one instance per constant, in the companion object, serves every suspension.
  private var frameOwner: String = null
  private val constantFrames = scala.collection.mutable.LinkedHashMap.empty[String, String]

  /** The output line the next character goes to (1-based). */
  private def currentLine: Int = {
    while (counted < sb.length) { if (sb.charAt(counted) == '\n') outputLine += 1; counted += 1 }
    outputLine
  }

  /**
   * The code printed from here on is the model's line `n` (0: no line known, at the start of a
   * declaration). A known line is shown as a comment line, where its part of the table starts.
   */
  private def absLine(n: Int): Unit = if (n != lastAbsLine) {
    lastAbsLine = n
    if (n > 0) { line(s"// $fileName:$n"); tableAt += currentLine }
    else tableAt += currentLine + 1 // declarations start on a line of their own
    tableLine += n
  }

  /** A declaration starts: its code is the model's line `n` (0: none known) until a statement says otherwise. */
  private def declStart(n: Int): Unit = { lastAbsLine = -1; absLine(n) }

  /**
   * The line table of the module printed: one `OUTPUT_LINE ABS_LINE` pair per line, ascending
   * (`ABS_LINE` 0: no ABS line from there on), after a first line with the ABS file's name.
   */
  def lineTable(absFile: String): String = {
    val b = new java.lang.StringBuilder(absFile).append('\n')
    val at = tableAt.result()
    val ln = tableLine.result()
    var i = 0
    while (i < at.length) { b.append(at(i)).append(' ').append(ln(i)).append('\n'); i += 1 }
    b.toString
  }

  private def nl(): Unit = { sb.append('\n'); var i = 0; while (i < depth) { sb.append("  "); i += 1 } }
  private def w(s: String): Unit = sb.append(s)
  private def line(s: String): Unit = { nl(); w(s) }
  /** An empty line (no indentation: the next `line` starts its own). */
  private def blank(): Unit = sb.append('\n')
  private def indented(body: => Unit): Unit = { depth += 1; try body finally depth -= 1 }
  def result: String = { sb.append('\n'); sb.toString.stripPrefix("\n") }

  // ------------------------------------------------------------------ types

  def tpe(t: T): String = t match {
    case T.Ref(n, Nil) => n
    case T.Ref(n, args) => args.map(tpe).mkString(s"$n[", ", ", "]")
    case T.Fun(List(p @ T.Fun(_, _)), r) => s"(${tpe(p)}) => ${tpe(r)}"
    case T.Fun(List(p), r) => s"${tpe(p)} => ${tpe(r)}"
    case T.Fun(ps, r) => ps.map(tpe).mkString("(", ", ", ")") + " => " + tpe(r)
    case T.Wild(n) => s"$n[_]"
  }

  /** `name: T`, with a space before the colon where the name ends in `_` (`x_: T` would lex as the operator `x_:`). */
  private def typed(name: String, t: T): String = s"$name${if (name.endsWith("_")) " " else ""}: ${tpe(t)}"

  private def typeParams(ps: List[String], variance: String = ""): String =
    if (ps.isEmpty) "" else ps.map(variance + _).mkString("[", ", ", "]")

  private def targs(ts: List[T]): String = if (ts.isEmpty) "" else ts.map(tpe).mkString("[", ", ", "]")

  // ------------------------------------------------------------------ expressions

  /** Is `e` printed as one token or a postfix chain (no parentheses needed as an operand)? */
  private def simple(e: S): Boolean = e match {
    case _: S.Lit | _: S.Str | _: S.Id | _: S.Sel | _: S.App | _: S.TypeApp | _: S.Block | _: S.Catch => true
    case _ => false
  }

  /** Scala's precedence of an infix operator, by its first character (higher binds tighter). */
  private def precedence(op: String): Int = op.head match {
    case c if c.isLetter => 1
    case '|' => 2
    case '^' => 3
    case '&' => 4
    case '=' | '!' => 5
    case '<' | '>' => 6
    case ':' => 7
    case '+' | '-' => 8
    case '*' | '/' | '%' => 9
    case _ => 10
  }

  /** An operand of `op`: parenthesised unless Scala's precedence and associativity already group it so. */
  private def infixOperand(e: S, op: String, left: Boolean): Unit = e match {
    case S.Infix(_, inner, _) =>
      val (p, q) = (precedence(inner), precedence(op))
      val rightAssoc = op.endsWith(":")
      val bare = p > q || (p == q && inner.endsWith(":") == rightAssoc && left != rightAssoc)
      if (bare) exp(e) else { w("("); exp(e); w(")") }
    case _ => operand(e)
  }

  private def operand(e: S): Unit = if (simple(e)) exp(e) else { w("("); exp(e); w(")") }

  private def args(as: List[S]): Unit = {
    w("(")
    var first = true
    as.foreach { a => if (!first) w(", "); first = false; exp(a) }
    w(")")
  }

  def exp(e: S): Unit = e match {
    case S.Lit(t) => w(t)
    case S.Str(s) => w(Naming.stringLit(s))
    case S.Id(n) => w(n)
    case S.Sel(q, n) => operand(q); w("."); w(n)
    case S.App(f, ts, as) => operand(f); w(targs(ts)); args(as)
    case S.TypeApp(f, ts) => operand(f); w(targs(ts))
    case S.Infix(l, op, r) => infixOperand(l, op, left = true); w(s" $op "); infixOperand(r, op, left = false)
    case S.Prefix(op, x) => w(op); operand(x)
    case S.Lambda(ps, body) =>
      w(ps.map { case (n, t) => t.fold(n)(typed(n, _)) }.mkString("(", ", ", ") => "))
      operand(body)
    case S.Block(stats, r) =>
      w("{ ")
      stats.foreach { s => inlineStat(s); w("; ") }
      exp(r)
      w(" }")
    case S.If(c, t, e) => w("if ("); exp(c); w(") "); operand(t); w(" else "); operand(e)
    case S.Match(s, cases) =>
      operand(s); w(" match { ")
      cases.foreach { c => w("case "); pat(c.pat); c.guard.foreach { g => w(" if "); exp(g) }; w(" => "); exp(c.body); w("; ") }
      w("}")
    case S.Ascribe(x, t) => w("("); operand(x); w(s": ${tpe(t)})")
    case S.New(c, as) => w(s"new ${tpe(c)}"); args(as)
    case S.Throw(x) => w("throw "); operand(x)
    case S.Catch(b, n, h) => w("(try "); operand(b); w(s" catch { case $n: Throwable => "); exp(h); w(" })")
    case S.Proc(p) => proc(p)
    case x @ (_: S.Send | _: S.SendWithDeadline | _: S.Created | _: S.SyncNow) => throw Instrument.notInstrumented(x)
  }

  /** A plain statement inside an expression block (`let`, an observed call's arguments). */
  private def inlineStat(s: St): Unit = s match {
    case St.Def(n, t, rhs, m) => w(if (m) "var " else "val "); w(t.fold(n)(typed(n, _))); w(" = "); exp(rhs)
    case St.Eval(x) => exp(x)
    case other => throw new IllegalStateException(s"absc: statement $other inside an expression")
  }

  // ------------------------------------------------------------------ patterns

  def pat(p: Pat): Unit = p match {
    case Pat.Wild => w("_")
    case Pat.Bind(n) => w(n)
    case Pat.Const(t) => w(t)
    case Pat.Extract(path, as) =>
      w(path); w("(")
      var first = true
      as.foreach { a => if (!first) w(", "); first = false; pat(a) }
      w(")")
    case Pat.Cons(h, t) =>
      val paren = t.isInstanceOf[Pat.Cons]
      h match { case _: Pat.Cons => w("("); pat(h); w(")"); case _ => pat(h) }
      w(" :: ")
      if (paren) { pat(t) } else pat(t)
    case Pat.Typed(n, t) => w(typed(n, t))
  }

  private def caseHead(c: Case[_]): Unit = {
    line("case "); pat(c.pat); c.guard.foreach { g => w(" if "); exp(g) }; w(" =>")
  }

  // ------------------------------------------------------------------ statements

  def stats(ss: List[St]): Unit = ss.foreach(stat)

  private def block(ss: List[St]): Unit = indented(if (ss.isEmpty) line("()") else stats(ss))

  def stat(s: St): Unit = s match {
    case St.Def(n, t, rhs, m) => line(if (m) "var " else "val "); w(t.fold(n)(typed(n, _))); w(" = "); exp(rhs)
    case St.Assign(l, r) => nl(); exp(l); w(" = "); exp(r)
    // A block as a statement: its statements, one per line. Printed as `{ .. }` it would be read
    // as an argument of the expression on the line before (`p = p + 1` then `{ .. }`); the
    // names it binds are fresh temporaries, so nothing is captured.
    case St.Eval(S.Block(ss, r)) => stats(ss); stat(St.Eval(r))
    case St.Eval(x) => nl(); exp(x)
    case St.If(c, t, e) => line("if ("); exp(c); w(") {"); block(t); elseChain(e)
    case St.While(c, body) => line("while ("); exp(c); w(") {"); block(body); line("}")
    case St.Foreach(list, elem, index, body) =>
      index match {
        case None => nl(); operand(list); w(s".foreach { $elem =>"); block(body); line("}")
        case Some(i) =>
          nl(); operand(list); w(s".zipWithIndex.foreach { case ($elem, $i$$i) =>")
          indented { line(s"val $i = AbsInt($i$$i)"); stats(body) }
          line("}")
      }
    case St.Match(scrutinee, cases) =>
      nl(); operand(scrutinee); w(" match {")
      indented(cases.foreach { c => caseHead(c); block(c.body) })
      line("}")
    case St.Try(body, handler, fin) =>
      line("try {"); block(body)
      handler.foreach { case (e, h) => line(s"} catch { case $e: Throwable =>"); block(h) }
      if (fin.nonEmpty) { line("} finally {"); block(fin) }
      line("}")
    // `locally`: a `{` at the start of a line would be read as an argument of the line before.
    case St.Block(ss) => line("locally {"); block(ss); line("}")
    case St.Comment(t) => line(s"// $t")
    case St.Line(n) => absLine(n)
    case St.Part(name, ss) =>
      line(s"def $name(): Unit = {"); block(ss); line("}")
      line(s"$name()")
  }

  /** The rest of an `if` statement: `} else if (..) {` chains, `} else {`, or `}`. */
  private def elseChain(e: List[St]): Unit = e match {
    case Nil => line("}")
    case List(St.If(c, t, e2)) => line("} else if ("); exp(c); w(") {"); block(t); elseChain(e2)
    case _ => line("} else {"); block(e); line("}")
  }

  // ------------------------------------------------------------------ computations

  /** A computation, as an expression of type `Proc[_]` starting at the current position. */
  def proc(p: P): Unit = p match {
    case P.Done(S.Unit) => w("Proc.unit")
    case P.Done(v) => w("Proc.done("); exp(v); w(")")
    case P.Then(ss, next) =>
      w("{"); indented { stats(ss); nl(); proc(next) }; line("}")
    case P.Bind(first, binder, rest) =>
      procOperand(first); w(".flatMap { "); lambdaParam(binder)
      indented(procBody(rest))
      line("}")
    case P.Map(first, binder, v) =>
      procOperand(first); w(".map { "); lambdaParam(binder)
      indented { nl(); exp(v) }
      line("}")
    case P.Void(first) => procOperand(first); w(".void")
    // `await f?` only waits: `Proc.await(f)` would also read the value and raise its failure.
    case P.Await(G.Claim(f)) => w("Proc.awaitResolved("); exp(f); w(")")
    case P.Await(g) => w("Proc.await("); guard(g); w(")")
    case P.AwaitValue(f) => w("Proc.await("); exp(f); w(")")
    case P.Suspend => w("Proc.suspend")
    case P.Get(f, at) => operand(f); w(s".getAt(${Naming.stringLit(at)})")
    // A block (an instrumented call's arguments, evaluated once: `{ val arg$1 = ..; call }`) may
    // start a line: bare, Scala would take it for an argument of the line before.
    case P.Call(e: S.Block) => w("("); exp(e); w(")")
    case P.Call(e) => exp(e)
    case P.SelfCall(m, args) => exp(S.App(S.Sel(S.This, m), Nil, args))
    case x: P.Sync => throw Instrument.notInstrumented(x)
    case P.If(c, t, e) =>
      w("(if ("); exp(c); w(") {"); indented { procBody(t) }; line("} else {"); indented { procBody(e) }; line("})")
    case P.While(c, body) =>
      w("Proc.loopWhile("); exp(c); w(") {"); indented { procBody(body) }; line("}")
    case P.Foreach(list, elem, index, body) =>
      index match {
        case None => w("Proc.foreach("); exp(list); w(s") { $elem =>")
          indented { procBody(body) }
        case Some(i) => w("Proc.foreach("); operand(list); w(s".zipWithIndex) { case ($elem, $i$$i) =>")
          indented { line(s"val $i = AbsInt($i$$i)"); procBody(body) }
      }
      line("}")
    case P.Match(s, cases) =>
      w("("); operand(s); w(" match {")
      indented(cases.foreach { c => caseHead(c); indented { procBody(c.body) } })
      line("})")
    case P.Try(body, handler, fin) =>
      w("Proc.defer {"); indented { procBody(body) }; line("}")
      handler.foreach { case (e, h) =>
        w(s".recoverWith { case $e: Throwable =>"); indented { procBody(h) }; line("}")
      }
      fin.foreach { f => w(".guarantee {"); indented { procBody(f) }; line("}") }
    case P.Raise(e) => w("Proc.raise("); exp(e); w(")")
  }

  private def lambdaParam(binder: Option[(String, T)]): Unit = binder match {
    case None => w("_ =>")
    case Some((n, t)) => w(s"(${typed(n, t)}) =>")
  }

  /** A computation that `.flatMap`, `.map` or `.void` is applied to. */
  private def procOperand(p: P): Unit = p match {
    case _: P.Then | _: P.Bind | _: P.Map => w("("); proc(p); w(")") // lowering re-associates these away; kept correct regardless
    case P.Call(e) if !simple(e) => w("("); exp(e); w(")")
    case _ => proc(p)
  }

  /** A computation as the body of a lambda or branch, one line per statement (each starts a new line). */
  private def procBody(p: P): Unit = p match {
    case P.Then(ss, next) => stats(ss); nl(); proc(next)
    case _ => nl(); proc(p)
  }

  // ------------------------------------------------------------------ frame code

  /** Frame code as the lines of a block's body (each starts a new line); the last one is its value. */
  private def frameBody(f: F): Unit = f match {
    case F.Then(ss, next) => stats(ss); frameBody(next)
    case F.Seq(first, binder, rest, F.Plain) =>
      binder match {
        case Some((n, t)) => line(s"val ${typed(n, t)} = "); frameExp(first)
        case None => first match {
          case F.Value(_: S.Lit) => // nothing to run
          case _ => frameStat(first)
        }
      }
      frameBody(rest)
    case F.Seq(first, _, F.Value(S.Lit(constant)), F.Suspends) if frameOwner ne null =>
      frameStat(first)
      line(s"p$$.suspendedIn(${constantFrame(constant)})")
    case F.Seq(first, binder, rest, F.Suspends) =>
      // The frame is a lambda (Frame has one abstract method): its body is the rest of the method.
      frameStat(first)
      line("p$.suspendedIn { (p$, in$) =>")
      indented { bindIn(binder); frameBody(rest) }
      line("}")
    case F.Seq(first, _, F.Value(S.Lit(constant)), F.Either(_, r)) if frameOwner ne null =>
      line(s"val $r: Any = "); frameExp(first)
      line(s"if ($r.asInstanceOf[AnyRef] eq Frame.Suspended) p$$.suspendedIn(${constantFrame(constant)}) else $constant")
    case F.Seq(first, binder, rest, F.Either(k, r)) =>
      // Read in order: what may suspend, what follows it, and how the two join.
      line(s"val $r: Any = "); frameExp(first)
      line(s"def $k(in$$: Any): Any = {")
      indented { bindIn(binder); frameBody(rest) }
      line("}")
      line(s"if ($r.asInstanceOf[AnyRef] eq Frame.Suspended) p$$.suspendedIn((p$$, in$$) => $k(in$$)) else $k($r)")
    case F.While(c, body, loop, r) =>
      line(s"def $loop(): Any = {")
      indented {
        line("while ("); exp(c); w(") {")
        indented { line("Cogs.stopPoint()"); iteration(body, s"$loop()", r) }
        line("}")
        line("()")
      }
      line("}")
      line(s"$loop()")
    case F.Foreach(list, x, index, body, it, loop, r) =>
      line(s"val $it = "); operand(list); w(if (index.isEmpty) ".iterator" else ".zipWithIndex.iterator")
      line(s"def $loop(): Any = {")
      indented {
        line(s"while ($it.hasNext) {")
        indented {
          index match {
            case None => line(s"val $x = $it.next()")
            case Some(i) => line(s"val ($x, $i$$i) = $it.next()"); line(s"val $i = AbsInt($i$$i)")
          }
          iteration(body, s"$loop()", r)
        }
        line("}")
        line("()")
      }
      line("}")
      line(s"$loop()")
    case _ => nl(); frameExp(f)
  }

  /** The shared frame that resumes with `constant` (a literal's Scala text), as named in the companion object. */
  private def constantFrame(constant: String): String =
    s"$frameOwner." + constantFrames.getOrElseUpdate(constant, s"returns$$${constantFrames.size + 1}")

  /** A loop's body: when it suspends, the loop's method returns, linking a frame that goes on with `again`. */
  private def iteration(body: F, again: String, result: Option[String]): Unit = {
    val link = s"return p$$.suspendedIn((p$$, in$$) => $again)"
    result match {
      case None => frameStat(body); line(link)
      case Some(r) => line(s"val $r: Any = "); frameExp(body); line(s"if ($r.asInstanceOf[AnyRef] eq Frame.Suspended) $link")
    }
  }

  /** Frame code whose value is dropped, on a line of its own. */
  private def frameStat(f: F): Unit = f match {
    case _: F.Then | _: F.Seq | _: F.While | _: F.Foreach => line("locally {"); indented(frameBody(f)); line("}")
    case _ => nl(); frameExp(f)
  }

  /** `val x: T = in$.asInstanceOf[T]`: the value a frame resumes with, under the continuation's name. */
  private def bindIn(binder: Option[(String, T)]): Unit =
    binder.foreach { case (n, t) => line(s"val ${typed(n, t)} = in$$.asInstanceOf[${tpe(t)}]") }

  /** Frame code as an expression starting at the current position. */
  private def frameExp(f: F): Unit = f match {
    case F.Value(v) => exp(v)
    case F.Run(p) => w("p$.run("); proc(p); w(")")
    case F.AwaitValue(fut) => w("p$.awaitFut("); exp(fut); w(")")
    case F.Get(fut, at) => w("p$.getValue("); exp(fut); w(s", ${Naming.stringLit(at)})")
    // `await f?` only waits: `awaitFut` would also read the value and raise its failure.
    case F.Await(G.Claim(fut)) => w("p$.awaitResolved("); exp(fut); w(")")
    case F.Await(g) => w("p$.awaitUntil("); guard(g); w(")")
    case F.Raise(e) => w("throw "); operand(e)
    case F.SelfCall(m, as) =>
      w(s"(if (p$$.enter()) try this.$m"); args(S.Id("p$") :: as); w(" finally p$.exit()")
      indented {
        line(s"else p$$.pendingCall(this, (p$$, _) => $m"); args(S.Id("p$") :: as); w("))")
      }
    case F.If(c, t, e) =>
      w("(if ("); exp(c); w(") {"); indented(frameBody(t)); line("} else {"); indented(frameBody(e)); line("})")
    case F.Match(s, cases) =>
      w("("); operand(s); w(" match {")
      indented(cases.foreach { c => caseHead(c); indented(frameBody(c.body)) })
      line("})")
    case _: F.Then | _: F.Seq | _: F.While | _: F.Foreach => w("{"); indented(frameBody(f)); line("}")
  }

  def guard(g: G): Unit = g match {
    case G.Claim(f) => exp(f)
    case G.Cond(at, c) => w(s"Guard.cond(${Naming.stringLit(at)})("); exp(c); w(")")
    case G.And(l, r) => guardOperand(l); w(" & "); guardOperand(r)
  }

  private def guardOperand(g: G): Unit = g match {
    case G.Claim(f) => w("Guard.future("); exp(f); w(")")
    case _: G.Cond => guard(g)
    case _: G.And => w("("); guard(g); w(")")
  }

  // ------------------------------------------------------------------ declarations

  def module(pkg: String, m: LModule): Unit = {
    fileName = java.nio.file.Paths.get(m.file).getFileName.toString
    w(s"// Generated by absc from ${m.file} (module ${m.absName}). Edit the ABS model, not this file.")
    line(s"package $pkg")
    blank()
    line("import cogs.runtime.{Active, ActiveObject, Cogs, Fut, Guard, Proc}")
    line("import cogs.runtime.internal.{Frame, FrameCall, Process}")
    line("import cogs.absc.lib._")
    blank()
    line(s"object ${m.objectName} {")
    indented(m.decls.foreach(decl))
    line("}")
  }

  private def params(ps: List[(String, T)]): String = ps.map { case (n, t) => typed(n, t) }.mkString("(", ", ", ")")

  private def decl(d: LDecl): Unit = {
    if (!d.isInstanceOf[LFunction]) declStart(0)
    declItself(d)
  }

  private def declItself(d: LDecl): Unit = d match {
    case x: LData =>
      blank(); line(s"// data ${x.absName}")
      if (x.sealedTrait) line(s"sealed trait ${x.name}${typeParams(x.typeParams, "+")} extends AbsData")
      if (x.companionCtors.nonEmpty) {
        line(s"object ${x.name} {")
        indented(x.companionCtors.foreach(ctor))
        line("}")
      }
      x.ctors.foreach(ctor)
      x.selectors.foreach(selector)
    case c: LCtor => ctor(c)
    case e: LException => blank(); ctor(e.ctor); e.selectors.foreach(selector)
    case f: LFunction =>
      blank()
      declStart(f.line)
      val fps = if (f.funParams.isEmpty) "" else params(f.funParams)
      line(s"def ${f.name}${typeParams(f.typeParams)}$fps${params(f.params)}: ${tpe(f.result)} =")
      indented { nl(); exp(f.body) }
    case i: LInterface =>
      blank()
      line(s"trait ${i.name} extends ${("Active" :: i.supers.map(tpe)).mkString(" with ")} {")
      indented(i.methods.foreach { s =>
        line(s"def ${s.name}${params(s.params)}: Proc[${tpe(s.result)}]")
        line(s"def ${entryName(s)}${params(("p$", T.Ref("Process")) :: s.params)}: Any")
      })
      line("}")
      messages(i.name, i.methods)
    case c: LClass => cls(c)
    case m: LMethod => method(m)
    case k: LConst =>
      blank(); line(s"lazy val ${typed(k.name, k.tpe)} ="); indented { nl(); exp(k.rhs) }
    case m: LMain =>
      blank(); line("// the main block")
      line(s"def main(): Proc[${if (m.test) "Boolean" else "Unit"}] = {")
      indented(procBody(m.body))
      line("}")
  }

  private def ctor(c: LCtor): Unit =
    if (c.caseObject) line(s"case object ${c.name} extends ${tpe(c.parent)}")
    else {
      val head = s"final case class ${c.name}${typeParams(c.typeParams, "+")}${params(c.fields)} extends ${tpe(c.parent)}"
      c.httpNames match {
        case None => line(head)
        case Some(ns) =>
          // The Model API returns it as a JSON object of its named arguments (the ABS manual's rule).
          val names = ns.map(_.fold("null")(Naming.stringLit)).mkString("List(", ", ", ")")
          line(s"$head with _root_.cogs.absc.modelapi.HttpData {")
          indented(line(s"def http$$names: List[String] = $names"))
          line("}")
      }
    }

  private def selector(s: LSelector): Unit = {
    val at = if (s.located) ", at$: String" else ""
    line(s"def ${s.name}${typeParams(s.typeParams)}(x$$: ${tpe(s.param)}$at): ${tpe(s.result)} = x$$ match {")
    indented {
      s.owners.foreach { case (path, field) => line(s"case c$$: $path => c$$.$field") }
      if (s.located) line(s"case other$$ => selectorFail(other$$, ${Naming.stringLit(s.absName)}, at$$)")
      else line(s"case other$$ => matchFail(other$$, ${Naming.stringLit(s.name)})")
    }
    line("}")
  }

  /** Message constructors: the arguments are evaluated when the call is made, as in ABS. */
  private def messages(owner: String, sigs: List[LSig]): Unit = {
    line(s"object $owner {")
    indented(sigs.foreach { s =>
      // A call as data: the callee's entry in frame form (`m$entry`), run by the slice loop as it
      // is, and the method's ABS name, which call sites then need not write (`send(o, "f.abs:3:5")(I.m(x))`).
      // A name too long for one class-file constant (a huge model's) is joined from pieces, as
      // `Limits` does for string literals: the label stays the whole name, as it was at call sites.
      val label =
        if (s.absName.length <= Limits.MaxStringChars) Naming.stringLit(s.absName)
        else Limits.chunks(s.absName).map(Naming.stringLit).mkString("strJoin(", ", ", ")")
      val message = s"AbsCall.message($label) { (p$$, o$$) => o$$.asInstanceOf[$owner].${entryName(s)}${("p$" :: s.params.map(_._1)).mkString("(", ", ", ")")} }"
      val result = s"$owner => Proc[${tpe(s.result)}]"
      if (s.params.isEmpty) {
        // Without arguments the message has no state: one shared instance instead of one per call.
        line(s"private[this] val ${s.name}$$message: $result =")
        indented(line(message))
        line(s"def ${s.name}(): $result = ${s.name}$$message")
      } else {
        line(s"def ${s.name}${params(s.params)}: $result =")
        indented(line(message))
      }
    })
    if (owner == frameOwner) {
      indented {
        if (constantFrames.nonEmpty) line("// Frames that resume with a constant hold nothing: one for every suspension.")
        constantFrames.foreach { case (constant, name) => line(s"val $name: Frame = (p$$, in$$) => $constant") }
      }
      constantFrames.clear()
    }
    line("}")
  }

  private def cls(c: LClass): Unit = {
    blank()
    declStart(0)
    val ps = c.params.map { case (n, t) => s"var ${typed(n, t)}" }.mkString("(", ", ", ")")
    val exposed = if (c.http.isDefined) List("_root_.cogs.absc.modelapi.HttpExposed") else Nil
    // AbsObject (abs-runtime) holds what every class needs: the creation site, object death, toString.
    line(s"final class ${c.name}$ps extends ${("AbsObject" :: c.interfaces.map(tpe) ::: exposed).mkString(" with ")} {")
    indented {
      c.fields.foreach { case (n, t, init) => line(s"var ${typed(n, t)} = "); exp(init) }
      // Traces, monitor configurations and toString name the class as the model does.
      line(s"override def traceName: String = ${Naming.stringLit(c.traceName)}")
      if (c.recover.nonEmpty) recover(c)
      c.init.foreach { init =>
        blank(); line("// init block")
        init.plain.foreach { ss => line("locally {"); block(ss); line("}") }
        init.suspending.foreach { p =>
          line("override protected def initProcess: Proc[Unit] =")
          indented { nl(); proc(p) }
        }
      }
      frameOwner = c.name
      constantFrames.clear()
      c.methods.foreach(method)
      c.http.foreach(http(c.name, _))
    }
    line("}")
    // Message constructors for calls on `this` (methods not in any interface included), and the
    // constant frames of its methods.
    messages(c.name, c.messageSigs)
    frameOwner = null
  }

  /**
   * The Model API's entry points: each `[HTTPCallable]` method as an asynchronous call with
   * arguments the server decoded to the parameters' types, and the fields, read by a process of
   * the object's COG (never while one of its methods runs), or directly (`http$fields`) by the
   * server while the COG is blocked in `get` (`CogRuntime.inspectBlocked`).
   */
  private def http(cls: String, h: LHttp): Unit = {
    val api = "_root_.cogs.absc.modelapi"
    blank(); line("// the Model API")
    line(s"def http$$methods: List[$api.HttpMethod] = List(")
    indented {
      h.methods.zipWithIndex.foreach { case (m, i) =>
        val params = m.params.map { case (n, t, _) => s"$api.HttpParam(${Naming.stringLit(n)}, $t)" }.mkString("List(", ", ", ")")
        val args = m.params.zipWithIndex.map { case ((_, _, t), j) => s"a$$($j).asInstanceOf[${tpe(t)}]" }.mkString("(", ", ", ")")
        line(s"$api.HttpMethod(${Naming.stringLit(m.absName)}, $params, ${Naming.stringLit(m.result)},")
        indented(line(s"(a$$: IndexedSeq[Any]) => _root_.cogs.runtime.Cogs.send(this, ${Naming.stringLit(m.absName)}, $cls.${m.name}$args).asInstanceOf[_root_.cogs.runtime.Fut[Any]])" +
          (if (i < h.methods.length - 1) "," else "")))
      }
    }
    line(")")
    val fields = h.fields.map { case (abs, n) => s"(${Naming.stringLit(abs)}, this.$n)" }.mkString("List(", ", ", ")")
    line(s"def http$$fields: List[(String, Any)] = $fields")
    line(s"def http$$state: _root_.cogs.runtime.Fut[List[(String, Any)]] =")
    indented(line(s"_root_.cogs.runtime.Cogs.send(this, \"$$state\", (o$$: $cls) => Proc.done[List[(String, Any)]](o$$.http$$fields))"))
  }

  /**
   * The class's `recover` block (`AbsObject.recoverBlock$`): called with every exception that
   * leaves a method while the object lives; a matching branch runs and the object survives.
   */
  private def recover(c: LClass): Unit = {
    line("override protected def recoverBlock$(e$: Throwable): Boolean = e$ match {")
    indented {
      c.recover.foreach { br => caseHead(br); indented { stats(br.body); line("true") } }
      line("case _ => false")
    }
    line("}")
  }

  private def method(m: LMethod): Unit = {
    m.direct match {
      case Some(direct) => directMethod(m, direct)
      case None => procMethod(m)
    }
    entry(m)
  }

  /** The name of a method's entry for asynchronous calls (ABS names have no `$`). */
  private def entryName(s: LSig): String = s"${s.name}$$entry"

  /**
   * `m$entry(p$, ..)`: what an asynchronous call of `m` runs (its message, `FrameCall.message`),
   * returning the value or `Frame.Suspended`: the frame form, under the failure handler when the
   * method has one (`recovering$` links the frame that hands a later failure to `recover$`); a
   * plain method's value; without a frame form (an IR printed before the `frames` pass), the
   * method's `Proc` face run by the interpreter.
   */
  private def entry(m: LMethod): Unit = {
    val head = s"def ${entryName(m.sig)}${params(("p$", T.Ref("Process")) :: m.sig.params)}: Any ="
    val args = m.sig.params.map(_._1).mkString("(", ", ", ")")
    val pArgs = ("p$" :: m.sig.params.map(_._1)).mkString("(", ", ", ")")
    line(head)
    indented((m.frameCode, m.direct) match {
      case (Some((f, _)), _) if m.handler => line(s"try recovering$$(p$$, $f$pArgs) catch { case e$$: Throwable => throw recover$$(e$$) }")
      case (Some((f, _)), _) => line(s"$f$pArgs")
      case (None, Some(direct)) => line(s"$direct$args")
      case (None, None) if m.cps.isDefined => line(s"p$$.run(${m.sig.name}$args)") // no frame form: its Proc face, interpreted
      case (None, None) => line(s"Proc.now(${m.sig.name}$args)")
    })
  }

  /**
   * A plain method that direct synchronous calls use: its body is `m$now`, returning the value
   * (one JVM frame for the call, no `Proc`); `m`, which asynchronous calls and the interface use,
   * wraps that value. A failure is thrown from both, as from a plain `m` alone.
   */
  private def directMethod(m: LMethod, direct: String): Unit = {
    val (ss, v) = m.plain.get
    val args = m.sig.params.map(_._1).mkString(", ")
    blank()
    declStart(0)
    val over = if (m.overrides) "override " else ""
    val result = tpe(m.sig.result)
    if (v == S.Unit) line(s"${over}def ${m.sig.name}${params(m.sig.params)}: Proc[$result] = { $direct($args); Proc.unit }")
    else line(s"${over}def ${m.sig.name}${params(m.sig.params)}: Proc[$result] = Proc.done($direct($args))")
    line(s"def $direct${params(m.sig.params)}: $result = {")
    indented {
      prologue(m)
      handled(m) { stats(ss); nl(); if (v == S.Unit) w("()") else exp(v) }
    }
    line("}")
  }

  /**
   * A method in frame form (`LMethod.frameCode`): `m`, for asynchronous calls, the interface and
   * `Proc` code, and `m$body` (the form without the failure handler, where `Proc` code still calls
   * it: `LMethod.frame`) are calls of `m$f` as data.
   */
  private def frameMethod(m: LMethod, name: String, code: F): Unit = {
    val call = s"{ (p$$, _) => $name${("p$" :: m.sig.params.map(_._1)).mkString("(", ", ", ")")} }"
    val result = tpe(m.sig.result)
    blank()
    declStart(0)
    val over = if (m.overrides) "override " else ""
    line(s"${over}def ${m.sig.name}${params(m.sig.params)}: Proc[$result] =")
    indented(line(s"FrameCall.on[$result](this) $call${if (m.handler) recoverWith else ""}"))
    m.frame.foreach { body =>
      line(s"private def $body${params(m.sig.params)}: Proc[$result] =")
      indented(line(s"FrameCall.on[$result](this) $call"))
    }
    line(s"def $name${params(("p$", T.Ref("Process")) :: m.sig.params)}: Any = {")
    indented { prologue(m); frameBody(code) }
    line("}")
  }

  private def procMethod(m: LMethod): Unit = m.frameCode match {
    case Some((name, code)) if m.cps.isDefined => frameMethod(m, name, code)
    case _ => plainProcMethod(m)
  }

  /**
   * A plain method, or a computation's `Proc` form (an IR printed before the `frames` pass). A
   * self-call of `m$body` (`LMethod.frame`, without the failure handler) then needs that form as
   * a method of its own, and `m` is `m$body` under the handler.
   */
  private def plainProcMethod(m: LMethod): Unit = {
    blank()
    declStart(0)
    val over = if (m.overrides) "override " else ""
    val result = tpe(m.sig.result)
    val body = m.frame.filter(_ => m.cps.isDefined)
    body.foreach { b =>
      line(s"${over}def ${m.sig.name}${params(m.sig.params)}: Proc[$result] =")
      indented(line(s"$b(${m.sig.params.map(_._1).mkString(", ")})${if (m.handler) recoverWith else ""}"))
    }
    line(s"${body.fold(s"${over}def ${m.sig.name}")(b => s"private def $b")}${params(m.sig.params)}: Proc[$result] = {")
    indented {
      prologue(m)
      m.cps.foreach { p =>
        line("Proc.defer {"); indented(procBody(p)); line(if (m.handler && body.isEmpty) "}" + recoverWith else "}")
      }
      m.plain.foreach { case (ss, v) =>
        handled(m) { stats(ss); nl(); if (v == S.Unit) w("Proc.unit") else { w("Proc.done("); exp(v); w(")") } }
      }
    }
    line("}")
  }

  // Object death, as the IR says (LMethod.deadCheck, LMethod.handler; decided by lower.ObjectDeath).

  private val recoverWith = ".recoverWith { case e$: Throwable => Proc.raise(recover$(e$)) }"

  /** What a method's body starts with: its assigned parameters' locals, then the dead-object check. */
  private def prologue(m: LMethod): Unit = {
    m.shadowedParams.foreach { case (in, local) => line(s"var $local = $in") }
    if (m.deadCheck) line("if (dead$ != null) throw ObjectDeadException")
  }

  /** A plain body, in the handler that hands a failure to `recover$` when it may fail. */
  private def handled(m: LMethod)(body: => Unit): Unit =
    if (!m.handler) body
    else {
      line("try {")
      indented(body)
      line("} catch { case e$: Throwable => throw recover$(e$) }")
    }
}
