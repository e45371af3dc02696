package cogs.absc.typecheck

import org.junit.jupiter.api.Assertions._

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic
import cogs.absc.parse.Parser

/** Helpers shared by the type checker tests. */
object TypeCheckSupport {

  val File = "test.abs"

  /** Parses sources (file name, text); fails the test on syntax errors. */
  def parseAll(sources: List[(String, String)]): List[CompilationUnit] = sources.map { case (name, text) =>
    Parser.parse(name, text) match {
      case Right(u) => u
      case Left(ds) => fail[CompilationUnit](s"$name does not parse:\n${Diagnostic.renderAll(ds, text)}")
    }
  }

  def checkSources(sources: List[(String, String)]): Either[List[Diagnostic], TypedProgram] =
    TypeChecker.check(parseAll(sources))

  /** A program that must check, with its units. */
  final case class Checked(program: TypedProgram, units: List[CompilationUnit]) {

    /** Every node of the checked units. */
    def nodes: Iterator[Node] = units.iterator.flatMap(TypeCheckSupport.nodes)

    /** The outermost expression at `line:col` of the first unit. */
    def expAt(line: Int, col: Int): Exp = nodes.collectFirst {
      case e: Exp if e.pos.line == line && e.pos.col == col => e
    }.getOrElse(fail[Exp](s"no expression at $line:$col"))

    def typeAt(line: Int, col: Int): String = program.typeOf(expAt(line, col)).show

    def module(name: String): ModuleSym = program.module(name).getOrElse(fail[ModuleSym](s"no module $name"))

    def cls(name: String): ClassSym = program.classes.find(_.name == name).getOrElse(fail[ClassSym](s"no class $name"))

    def method(cls: String, m: String): MethodSym = this.cls(cls).method(m).getOrElse(fail[MethodSym](s"no method $m"))

    def function(name: String): FunctionSym =
      program.userModules.flatMap(_.functions).find(_.name == name).getOrElse(fail[FunctionSym](s"no function $name"))

    /** All expressions of a given class, in source order. */
    def all[T <: Node](implicit ct: scala.reflect.ClassTag[T]): List[T] = nodes.collect { case t: T => t }.toList
  }

  def ok(text: String): Checked = okAll(List(File -> text))

  def okAll(sources: List[(String, String)]): Checked = {
    val units = parseAll(sources)
    TypeChecker.check(units) match {
      case Right(p) => Checked(p, units)
      case Left(ds) =>
        val texts = sources.toMap
        fail[Checked]("unexpected errors:\n" + ds.map(d => d.render(texts.getOrElse(d.pos.file, ""))).mkString("\n"))
    }
  }

  /** `line:col: severity: message` of every diagnostic of a program that must not check. */
  def errors(text: String): List[String] = errorsAll(List(File -> text))

  def errorsAll(sources: List[(String, String)]): List[String] = checkSources(sources) match {
    case Right(_) => fail[List[String]]("expected errors, but the program checks")
    case Left(ds) => ds.map(short)
  }

  /** The only error of a program (fails if there are several, or warnings). */
  def error(text: String): String = errors(text) match {
    case List(e) => e
    case es => fail[String](s"expected exactly one error, got:\n${es.mkString("\n")}")
  }

  /** Warnings of a program that checks. */
  def warnings(text: String): List[String] = ok(text).program.warnings.map(short)

  def short(d: Diagnostic): String = s"${d.pos.line}:${d.pos.col}: ${d.severity.label}: ${d.message}"

  /**
   * The nodes of checked code that lack what `TypedProgram` promises: a type for every
   * expression, pattern and written type; a symbol for every name use. Skips what is not
   * checked: annotations, `builtin(..)` arguments, and trait declarations (their methods
   * are checked as copies in each class, which are visited instead).
   */
  def untyped(program: TypedProgram, units: List[CompilationUnit]): List[String] = {
    val missing = List.newBuilder[String]
    def miss(n: Node, what: String): Unit = missing += s"${n.pos}: no $what for $n"
    def visit(x: Any): Unit = x match {
      case _: Annotation | _: BuiltinBody | _: TraitDecl | _: TraitExpr | _: Import | _: Export => ()
      case n: Node =>
        n match {
          case _: Exp | _: Pattern | _: TypeRef =>
            program.typeOfNode(n) match {
              case None => miss(n, "type")
              case Some(t) if Inference.hasVar(t) || Type.hasError(t) => miss(n, s"resolved type (has $t)")
              case _ =>
            }
          case _ =>
        }
        val needsSymbol = n match {
          case _: VarUse | _: FieldUse | _: FnApp | _: PartialFnApp | _: NAryFnApp | _: ConstructorApp |
              _: ConstructorPattern | _: NewExp | _: AsyncCall | _: SyncCall | _: AwaitExp | _: VarPattern |
              _: ImplementsExp | _: AsExp | _: FunName | _: Param | _: VarDeclStmt | _: LetBinding | _: FieldDecl => true
          case _ => false
        }
        if (needsSymbol && program.symbolOf(n).isEmpty) miss(n, "symbol")
        n match {
          case f: ForeachStmt => try program.foreachVars(f) catch { case _: NoSuchElementException => miss(n, "loop variables") }
          case _ =>
        }
        n.productIterator.foreach(visit)
      case o: Option[_] => o.foreach(visit)
      case xs: List[_] => xs.foreach(visit)
      case p: Product => p.productIterator.foreach(visit)
      case _ => ()
    }
    units.foreach(visit)
    // trait methods, as copied into the classes that use them
    for (c <- program.classes; m <- c.methods.values; d <- m.decl if !c.decl.methods.exists(_ eq d)) visit(d)
    missing.result()
  }

  /** Every node of a tree, found generically through the case classes' fields. */
  def nodes(root: Any): Iterator[Node] = {
    def walk(x: Any): Iterator[Node] = x match {
      case n: Node => Iterator.single(n) ++ n.productIterator.flatMap(walk)
      case o: Option[_] => o.iterator.flatMap(walk)
      case xs: List[_] => xs.iterator.flatMap(walk)
      case p: Product => p.productIterator.flatMap(walk)
      case _ => Iterator.empty
    }
    walk(root)
  }
}
