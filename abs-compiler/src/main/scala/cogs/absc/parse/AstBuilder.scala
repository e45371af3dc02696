package cogs.absc.parse

import scala.collection.mutable.ListBuffer
import scala.jdk.CollectionConverters._

import org.antlr.v4.runtime.{ParserRuleContext, Token}
import org.antlr.v4.runtime.misc.Interval
import org.antlr.v4.runtime.tree.TerminalNode

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic
import cogs.absc.parse.AbsParser._

/**
 * Turns an error-free ANTLR parse tree into the AST of cogs.absc.ast.
 *
 * It runs only on trees without syntax errors, so every child the grammar requires is
 * present (no null checks beyond optional parts). Checks that need more than the
 * grammar (pure field initialisers, call receivers, one init block per class, `import`
 * needing a module) are reported as errors in `errors`; building goes on so that all of
 * them are found in one run.
 *
 * The rules with many alternatives (statements, expressions, patterns, ...) are labelled
 * in the grammar, so each alternative has its own context class; the builder matches on
 * those classes, one typed method per syntactic category. (ANTLR's generated visitor
 * would force one result type for all categories, and casts at every call.)
 */
private[parse] final class AstBuilder(file: String) {

  val errors: ListBuffer[Diagnostic] = ListBuffer.empty

  private def error(pos: Pos, message: String): Unit = errors += Diagnostic.error(pos, message)

  /** A parse tree shape the grammar cannot produce: a bug in absc, not in the model. */
  private def unexpectedTree(t: Any): Nothing =
    throw new IllegalStateException(s"absc: no AST for parse tree node ${t.getClass.getSimpleName}")

  // ---------------------------------------------------------------------------------
  // Positions and small helpers

  private def pos(t: Token): Pos = Pos(file, t.getLine, t.getCharPositionInLine + 1)
  private def pos(n: TerminalNode): Pos = pos(n.getSymbol)
  private def pos(c: ParserRuleContext): Pos = pos(c.getStart)

  private def list[A, B](xs: java.util.List[A])(f: A => B): List[B] = xs.asScala.iterator.map(f).toList

  private def qname(c: ParserRuleContext): QName = QName.parse(c.getText)

  // ---------------------------------------------------------------------------------
  // Compilation units and modules

  def compilationUnit(c: CompilationUnitContext): CompilationUnit =
    CompilationUnit(file, list(c.moduleDecl)(moduleDecl),
      SplDecls(list(c.deltaDecl)(deltaDecl), Option(c.productLineDecl).map(productLine), list(c.productDecl)(product),
        list(c.featureModelDecl)(featureModelDecl)))

  private def moduleDecl(c: ModuleDeclContext): ModuleDecl =
    ModuleDecl(
      name = c.typeName.getText,
      exports = list(c.exportDecl)(exportDecl),
      imports = list(c.importDecl)(importDecl),
      decls = list(c.decl)(decl),
      main = Option(c.mainBlock).map(m => block(m.block, annotations(m.annotation)))
    )(pos(c))

  private def exportDecl(c: ExportDeclContext): Export =
    Export(nameSelection(c.nameSelection), Option(c.typeName).map(_.getText))(pos(c))

  private def importDecl(c: ImportDeclContext): Import = {
    val names = nameSelection(c.nameSelection)
    val from = Option(c.typeName).map(_.getText)
    if (from.isEmpty) names match {
      case AllNames =>
        error(pos(c), "'import *' needs a module to import from: write 'import * from M;'")
      case SomeNames(refs) =>
        for (r <- refs if !r.name.isQualified)
          error(r.pos, s"import of '${r.name}' needs a module: write 'import ${r.name} from M;' or 'import M.${r.name};'")
    }
    Import(names, from)(pos(c))
  }

  private def nameSelection(c: NameSelectionContext): NameSelection = c match {
    case _: AllNamesSelContext => AllNames
    case s: SomeNamesSelContext => SomeNames(list(s.anyName)(a => NameRef(qname(a))(pos(a))))
    case other => unexpectedTree(other)
  }

  // ---------------------------------------------------------------------------------
  // Declarations

  private def decl(c: DeclContext): Decl = {
    val anns = annotations(c.annotation)
    if (c.dataDecl != null) dataDecl(c.dataDecl, anns)
    else if (c.typeSynDecl != null) typeSynDecl(c.typeSynDecl, anns)
    else if (c.exceptionDecl != null) exceptionDecl(c.exceptionDecl, anns)
    else if (c.functionDecl != null) functionDecl(c.functionDecl, anns)
    else if (c.interfaceDecl != null) interfaceDecl(c.interfaceDecl, anns)
    else if (c.classDecl != null) classDecl(c.classDecl, anns)
    else traitDecl(c.traitDecl, anns)
  }

  private def typeParams(c: TypeParamsContext): List[TypeParam] =
    if (c == null) Nil else list(c.TYPE_ID)(t => TypeParam(t.getText)(pos(t)))

  private def dataDecl(c: DataDeclContext, anns: List[Annotation]): DataDecl =
    DataDecl(c.TYPE_ID.getText, typeParams(c.typeParams), list(c.constructorDecl)(constructorDecl), anns)(
      pos(c.TYPE_ID))

  private def constructorDecl(c: ConstructorDeclContext): ConstructorDecl =
    ConstructorDecl(c.TYPE_ID.getText, constructorArgs(c.constructorArgs))(pos(c.TYPE_ID))

  private def constructorArgs(c: ConstructorArgsContext): List[ConstructorArg] =
    if (c == null) Nil
    else list(c.constructorArg)(a =>
      // `[HTTPName: "key"] T x`: the annotations go on the type, as on a type argument.
      ConstructorArg(typeRef(a.`type`, annotations(a.annotation)), Option(a.LOWER_ID).map(_.getText))(pos(a.`type`)))

  private def typeSynDecl(c: TypeSynDeclContext, anns: List[Annotation]): TypeSynDecl =
    TypeSynDecl(c.TYPE_ID.getText, typeParams(c.typeParams), typeRef(c.`type`), anns)(pos(c.TYPE_ID))

  private def exceptionDecl(c: ExceptionDeclContext, anns: List[Annotation]): ExceptionDecl =
    ExceptionDecl(c.TYPE_ID.getText, constructorArgs(c.constructorArgs), anns)(pos(c.TYPE_ID))

  private def functionDecl(c: FunctionDeclContext, anns: List[Annotation]): FunctionDecl = {
    // The first lower-case name is the function's, any others are its function parameters.
    val names = c.LOWER_ID.asScala.toList
    FunctionDecl(
      name = names.head.getText,
      typeParams = typeParams(c.typeParams),
      funParams = names.tail.map(n => FunParam(n.getText)(pos(n))),
      params = paramList(c.paramList),
      resultType = typeRef(c.`type`, annotations(c.annotation)),
      body = functionBody(c.functionBody),
      annotations = anns
    )(pos(names.head))
  }

  private def functionBody(c: FunctionBodyContext): FunctionBody = c match {
    case b: BuiltinBodyContext => BuiltinBody(list(b.pureExp)(pureExp))(pos(b))
    case e: ExpBodyContext => ExpBody(pureExp(e.pureExp))(pos(e))
    case other => unexpectedTree(other)
  }

  private def interfaceDecl(c: InterfaceDeclContext, anns: List[Annotation]): InterfaceDecl =
    InterfaceDecl(c.TYPE_ID.getText, list(c.typeName)(nameRef), list(c.methodSig)(methodSig), anns)(pos(c.TYPE_ID))

  private def nameRef(c: TypeNameContext): NameRef = NameRef(qname(c))(pos(c))

  private def methodSig(c: MethodSigContext): MethodSig =
    MethodSig(c.LOWER_ID.getText, typeRef(c.`type`), paramList(c.paramList), annotations(c.annotation))(pos(c.LOWER_ID))

  private def paramList(c: ParamListContext): List[Param] = if (c == null) Nil else list(c.param)(param)

  private def param(c: ParamContext): Param =
    Param(c.LOWER_ID.getText, typeRef(c.`type`), annotations(c.annotation))(pos(c.LOWER_ID))

  private def classDecl(c: ClassDeclContext, anns: List[Annotation]): ClassDecl = {
    val fields = ListBuffer.empty[FieldDecl]
    val methods = ListBuffer.empty[MethodDecl]
    val uses = ListBuffer.empty[TraitExpr]
    var init = Option.empty[Block]
    var recover = Option.empty[List[SwitchBranch]]
    c.classMember.asScala.foreach {
      case f: FieldMemberContext =>
        val init = Option(f.exp).map(e => pureOnly(exp(e), "a field initialiser", "in the init block"))
        fields += FieldDecl(f.LOWER_ID.getText, typeRef(f.`type`), init, annotations(f.annotation))(pos(f.LOWER_ID))
      case m: MethodMemberContext =>
        methods += methodDecl(m.methodDecl)
      case i: InitMemberContext =>
        if (init.isDefined) error(pos(i), s"class ${c.TYPE_ID.getText} already has an init block")
        else init = Some(block(i.block, Nil))
      case r: RecoverMemberContext =>
        if (recover.isDefined) error(pos(r), s"class ${c.TYPE_ID.getText} already has a recovery block")
        else recover = Some(list(r.switchBranch)(switchBranch))
      case u: UsesMemberContext =>
        uses += traitExpr(u.traitExpr)
      case other => unexpectedTree(other)
    }
    ClassDecl(
      name = c.TYPE_ID.getText,
      params = paramList(c.paramList),
      implementsList = list(c.typeName)(nameRef),
      fields = fields.toList,
      init = init,
      recover = recover.getOrElse(Nil),
      uses = uses.toList,
      methods = methods.toList,
      annotations = anns
    )(pos(c.TYPE_ID))
  }

  private def methodDecl(c: MethodDeclContext): MethodDecl = {
    val p = pos(c.LOWER_ID)
    val sig = MethodSig(c.LOWER_ID.getText, typeRef(c.`type`), paramList(c.paramList), annotations(c.annotation))(p)
    MethodDecl(sig, block(c.block, Nil))(p)
  }

  private def traitDecl(c: TraitDeclContext, anns: List[Annotation]): TraitDecl =
    TraitDecl(c.traitName.getText, traitExpr(c.traitExpr), anns)(pos(c.traitName))

  private def traitExpr(c: TraitExprContext): TraitExpr =
    TraitExpr(methodSet(c.methodSet), list(c.traitOp)(traitOp))(pos(c))

  private def methodSet(c: MethodSetContext): MethodSet = c match {
    case r: TraitRefSetContext => TraitRef(r.getText)(pos(r))
    case m: SingleMethodSetContext => MethodList(List(methodDecl(m.methodDecl)))(pos(m))
    case m: MethodListSetContext => MethodList(list(m.methodDecl)(methodDecl))(pos(m))
    case other => unexpectedTree(other)
  }

  private def traitOp(c: TraitOpContext): TraitOp = c match {
    case a: AddsOpContext => TraitAdds(methodSet(a.methodSet))(pos(a))
    case m: ModifiesOpContext => TraitModifies(methodSet(m.methodSet))(pos(m))
    case r: RemovesOpContext =>
      val sigs =
        if (r.methodHead != null) {
          val h = r.methodHead
          List(MethodSig(h.LOWER_ID.getText, typeRef(h.`type`), paramList(h.paramList), annotations(h.annotation))(
            pos(h.LOWER_ID)))
        } else list(r.methodSig)(methodSig)
      TraitRemoves(sigs)(pos(r))
    case other => unexpectedTree(other)
  }

  // ---------------------------------------------------------------------------------
  // Types and annotations

  private def typeRef(c: TypeContext, anns: List[Annotation] = Nil): TypeRef =
    TypeRef(qname(c.typeName), list(c.typeArg)(a => typeRef(a.`type`, annotations(a.annotation))), anns)(pos(c))

  private def annotations(cs: java.util.List[AnnotationContext]): List[Annotation] =
    cs.asScala.toList.flatMap { a =>
      list(a.annotationFragment)(f => Annotation(Option(f.typeName).map(qname), pureExp(f.pureExp))(pos(f)))
    }

  // ---------------------------------------------------------------------------------
  // Statements

  private def block(c: BlockContext, anns: List[Annotation]): Block = Block(list(c.stmt)(stmt), anns)(pos(c))

  private[parse] def stmt(c: StmtContext): Stmt = {
    val anns = annotations(c.annotation)
    val body = c.stmtBody
    implicit val p: Pos = pos(body)
    body match {
      case s: BlockStmtContext => block(s.block, anns)
      case _: SkipStmtContext => SkipStmt(anns)
      case _: SuspendStmtContext => SuspendStmt(anns)
      case s: ReturnStmtContext => ReturnStmt(exp(s.exp), anns)
      case s: AssertStmtContext => AssertStmt(pureExp(s.pureExp), anns)
      case s: ThrowStmtContext => ThrowStmt(pureExp(s.pureExp), anns)
      case s: DieStmtContext => DieStmt(pureExp(s.pureExp), anns)
      case s: MoveCogToStmtContext => MoveCogToStmt(pureExp(s.pureExp), anns)
      case s: DurationStmtContext => DurationStmt(pureExp(s.pureExp(0)), Option(s.pureExp(1)).map(pureExp), anns)
      case s: AwaitStmtContext =>
        s.guard match {
          case g: ExpGuardContext if g.BANG != null =>
            // `await o!m(args);`: the await expression used as a statement.
            ExpStmt(AwaitExp(asyncCall(g.pureExp, g.LOWER_ID, g.args)), anns)
          case g => AwaitStmt(guard(g), anns)
        }
      case s: IfStmtContext => IfStmt(pureExp(s.pureExp), stmt(s.stmt(0)), Option(s.stmt(1)).map(stmt), anns)
      case s: WhileStmtContext => WhileStmt(pureExp(s.pureExp), stmt(s.stmt), anns)
      case s: ForeachStmtContext =>
        ForeachStmt(s.LOWER_ID(0).getText, Option(s.LOWER_ID(1)).map(_.getText), pureExp(s.pureExp), stmt(s.stmt), anns)
      case s: SwitchStmtContext => SwitchStmt(pureExp(s.pureExp), list(s.switchBranch)(switchBranch), anns)
      case s: CaseStmtContext => SwitchStmt(pureExp(s.pureExp), list(s.switchBranch)(switchBranch), anns)
      case s: TryStmtContext =>
        TryCatchStmt(stmt(s.stmt(0)), list(s.switchBranch)(switchBranch), Option(s.stmt(1)).map(stmt), anns)
      case s: VarDeclStmtContext =>
        VarDeclStmt(s.LOWER_ID.getText, typeRef(s.`type`), Option(s.exp).map(exp), anns)(pos(s.LOWER_ID))
      case s: AssignStmtContext =>
        val target = if (s.THIS != null) FieldUse(s.LOWER_ID.getText) else VarUse(s.LOWER_ID.getText)(pos(s.LOWER_ID))
        AssignStmt(target, exp(s.exp), anns)
      case s: ExpStmtContext => ExpStmt(exp(s.exp), anns)
      case other => unexpectedTree(other)
    }
  }

  private def switchBranch(c: SwitchBranchContext): SwitchBranch =
    SwitchBranch(pattern(c.pattern), stmt(c.stmt))(pos(c))

  private def guard(c: GuardContext): Guard = c match {
    case g: AndGuardContext => AndGuard(guard(g.guard(0)), guard(g.guard(1)))(pos(g.AMP))
    case g: ClaimGuardContext =>
      val name = g.LOWER_ID.getText
      ClaimGuard(if (g.THIS != null) FieldUse(name)(pos(g)) else VarUse(name)(pos(g)))(pos(g))
    case g: DurationGuardContext => DurationGuard(pureExp(g.pureExp(0)), Option(g.pureExp(1)).map(pureExp))(pos(g))
    case g: ExpGuardContext =>
      if (g.BANG != null)
        error(pos(g.LOWER_ID), "a method call cannot be awaited together with other guards; " +
          "call it first and await its future: 'Fut<T> f = o!m(); await f? & ...;'")
      ExpGuard(pureExp(g.pureExp))(pos(g))
    case other => unexpectedTree(other)
  }

  // ---------------------------------------------------------------------------------
  // Expressions

  private[parse] def exp(c: ExpContext): Exp = c match {
    case e: NewExpContext => NewExp(qname(e.typeName), args(e.args), e.LOCAL != null)(pos(e))
    case e: AwaitCallExpContext => AwaitExp(asyncCall(e.pureExp, e.LOWER_ID, e.args))(pos(e))
    case e: PureOrCallExpContext =>
      e.effSuffix match {
        case null => pureExp(e.pureExp)
        case s: AsyncSuffixContext => asyncCall(e.pureExp, s.LOWER_ID, s.args)
        case s: SyncSuffixContext =>
          SyncCall(receiver(e.pureExp, s.LOWER_ID, "a method call"), s.LOWER_ID.getText, args(s.args))(pos(s.LOWER_ID))
        case s: GetSuffixContext => GetExp(receiver(e.pureExp, s.GET, "a '.get'"))(pos(s.GET))
        case other => unexpectedTree(other)
      }
    case other => unexpectedTree(other)
  }

  private def asyncCall(target: PureExpContext, method: TerminalNode, as: ArgsContext): AsyncCall =
    AsyncCall(receiver(target, method, "an asynchronous call"), method.getText, args(as))(pos(method))

  /**
   * The grammar lets a call or `.get` follow any pure expression (so that ANTLR decides
   * with one token of lookahead); only an atom is a receiver. `1 + f.get` would
   * otherwise mean `(1 + f).get`.
   */
  private def receiver(c: PureExpContext, at: TerminalNode, what: String): PureExp = {
    if (!c.isInstanceOf[PrimaryExpContext]) {
      val text = c.getStart.getInputStream.getText(Interval.of(c.getStart.getStartIndex, c.getStop.getStopIndex))
      error(pos(at), s"$what cannot be part of a larger expression (here it would apply to '$text'); " +
        "assign its result to a variable first, or put the receiver in parentheses")
    }
    pureExp(c)
  }

  /** A place that only takes a pure expression, which the grammar cannot express. */
  private def pureOnly(e: Exp, what: String, instead: String): PureExp = e match {
    case p: PureExp => p
    case eff: EffExp =>
      val kind = eff match {
        case _: NewExp => "an object creation ('new')"
        case _: AsyncCall | _: SyncCall => "a method call"
        case _: GetExp => "a '.get'"
        case _: AwaitExp => "an 'await'"
      }
      error(eff.pos, s"$what must be a pure expression, not $kind; do this $instead")
      NullLit()(eff.pos)
  }

  private def args(c: ArgsContext): List[PureExp] = if (c == null) Nil else list(c.pureExp)(pureExp)

  private def binaryOp(t: Token): BinaryOp = t.getType match {
    case STAR => BinaryOp.Mul
    case SLASH => BinaryOp.Div
    case PERCENT => BinaryOp.Mod
    case PLUS => BinaryOp.Add
    case MINUS => BinaryOp.Sub
    case LT => BinaryOp.Lt
    case LE => BinaryOp.Le
    case GT => BinaryOp.Gt
    case GE => BinaryOp.Ge
    case EQ => BinaryOp.Eq
    case NE => BinaryOp.Ne
    case ANDAND => BinaryOp.And
    case OROR => BinaryOp.Or
    case other => unexpectedTree(other)
  }

  /** Operator and operands of a binary alternative, or null for any other alternative. */
  private def binaryParts(c: PureExpContext): (Token, PureExpContext, PureExpContext) = c match {
    case e: MulExpContext => (e.op, e.pureExp(0), e.pureExp(1))
    case e: AddExpContext => (e.op, e.pureExp(0), e.pureExp(1))
    case e: CompareExpContext => (e.op, e.pureExp(0), e.pureExp(1))
    case e: EqualityExpContext => (e.op, e.pureExp(0), e.pureExp(1))
    case e: AndExpContext => (e.op, e.pureExp(0), e.pureExp(1))
    case e: OrExpContext => (e.op, e.pureExp(0), e.pureExp(1))
    case _ => null
  }

  private[parse] def pureExp(c: PureExpContext): PureExp = c match {
    case e: PrimaryExpContext => primary(e.primary)
    case e: UnaryExpContext =>
      Unary(if (e.op.getType == BANG) UnaryOp.Not else UnaryOp.Neg, pureExp(e.pureExp))(pos(e.op))
    case e: TypeTestExpContext =>
      val operand = pureExp(e.pureExp)
      if (e.op.getType == IMPLEMENTS) ImplementsExp(operand, qname(e.typeName))(pos(e.op))
      else AsExp(operand, qname(e.typeName))(pos(e.op))
    case _ if binaryParts(c) != null =>
      // A binary operator. Left-associative chains nest to the left, so walk the left
      // spine with a loop: a sum of thousands of terms must not overflow the stack.
      var spine = List.empty[(Token, PureExpContext)]
      var cur = c
      var parts = binaryParts(cur)
      while (parts != null) {
        spine = (parts._1, parts._3) :: spine
        cur = parts._2
        parts = binaryParts(cur)
      }
      spine.foldLeft(pureExp(cur)) { case (left, (op, right)) => Binary(binaryOp(op), left, pureExp(right))(pos(op)) }
    case other => unexpectedTree(other)
  }

  private def primary(c: PrimaryContext): PureExp = {
    implicit val p: Pos = pos(c)
    c match {
      case e: IntLitContext => intLit(e.INT.getSymbol, negate = false)
      case e: FloatLitContext => floatLit(e.FLOAT.getSymbol, negate = false)
      case e: StringLitContext => StringLit(decodeString(e.STRING.getSymbol))
      case e: TemplateLitContext => templateString(e.templateString)
      case _: NullLitContext => NullLit()
      case e: FieldExpContext => FieldUse(e.LOWER_ID.getText)
      case _: ThisExpContext => ThisExp()
      case _: DestinyExpContext => DestinyExp()
      case e: PartialFnAppExpContext => PartialFnApp(qname(e.varName), list(e.funArg)(funArg), args(e.args))
      case e: FnAppExpContext => FnApp(qname(e.varName), args(e.args))
      case e: NAryFnAppExpContext => NAryFnApp(qname(e.varName), args(e.args))
      case e: VarExpContext => VarUse(e.getText)
      case e: ConstructorExpContext => ConstructorApp(qname(e.typeName), args(e.args))
      case e: ParenExpContext => pureExp(e.pureExp)
      case e: LetExpContext => LetExp(list(e.letBinding)(letBinding), pureExp(e.pureExp))
      case e: IfExpContext => IfExp(pureExp(e.pureExp(0)), pureExp(e.pureExp(1)), pureExp(e.pureExp(2)))
      case e: CaseExpContext => CaseExp(pureExp(e.pureExp), list(e.caseBranch)(caseBranch))
      case other => unexpectedTree(other)
    }
  }

  private def letBinding(c: LetBindingContext): LetBinding =
    LetBinding(c.LOWER_ID.getText, typeRef(c.`type`), pureExp(c.pureExp))(pos(c.LOWER_ID))

  private def caseBranch(c: CaseBranchContext): CaseBranch =
    CaseBranch(pattern(c.pattern), pureExp(c.pureExp))(pos(c))

  private def funArg(c: FunArgContext): FunArg = c match {
    case f: FunNameArgContext => FunName(qname(f.varName))(pos(f))
    case f: AnonFunArgContext => AnonFun(list(f.param)(param), pureExp(f.pureExp))(pos(f))
    case other => unexpectedTree(other)
  }

  private def templateString(c: TemplateStringContext)(implicit p: Pos): TemplateString = {
    val parts = ListBuffer.empty[String]
    val holes = ListBuffer.empty[PureExp]
    val text = new StringBuilder
    c.children.asScala.foreach {
      case t: TerminalNode if t.getSymbol.getType == TEMPLATE_TEXT => text ++= Literals.decodeTemplateText(t.getText)
      case e: PureExpContext =>
        parts += text.result()
        text.clear()
        holes += pureExp(e)
      case _ => // the backquotes and the dollars around holes
    }
    parts += text.result()
    TemplateString(parts.toList, holes.toList)
  }

  // ---------------------------------------------------------------------------------
  // Patterns

  private def pattern(c: PatternContext): Pattern = {
    implicit val p: Pos = pos(c)
    c match {
      case _: WildcardPatternContext => WildcardPattern()
      case v: VarPatternContext => VarPattern(v.getText)
      case n: NumberPatternContext =>
        val negate = n.MINUS != null
        LiteralPattern(
          if (n.INT != null) intLit(n.INT.getSymbol, negate)
          else floatLit(n.FLOAT.getSymbol, negate))
      case s: StringPatternContext => LiteralPattern(StringLit(decodeString(s.STRING.getSymbol)))
      case k: ConstructorPatternContext => ConstructorPattern(qname(k.typeName), list(k.pattern)(pattern))
      case other => unexpectedTree(other)
    }
  }

  // ---------------------------------------------------------------------------------
  // Literals (checked in Parser's lexical pass; only decoded here)

  private def intLit(t: Token, negate: Boolean)(implicit p: Pos): IntLit = {
    // BigInt(text) is quadratic: a million-digit literal would take a quarter of a minute.
    val v = BigInt(cogs.absc.lib.AbsInt.parseDecimal(t.getText))
    IntLit(if (negate) -v else v)
  }

  private def floatLit(t: Token, negate: Boolean)(implicit p: Pos): FloatLit = {
    val v = t.getText.toDouble
    FloatLit(if (negate) -v else v)
  }

  private def decodeString(t: Token): String = Literals.decodeString(t.getText, (_, _) => ())

  // ---------------------------------------------------------------------------------
  // Product lines (Spl.scala)

  private def deltaDecl(c: DeltaDeclContext): DeltaDecl =
    DeltaDecl(c.TYPE_ID.getText, list(c.param)(param), Option(c.typeName).map(_.getText),
      list(c.moduleModifier)(moduleModifier))(pos(c.TYPE_ID))

  private def moduleModifier(c: ModuleModifierContext): DeltaModifier = {
    implicit val p: Pos = pos(c)
    c match {
      case m: AddsDeclModContext => AddsDecl(decl(m.decl))
      case m: ModifiesDataModContext => ModifiesData(dataDecl(m.dataDecl, annotations(m.annotation)))
      case m: ModifiesTypeSynModContext => ModifiesTypeSyn(typeSynDecl(m.typeSynDecl, annotations(m.annotation)))
      case m: RemovesClassModContext => RemovesClass(qname(m.typeName))
      case m: RemovesInterfaceModContext => RemovesInterface(qname(m.typeName))
      case m: ModifiesClassModContext =>
        // typeName(0) is the class; the names after `adds` come before those after `removes`.
        val names = list(m.typeName)(nameRef)
        val nAdds = if (m.ADDS == null) 0 else m.typeName.size - 1 - (if (m.REMOVES == null) 0 else countAfter(m, m.REMOVES.getSymbol))
        val rest = names.tail
        ModifiesClass(qname(m.typeName(0)), rest.take(nAdds), rest.drop(nAdds), list(m.classModifier)(classModifier))
      case m: ModifiesInterfaceModContext =>
        ModifiesInterface(qname(m.typeName), list(m.interfaceModifier)(interfaceModifier))
      case m: AddsImportModContext => AddsImport(importDecl(m.importDecl))
      case m: AddsExportModContext => AddsExport(exportDecl(m.exportDecl))
      case other => unexpectedTree(other)
    }
  }

  /** How many type names of a `modifies class` header follow the token `t` (its `removes`). */
  private def countAfter(m: ModifiesClassModContext, t: Token): Int =
    m.typeName.asScala.count(_.getStart.getTokenIndex > t.getTokenIndex)

  private def classModifier(c: ClassModifierContext): ClassModifier = {
    implicit val p: Pos = pos(c)
    c match {
      case m: AddsFieldModContext => AddsField(fieldDecl(m.fieldDecl))
      case m: RemovesFieldModContext => RemovesField(fieldDecl(m.fieldDecl))
      case m: AddsMethodsModContext => AddsMethods(methodSet(m.methodSet))
      case m: ModifiesMethodsModContext => ModifiesMethods(methodSet(m.methodSet))
      case m: RemovesMethodsModContext => RemovesMethods(list(m.methodSig)(methodSig))
      case other => unexpectedTree(other)
    }
  }

  private def fieldDecl(f: FieldDeclContext): FieldDecl = {
    val init = Option(f.exp).map(e => pureOnly(exp(e), "a field initialiser", "in the init block"))
    FieldDecl(f.LOWER_ID.getText, typeRef(f.`type`), init, annotations(f.annotation))(pos(f.LOWER_ID))
  }

  private def interfaceModifier(c: InterfaceModifierContext): InterfaceModifier = {
    implicit val p: Pos = pos(c)
    c match {
      case m: AddsSigModContext => AddsSig(methodSig(m.methodSig))
      case m: RemovesSigModContext => RemovesSig(methodSig(m.methodSig))
      case other => unexpectedTree(other)
    }
  }

  private def productLine(c: ProductLineDeclContext): ProductLineDecl = {
    val names = c.TYPE_ID.asScala.toList
    ProductLineDecl(names.head.getText, names.tail.map(t => NameRef(QName(t.getText))(pos(t))), list(c.deltaClause)(deltaClause))(pos(names.head))
  }

  private def deltaClause(c: DeltaClauseContext): DeltaClause = {
    val names = c.TYPE_ID.asScala.toList
    DeltaClause(names.head.getText, list(c.deltaArg)(deltaArg), names.tail.map(t => NameRef(QName(t.getText))(pos(t))),
      Option(c.appCond).map(appCond))(pos(names.head))
  }

  private def deltaArg(c: DeltaArgContext): DeltaArg = {
    implicit val p: Pos = pos(c)
    c match {
      case a: AttrDeltaArgContext =>
        val q = QName.parse(a.getText)
        AttrArg(q.module.get, q.name)
      case a: IntDeltaArgContext => IntArg(BigInt(a.INT.getText) * (if (a.MINUS != null) -1 else 1))
      case a: StringDeltaArgContext => StringArg(decodeString(a.STRING.getSymbol))
      case a: NameDeltaArgContext => NameArg(a.TYPE_ID.getText)
      case other => unexpectedTree(other)
    }
  }

  private def appCond(c: AppCondContext): AppCond = {
    implicit val p: Pos = pos(c)
    c match {
      case a: NotCondContext => NotCond(appCond(a.appCond))
      case a: AndCondContext => AndCond(appCond(a.appCond(0)), appCond(a.appCond(1)))(pos(a.ANDAND))
      case a: OrCondContext => OrCond(appCond(a.appCond(0)), appCond(a.appCond(1)))(pos(a.OROR))
      case a: ParenCondContext => appCond(a.appCond)
      case a: FeatureCondContext => FeatureCond(a.TYPE_ID.getText)
      case other => unexpectedTree(other)
    }
  }

  private def product(c: ProductDeclContext): ProductDecl =
    ProductDecl(c.TYPE_ID.getText,
      if (c.productExpr != null) Left(productExpr(c.productExpr)) else Right(list(c.featureSpec)(featureSpec)))(pos(c.TYPE_ID))

  private def featureSpec(c: FeatureSpecContext): FeatureSpec =
    FeatureSpec(c.TYPE_ID.getText, list(c.attrAssign)(attrAssign))(pos(c.TYPE_ID))

  private def attrAssign(c: AttrAssignContext): AttrAssign = {
    val value =
      if (c.INT != null) IntValue(BigInt(c.INT.getText) * (if (c.MINUS != null) -1 else 1))
      else if (c.STRING != null) StringValue(decodeString(c.STRING.getSymbol))
      else c.TYPE_ID.getText match {
        case "True" => BoolValue(true)
        case "False" => BoolValue(false)
        case other =>
          error(pos(c.TYPE_ID), s"an attribute's value is a number, a string, True or False, not '$other'")
          BoolValue(false)
      }
    AttrAssign(c.LOWER_ID.getText, value)(pos(c.LOWER_ID))
  }

  private def productExpr(c: ProductExprContext): ProductExpr = {
    implicit val p: Pos = pos(c)
    c match {
      case e: ProductSetExprContext => ProductSet(list(e.featureSpec)(featureSpec))
      case e: ProductAndExprContext => ProductAnd(productExpr(e.productExpr(0)), productExpr(e.productExpr(1)))(pos(e.ANDAND))
      case e: ProductOrExprContext => ProductOr(productExpr(e.productExpr(0)), productExpr(e.productExpr(1)))(pos(e.OROR))
      case e: ProductMinusExprContext => ProductMinus(productExpr(e.productExpr(0)), productExpr(e.productExpr(1)))(pos(e.MINUS))
      case e: ProductNameExprContext => ProductName(e.TYPE_ID.getText)
      case e: ProductParenExprContext => productExpr(e.productExpr)
      case other => unexpectedTree(other)
    }
  }

  private def featureModelDecl(c: FeatureModelDeclContext): FeatureModelDecl = c match {
    case r: RootFeatureContext => FeatureRoot(featureDecl(r.featureDecl))(pos(r))
    case e: ExtensionFeatureContext => FeatureExtension(e.TYPE_ID.getText, featureBody(e.featureBody))(pos(e.TYPE_ID))
    case other => unexpectedTree(other)
  }

  private def featureDecl(c: FeatureDeclContext): FeatureDecl =
    FeatureDecl(c.TYPE_ID.getText, if (c.featureBody == null) FeatureBody(None, Nil, Nil) else featureBody(c.featureBody))(pos(c.TYPE_ID))

  private def featureBody(c: FeatureBodyContext): FeatureBody =
    FeatureBody(Option(c.featureGroup).map(featureGroup), list(c.featureAttr)(featureAttr), list(c.featureConstraint)(featureConstraint))

  private def featureGroup(c: FeatureGroupContext): FeatureGroup = {
    val card = c.cardinality match {
      case _: AllofCardContext => AllOf
      case _: OneofCardContext => Between(1, Some(1))
      case r: RangeCardContext =>
        val (lo, hi) = range(r.range)
        if (lo.isEmpty) error(pos(r), "a group's cardinality starts at a number, not '*'")
        Between(lo.getOrElse(BigInt(0)), hi)
      case other => unexpectedTree(other)
    }
    FeatureGroup(card, list(c.featureNode)(n => (n.kwOpt != null, featureDecl(n.featureDecl))))(pos(c))
  }

  /** `lo .. hi`, each None for `*`. `1..3` arrives as `1`, `.`, `.3` (a float token). */
  private def range(c: RangeContext): (Option[BigInt], Option[BigInt]) = {
    def bound(b: BoundContext): Option[BigInt] =
      if (b.STAR != null) None else Some(BigInt(b.INT.getText) * (if (b.MINUS != null) -1 else 1))
    val hi =
      if (c.hi != null) bound(c.hi)
      else {
        val t = c.FLOAT.getText
        if (t.matches("\\.[0-9]+")) Some(BigInt(t.substring(1)))
        else { error(pos(c.FLOAT), s"expected '.. N' in a range, found '$t'"); None }
      }
    (bound(c.lo), hi)
  }

  private def featureAttr(c: FeatureAttrContext): FeatureAttr = c match {
    case a: RangeAttrContext =>
      val (lo, hi) = range(a.range)
      FeatureAttr(a.LOWER_ID.getText, a.TYPE_ID.getText, lo, hi, None)(pos(a.LOWER_ID))
    case a: RangeAttr2Context =>
      val (lo, hi) = range(a.range)
      FeatureAttr(a.LOWER_ID.getText, a.TYPE_ID.getText, lo, hi, None)(pos(a.LOWER_ID))
    case a: SetAttrContext =>
      val ts = a.children.asScala.toList
      // the values: each INT, negated when a MINUS precedes it
      val values = ts.zipWithIndex.collect {
        case (t: TerminalNode, i) if t.getSymbol.getType == INT =>
          val neg = i > 0 && (ts(i - 1) match { case m: TerminalNode => m.getSymbol.getType == MINUS; case _ => false })
          BigInt(t.getText) * (if (neg) -1 else 1)
      }
      FeatureAttr(a.LOWER_ID.getText, a.TYPE_ID.getText, None, None, Some(values))(pos(a.LOWER_ID))
    case a: PlainAttrContext =>
      FeatureAttr(a.LOWER_ID.getText, a.TYPE_ID.getText, None, None, None)(pos(a.LOWER_ID))
    case other => unexpectedTree(other)
  }

  private def featureConstraint(c: FeatureConstraintContext): FeatureConstraint = {
    implicit val p: Pos = pos(c)
    c match {
      case f: IfoutConstraintContext => IfOut(mexp(f.mexp))
      case f: RequireConstraintContext => Require(f.TYPE_ID.getText)
      case f: ExcludeConstraintContext => Exclude(f.TYPE_ID.getText)
      case f: IfinConstraintContext => IfIn(mexp(f.mexp))
      case other => unexpectedTree(other)
    }
  }

  private def mexp(c: MexpContext): MExp = {
    implicit val p: Pos = pos(c)
    c match {
      case e: MUnaryContext => MUnary(e.op.getText, mexp(e.mexp))
      case e: MBinaryContext => MBinary(e.op.getText, mexp(e.mexp(0)), mexp(e.mexp(1)))(pos(e.op))
      case e: MImpliesContext =>
        val op = if (e.LT != null) "<->" else "->"
        MBinary(op, mexp(e.mexp(0)), mexp(e.mexp(1)))(if (e.LT != null) pos(e.LT) else pos(e.MINUS))
      case e: MParenContext => mexp(e.mexp)
      case e: MAttrContext =>
        val q = QName.parse(e.getText)
        MAttr(q.module.get, q.name)
      case e: MNameContext => MName(e.getText)
      case e: MIntContext => MInt(BigInt(e.INT.getText))
      case other => unexpectedTree(other)
    }
  }
}
