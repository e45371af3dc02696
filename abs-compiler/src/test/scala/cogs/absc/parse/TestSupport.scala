package cogs.absc.parse

import org.junit.jupiter.api.Assertions.fail

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic

/** Helpers shared by the parser tests. */
object TestSupport {

  /** AST equality ignores positions, so expected trees can be built without real ones. */
  implicit val noPos: Pos = Pos.Unknown

  val File = "test.abs"

  private def orFail[A](text: String, r: Either[List[Diagnostic], A]): A = r match {
    case Right(a) => a
    case Left(ds) => fail[A]("unexpected errors:\n" + Diagnostic.renderAll(ds, text))
  }

  def parseOk(text: String): CompilationUnit = orFail(text, Parser.parse(File, text))

  def module(text: String): ModuleDecl = parseOk(text).modules match {
    case List(m) => m
    case ms => fail[ModuleDecl](s"expected one module, got ${ms.length}")
  }

  /** The declarations of `module T; <text>`. */
  def decls(text: String): List[Decl] = module(s"module T;\n$text").decls

  def decl(text: String): Decl = decls(text) match {
    case List(d) => d
    case ds => fail[Decl](s"expected one declaration, got $ds")
  }

  def exp(text: String): Exp = orFail(text, Parser.parseExp(File, text))

  def pure(text: String): PureExp = exp(text) match {
    case p: PureExp => p
    case e => fail[PureExp](s"expected a pure expression, got $e")
  }

  def stmt(text: String): Stmt = orFail(text, Parser.parseStmt(File, text))

  /** The statements of a main block made of `text`. */
  def mainStmts(text: String): List[Stmt] = module(s"module T;\n{\n$text\n}").main.get.stmts

  /** Error headers (`file:line:col: error: message`) for a source that must not parse. */
  def errors(text: String): List[String] = Parser.parse(File, text) match {
    case Right(u) => fail[List[String]](s"expected syntax errors, but it parsed: $u")
    case Left(ds) => ds.map(_.header)
  }

  def expErrors(text: String): List[String] = Parser.parseExp(File, text) match {
    case Right(e) => fail[List[String]](s"expected syntax errors, but it parsed: $e")
    case Left(ds) => ds.map(_.header)
  }

  /** A fully parenthesised rendering of pure expressions, to state precedence tersely. */
  def show(e: Exp): String = e match {
    case IntLit(v) => v.toString
    case FloatLit(v) => v.toString
    case StringLit(s) => "\"" + s + "\""
    case VarUse(n) => n
    case FieldUse(n) => s"this.$n"
    case ThisExp() => "this"
    case NullLit() => "null"
    case ConstructorApp(c, Nil) => c.toString
    case ConstructorApp(c, as) => as.map(show).mkString(s"$c(", ", ", ")")
    case FnApp(f, as) => as.map(show).mkString(s"$f(", ", ", ")")
    case Unary(op, a) => s"(${op.symbol}${show(a)})"
    case Binary(op, l, r) => s"(${show(l)} ${op.symbol} ${show(r)})"
    case ImplementsExp(a, i) => s"(${show(a)} implements $i)"
    case AsExp(a, i) => s"(${show(a)} as $i)"
    case IfExp(c, t, f) => s"(if ${show(c)} then ${show(t)} else ${show(f)})"
    case LetExp(bs, b) => bs.map(x => s"${x.tpe.name} ${x.name} = ${show(x.value)}").mkString("(let ", ", ", s" in ${show(b)})")
    case other => other.toString
  }

  def showPure(text: String): String = show(pure(text))
}
