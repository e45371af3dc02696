package cogs.absc.lower

import scala.collection.mutable

/**
 * How ABS names become Scala names: one scheme for every identifier that reaches Scala.
 *
 * The world a generated file lives in has names of its own: Scala's keywords, the members of
 * `java.lang.Object` and of `ActiveObject`, the runtime's and the standard library's names that
 * generated code uses unqualified, the module objects, and the generated temporaries. An ABS name
 * that is one of those (the ''reserved'' names of its kind), or that ends in `_`, gets one `_`
 * appended; every other name is kept as written. This is injective: a kept name never ends in
 * `_`, so it cannot equal a changed one, and two changed names are equal only if the originals
 * were. No name is ever backquoted, so a pattern binder is always a binder.
 *
 * Temporaries of the generated code contain `$`, which no ABS identifier can.
 *
 * Locals (variables, parameters, let, case and foreach binders) are allocated by scope
 * ([[Locals]]): a local whose name is already bound in an enclosing scope of the same body gets
 * a fresh `name$n`, so that shadowing in ABS (`let x = x + 1 in ..`, two bindings of one name in
 * one `let`) never becomes a self-reference or a redefinition in Scala.
 */
object Naming {
  val ScalaKeywords: Set[String] = Set(
    "abstract", "case", "catch", "class", "def", "do", "else", "extends", "false", "final", "finally", "for",
    "forSome", "if", "implicit", "import", "lazy", "macro", "match", "new", "null", "object", "override",
    "package", "private", "protected", "return", "sealed", "super", "this", "throw", "trait", "try", "true",
    "type", "val", "var", "while", "with", "yield", "then", "enum", "export", "given", "using", "extension",
    "inline", "opaque", "open", "transparent", "derives", "end", "infix", "_")

  /** Members of every class of generated code: `java.lang.Object`, `Any`, `ActiveObject`/`Active`. */
  val ObjectMembers: Set[String] = Set(
    "toString", "equals", "hashCode", "getClass", "notify", "notifyAll", "wait", "clone", "finalize",
    "eq", "ne", "isInstanceOf", "asInstanceOf", "synchronized", "##",
    "cog", "runtime", "send", "tell", "sync", "traceName", "traceSlot", "creationSite", "main")

  /**
   * Lower-case names that generated code uses unqualified, besides the standard library's functions
   * (which [[TermReserved]] adds from the checked program): helpers of `cogs.absc.lib` and the
   * names of the generated code's own scaffolding.
   */
  val Helpers: Set[String] = Set(
    "absToString", "absAssert", "matchFail", "nullCheck", "nonZero", "thrown", "initFailed", "selectorFail", "strJoin", "intList", "listConcat", "lt", "le", "gt", "ge", "fdiv", "fmod",
    "setFromList", "mapFromList", "list", "cogs", "scala", "java", "absmodel", "lib", "locally", "identity",
    "println", "print", "assert", "require", "implicitly")

  /** Capitalised names that generated code uses unqualified: the runtime, the library, Scala. */
  val TypeReserved: Set[String] = Set(
    // cogs.runtime (imported by name)
    "Proc", "Cogs", "Guard", "Fut", "Active", "ActiveObject", "CogRuntime", "Frame", "FrameCall", "Process",
    // cogs.absc.lib
    "AbsInt", "AbsRat", "AbsFrac", "AbsSet", "AbsMap", "AbsData", "AbsException", "ObjectDeadException", "AbsObject",
    "AbsCall", "AbsMessage",
    "Pair", "Triple", "Maybe", "Just", "Nothing", "Either", "Left", "Right", "Time", "Duration", "InfDuration",
    "Out", "Show", "Ord", "Identity", "Types", "AbsInput", "AbsRandom", "ModelClock", "AbsProcess", "Cons", "Insert",
    "InsertAssoc", "EmptySet", "EmptyMap", "True", "False",
    // Scala and java.lang
    "List", "Nil", "Boolean", "String", "Double", "Unit", "Null", "Any", "AnyRef", "AnyVal", "Throwable",
    "Some", "None", "Option", "Array", "Int", "Long", "BigInt", "Predef", "Object", "Exception",
    "RuntimeException", "Error", "Product", "Serializable", "Main", "StringContext", "Seq", "Map", "Set",
    "Iterator", "Iterable", "Vector", "Tuple2", "Function1", "Char", "Byte", "Short", "Float", "Symbol",
    "Equals", "Ordering", "Numeric", "Math", "System", "Thread", "Class")

  private def mangle(name: String, reserved: String => Boolean): String =
    shorten(if (reserved(name) || name.endsWith("_")) name + "_" else name)

  /** The longest name kept as written (names become JVM names and class-file names). */
  val MaxNameChars = 120

  /**
   * A name longer than [[MaxNameChars]]: its first 64 characters, `$h` and 32 hex digits of its
   * SHA-256. A JVM name is a class-file constant of at most 65,535 bytes, and a class name is also
   * a file name (at most 255 bytes on common file systems), so an ABS identifier of any length
   * must become a short one. Injective in practice (a hash collision aside); it cannot meet a
   * kept name (those have no `$`) or a temporary (`hint$n` ends in digits, this does not start
   * them with `h`).
   */
  private def shorten(name: String): String =
    if (name.length <= MaxNameChars) name
    else {
      val md = java.security.MessageDigest.getInstance("SHA-256").digest(name.getBytes(java.nio.charset.StandardCharsets.UTF_8))
      name.take(64) + "$h" + md.take(16).map(b => f"${b & 0xff}%02x").mkString
    }

  /** An ABS name as generated code shows it at run time (traces, `toString`): a long one cut short. */
  def displayName(name: String): String = if (name.length <= MaxNameChars) name else name.take(64) + "..."

  /** A data type, constructor, exception, interface or class (capitalised in ABS). */
  def typeName(name: String, moduleObjects: Set[String]): String =
    mangle(name, n => TypeReserved(n) || ScalaKeywords(n) || moduleObjects(n))

  /** A type parameter: never equal to a [[typeName]] of another ABS name (see the class comment). */
  def typeParam(name: String): String = shorten(name + "_")

  /** The Scala object of a module: `Bank.Core` is `Bank_Core`, with its own collision check. */
  def moduleObject(dotted: String): String = {
    val flat = dotted.replace('.', '_')
    shorten(if (TypeReserved(flat) || ScalaKeywords(flat)) flat + "$" else flat)
  }

  /** A term name (function, method, field, local) given the reserved set of its kind. */
  def termName(name: String, reserved: String => Boolean): String =
    mangle(name, n => reserved(n) || ScalaKeywords(n) || Helpers(n) || ObjectMembers(n))

  /** A string literal. */
  def stringLit(s: String): String = {
    val b = new StringBuilder("\"")
    s.foreach {
      case '"'  => b ++= "\\\""
      case '\\' => b ++= "\\\\"
      case '\n' => b ++= "\\n"
      case '\r' => b ++= "\\r"
      case '\t' => b ++= "\\t"
      case c if c < ' ' || (c >= 0x7f && c < 0xa0) => b ++= f"\\u${c.toInt}%04x"
      case c => b += c
    }
    b += '"'
    b.result()
  }
}

/**
 * The Scala names of the locals of one body (method, function, main block, init block), by scope.
 * `base` is the scheme's name ([[Naming.termName]]); a name already bound in an enclosing scope
 * of the body gets `base$n` instead.
 */
private[lower] final class Locals(base: String => String) {
  private var scopes: List[mutable.Set[String]] = List(mutable.Set.empty)
  private var counter = 0

  def scoped[A](body: => A): A = {
    scopes = mutable.Set.empty[String] :: scopes
    try body finally scopes = scopes.tail
  }

  private def visible(n: String): Boolean = scopes.exists(_.contains(n))

  /** Bind a new local in the current scope; its Scala name. */
  def bind(absName: String): String = {
    val b = base(absName)
    val n = if (!visible(b)) b else { counter += 1; while (visible(s"$b$$$counter")) counter += 1; s"$b$$$counter" }
    scopes.head += n
    n
  }

  /** A temporary of the generated code (contains `$`, so it never meets an ABS name). */
  def temp(hint: String): String = { counter += 1; s"$hint$$$counter" }
}
