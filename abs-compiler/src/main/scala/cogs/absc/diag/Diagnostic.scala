package cogs.absc.diag

import cogs.absc.ast.Pos

sealed abstract class Severity(val label: String) extends Product with Serializable

object Severity {
  case object Error extends Severity("error")
  case object Warning extends Severity("warning")
}

/**
 * A message about a source position, from any phase of absc.
 *
 * Rendered the way gcc, clang and javac render theirs, so that editors and CI logs
 * recognise the first line, and so that a modeller sees the offending place at once:
 * {{{
 * bank.abs:12:17: error: expected ';'
 *     Int balance = 0
 *                    ^
 * }}}
 */
final case class Diagnostic(severity: Severity, pos: Pos, message: String) {

  def isError: Boolean = severity == Severity.Error

  /** `file:line:col: error: message`, without the source excerpt. */
  def header: String = s"${pos.file}:${pos.line}:${pos.col}: ${severity.label}: ${Diagnostic.shorten(message)}"

  /**
   * The header, then the source line and a caret under the column, given the text of
   * the file the position refers to. Only the header if the line is not in the text.
   * A line longer than [[Diagnostic.MaxLineShown]] is shown as a window around the caret.
   */
  def render(sourceText: String): String =
    Diagnostic.sourceLine(sourceText, pos.line) match {
      case Some(line) =>
        val (shown, caret) = Diagnostic.excerpt(line, pos.col)
        s"$header\n$shown\n$caret"
      case None => header
    }

  override def toString: String = header
}

object Diagnostic {

  def error(pos: Pos, message: String): Diagnostic = Diagnostic(Severity.Error, pos, message)

  def warning(pos: Pos, message: String): Diagnostic = Diagnostic(Severity.Warning, pos, message)

  /** All diagnostics of one file, rendered and separated by newlines. */
  def renderAll(diagnostics: Seq[Diagnostic], sourceText: String): String =
    diagnostics.map(_.render(sourceText)).mkString("\n")

  /**
   * Source lines up to this length are shown whole. Generated models can have lines of a
   * megabyte; echoing one into every error buries the message.
   */
  private[absc] final val MaxLineShown = 200

  /** Characters of a long line shown before the caret, and the width of the window. */
  private final val Before = 80
  private final val Window = 160

  /** Messages quote source text (a name, a token); this keeps a huge one from flooding the terminal. */
  private final val MaxMessage = 1000

  private[absc] def shorten(message: String): String =
    if (message.length <= MaxMessage) message
    else message.take(MaxMessage / 2) + s" ...[${message.length - MaxMessage} characters left out]... " + message.takeRight(MaxMessage / 2)

  /**
   * The line as shown and the caret line under it: the whole line, or, for a long one, a
   * window around the caret with `...` where the line goes on.
   */
  private[absc] def excerpt(line: String, col: Int): (String, String) =
    if (line.length <= MaxLineShown) (line, caretLine(line, col))
    else {
      val at = math.min(math.max(col - 1, 0), line.length)
      var start = math.max(0, at - Before)
      val end0 = math.min(line.length, start + Window)
      start = math.max(0, end0 - Window)
      var end = end0
      // Never cut a code point in two.
      if (start > 0 && Character.isLowSurrogate(line.charAt(start))) start += 1
      if (end < line.length && Character.isLowSurrogate(line.charAt(end))) end -= 1
      val before = if (start > 0) "..." else ""
      val after = if (end < line.length) "..." else ""
      val shown = before + line.substring(start, end) + after
      (shown, caretLine(shown, before.length + (col - 1 - start) + 1))
    }

  /** Line `n` (1-based) of `text`, without its terminator; lines end at \n, \r\n or \r. */
  private[absc] def sourceLine(text: String, n: Int): Option[String] =
    if (n < 1) None
    else {
      var line = 1
      var i = 0
      while (line < n && i < text.length) {
        val c = text.charAt(i)
        i += 1
        if (c == '\n' || (c == '\r' && (i >= text.length || text.charAt(i) != '\n'))) line += 1
      }
      if (line < n) None
      else {
        var end = i
        while (end < text.length && text.charAt(end) != '\n' && text.charAt(end) != '\r') end += 1
        Some(text.substring(i, end))
      }
    }

  /**
   * A caret under 1-based column `col` of `line`. Tabs before the column are copied, so
   * the caret lines up however wide the terminal draws a tab.
   */
  private[absc] def caretLine(line: String, col: Int): String = {
    val sb = new StringBuilder
    var i = 0
    while (i < col - 1) {
      sb += (if (i < line.length && line.charAt(i) == '\t') '\t' else ' ')
      i += 1
    }
    sb += '^'
    sb.result()
  }
}
