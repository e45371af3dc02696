package cogs.absc.lib

import java.math.{BigDecimal => JBigDecimal, MathContext, RoundingMode}

import scala.runtime.BoxedUnit

/**
 * ABS `toString`, exactly as the Erlang backend prints values (the Java backend agrees except
 * where noted in docs/values.md):
 *
 *  - a `String` at top level is itself; inside data it is quoted, with `"` escaped as `\"` (and
 *    nothing else escaped): `toString(Pair("a\"b", 1))` is `Pair("a\"b",1)`;
 *  - `Int` in decimal, `Rat` as `n/d` (`-1/3`; an integral Rat prints as an Int);
 *  - `Float` in the shortest form that reads back to the same double, laid out as Erlang's
 *    `mochinum:digits`: `1.0`, `0.1`, `100000.0`, `1.0e+6`, `1.5e-7`, `0.0` (also for -0.0);
 *  - `True`/`False`, `Unit`, `null`;
 *  - data as `C(a,b)` (no spaces) or `C` without arguments;
 *  - lists as `list[1,2,3]` (and `list[]`), sets as `set[1,2,3]` (`EmptySet`), maps as
 *    `map[Pair(1,"a"),Pair(2,"b")]` (`EmptyMap`);
 *  - objects and futures by [[opaqueFormatter]] (default `ClassName#n`, n from [[Identity]]:
 *    the manual leaves their text to the implementation).
 */
object Show {

  /**
   * How objects, futures and any other reference outside the ABS value representations print.
   * The runtime glue may replace it (e.g. to show a future's state); it must not throw.
   */
  @volatile var opaqueFormatter: AnyRef => String = defaultOpaque

  /** Objects of generated classes may implement this to print their ABS class name. */
  trait Named { def absClassName: String }

  def defaultOpaque(o: AnyRef): String = {
    val name = o match {
      case n: Named => n.absClassName
      // generated classes name themselves as the model does (a class `C` may be Scala's `C$Class`)
      case a: cogs.runtime.ActiveObject => a.traceName
      case _        => o.getClass.getSimpleName
    }
    name + "#" + Identity.id(o)
  }

  /** ABS `toString(v)`. */
  def show(v: Any): String = v match {
    case s: String => s
    case i: AbsInt => i.toString
    case _ =>
      val sb = new java.lang.StringBuilder
      append(sb, v)
      sb.toString
  }

  /** Append the nested (quoted-strings) form of `v`. */
  def append(sb: java.lang.StringBuilder, v: Any): Unit = v match {
    case s: String            => appendQuoted(sb, s)
    case i: AbsInt            => sb.append(i.toString)
    case d: AbsData           => appendData(sb, d)
    case l: List[_]           => appendSeq(sb, "list[", l.iterator, "list[]")
    case b: java.lang.Boolean => sb.append(if (b.booleanValue) "True" else "False")
    case d: java.lang.Double  => sb.append(formatDouble(d.doubleValue))
    case r: AbsFrac           => sb.append(r.toString)
    case s: AbsSet[_]         => appendSeq(sb, "set[", s.iterator, "EmptySet")
    case m: AbsMap[_, _]      => appendSeq(sb, "map[", m.entriesIterator, "EmptyMap")
    case _: BoxedUnit         => sb.append("Unit")
    case null                 => sb.append("null")
    case n: java.lang.Float   => sb.append(formatDouble(n.doubleValue))
    case n: java.lang.Number  => sb.append(n.toString) // not an ABS representation; tolerated
    case o                    => sb.append(opaqueFormatter(o.asInstanceOf[AnyRef]))
  }

  private def appendQuoted(sb: java.lang.StringBuilder, s: String): Unit = {
    sb.append('"')
    if (s.indexOf('"') < 0) sb.append(s)
    else {
      var i = 0
      while (i < s.length) {
        val c = s.charAt(i)
        if (c == '"') sb.append("\\\"") else sb.append(c)
        i += 1
      }
    }
    sb.append('"')
  }

  private def appendData(sb: java.lang.StringBuilder, d: AbsData): Unit = {
    sb.append(d.absConstructor)
    val n = d.productArity
    if (n > 0) {
      sb.append('(')
      var i = 0
      while (i < n) {
        if (i > 0) sb.append(',')
        append(sb, d.productElement(i))
        i += 1
      }
      sb.append(')')
    }
  }

  private def appendSeq(sb: java.lang.StringBuilder, open: String, it: Iterator[_], empty: String): Unit =
    if (!it.hasNext) sb.append(empty)
    else {
      sb.append(open)
      append(sb, it.next())
      while (it.hasNext) {
        sb.append(',')
        append(sb, it.next())
      }
      sb.append(']')
    }

  // ---- Float ----

  /**
   * The shortest decimal that reads back as `d` (ties: the nearer one, then the larger digit, as
   * Burger and Dybvig's free-format algorithm that the Erlang backend uses), laid out as
   * `mochinum:digits` does.
   */
  def formatDouble(d: Double): String = {
    if (d == 0.0) return "0.0"
    if (java.lang.Double.isNaN(d)) return "NaN"
    if (java.lang.Double.isInfinite(d)) return if (d > 0) "Infinity" else "-Infinity"
    val (digits, place) = shortestDigits(java.lang.Math.abs(d))
    val body = layout(place, digits)
    if (d < 0) "-" + body else body
  }

  /**
   * Digits `s` (no leading or trailing zeros) and `place` such that the value is `0.s * 10^place`.
   */
  private[lib] def shortestDigits(a: Double): (String, scala.Int) = {
    // Fast path: integers below 2^53 are exact; their digits without trailing zeros are shortest.
    if (a < 9.007199254740992e15 && a == java.lang.Math.rint(a)) {
      val s = java.lang.Long.toString(a.toLong)
      var end = s.length
      while (end > 1 && s.charAt(end - 1) == '0') end -= 1
      return (s.substring(0, end), s.length)
    }
    val exact = new JBigDecimal(a)
    var p = 1
    while (p <= 17) {
      val near = exact.round(new MathContext(p, RoundingMode.HALF_UP))
      if (near.doubleValue == a) return digitsOf(near)
      // Just above a power of two the interval below is half as wide as the one above: the
      // nearer p-digit neighbour may miss while the other one reads back.
      val other =
        if (near.compareTo(exact) < 0) exact.round(new MathContext(p, RoundingMode.CEILING))
        else exact.round(new MathContext(p, RoundingMode.FLOOR))
      if (other.doubleValue == a) return digitsOf(other)
      p += 1
    }
    digitsOf(exact.round(new MathContext(17, RoundingMode.HALF_EVEN)))
  }

  private def digitsOf(b: JBigDecimal): (String, scala.Int) = {
    val s = b.stripTrailingZeros
    val u = s.unscaledValue.toString
    (u, u.length - s.scale)
  }

  /** mochinum's insert_decimal. */
  private def layout(place: scala.Int, s: String): String = {
    val len = s.length
    if (place == 0) "0." + s
    else if (place > 0) {
      val n = place - len
      if (n == 0) s + ".0"
      else if (n < 0) s.substring(0, len + n) + "." + s.substring(len + n)
      else if (n < 6) s + ("0" * n) + ".0"
      else exponent(place, s)
    } else if (place > -6) "0." + ("0" * -place) + s
    else exponent(place, s)
  }

  private def exponent(place: scala.Int, s: String): String = {
    val rest = if (s.length > 1) s.substring(1) else "0"
    val sign = if (place < 0) "e-" else "e+"
    s.substring(0, 1) + "." + rest + sign + java.lang.Math.abs(place - 1)
  }
}
