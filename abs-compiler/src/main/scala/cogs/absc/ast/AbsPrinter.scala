package cogs.absc.ast

/**
 * The AST as ABS source (`absc dump`): conventionally indented, with only the parentheses that
 * precedence and the grammar need (plus a few for reading: `let`, `if` and `case` as operands,
 * operator expressions used as statements).
 *
 * For every tree the parser produces, parsing the printed text gives an equal tree (positions
 * aside) and printing is idempotent; `AbsPrinterTest` checks both over the whole corpus. Some
 * trees only tools can build have no ABS spelling and are printed as near as the syntax allows:
 * a negative number outside a pattern (`-1` reads back as a negation), a right-nested `&`
 * guard (guards have no parentheses), a template text ending in a backslash.
 *
 * Depth: statements, expressions, patterns, types and guards nest arbitrarily deep (a generated
 * model may nest 10,000 levels), so they are printed from an explicit work stack, not by
 * recursion, and the JVM stack never grows with the tree. Indentation stops growing at
 * `MaxIndent` levels so the text stays linear in the size of the tree (at 10,000 levels full
 * indentation alone would be 100 million spaces). Declarations and modules nest to a fixed
 * depth and are printed by plain recursion.
 */
object AbsPrinter {

  /**
   * The modules of `unit`, separated by a blank line (no file name: a unit is its modules), then
   * its product line declarations (deltas, product line, products, feature model).
   */
  def print(unit: CompilationUnit): String = {
    val w = new Writer
    var first = true
    unit.modules.foreach { m => if (!first) { w.blankLine(); w.blankLine() }; first = false; w.module(m) }
    if (!unit.spl.isEmpty) { if (!first) { w.blankLine(); w.blankLine() }; w.spl(unit.spl) }
    w.result
  }

  private[absc] def print(module: ModuleDecl): String = { val w = new Writer; w.module(module); w.result }

  /** One statement, for tools and tests. */
  private[absc] def print(stmt: Stmt): String = { val w = new Writer; w.run(St(stmt)); w.sb.toString }

  /** One expression, for tools and tests. */
  private[absc] def print(exp: Exp): String = { val w = new Writer; w.run(Ex(exp, 0)); w.sb.toString }

  private[ast] val MaxIndent = 40

  // ---------------------------------------------------------------- the work stack's tasks

  private sealed trait Task
  private final case class Txt(s: String) extends Task
  private case object Nl extends Task
  private case object In extends Task
  private case object Out extends Task
  /** `e`, parenthesised if its level is below `min` (see `level`). */
  private final case class Ex(e: Exp, min: Int) extends Task
  private final case class St(s: Stmt) extends Task
  private final case class Pt(p: Pattern) extends Task
  private final case class Ty(t: TypeRef) extends Task
  private final case class Gd(g: Guard) extends Task
  /** `[Tag: e] ` */
  private final case class An(a: Annotation) extends Task
  private final case class LetTask(b: LetBinding) extends Task
  private final case class AnonTask(a: AnonFun) extends Task
  private final case class ParamTask(p: Param) extends Task

  // Levels of expressions, loosest to tightest; an operand position asks for a minimum level.
  // `let`, `if` and `case` extend as far to the right as they can, so as operands they are
  // parenthesised: their level is below that of every operand position.
  private val Open = 0
  private val TypeTest = 5
  private val Prefix = 8
  private val Atom = 9

  private def binLevel(op: BinaryOp): Int = op.precedence match {
    case p if p <= 4 => p // || && == <
    case p => p + 1 // + and *: `implements`/`as` sit between < and +
  }

  private def level(e: Exp): Int = e match {
    case b: Binary => binLevel(b.op)
    case _: ImplementsExp | _: AsExp => TypeTest
    case _: Unary => Prefix
    case _: LetExp | _: IfExp | _: CaseExp => Open
    case _: EffExp => Open
    case _ => Atom
  }

  /** A receiver of a call or `.get` must be an atom; a constructor is bracketed too, since `C.m` would lex as one qualified name. */
  private def bareReceiver(e: PureExp): Boolean = e match {
    case _: VarUse | _: FieldUse | _: ThisExp | _: FnApp | _: NAryFnApp | _: PartialFnApp | _: StringLit |
        _: TemplateString | _: NullLit | _: DestinyExp => true
    case _ => false
  }

  // ---------------------------------------------------------------- literals

  private[ast] def stringLiteral(s: String): String = {
    val b = new java.lang.StringBuilder(s.length + 2).append('"')
    var i = 0
    while (i < s.length) {
      val c = s.charAt(i)
      c match {
        case '"' => b.append("\\\"")
        case '\\' => b.append("\\\\")
        case '\n' => b.append("\\n")
        case '\t' => b.append("\\t")
        case '\r' => b.append("\\r")
        case '\b' => b.append("\\b")
        case '\f' => b.append("\\f")
        case _ if Character.isISOControl(c) || Character.isSurrogate(c) && !pairedSurrogate(s, i) =>
          b.append(f"\\u${c.toInt}%04x")
        case _ => b.append(c)
      }
      i += 1
    }
    b.append('"').toString
  }

  private def pairedSurrogate(s: String, i: Int): Boolean = {
    val c = s.charAt(i)
    if (Character.isHighSurrogate(c)) i + 1 < s.length && Character.isLowSurrogate(s.charAt(i + 1))
    else i > 0 && Character.isHighSurrogate(s.charAt(i - 1))
  }

  /** Template text: only `` ` `` and `$` are escaped (with a backslash); everything else stands for itself. */
  private[ast] def templateText(s: String): String = s.replace("`", "\\`").replace("$", "\\$")

  private def number(l: Literal): String = l match {
    case IntLit(v) => v.toString
    case FloatLit(v) => v.toString // digits '.' digits, maybe E[-]digits: ABS float syntax (never NaN or infinite from the parser)
    case StringLit(v) => stringLiteral(v)
  }

  // ---------------------------------------------------------------- the writer

  private final class Writer {
    val sb = new java.lang.StringBuilder
    private var depth = 0
    private val stack = new java.util.ArrayDeque[Task]

    def result: String = { sb.append('\n'); sb.toString }

    private def w(s: String): Unit = sb.append(s)
    private def nl(): Unit = {
      sb.append('\n')
      var i = math.min(depth, MaxIndent)
      while (i > 0) { sb.append("  "); i -= 1 }
    }
    def blankLine(): Unit = sb.append('\n')

    /** Pushes `ts` so that they run in the order given. */
    private def push(ts: Task*): Unit = { var i = ts.length - 1; while (i >= 0) { stack.push(ts(i)); i -= 1 } }

    /** Pushes `items` separated by `sep`, in order. */
    private def pushList[A](items: List[A], sep: String)(task: A => Task): Unit = {
      val rev = items.reverse
      var first = true
      rev.foreach { a => if (!first) stack.push(Txt(sep)); first = false; stack.push(task(a)) }
    }

    /** Prints `t` and everything it expands to, from the work stack. */
    def run(t: Task): Unit = {
      stack.push(t)
      while (!stack.isEmpty) step(stack.pop())
    }

    private def step(t: Task): Unit = t match {
      case Txt(s) => w(s)
      case Nl => nl()
      case In => depth += 1
      case Out => depth -= 1
      case Ex(e, min) =>
        if (level(e) < min) push(Txt("("), Ex(e, 0), Txt(")")) else exp(e)
      case St(s) => stmt(s)
      case Pt(p) => pattern(p)
      case Ty(tr) => typeRef(tr)
      case Gd(g) => guard(g)
      case An(a) => annotation(a)
      case LetTask(b) => push(Ty(b.tpe), Txt(s" ${b.name} = "), Ex(b.value, 0))
      case AnonTask(a) =>
        w("(")
        stack.push(Ex(a.body, 0))
        stack.push(Txt(") => "))
        pushList(a.params, ", ")(ParamTask)
      case ParamTask(p) => push(Ty(p.tpe), Txt(" " + p.name)); annotations(p.annotations)
    }

    private def annotations(as: List[Annotation]): Unit = pushList(as, "")(An)

    private def annotation(a: Annotation): Unit =
      push(Txt("[" + a.tag.fold("")(_.toString + ": ")), Ex(a.value, 0), Txt("] "))

    private def typeRef(t: TypeRef): Unit = {
      // Pushed last to first: annotations, the name, then the arguments.
      if (t.args.nonEmpty) { stack.push(Txt(">")); pushList(t.args, ", ")(Ty); stack.push(Txt("<")) }
      stack.push(Txt(t.name.toString))
      annotations(t.annotations)
    }

    private def args(as: List[PureExp], open: String, close: String): Unit = {
      stack.push(Txt(close))
      pushList(as, ", ")(Ex(_, 0))
      stack.push(Txt(open))
    }

    private def receiver(e: PureExp): Task = if (bareReceiver(e)) Ex(e, 0) else Ex(e, Atom + 1)

    private def exp(e: Exp): Unit = e match {
      case l: IntLit => w(number(l))
      case l: FloatLit => w(number(l))
      case l: StringLit => w(number(l))
      case TemplateString(parts, holes) =>
        stack.push(Txt("`"))
        val ps = parts.reverse.iterator
        val hs = holes.reverse.iterator
        stack.push(Txt(templateText(ps.next())))
        while (hs.hasNext) {
          stack.push(Txt("$")); stack.push(Ex(hs.next(), 0)); stack.push(Txt("$"))
          stack.push(Txt(templateText(ps.next())))
        }
        w("`")
      case _: NullLit => w("null")
      case _: ThisExp => w("this")
      case _: DestinyExp => w("destiny")
      case VarUse(n) => w(n)
      case FieldUse(n) => w("this."); w(n)
      case FnApp(f, as) => w(f.toString); args(as, "(", ")")
      case NAryFnApp(f, as) => w(f.toString); args(as, "[", "]")
      case PartialFnApp(f, fs, as) =>
        w(f.toString)
        args(as, "(", ")")
        stack.push(Txt(")"))
        pushList(fs, ", ") {
          case FunName(n) => Txt(n.toString)
          case a: AnonFun => AnonTask(a)
        }
        stack.push(Txt("("))
      case ConstructorApp(c, as) => w(c.toString); if (as.nonEmpty) args(as, "(", ")")
      case Unary(op, x) => w(op.symbol); push(Ex(x, Prefix))
      case Binary(op, l, r) =>
        val lv = binLevel(op)
        push(Ex(l, lv), Txt(s" ${op.symbol} "), Ex(r, lv + 1))
      case LetExp(bs, body) =>
        w("let ")
        stack.push(Ex(body, 0))
        stack.push(Txt(" in "))
        pushList(bs, ", ")(b => LetTask(b))
      case IfExp(c, a, b) => w("if "); push(Ex(c, 0), Txt(" then "), Ex(a, 0), Txt(" else "), Ex(b, 0))
      case CaseExp(s, bs) =>
        w("case ")
        var first = true
        val tasks = List.newBuilder[Task]
        tasks += Ex(s, 0) += Txt(" {") += In
        bs.foreach { b =>
          tasks += Nl
          if (!first) tasks += Txt("| ")
          first = false
          tasks += Pt(b.pattern) += Txt(" => ") += Ex(b.body, 0)
        }
        tasks += Out += Nl += Txt("}")
        push(tasks.result(): _*)
      case ImplementsExp(x, i) => push(Ex(x, TypeTest), Txt(s" implements $i"))
      case AsExp(x, i) => push(Ex(x, TypeTest), Txt(s" as $i"))
      case NewExp(c, as, local) => w(if (local) "new local " else "new "); w(c.toString); args(as, "(", ")")
      case AsyncCall(t, m, as) => args(as, "(", ")"); push(receiver(t), Txt(s"!$m"))
      case SyncCall(t, m, as) => args(as, "(", ")"); push(receiver(t), Txt(s".$m"))
      case GetExp(f) => push(receiver(f), Txt(".get"))
      case AwaitExp(c) => w("await "); push(Ex(c, 0))
    }


    private def pattern(p: Pattern): Unit = p match {
      case _: WildcardPattern => w("_")
      case VarPattern(n) => w(n)
      case LiteralPattern(l) => w(number(l))
      case ConstructorPattern(c, ps) =>
        w(c.toString)
        if (ps.nonEmpty) { stack.push(Txt(")")); pushList(ps, ", ")(Pt); stack.push(Txt("(")) }
    }

    private def guard(g: Guard): Unit = g match {
      case ClaimGuard(VarUse(n)) => w(n); w("?")
      case ClaimGuard(FieldUse(n)) => w("this."); w(n); w("?")
      case ExpGuard(c) => push(Ex(c, 0))
      case AndGuard(l, r) => push(Gd(l), Txt(" & "), Gd(r))
      case DurationGuard(min, max) => push(duration(min, max, ")"): _*)
    }

    private def duration(min: PureExp, max: Option[PureExp], end: String): List[Task] =
      Txt("duration(") :: Ex(min, 0) :: max.toList.flatMap(m => List(Txt(", "), Ex(m, 0))) ::: List(Txt(end))

    /** The body of `if`, `while`, `foreach`, `try`, `else`: a block on the same line, anything else indented on the next. */
    private def body(s: Stmt): List[Task] = s match {
      case b: Block => List(Txt(" "), St(b))
      case other => List(In, Nl, St(other), Out)
    }

    /** `else`, `catch`: after a block on its line, else on the next. */
    private def continuation(after: Stmt, word: String): List[Task] = after match {
      case _: Block => List(Txt(s" $word"))
      case _ => List(Nl, Txt(word))
    }

    private def branches(bs: List[SwitchBranch]): List[Task] =
      if (bs.isEmpty) List(Txt("{ }"))
      else Txt("{") :: In :: bs.flatMap(b => List(Nl, Pt(b.pattern), Txt(" => "), St(b.body))) ::: List(Out, Nl, Txt("}"))

    private def stmt(s: Stmt): Unit = {
      val ts: List[Task] = s match {
        case Block(Nil, _) => List(Txt("{ }"))
        case Block(ss, _) => Txt("{") :: In :: ss.flatMap(x => List(Nl, St(x))) ::: List(Out, Nl, Txt("}"))
        case _: SkipStmt => List(Txt("skip;"))
        case _: SuspendStmt => List(Txt("suspend;"))
        case VarDeclStmt(n, t, init, _) => Ty(t) :: Txt(s" $n") :: init.toList.flatMap(e => List(Txt(" = "), Ex(e, 0))) ::: List(Txt(";"))
        case AssignStmt(target, v, _) =>
          val lhs = target match { case FieldUse(n) => s"this.$n"; case other => other.name }
          List(Txt(s"$lhs = "), Ex(v, 0), Txt(";"))
        case ExpStmt(e, _) =>
          // A statement starting with `if` or `case` is not an expression statement, and one
          // starting with a type (`List < Int > x;`) reads as a declaration: operator
          // expressions and `let`/`if`/`case` get parentheses here.
          val min = e match { case _: EffExp => 0; case p: PureExp => if (level(p) < Prefix) Atom + 1 else 0 }
          List(Ex(e, min), Txt(";"))
        case AssertStmt(c, _) => List(Txt("assert "), Ex(c, 0), Txt(";"))
        case AwaitStmt(g, _) => List(Txt("await "), Gd(g), Txt(";"))
        case ReturnStmt(e, _) => List(Txt("return "), Ex(e, 0), Txt(";"))
        case ThrowStmt(e, _) => List(Txt("throw "), Ex(e, 0), Txt(";"))
        case DieStmt(e, _) => List(Txt("die "), Ex(e, 0), Txt(";"))
        case MoveCogToStmt(e, _) => List(Txt("movecogto "), Ex(e, 0), Txt(";"))
        case DurationStmt(min, max, _) => duration(min, max, ");")
        case IfStmt(c, t, e, _) =>
          List(Txt("if ("), Ex(c, 0), Txt(")")) ::: body(t) ::: (e match {
            case None => Nil
            case Some(elseIf: IfStmt) if elseIf.annotations.isEmpty => continuation(t, "else") ::: List(Txt(" "), St(elseIf))
            case Some(other) => continuation(t, "else") ::: body(other)
          })
        case WhileStmt(c, b, _) => List(Txt("while ("), Ex(c, 0), Txt(")")) ::: body(b)
        case ForeachStmt(v, i, l, b, _) =>
          List(Txt(s"foreach ($v${i.fold("")(", " + _)} in "), Ex(l, 0), Txt(")")) ::: body(b)
        case SwitchStmt(e, bs, _) => List(Txt("switch ("), Ex(e, 0), Txt(") ")) ::: branches(bs)
        case TryCatchStmt(b, cs, f, _) =>
          Txt("try") :: body(b) ::: continuation(b, "catch") ::: Txt(" ") :: branches(cs) :::
            f.toList.flatMap(x => Txt(" finally") :: body(x))
      }
      push(ts: _*)
      annotations(s.annotations)
    }

    // ------------------------------------------------------------ declarations (bounded depth)

    private def line(s: String): Unit = { nl(); w(s) }

    private def params(ps: List[Param]): Unit = {
      w("(")
      var first = true
      ps.foreach { p => if (!first) w(", "); first = false; param(p) }
      w(")")
    }

    private def param(p: Param): Unit = { annotationsNow(p.annotations); run(Ty(p.tpe)); w(" "); w(p.name) }

    private def annotationsNow(as: List[Annotation]): Unit = as.foreach(a => run(An(a)))

    private def typeParams(ps: List[TypeParam]): String = if (ps.isEmpty) "" else ps.map(_.name).mkString("<", ", ", ">")

    private def names(sel: NameSelection): String = sel match {
      case AllNames => "*"
      case SomeNames(ns) => ns.map(_.name.toString).mkString(", ")
    }

    def module(m: ModuleDecl): Unit = {
      w(s"module ${m.name};")
      m.exports.foreach(e => line(s"export ${names(e.names)}${e.from.fold("")(" from " + _)};"))
      m.imports.foreach(i => line(s"import ${names(i.names)}${i.from.fold("")(" from " + _)};"))
      m.decls.foreach { d => blankLine(); nl(); decl(d) }
      m.main.foreach { b => blankLine(); nl(); run(St(b)) }
    }

    /** Annotations of a declaration, each on its own line before it. */
    private def declAnnotations(as: List[Annotation]): Unit = as.foreach { a => run(An(a)); sb.setLength(sb.length - 1); nl() }

    private def constructorArgs(as: List[ConstructorArg]): Unit = {
      w("(")
      var first = true
      as.foreach { a => if (!first) w(", "); first = false; run(Ty(a.tpe)); a.selector.foreach(s => w(" " + s)) }
      w(")")
    }

    private def decl(d: Decl): Unit = {
      declAnnotations(d.annotations)
      d match {
        case DataDecl(n, tps, cs, _) =>
          w(s"data $n${typeParams(tps)}")
          var first = true
          cs.foreach { c =>
            w(if (first) " = " else " | "); first = false
            w(c.name); if (c.args.nonEmpty) constructorArgs(c.args)
          }
          w(";")
        case TypeSynDecl(n, tps, rhs, _) => w(s"type $n${typeParams(tps)} = "); run(Ty(rhs)); w(";")
        case ExceptionDecl(n, as, _) => w(s"exception $n"); if (as.nonEmpty) constructorArgs(as); w(";")
        case f: FunctionDecl =>
          w("def "); run(Ty(f.resultType)); w(s" ${f.name}${typeParams(f.typeParams)}")
          if (f.funParams.nonEmpty) w(f.funParams.map(_.name).mkString("(", ", ", ")"))
          params(f.params)
          f.body match {
            case BuiltinBody(Nil) => w(" = builtin;")
            case BuiltinBody(as) => w(" = builtin"); args(as, "(", ")"); drain(); w(";")
            case ExpBody(e) => w(" ="); depth += 1; nl(); run(Ex(e, 0)); depth -= 1; w(";")
          }
        case InterfaceDecl(n, ext, ms, _) =>
          w(s"interface $n")
          if (ext.nonEmpty) w(ext.map(_.name.toString).mkString(" extends ", ", ", ""))
          if (ms.isEmpty) w(" { }")
          else { w(" {"); depth += 1; ms.foreach { m => nl(); sig(m); w(";") }; depth -= 1; line("}") }
        case c: ClassDecl => classDecl(c)
        case TraitDecl(n, e, _) => w(s"trait $n = "); traitExpr(e); w(";")
      }
    }

    private def drain(): Unit = while (!stack.isEmpty) step(stack.pop())

    private def sig(m: MethodSig): Unit = {
      annotationsNow(m.annotations); run(Ty(m.resultType)); w(s" ${m.name}"); params(m.params)
    }

    private def method(m: MethodDecl): Unit = { sig(m.sig); w(" "); run(St(m.body)) }

    private def classDecl(c: ClassDecl): Unit = {
      w(s"class ${c.name}")
      if (c.params.nonEmpty) params(c.params)
      if (c.implementsList.nonEmpty) w(c.implementsList.map(_.name.toString).mkString(" implements ", ", ", ""))
      w(" {")
      depth += 1
      var sections = 0
      def section(): Unit = { if (sections > 0) blankLine(); sections += 1 }
      if (c.fields.nonEmpty) {
        section()
        c.fields.foreach { f =>
          nl(); annotationsNow(f.annotations); run(Ty(f.tpe)); w(s" ${f.name}")
          f.init.foreach { e => w(" = "); run(Ex(e, 0)) }
          w(";")
        }
      }
      c.init.foreach { b => section(); nl(); run(St(b)) }
      if (c.recover.nonEmpty) { section(); nl(); w("recover "); push(branches(c.recover): _*); drain() }
      if (c.uses.nonEmpty) { section(); c.uses.foreach { u => nl(); w("uses "); traitExpr(u); w(";") } }
      c.methods.foreach { m => section(); nl(); method(m) }
      depth -= 1
      if (sections == 0) w(" }") else line("}")
    }

    private def methodSet(s: MethodSet): Unit = s match {
      case TraitRef(n) => w(n)
      case MethodList(Nil) => w("{ }")
      case MethodList(ms) =>
        w("{")
        depth += 1
        var first = true
        ms.foreach { m => if (!first) blankLine(); first = false; nl(); method(m) }
        depth -= 1
        line("}")
    }

    private def traitExpr(e: TraitExpr): Unit = {
      methodSet(e.base)
      e.ops.foreach {
        case TraitAdds(s) => w(" adds "); methodSet(s)
        case TraitModifies(s) => w(" modifies "); methodSet(s)
        case TraitRemoves(List(one)) => w(" removes "); sig(one)
        case TraitRemoves(Nil) => w(" removes { }")
        case TraitRemoves(sigs) =>
          w(" removes {"); depth += 1; sigs.foreach { m => nl(); sig(m); w(";") }; depth -= 1; line("}")
      }
    }

    // ---------------------------------------------------------------- product lines (Spl.scala)

    def spl(u: SplDecls): Unit = {
      var first = true
      def next(): Unit = { if (!first) { blankLine(); nl() }; first = false }
      u.deltas.foreach { d => next(); delta(d) }
      u.productLine.foreach { pl => next(); productLine(pl) }
      if (u.products.nonEmpty) { next(); var f = true; u.products.foreach { p => if (!f) nl(); f = false; product(p) } }
      u.features.foreach { f => next(); featureModel(f) }
    }

    private def delta(d: DeltaDecl): Unit = {
      w(s"delta ${d.name}")
      if (d.params.nonEmpty) params(d.params)
      w(";")
      d.uses.foreach(u => line(s"uses $u;"))
      d.modifiers.foreach { m => nl(); modifier(m) }
    }

    private def modifier(m: DeltaModifier): Unit = m match {
      case AddsDecl(d) => w("adds "); decl(d)
      case ModifiesData(d) => w("modifies "); decl(d)
      case ModifiesTypeSyn(d) => w("modifies "); decl(d)
      case RemovesClass(n) => w(s"removes class $n;")
      case RemovesInterface(n) => w(s"removes interface $n;")
      case ModifiesClass(n, adds, removes, mods) =>
        w(s"modifies class $n")
        if (adds.nonEmpty) w(adds.map(_.name.toString).mkString(" adds ", ", ", ""))
        if (removes.nonEmpty) w(removes.map(_.name.toString).mkString(" removes ", ", ", ""))
        if (mods.isEmpty) w(" { }")
        else { w(" {"); depth += 1; mods.foreach { c => nl(); classModifier(c) }; depth -= 1; line("}") }
      case ModifiesInterface(n, mods) =>
        w(s"modifies interface $n")
        if (mods.isEmpty) w(" { }")
        else {
          w(" {"); depth += 1
          mods.foreach {
            case AddsSig(sg) => nl(); w("adds "); sig(sg); w(";")
            case RemovesSig(sg) => nl(); w("removes "); sig(sg); w(";")
          }
          depth -= 1; line("}")
        }
      case AddsImport(i) => w(s"adds import ${names(i.names)}${i.from.fold("")(" from " + _)};")
      case AddsExport(e) => w(s"adds export ${names(e.names)}${e.from.fold("")(" from " + _)};")
    }

    private def field(f: FieldDecl): Unit = {
      annotationsNow(f.annotations); run(Ty(f.tpe)); w(s" ${f.name}")
      f.init.foreach { e => w(" = "); run(Ex(e, 0)) }
      w(";")
    }

    private def classModifier(c: ClassModifier): Unit = c match {
      case AddsField(f) => w("adds "); field(f)
      case RemovesField(f) => w("removes "); field(f)
      case AddsMethods(s) => w("adds "); methodSet(s)
      case ModifiesMethods(s) => w("modifies "); methodSet(s)
      case RemovesMethods(List(one)) => w("removes "); sig(one); w(";")
      case RemovesMethods(sigs) =>
        w("removes {"); depth += 1; sigs.foreach { m => nl(); sig(m); w(";") }; depth -= 1; line("}")
    }

    private def productLine(pl: ProductLineDecl): Unit = {
      w(s"productline ${pl.name};")
      line(pl.featureNames.mkString("features ", ", ", ";"))
      pl.clauses.foreach { c =>
        nl(); w(s"delta ${c.delta}")
        if (c.args.nonEmpty) w(c.args.map(deltaArg).mkString("(", ", ", ")"))
        if (c.after.nonEmpty) w(c.afterNames.mkString(" after ", ", ", ""))
        c.when.foreach(x => w(" when " + cond(x)))
        w(";")
      }
    }

    private def deltaArg(a: DeltaArg): String = a match {
      case AttrArg(f, x) => s"$f.$x"
      case IntArg(i) => i.toString
      case StringArg(s) => stringLiteral(s)
      case NameArg(n) => n
    }

    private def cond(c: AppCond): String = c match {
      case FeatureCond(f) => f
      case NotCond(x) => "!" + cond(x)
      case AndCond(l, r) => s"(${cond(l)} && ${cond(r)})"
      case OrCond(l, r) => s"(${cond(l)} || ${cond(r)})"
    }

    private def featureSpec(f: FeatureSpec): String =
      if (f.attrs.isEmpty) f.name else f.attrs.map(a => s"${a.name} = ${attrValue(a.value)}").mkString(s"${f.name}{", ", ", "}")

    private def attrValue(v: AttrValue): String = v match {
      case StringValue(s) => stringLiteral(s)
      case other => other.toString
    }

    private def productExpr(e: ProductExpr): String = e match {
      case ProductSet(fs) => fs.map(featureSpec).mkString("{", ", ", "}")
      case ProductName(n) => n
      case ProductAnd(l, r) => s"(${productExpr(l)} && ${productExpr(r)})"
      case ProductOr(l, r) => s"(${productExpr(l)} || ${productExpr(r)})"
      case ProductMinus(l, r) => s"(${productExpr(l)} - ${productExpr(r)})"
    }

    private def product(p: ProductDecl): Unit = p.body match {
      case Right(fs) => w(fs.map(featureSpec).mkString(s"product ${p.name}(", ", ", ");"))
      case Left(e) => w(s"product ${p.name} = ${productExpr(e)};")
    }

    private def featureModel(f: FeatureModelDecl): Unit = f match {
      case FeatureRoot(d) => w("root "); feature(d)
      case FeatureExtension(n, b) => w(s"extension $n {"); featureBody(b); line("}")
    }

    private def feature(d: FeatureDecl): Unit = {
      w(d.name)
      val b = d.body
      if (b.group.isDefined || b.attrs.nonEmpty || b.constraints.nonEmpty) { w(" {"); featureBody(b); line("}") }
    }

    private def featureBody(b: FeatureBody): Unit = {
      depth += 1
      b.group.foreach { g =>
        nl()
        w("group " + (g.card match {
          case AllOf => "allof"
          case Between(lo, Some(hi)) if lo == 1 && hi == 1 => "oneof"
          case Between(lo, hi) => s"[$lo .. ${hi.fold("*")(_.toString)}]"
        }) + " {")
        depth += 1
        var first = true
        g.members.foreach { case (opt, m) => if (!first) w(","); first = false; nl(); if (opt) w("opt "); feature(m) }
        depth -= 1
        line("}")
      }
      b.attrs.foreach { a =>
        nl(); w(s"${a.tpe} ${a.name}")
        a.values match {
          case Some(vs) => w(vs.mkString(" in {", ", ", "}"))
          case None if a.lo.isDefined || a.hi.isDefined =>
            w(s" in [${a.lo.fold("*")(_.toString)} .. ${a.hi.fold("*")(_.toString)}]")
          case None =>
        }
        w(";")
      }
      b.constraints.foreach { c =>
        nl()
        w(c match {
          case IfIn(e) => s"ifin: ${mexp(e)};"
          case IfOut(e) => s"ifout: ${mexp(e)};"
          case Require(f) => s"require: $f;"
          case Exclude(f) => s"exclude: $f;"
        })
      }
      depth -= 1
    }

    private def mexp(e: MExp): String = e match {
      case MInt(v) => v.toString
      case MName(n) => n
      case MAttr(f, x) => s"$f.$x"
      case MUnary(op, x) => s"$op(${mexp(x)})"
      case MBinary(op, l, r) => s"(${mexp(l)} $op ${mexp(r)})"
    }
  }
}
