package cogs.absc.parse

import java.nio.{ByteBuffer, CharBuffer}
import java.nio.charset.CodingErrorAction
import java.nio.charset.StandardCharsets.UTF_8

import scala.collection.mutable.ListBuffer

import cogs.absc.ast.Pos
import cogs.absc.diag.Diagnostic

/**
 * The bytes of a source file as text: strict UTF-8, so that a file in another encoding is an
 * error at the byte that gives it away instead of a silent U+FFFD in a string literal (which
 * the program would then print).
 */
object SourceText {

  /** At most this many encoding errors per file are reported: a Latin-1 file has one on every accented letter. */
  private val MaxErrors = 20

  /**
   * The text of `bytes` (a leading byte-order mark dropped), or one error per invalid byte
   * sequence (at most [[MaxErrors]]), located at the line and column where the sequence
   * starts. The text with U+FFFD in place of the bad sequences comes with the errors, so that
   * they render with the source line under them.
   */
  def decode(fileName: String, bytes: Array[Byte]): Either[(List[Diagnostic], String), String] = {
    val decoder = UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT)
      .onUnmappableCharacter(CodingErrorAction.REPORT)
    val in = ByteBuffer.wrap(bytes)
    val out = CharBuffer.allocate(bytes.length + 1) // UTF-8 never decodes to more chars than bytes
    // (index of the replacement character in the text, the bad bytes)
    val bad = ListBuffer.empty[(Int, Array[Byte])]
    var done = false
    while (!done) {
      val result = decoder.decode(in, out, true)
      if (result.isError) {
        val n = result.length()
        val seq = new Array[Byte](n)
        in.get(seq)
        bad += ((out.position(), seq))
        out.put('\uFFFD')
      } else done = true // underflow: everything was read (the buffer cannot overflow)
    }
    decoder.flush(out)
    out.flip()
    val raw = out.toString
    val bom = raw.startsWith("\uFEFF")
    val text = if (bom) raw.substring(1) else raw
    if (bad.isEmpty) Right(text)
    else {
      val shift = if (bom) 1 else 0
      val reported = bad.take(MaxErrors).toList
      val positions = lineAndColumn(text, reported.map(_._1 - shift))
      val diagnostics = reported.zip(positions).zipWithIndex.map { case (((_, seq), (line, col)), i) =>
        val bytesText = seq.map(b => f"0x${b & 0xff}%02X").mkString(" ")
        val what = if (seq.length == 1) s"byte $bytesText" else s"bytes $bytesText"
        val more = bad.size - reported.size
        val tail = if (i == reported.size - 1 && more > 0) s"; $more more invalid byte sequence(s) after this one are not shown" else ""
        Diagnostic.error(Pos(fileName, line, col), s"invalid UTF-8 $what (source files must be encoded in UTF-8)$tail")
      }
      Left((diagnostics, text))
    }
  }

  /**
   * The text the lexer reads: every lone `\r` (old Mac line ends) becomes `\n`, so that ANTLR,
   * which counts lines at `\n` only, gives the same line and column for every convention. The
   * text keeps its length, so offsets into it stay valid. `\r\n` needs nothing: the `\r` is
   * whitespace at the end of the line and the `\n` counts it.
   */
  private[absc] def forLexer(text: String): String =
    if (text.indexOf('\r') < 0) text
    else {
      val chars = text.toCharArray
      var i = 0
      while (i < chars.length) {
        if (chars(i) == '\r' && (i + 1 >= chars.length || chars(i + 1) != '\n')) chars(i) = '\n'
        i += 1
      }
      new String(chars)
    }

  /**
   * 1-based line and column of each of the ascending char `indices` of `text`, counted as the
   * lexer counts them: lines end at `\n`, `\r\n` or `\r`; a column is a code point.
   */
  private[absc] def lineAndColumn(text: String, indices: List[Int]): List[(Int, Int)] = {
    val result = ListBuffer.empty[(Int, Int)]
    var pending = indices
    var line = 1
    var col = 1
    var i = 0
    while (pending.nonEmpty) {
      if (i == pending.head || i >= text.length) {
        result += ((line, col))
        pending = pending.tail
      } else {
        val c = text.charAt(i)
        if (c == '\n' || (c == '\r' && (i + 1 >= text.length || text.charAt(i + 1) != '\n'))) { line += 1; col = 1 }
        else if (c == '\r' || Character.isLowSurrogate(c)) () // the \n of \r\n, or the second half of a code point
        else col += 1
        i += 1
      }
    }
    result.toList
  }
}
