package cogs.absc.parse

import scala.collection.mutable.ListBuffer
import scala.jdk.CollectionConverters._

import org.antlr.v4.runtime.{BaseErrorListener, CommonToken, DefaultErrorStrategy, InputMismatchException,
  FailedPredicateException, NoViableAltException, RecognitionException, Recognizer, Token, TokenStream}
import org.antlr.v4.runtime.{Parser => AntlrParser}
import org.antlr.v4.runtime.misc.IntervalSet

import cogs.absc.parse.AbsLexer._

/** A syntax error as the parser saw it: position (1-based), message, and the token it is about. */
private[parse] final case class SyntaxError(line: Int, col: Int, message: String, tokenIndex: Int)

/**
 * Collects the errors that AbsErrorStrategy reports through the parser's listener
 * mechanism, dropping cascades: after recovering from one error, ANTLR often trips
 * again on the same or the next token, and that second report only confuses. An error
 * within two tokens of the previous one is therefore dropped (and extends the window).
 */
private[parse] final class SyntaxErrorCollector extends BaseErrorListener {
  val errors: ListBuffer[SyntaxError] = ListBuffer.empty
  private var lastIndex = -10

  override def syntaxError(
      recognizer: Recognizer[_, _],
      offendingSymbol: Any,
      line: Int,
      charPositionInLine: Int,
      msg: String,
      e: RecognitionException): Unit = {
    val index = offendingSymbol match {
      case t: Token => t.getTokenIndex
      case _ => -1
    }
    val cascade = index >= 0 && index <= lastIndex + 2
    if (index >= 0) lastIndex = index
    if (!cascade) errors += SyntaxError(line, charPositionInLine + 1, msg, index)
  }
}

/**
 * ANTLR's default recovery (single-token insertion and deletion, then resynchronisation
 * on follow sets) with our own messages. ANTLR's own ("mismatched input 'x' expecting
 * {';', '+', '-', ...}") are written for grammar authors; ours say what the modeller
 * should write: "expected ';'", "expected an expression, found ')'".
 *
 * A missing token is reported just after the previous token, where it belongs (as javac
 * and gcc do), not at the start of whatever follows, possibly lines later.
 */
private[parse] final class AbsErrorStrategy extends DefaultErrorStrategy {
  import SyntaxMessages._

  /** Set when the rest of the file is skipped after an error at the top level (see [[strayTopLevelWord]]). */
  private var skipRest = false

  /** The words that open a product line declaration. */
  private val splWords = Set("delta", "productline", "product", "root", "extension")

  /**
   * A lower-case word where a module or a product line declaration may start, which is none of
   * the product line's words (`interfac I {..}`, `foo bar;`): ANTLR tried it as one of them and
   * failed later, but the word itself is the error; reported as the top level's, and the rest
   * of the file is skipped (nothing after a stray top-level word can be read reliably).
   */
  private def strayTopLevelWord(p: AntlrParser, start: Token): Boolean =
    (p.getContext.isInstanceOf[AbsParser.CompilationUnitContext] || p.getContext.isInstanceOf[AbsParser.ModuleDeclContext]) &&
      start != null && start.getType == LOWER_ID &&
      !splWords(start.getText)

  override def reportNoViableAlternative(p: AntlrParser, e: NoViableAltException): Unit = {
    val found = e.getOffendingToken
    val start = e.getStartToken
    if (strayTopLevelWord(p, start)) {
      val top = new IntervalSet(MODULE)
      top.add(Token.EOF)
      skipRest = true
      report(p, start, expectedFound(top, start, p), e, afterPrevious = false)
    } else if (start != null && start.getTokenIndex == found.getTokenIndex && e.getExpectedTokens.contains(found.getType)) {
      // The decision failed further on, but ANTLR blames its first token, which is fine
      // where it is. This happens when the statement alternative for `if` or `case` fails
      // and only an expression statement is left, which the grammar's predicate rules
      // out: the text reads as an if- or case-expression standing alone.
      val next = p.getInputStream.LT(2)
      skipStatement = true
      found.getType match {
        case IF if next.getType != LPAREN =>
          report(p, next, s"expected '(' after 'if', found ${SyntaxMessages.found(next)}", e, afterPrevious = false)
        case IF =>
          report(p, found, "an if-expression ('if c then a else b') cannot be used as a statement; " +
            "write 'if (c) statement else statement'", e, afterPrevious = false)
        case CASE =>
          report(p, found, "a case expression cannot be used as a statement; " +
            "in a case statement each branch is 'pattern => statement'", e, afterPrevious = false)
        case _ =>
          report(p, next, unexpected(next, found, p), e, afterPrevious = false)
      }
    } else {
      val message =
        if (start != null && start.getTokenIndex == found.getTokenIndex) expectedFound(e.getExpectedTokens, found, p)
        else unexpected(found, start, p)
      report(p, found, message, e, afterPrevious = false)
    }
  }

  /** Set when the statement being parsed is hopeless and recovery should skip all of it. */
  private var skipStatement = false

  override def recover(p: AntlrParser, e: RecognitionException): Unit =
    if (skipRest || (e.isInstanceOf[FailedPredicateException] && topLevelWords(e.asInstanceOf[FailedPredicateException].getRuleIndex))) {
      while (p.getInputStream.LA(1) != Token.EOF) p.consume()
    } else if (skipStatement) {
      skipStatement = false
      skipToEndOfStatement(p)
      // Back at a statement boundary: the next error is a new one, so report it.
      endErrorCondition(p)
    } else super.recover(p, e)

  /**
   * Skips the rest of a statement: up to and including a `;` outside brackets, or up to
   * the end of a braced body (with any `else` part and trailing `;`), or up to a `}` that
   * closes the enclosing block. ANTLR's own recovery would instead resume inside the
   * statement and report its remains as further errors.
   */
  private def skipToEndOfStatement(p: AntlrParser): Unit = {
    val in = p.getInputStream
    var depth = 0
    var done = false
    while (!done) {
      in.LA(1) match {
        case Token.EOF => done = true
        case LBRACE | LPAREN | LBRACK =>
          depth += 1
          p.consume()
        case RBRACE | RPAREN | RBRACK =>
          if (depth == 0) done = true
          else {
            val closesBody = in.LA(1) == RBRACE && depth == 1
            depth -= 1
            p.consume()
            if (closesBody && in.LA(1) != ELSE) {
              if (in.LA(1) == SEMI) p.consume()
              done = true
            }
          }
        case SEMI =>
          p.consume()
          if (depth == 0) done = true
        case _ => p.consume()
      }
    }
  }

  /** The words that open a product line declaration at the top level (cogs.absc.ast.Spl). */
  private val topLevelWords = Set(AbsParser.RULE_kwDelta, AbsParser.RULE_kwProductline, AbsParser.RULE_kwProduct,
    AbsParser.RULE_kwRoot, AbsParser.RULE_kwExtension)

  /**
   * Only the product line's words are predicates (`delta`, `group`, ... are names elsewhere).
   * A top-level word that is none of them is reported as the top level's error ("expected
   * 'module' or end of file", a misspelt keyword's hint), and the rest of the file is skipped:
   * nothing after a stray word at the top level can be read reliably.
   */
  override def reportFailedPredicate(p: AntlrParser, e: FailedPredicateException): Unit = {
    val t = e.getOffendingToken
    if (topLevelWords(e.getRuleIndex)) {
      val top = new IntervalSet(MODULE)
      top.add(Token.EOF)
      report(p, t, expectedFound(top, t, p), e, afterPrevious = false)
    } else {
      val word = p.getRuleNames()(e.getRuleIndex).stripPrefix("kw").toLowerCase(java.util.Locale.ROOT)
      report(p, t, s"expected '$word', found ${found(t)}", e, afterPrevious = false)
    }
  }

  override def reportInputMismatch(p: AntlrParser, e: InputMismatchException): Unit = {
    val expected = e.getExpectedTokens
    report(p, e.getOffendingToken, expectedFound(expected, e.getOffendingToken, p), e,
      afterPrevious = onlyClosers(expected) || expected.contains(SEMI))
  }

  override def reportUnwantedToken(p: AntlrParser): Unit =
    if (!inErrorRecoveryMode(p)) {
      beginErrorCondition(p)
      val found = p.getCurrentToken
      val expected = getExpectedTokens(p)
      report(p, found, expectedFound(expected, found, p), null,
        afterPrevious = onlyClosers(expected) || expected.contains(SEMI))
    }

  override def reportMissingToken(p: AntlrParser): Unit =
    if (!inErrorRecoveryMode(p)) {
      beginErrorCondition(p)
      val found = p.getCurrentToken
      val expected = getExpectedTokens(p)
      val message =
        if (expected.contains(TEMPLATE_END) && found.getType == Token.EOF) unterminatedTemplate
        else describeExpected(expected).fold(unexpected(found, null, p))(d => s"expected $d" + statementHint(found, p))
      report(p, found, message, null, afterPrevious = true, sameLine = true)
    }

  /**
   * Hands the error to the parser's listeners. With `afterPrevious`, the position is
   * moved to just after the previous token when the offending token is on a later line
   * (or, with `sameLine`, always: a token that is only missing belongs right there):
   * "expected ';'" belongs at the end of the unfinished line.
   */
  private def report(p: AntlrParser, offending: Token, message: String, e: RecognitionException,
      afterPrevious: Boolean, sameLine: Boolean = false): Unit = {
    val at =
      if (!afterPrevious) offending
      else
        previousOnChannel(p, offending) match {
          case Some(prev) if sameLine || prev.getLine != offending.getLine || offending.getType == Token.EOF =>
            val (line, col) = endOf(prev)
            val t = new CommonToken(offending)
            t.setLine(line)
            t.setCharPositionInLine(col)
            t
          case _ => offending
        }
    p.notifyErrorListeners(at, message, e)
  }

  /** Line and 0-based column just after `t` (a template text may span lines). */
  private def endOf(t: Token): (Int, Int) = {
    val text = t.getText
    val lastBreak = text.lastIndexOf('\n')
    if (lastBreak < 0) (t.getLine, t.getCharPositionInLine + text.length)
    else (t.getLine + text.count(_ == '\n'), text.length - lastBreak - 1)
  }
}

/** Wording of syntax error messages. */
private[parse] object SyntaxMessages {

  val unterminatedTemplate = "unterminated template string: missing closing '`'"

  private val vocabulary = AbsParser.VOCABULARY

  private val expressionStarts = Set(INT, FLOAT, STRING, TEMPLATE_START, NULL, THIS, DESTINY, LOWER_ID,
    QUALIFIED_ID, TYPE_ID, QUALIFIED_TYPE_ID, LPAREN, LET, IF, WHEN, CASE, BANG, MINUS)
  private val effectStarts = Set(NEW, AWAIT)
  private val statementStarts = Set(SKIP_, SUSPEND, RETURN, ASSERT, THROW, DIE, MOVECOGTO, DURATION, AWAIT, IF,
    WHILE, FOREACH, SWITCH, CASE, TRY, LBRACE, LBRACK, NEW)
  private val declarationStarts = Set(DATA, TYPE, EXCEPTION, DEF, INTERFACE, CLASS, TRAIT)
  private val patternStarts = Set(UNDERSCORE, LOWER_ID, INT, FLOAT, STRING, MINUS, TYPE_ID, QUALIFIED_TYPE_ID)
  /** Tokens that may continue an expression: dropped from "expected" lists that have anything else. */
  private val continuations = Set(STAR, SLASH, PERCENT, PLUS, MINUS, LT, LE, GT, GE, EQ, NE, ANDAND, OROR,
    IMPLEMENTS, AS, DOT, BANG, QUESTION, AMP)
  private val closers = Set(SEMI, RPAREN, RBRACK, RBRACE, COMMA, GT, TEMPLATE_HOLE_END)

  private def isKeyword(t: Int): Boolean = {
    val lit = vocabulary.getLiteralName(t)
    lit != null && lit.length > 2 && lit.charAt(1).isLetter
  }

  /** True if every expected token closes something: then a missing one belongs after the previous token. */
  def onlyClosers(expected: IntervalSet): Boolean = {
    val ts = tokenTypes(expected) -- continuations
    ts.nonEmpty && ts.subsetOf(closers)
  }

  private def tokenTypes(set: IntervalSet): Set[Int] =
    if (set == null) Set.empty else set.toList.asScala.map(_.intValue).toSet

  /** How an expected token is shown in a message. */
  private def displayName(t: Int): String = t match {
    case TEMPLATE_HOLE_START | TEMPLATE_HOLE_END => "'$'"
    case TEMPLATE_END | TEMPLATE_START => "'`'"
    case TEMPLATE_TEXT => "template text"
    case INT => "an integer"
    case FLOAT => "a floating-point number"
    case STRING => "a string literal"
    case _ => vocabulary.getDisplayName(t)
  }

  /** How a token that was found is shown in a message. */
  def found(t: Token): String = t.getType match {
    case Token.EOF => "end of file"
    case STRING => "a string literal"
    case TEMPLATE_START => "a template string"
    case TEMPLATE_TEXT => "template text"
    case ty if isKeyword(ty) => s"keyword '${t.getText}'"
    case _ => s"'${clip(t.getText)}'"
  }

  /** A token as quoted in a message: a generated model's 100 kB name is not repeated whole. */
  private def clip(text: String): String = if (text.length <= 40) text else text.take(37) + "..."


  /**
   * A readable summary of an expected-token set: "';'", "',' or ')'", "an expression or
   * ')'", or None if the set is too large to say anything useful.
   */
  def describeExpected(set: IntervalSet): Option[String] = {
    var rest = tokenTypes(set) - Token.EPSILON
    // Where a module may start, a lower-case name may too, but only as the first word of a
    // product line declaration (`delta`, `productline`, `product`, `root`, `extension`): saying
    // "an identifier" there would mislead.
    if (rest(MODULE)) rest -= LOWER_ID
    val phrases = ListBuffer.empty[String]
    def takePhrase(test: Boolean, phrase: String, covered: Set[Int]): Unit =
      if (test) { phrases += phrase; rest = rest -- covered }

    takePhrase(rest(DATA) && rest(CLASS), "a declaration",
      declarationStarts ++ Set(LBRACK, LBRACE, EXPORT, IMPORT, MODULE, Token.EOF))
    takePhrase(rest(SKIP_) && rest(WHILE), "a statement",
      statementStarts ++ expressionStarts ++ effectStarts)
    takePhrase(rest(UNDERSCORE) && rest(TYPE_ID) && rest(INT), "a pattern", patternStarts)
    takePhrase(rest(INT) && rest(STRING) && rest(LPAREN), "an expression", expressionStarts ++ effectStarts)
    if ((rest -- continuations).nonEmpty || phrases.nonEmpty) rest = rest -- continuations
    else if (rest.nonEmpty) { phrases += "an operator"; rest = Set.empty }
    takePhrase(rest(LOWER_ID) || rest(QUALIFIED_ID), "an identifier", Set(LOWER_ID, QUALIFIED_ID))
    takePhrase(rest(TYPE_ID) || rest(QUALIFIED_TYPE_ID), "a type name", Set(TYPE_ID, QUALIFIED_TYPE_ID))
    takePhrase(rest(Token.EOF), "end of file", Set(Token.EOF))

    val tokens = rest.toList.sorted.map(displayName)
    val items = tokens ++ phrases
    if (items.isEmpty || items.length > 5) None
    else if (items.length == 1) Some(items.head)
    else Some(items.init.mkString(", ") + " or " + items.last)
  }

  /** The words that may start something at the top level of a file or a module. */
  private val topLevelKeywords = List(MODULE, IMPORT, EXPORT, DATA, TYPE, EXCEPTION, DEF, INTERFACE, CLASS, TRAIT)
    .map(t => vocabulary.getLiteralName(t).stripPrefix("'").stripSuffix("'"))

  /**
   * For a name where the top level of a file or module expects a keyword (`interfac I {..}`,
   * `modul M;`), the keyword it is a misspelling of: at most two edits (or only a difference
   * of case), and fewer than half the keyword's letters. There, no name can be right, so ANTLR's
   * expected set ("'module' or end of file", after the module ended) says less than the guess.
   */
  def misspelledKeyword(expected: Set[Int], t: Token): Option[String] = {
    val atTopLevel = expected(MODULE) || expected(Token.EOF) || (expected(DATA) && expected(CLASS))
    if (!atTopLevel || (t.getType != LOWER_ID && t.getType != TYPE_ID)) None
    else {
      val word = t.getText.toLowerCase(java.util.Locale.ROOT)
      val scored = topLevelKeywords.map(k => (k, editDistance(word, k))).filter { case (k, d) => d <= 2 && 2 * d < k.length }
      if (scored.isEmpty) None else Some(scored.minBy(_._2)._1)
    }
  }

  /** The words that may start a statement. */
  private val statementKeywords = List(WHILE, IF, RETURN, AWAIT, SUSPEND, FOREACH, SWITCH, CASE, TRY, THROW,
    ASSERT, SKIP_, DIE, DURATION, MOVECOGTO).map(t => vocabulary.getLiteralName(t).stripPrefix("'").stripSuffix("'"))

  /**
   * For a syntax error inside a statement that starts with a name close to a statement keyword
   * (`whle (x < 3) {..}`, `retrun x;`, `awiat o!m();`): that keyword. The error itself comes
   * later in the statement (`whle (x < 3)` is a fine call, the `{` after it is not), so the
   * statement's first token is found by walking back to the `;`, `{` or `}` before it.
   */
  def misspelledStatementKeyword(t: Token, p: AntlrParser): Option[String] = {
    val stream = p.getInputStream
    var i = t.getTokenIndex - 1
    var steps = 0
    var first: Token = t
    while (i >= 0 && steps < 200) {
      val u = stream.get(i)
      if (u.getChannel == Token.DEFAULT_CHANNEL) {
        if (u.getType == SEMI || u.getType == LBRACE || u.getType == RBRACE) i = -1
        else first = u
        steps += 1
      }
      i -= 1
    }
    if (first.getType != LOWER_ID || (first eq t)) None
    else {
      val word = first.getText
      val scored = statementKeywords.map(k => (k, editDistance(word, k)))
        .filter { case (k, d) => d >= 1 && d <= 2 && 2 * d < math.max(word.length, k.length) }
      if (scored.isEmpty) None else Some(scored.minBy(_._2)._1)
    }
  }

  def statementHint(t: Token, p: AntlrParser): String =
    misspelledStatementKeyword(t, p).fold("")(k => s"; did you mean '$k'?")

  /** Levenshtein distance with transpositions of neighbours ("calss") counted as one edit. */
  private[parse] def editDistance(a: String, b: String): Int = {
    val d = Array.tabulate(a.length + 1, b.length + 1)((i, j) => if (i == 0) j else if (j == 0) i else 0)
    for (i <- 1 to a.length; j <- 1 to b.length) {
      val cost = if (a(i - 1) == b(j - 1)) 0 else 1
      d(i)(j) = math.min(math.min(d(i - 1)(j) + 1, d(i)(j - 1) + 1), d(i - 1)(j - 1) + cost)
      if (i > 1 && j > 1 && a(i - 1) == b(j - 2) && a(i - 2) == b(j - 1)) d(i)(j) = math.min(d(i)(j), d(i - 2)(j - 2) + 1)
    }
    d(a.length)(b.length)
  }

  /** "expected X, found Y" with a hint, or "unexpected Y" if nothing short can be said of X. */
  def expectedFound(expected: IntervalSet, t: Token, p: AntlrParser): String = {
    val ts = { val all = tokenTypes(expected); if (all(MODULE)) all - LOWER_ID else all }
    val keyword = misspelledKeyword(ts, t)
    if (keyword.isDefined) s"unexpected ${found(t)}; did you mean '${keyword.get}'?"
    else if (t.getType == Token.EOF && ts.contains(TEMPLATE_END)) unterminatedTemplate
    else
      describeExpected(expected) match {
        case Some(d) => s"expected $d, found ${found(t)}" + caseHint(ts, t) + keywordHint(ts, t) + statementHint(t, p) + eofHint(t, p)
        case None => unexpected(t, null, p)
      }
  }

  /** For a token that none of the candidate constructs could continue with. */
  def unexpected(t: Token, start: Token, p: AntlrParser): String = {
    val expectedHere = try tokenTypes(p.getExpectedTokens) catch { case _: RuntimeException => Set.empty[Int] }
    misspelledKeyword(expectedHere, t) match {
      case Some(k) => s"unexpected ${found(t)}; did you mean '$k'?"
      case None => unexpectedWithHints(t, start, p)
    }
  }

  private def unexpectedWithHints(t: Token, start: Token, p: AntlrParser): String = {
    val base = s"unexpected ${found(t)}"
    val statement = misspelledStatementKeyword(t, p)
    if (statement.isDefined) return s"$base; did you mean '${statement.get}'?"
    val lowerTypeHint =
      if (start != null && start.getType == LOWER_ID && t.getType == LOWER_ID && nextOnChannel(p, start) == t) {
        val s = start.getText
        s"; if '$s' is meant as a type, write '${s.capitalize}' (type names start with an upper-case letter)"
      } else ""
    // Right after a type, a name is due: `Int X = ..` or `Int get = ..`.
    val afterType = previousOnChannel(p, t).exists(prev =>
      prev.getType == TYPE_ID || prev.getType == QUALIFIED_TYPE_ID || prev.getType == GT)
    val upperNameHint =
      if (t.getType == TYPE_ID && lowerTypeHint.isEmpty && afterType)
        " (names of variables, fields, methods and functions start with a lower-case letter)"
      else ""
    val keywordAsName = if (afterType) keywordHint(Set(LOWER_ID), t) else ""
    base + lowerTypeHint + upperNameHint + keywordAsName + eofHint(t, p)
  }

  private def keywordHint(expected: Set[Int], t: Token): String =
    if (isKeyword(t.getType) && !expected(t.getType) && (expected(LOWER_ID) || expected(TYPE_ID)))
      s" ('${t.getText}' is a keyword and cannot be used as a name)"
    else ""

  def previousOnChannel(p: AntlrParser, t: Token): Option[Token] = {
    val stream = p.getInputStream
    var i = t.getTokenIndex - 1
    while (i >= 0 && stream.get(i).getChannel != Token.DEFAULT_CHANNEL) i -= 1
    if (i >= 0) Some(stream.get(i)) else None
  }

  private def caseHint(expected: Set[Int], t: Token): String =
    if ((t.getType == TYPE_ID || t.getType == QUALIFIED_TYPE_ID) && expected(LOWER_ID) && !expected(TYPE_ID))
      " (names of variables, fields, methods and functions start with a lower-case letter)"
    else if ((t.getType == LOWER_ID || t.getType == QUALIFIED_ID) && expected(TYPE_ID) && !expected(LOWER_ID))
      " (names of types, classes, interfaces, constructors and modules start with an upper-case letter)"
    else ""

  /** At the end of the file the likely cause is an unclosed template or bracket: say which one. */
  private def eofHint(t: Token, p: AntlrParser): String =
    if (t.getType != Token.EOF) ""
    else
      unclosedTemplate(p.getInputStream).orElse(unclosedBracket(p.getInputStream)) match {
        case Some(open) =>
          val what = if (open.getType == TEMPLATE_START) "template string starting with " else ""
          s"; the $what'${open.getText}' on line ${open.getLine}, column ${open.getCharPositionInLine + 1} is never closed"
        case None => ""
      }

  private def unclosedTemplate(stream: TokenStream): Option[Token] = {
    var open = List.empty[Token]
    for (i <- 0 until stream.size) {
      val t = stream.get(i)
      if (t.getType == TEMPLATE_START) open = t :: open
      else if (t.getType == TEMPLATE_END && open.nonEmpty) open = open.tail
    }
    open.lastOption // the outermost: everything after it was swallowed as template text
  }

  private def unclosedBracket(stream: TokenStream): Option[Token] = {
    var open = List.empty[Token]
    var i = 0
    while (i < stream.size) {
      val t = stream.get(i)
      if (t.getChannel == Token.DEFAULT_CHANNEL) t.getType match {
        case LBRACE | LPAREN | LBRACK => open = t :: open
        case RBRACE | RPAREN | RBRACK => if (open.nonEmpty) open = open.tail
        case _ =>
      }
      i += 1
    }
    open.headOption
  }

  private def nextOnChannel(p: AntlrParser, t: Token): Token = {
    val stream = p.getInputStream
    var i = t.getTokenIndex + 1
    while (i < stream.size && stream.get(i).getChannel != Token.DEFAULT_CHANNEL) i += 1
    if (i < stream.size) stream.get(i) else null
  }
}
