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
  def header: String = s"${pos.file}:${pos.line}:${pos.col}: ${severity.label}: $message"

  /**
   * The header, then the source line and a caret under the column, given the text of
   * the file the position refers to. Only the header if the line is not in the text.
   */
  def render(sourceText: String): String =
    Diagnostic.sourceLine(sourceText, pos.line) match {
      case Some(line) => s"$header\n$line\n${Diagnostic.caretLine(line, pos.col)}"
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
