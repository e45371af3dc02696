package cogs.session

import cogs.session.ast.Pos

/**
 * An error (or, with `warning`, a hazard that does not make the file unusable) in a protocol file, at a position. Rendered as compilers render theirs (the first
 * line is what editors and CI logs recognise), then the source line and a caret:
 * {{{
 * shop.scr:7:22: error: role 'C' is not declared in protocol Purchase
 *   buy(Int) from B to C;
 *                      ^
 * }}}
 */
final case class Diagnostic(pos: Pos, message: String, warning: Boolean = false) {
  def header: String = s"${pos.file}:${pos.line}:${pos.col}: ${if (warning) "warning" else "error"}: $message"

  /** The header, the source line and a caret under the column (only the header if the line is not in `text`). */
  def render(text: String): String = Diagnostic.sourceLine(text, pos.line) match {
    case Some(line) =>
      val caret = new StringBuilder
      var i = 0
      // Tabs are copied so the caret lines up however wide the terminal draws them.
      while (i < pos.col - 1) { caret += (if (i < line.length && line.charAt(i) == '\t') '\t' else ' '); i += 1 }
      s"$header\n$line\n${caret}^"
    case None => header
  }

  override def toString: String = header
}

object Diagnostic {
  /** Errors in the order of the file, each once. */
  def sorted(ds: Iterable[Diagnostic]): List[Diagnostic] =
    ds.toList.distinct.sortBy(d => (d.pos.file, d.pos.line, d.pos.col, d.message))

  private[session] def sourceLine(text: String, n: Int): Option[String] = {
    val lines = text.split("\r\n|\r|\n", -1)
    if (n >= 1 && n <= lines.length) Some(lines(n - 1)) else None
  }
}

/**
 * A protocol file that cannot be used: its diagnostics, rendered with the source (the message
 * is what a user sees; no stack trace is needed to understand it).
 */
final class ProtocolException(val diagnostics: List[Diagnostic], text: String)
    extends RuntimeException(diagnostics.map(_.render(text)).mkString("\n")) {
  /** Java: the diagnostics. */
  def diagnosticList: java.util.List[Diagnostic] = {
    import scala.jdk.CollectionConverters._
    diagnostics.asJava
  }
}
