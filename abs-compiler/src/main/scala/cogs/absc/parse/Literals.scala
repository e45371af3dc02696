package cogs.absc.parse

/**
 * Decoding and checking of literal tokens. The checks run in the lexical pass (so that a
 * bad literal is reported together with any syntax error), the decoding when the AST is
 * built, both from this one definition.
 */
private[parse] object Literals {

  /**
   * Decodes the text of a closed string literal (quotes included). Java's escapes:
   * backslash followed by n t r b f " ' or a backslash, or by u and four hex digits.
   * `problem(offset, message)` hears of each invalid escape, offset counted from the
   * opening quote.
   */
  def decodeString(raw: String, problem: (Int, String) => Unit): String = {
    val sb = new StringBuilder
    var i = 1
    val end = raw.length - 1
    while (i < end) {
      val ch = raw.charAt(i)
      if (ch != '\\') { sb += ch; i += 1 }
      else {
        val esc = raw.charAt(i + 1)
        esc match {
          case 'n' => sb += '\n'
          case 't' => sb += '\t'
          case 'r' => sb += '\r'
          case 'b' => sb += '\b'
          case 'f' => sb += '\f'
          case '"' => sb += '"'
          case '\'' => sb += '\''
          case '\\' => sb += '\\'
          case 'u' if i + 6 <= end && raw.substring(i + 2, i + 6).forall(c => Character.digit(c, 16) >= 0) =>
            sb += Integer.parseInt(raw.substring(i + 2, i + 6), 16).toChar
            i += 4
          case _ =>
            val shown = if (esc == 'u') "\\u" else s"\\$esc"
            problem(i, s"invalid escape sequence '$shown' in string literal" +
              " (valid: \\n \\t \\r \\b \\f \\\" \\' \\\\ \\uXXXX)")
        }
        i += 2
      }
    }
    sb.result()
  }

  /** The manual's integer literals have no leading zeros (a reader might take 017 for octal). */
  def intProblem(text: String): Option[String] =
    if (text.length > 1 && text.charAt(0) == '0') Some(s"integer literal '$text' must not start with 0 (write '${BigInt(text)}')")
    else None

  def floatProblem(text: String): Option[String] =
    if (text.toDouble.isInfinite) Some(s"floating-point literal '$text' is too large") else None

  /** In template text only \` and \$ are escapes; every other character stands for itself. */
  def decodeTemplateText(raw: String): String = raw.replace("\\`", "`").replace("\\$", "$")
}
