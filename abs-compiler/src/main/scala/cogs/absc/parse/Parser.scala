package cogs.absc.parse

import scala.jdk.CollectionConverters._

import org.antlr.v4.runtime.{BailErrorStrategy, CharStreams, CommonTokenStream, ParserRuleContext, Token}
import org.antlr.v4.runtime.atn.PredictionMode
import org.antlr.v4.runtime.misc.ParseCancellationException

import cogs.absc.ast.{CompilationUnit, Exp, Pos, Stmt}
import cogs.absc.diag.Diagnostic

/**
 * The front door of absc's front end: ABS source text in, AST or syntax errors out.
 *
 * {{{
 * Parser.parse("bank.abs", text) match {
 *   case Right(unit) => ... // cogs.absc.ast.CompilationUnit
 *   case Left(errors) => errors.foreach(e => println(e.render(text)))
 * }
 * }}}
 *
 * All errors of a file are reported at once: lexical errors (stray characters,
 * unterminated strings and comments), syntax errors (ANTLR recovers and goes on), and,
 * for a file whose grammar is right, the checks done while building the AST. The
 * diagnostics are sorted by position.
 */
object Parser {

  /** Parses one source file. `fileName` only labels positions and messages. */
  def parse(fileName: String, text: String): Either[List[Diagnostic], CompilationUnit] =
    run(fileName, text)(_.compilationUnit())((b, c) => b.compilationUnit(c))

  /** `parse` with a given stack size for the parsing thread; for tests of the nesting limit. */
  private[parse] def parseWithStack(fileName: String, text: String, stackBytes: Long): Either[List[Diagnostic], CompilationUnit] =
    run(fileName, text, stackBytes)(_.compilationUnit())((b, c) => b.compilationUnit(c))

  /** Parses a single expression (pure or with effects); for tests and tools. */
  private[absc] def parseExp(fileName: String, text: String): Either[List[Diagnostic], Exp] =
    run(fileName, text)(_.expEof())((b, c) => b.exp(c.exp))

  /** Parses a single statement; for tests and tools. */
  private[absc] def parseStmt(fileName: String, text: String): Either[List[Diagnostic], Stmt] =
    run(fileName, text)(_.stmtEof())((b, c) => b.stmt(c.stmt))

  /**
   * ANTLR parses by recursive descent and the builder recurses over the tree, so deeply
   * nested input (generated models, long else-if chains) needs stack. Parsing runs on its
   * own thread with a large stack (reserved, not committed, until used); input nested
   * deeper still gets an error instead of a crash.
   */
  private val StackBytes = 256L << 20

  private def run[C <: ParserRuleContext, A](file: String, text: String, stackBytes: Long = StackBytes)(entry: AbsParser => C)(
      build: (AstBuilder, C) => A): Either[List[Diagnostic], A] = {
    var result: Either[Throwable, Either[List[Diagnostic], A]] = null
    val worker = new Thread(null, () => {
      result =
        try Right(runHere(file, text)(entry)(build))
        catch {
          case _: StackOverflowError =>
            Right(Left(List(Diagnostic.error(Pos(file, 1, 1), "the program is nested too deeply to be parsed"))))
          case e: Throwable => Left(e)
        }
    }, "absc-parser", stackBytes)
    worker.start()
    worker.join()
    result.fold(e => throw e, identity)
  }

  private def runHere[C <: ParserRuleContext, A](file: String, text: String)(entry: AbsParser => C)(
      build: (AstBuilder, C) => A): Either[List[Diagnostic], A] = {
    val lexer = new AbsLexer(CharStreams.fromString(SourceText.forLexer(text), file))
    lexer.removeErrorListeners() // the lexer cannot fail (see AbsLexer.g4); keep stderr clean anyway
    val tokens = new CommonTokenStream(lexer)
    tokens.fill()
    val all = tokens.getTokens.asScala.toIndexedSeq

    val lexical = lexicalErrors(file, all)
    val collector = new SyntaxErrorCollector
    val parser = new AbsParser(tokens)
    parser.removeErrorListeners()

    // Two stages, as ANTLR recommends: the fast SLL prediction mode with bail-out on the
    // first error is right for almost every correct file; only if it fails (a syntax
    // error, or one of the rare inputs SLL cannot decide) do we parse again with full LL
    // prediction and our error reporting and recovery.
    parser.getInterpreter.setPredictionMode(PredictionMode.SLL)
    parser.setErrorHandler(new BailErrorStrategy)
    val tree =
      try entry(parser)
      catch {
        case _: ParseCancellationException =>
          tokens.seek(0)
          parser.reset()
          parser.addErrorListener(collector)
          parser.setErrorHandler(new AbsErrorStrategy)
          parser.getInterpreter.setPredictionMode(PredictionMode.LL)
          entry(parser)
      }

    // A lexical error usually makes the parser stumble on the very next token too; that
    // second report says nothing new, so it is dropped.
    val lexicalIndices = lexical.map(_._2)
    def causedByLexicalError(e: SyntaxError): Boolean = e.tokenIndex >= 0 && {
      var prev = e.tokenIndex - 1
      while (prev >= 0 && all(prev).getChannel != Token.DEFAULT_CHANNEL) prev -= 1
      lexicalIndices.exists(k => k >= prev && k < e.tokenIndex)
    }
    val syntax = collector.errors.toList.filterNot(causedByLexicalError)
      .map(e => Diagnostic.error(Pos(file, e.line, e.col), e.message))

    val errors = sorted(lexical.map(_._1) ++ syntax)
    if (errors.nonEmpty) Left(errors)
    else {
      val builder = new AstBuilder(file)
      val result = build(builder, tree)
      if (builder.errors.isEmpty) Right(result) else Left(sorted(builder.errors.toList))
    }
  }

  private def sorted(ds: List[Diagnostic]): List[Diagnostic] =
    ds.distinct.sortBy(d => (d.pos.line, d.pos.col))

  /** Lexical errors (including bad literals) with the index of the token they are about. */
  private def lexicalErrors(file: String, tokens: IndexedSeq[Token]): List[(Diagnostic, Int)] = {
    def at(t: Token) = Pos(file, t.getLine, t.getCharPositionInLine + 1)
    tokens.iterator.zipWithIndex.flatMap { case (t, i) =>
      t.getType match {
        case AbsLexer.ERROR_CHAR =>
          // A run of bad characters (say, a pasted symbol) is one error, not one per character.
          val continuesRun = i > 0 && tokens(i - 1).getType == AbsLexer.ERROR_CHAR &&
            tokens(i - 1).getStopIndex + 1 == t.getStartIndex
          // 'text' in single quotes: one error for the opening quote is enough.
          val closingQuote = t.getText == "'" && tokens.iterator.take(i).exists(o =>
            o.getType == AbsLexer.ERROR_CHAR && o.getText == "'" && o.getLine == t.getLine)
          if (continuesRun || closingQuote) Nil
          else List((Diagnostic.error(at(t), unexpectedCharacter(t.getText)), i))
        case AbsLexer.UNTERMINATED_COMMENT =>
          List((Diagnostic.error(at(t), "unterminated comment: this '/*' is never closed by '*/'"), i))
        case AbsLexer.STRING if !isClosedString(t.getText) =>
          List((Diagnostic.error(at(t), "unterminated string literal: missing closing '\"' on this line"), i))
        case AbsLexer.STRING =>
          // Strings cannot span lines, so an offset into the token is an offset into its line.
          val problems = List.newBuilder[(Diagnostic, Int)]
          Literals.decodeString(t.getText, (offset, message) =>
            problems += ((Diagnostic.error(Pos(file, t.getLine, t.getCharPositionInLine + 1 + offset), message), i)))
          problems.result()
        case AbsLexer.INT => Literals.intProblem(t.getText).map(m => (Diagnostic.error(at(t), m), i)).toList
        case AbsLexer.FLOAT => Literals.floatProblem(t.getText).map(m => (Diagnostic.error(at(t), m), i)).toList
        case _ => Nil
      }
    }.toList
  }

  private def unexpectedCharacter(s: String): String = {
    val c = s.codePointAt(0)
    if (c == '\'') "unexpected character \"'\" (string literals are written in double quotes)"
    else if (Character.isLetter(c)) s"unexpected character '$s' (names may only use the letters a-z and A-Z, digits and '_')"
    else if (Character.isISOControl(c) || Character.isWhitespace(c)) f"unexpected character U+$c%04X"
    else s"unexpected character '$s'"
  }

  /** A STRING token ends with an unescaped double quote unless it was cut short by the end of its line. */
  private def isClosedString(text: String): Boolean = {
    var i = 1
    while (i < text.length) {
      text.charAt(i) match {
        case '\\' => i += 2
        case '"' => return i == text.length - 1
        case _ => i += 1
      }
    }
    false
  }
}
