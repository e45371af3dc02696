package cogs.session.parse

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import scala.collection.mutable.ListBuffer
import scala.jdk.CollectionConverters._

import org.antlr.v4.runtime.{BaseErrorListener, CharStreams, CommonTokenStream, DefaultErrorStrategy,
  InputMismatchException, NoViableAltException, ParserRuleContext, RecognitionException, Recognizer, Token}
import org.antlr.v4.runtime.{Parser => AntlrParser}
import org.antlr.v4.runtime.misc.IntervalSet

import cogs.session.Diagnostic
import cogs.session.ast._
import cogs.session.parse.ScribbleParser._

/** Reads protocol files (the Scribble subset of session/README.md) into [[cogs.session.ast.Module]]. */
private[session] object Parser {

  /** Parse `text` (named `file` in messages): the module, or its syntax errors. */
  def parse(file: String, text: String): Either[List[Diagnostic], Module] = {
    val errors = new Errors(file)
    val lexer = new ScribbleLexer(CharStreams.fromString(text, file))
    lexer.removeErrorListeners()
    val parser = new ScribbleParser(new CommonTokenStream(lexer))
    parser.removeErrorListeners()
    parser.addErrorListener(errors)
    parser.setErrorHandler(new Strategy(errors))
    val tree = parser.module_()
    if (errors.list.nonEmpty) Left(errors.list.toList)
    else Right(new AstBuilder(file, text).module(tree))
  }

  def parseFile(path: Path): Either[List[Diagnostic], Module] =
    parse(path.toString, new String(Files.readAllBytes(path), StandardCharsets.UTF_8))

  /** Collects errors; one within two tokens of the previous one is a cascade of it and dropped. */
  private final class Errors(file: String) extends BaseErrorListener {
    val list = ListBuffer.empty[Diagnostic]
    private var lastIndex = -10

    def add(line: Int, col: Int, message: String, tokenIndex: Int): Unit = {
      val cascade = tokenIndex >= 0 && tokenIndex <= lastIndex + 2
      if (tokenIndex >= 0) lastIndex = tokenIndex
      if (!cascade) list += Diagnostic(Pos(file, line, col), message)
    }

    // Only reached for errors the strategy does not word itself.
    override def syntaxError(r: Recognizer[_, _], offending: Any, line: Int, col: Int, msg: String, e: RecognitionException): Unit =
      add(line, col + 1, msg, offending match { case t: Token => t.getTokenIndex; case _ => -1 })
  }

  /**
   * ANTLR's recovery with messages for protocol writers ("expected ';', found 'or'") instead of
   * ANTLR's own, which list token types. A missing token is reported right after the token before
   * it, where it belongs, not at whatever follows (possibly lines later).
   */
  private final class Strategy(errors: Errors) extends DefaultErrorStrategy {
    override def reportInputMismatch(p: AntlrParser, e: InputMismatchException): Unit =
      report(p, e.getOffendingToken, expectedFound(e.getExpectedTokens, e.getOffendingToken, p),
        afterPrevious = e.getExpectedTokens.contains(SEMI) || e.getExpectedTokens.contains(RPAREN))

    override def reportNoViableAlternative(p: AntlrParser, e: NoViableAltException): Unit =
      report(p, e.getOffendingToken, expectedFound(e.getExpectedTokens, e.getOffendingToken, p), afterPrevious = false)

    override def reportUnwantedToken(p: AntlrParser): Unit = if (!inErrorRecoveryMode(p)) {
      beginErrorCondition(p)
      val t = p.getCurrentToken
      report(p, t, s"unexpected ${describe(t)}" + hint(getExpectedTokens(p), p), afterPrevious = false)
    }

    override def reportMissingToken(p: AntlrParser): Unit = if (!inErrorRecoveryMode(p)) {
      beginErrorCondition(p)
      val t = p.getCurrentToken
      report(p, t, expectedFound(getExpectedTokens(p), t, p), afterPrevious = true)
    }

    private def report(p: AntlrParser, t: Token, message: String, afterPrevious: Boolean): Unit = {
      val prev = if (afterPrevious) p.getInputStream.LT(-1) else null
      if ((prev ne null) && prev.getType != Token.EOF && !prev.getText.contains('\n'))
        errors.add(prev.getLine, prev.getCharPositionInLine + prev.getText.length + 1, message, t.getTokenIndex)
      else errors.add(t.getLine, t.getCharPositionInLine + 1, message, t.getTokenIndex)
    }

    private def hint(expected: IntervalSet, p: AntlrParser): String =
      if (expected.size() > 0 && expected.size() <= 6) s"; expected ${names(expected, p)}" else ""

    private def expectedFound(expected: IntervalSet, found: Token, p: AntlrParser): String =
      if (found.getType == BAD) s"unexpected character '${found.getText}'"
      else if (expected.size() == 0) s"unexpected ${describe(found)}"
      else s"expected ${names(expected, p)}, found ${describe(found)}"

    private def names(set: IntervalSet, p: AntlrParser): String = {
      val ns = set.toList.asScala.map(i => tokenName(i.intValue, p)).distinct.toList
      if (ns.size <= 1) ns.mkString else ns.init.mkString(", ") + " or " + ns.last
    }
  }

  private def tokenName(t: Int, p: AntlrParser): String = t match {
    case ID         => "a name"
    case STRING     => "a string"
    case Token.EOF  => "end of file"
    case _ =>
      val lit = p.getVocabulary.getLiteralName(t)
      if (lit ne null) lit else p.getVocabulary.getDisplayName(t)
  }

  private def describe(t: Token): String = t.getType match {
    case Token.EOF => "end of file"
    case ID        => s"'${t.getText}'"
    case STRING    => "a string"
    case _         => s"'${t.getText}'"
  }
}

/** Parse tree to AST; the grammar already rejected everything malformed. */
private final class AstBuilder(file: String, text: String) {
  private def pos(t: Token): Pos = Pos(file, t.getLine, t.getCharPositionInLine + 1)
  private def pos(c: ParserRuleContext): Pos = pos(c.getStart)
  private def name(t: Token): Name = Name(t.getText)(pos(t))

  def module(m: Module_Context): Module =
    Module(
      m.qname().ID().asScala.map(_.getText).mkString("."),
      m.typeDecl().asScala.toList.map(typeDecl),
      m.protocolDecl().asScala.toList.map(protocol),
      file, text)

  private def unquote(s: String): String = s.substring(1, s.length - 1).replaceAll("\\\\(.)", "$1")

  private def typeDecl(t: TypeDeclContext): TypeDecl =
    TypeDecl(t.schema.getText, unquote(t.target.getText), unquote(t.source.getText), name(t.alias))(pos(t))

  private def protocol(p: ProtocolDeclContext): GlobalProtocol =
    GlobalProtocol(name(p.name), p.roleDecl().asScala.toList.map(r => RoleDecl(name(r.ID().getSymbol))), block(p.block()))(pos(p))

  private def block(b: BlockContext): Block = Block(b.interaction().asScala.toList.map(interaction))(pos(b))

  private def interaction(i: InteractionContext): Interaction = i match {
    case m: MessageContext =>
      // ID() lists every name token of the alternative: label, from, then the receivers.
      val ids = m.ID().asScala.toList.map(_.getSymbol).filterNot(t => (t eq m.label) || (t eq m.from))
      Message(name(m.label), m.payload().asScala.toList.map(payload), name(m.from), ids.map(name))(pos(m))
    case c: ChoiceContext   => Choice(name(c.at), c.block().asScala.toList.map(block))(pos(c))
    case r: RecContext      => Rec(name(r.label), block(r.block()))(pos(r))
    case c: ContinueContext => Continue(name(c.label))(pos(c))
    case d: DoContext =>
      Do(name(d.proto), d.ID().asScala.toList.map(_.getSymbol).filterNot(_ eq d.proto).map(name))(pos(d))
    case p: ParContext => Par(p.block().asScala.toList.map(block))(pos(p))
  }

  private def payload(p: PayloadContext): Payload = Payload(Option(p.name).map(_.getText), name(p.`type`))
}
