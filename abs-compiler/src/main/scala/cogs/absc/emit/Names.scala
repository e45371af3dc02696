package cogs.absc.emit

import cogs.absc.typecheck._

/** How ABS names become Scala names. */
private[emit] object Names {
  private val scalaKeywords = Set(
    "abstract", "case", "catch", "class", "def", "do", "else", "extends", "false", "final", "finally", "for",
    "forSome", "if", "implicit", "import", "lazy", "macro", "match", "new", "null", "object", "override",
    "package", "private", "protected", "return", "sealed", "super", "this", "throw", "trait", "try", "true",
    "type", "val", "var", "while", "with", "yield", "then", "enum", "export", "given")

  // Members of AnyRef / ActiveObject that an ABS method or field must not override by accident.
  private val reservedMembers = Set(
    "toString", "equals", "hashCode", "getClass", "notify", "notifyAll", "wait", "clone", "finalize",
    "eq", "ne", "isInstanceOf", "asInstanceOf", "synchronized", "cog", "runtime", "send", "sync", "traceName", "traceRef")

  /** A Scala identifier for an ABS identifier (backticks for keywords). */
  def id(name: String): String =
    // `from_: Int` would lex as the operator identifier `from_:`; backticks keep it a name.
    if (scalaKeywords(name) || name.endsWith("_")) s"`$name`" else name

  /** A method or field name inside a generated class. */
  def member(name: String): String = if (reservedMembers(name)) id(name + "_") else id(name)

  /** A local variable (never collides with generated helper names, which contain `$`). */
  def local(name: String): String = id(name)

  /** The Scala object that holds a module: `ABS.Foo.Bar` becomes `ABS_Foo_Bar`. */
  def moduleObject(m: ModuleSym): String = m.name.replace('.', '_')

  /** A string literal. */
  def stringLit(s: String): String = {
    val b = new StringBuilder("\"")
    s.foreach {
      case '"'  => b ++= "\\\""
      case '\\' => b ++= "\\\\"
      case '\n' => b ++= "\\n"
      case '\r' => b ++= "\\r"
      case '\t' => b ++= "\\t"
      case c if c < ' ' => b ++= f"\\u${c.toInt}%04x"
      case c => b += c
    }
    b += '"'
    b.result()
  }
}
