package cogs.monitor.pipeline

/** The little JSON the reports need (one object per line); no library, so the module adds no dependency. */
private[pipeline] object Json {

  def obj(fields: (String, Any)*): String = {
    val sb = new java.lang.StringBuilder(128)
    sb.append('{')
    var first = true
    fields.foreach { case (k, v) =>
      if (!first) sb.append(',')
      first = false
      quote(sb, k)
      sb.append(':')
      value(sb, v)
    }
    sb.append('}').toString
  }

  private def value(sb: java.lang.StringBuilder, v: Any): Unit = v match {
    case null                      => sb.append("null")
    case None                      => sb.append("null")
    case Some(x)                   => value(sb, x)
    case b: Boolean                => sb.append(b)
    case d: Double if d.isNaN || d.isInfinite => sb.append("null")
    case d: Double                 => sb.append(BigDecimal(d).setScale(3, BigDecimal.RoundingMode.HALF_UP).bigDecimal.stripTrailingZeros.toPlainString)
    case n: Int                    => sb.append(n)
    case n: Long                   => sb.append(n)
    case s: Iterable[_]            =>
      sb.append('[')
      var first = true
      s.foreach { x => if (!first) sb.append(','); first = false; value(sb, x) }
      sb.append(']')
    case Raw(s)                    => sb.append(s)
    case other                     => quote(sb, String.valueOf(other))
  }

  /** Already-rendered JSON, inserted as is. */
  final case class Raw(json: String)

  def quote(s: String): String = { val sb = new java.lang.StringBuilder; quote(sb, s); sb.toString }

  private def quote(sb: java.lang.StringBuilder, s: String): Unit = {
    sb.append('"')
    var i = 0
    while (i < s.length) {
      val c = s.charAt(i)
      c match {
        case '"'  => sb.append("\\\"")
        case '\\' => sb.append("\\\\")
        case '\n' => sb.append("\\n")
        case '\r' => sb.append("\\r")
        case '\t' => sb.append("\\t")
        case _ if c < 0x20 => sb.append(f"\\u${c.toInt}%04x")
        case _    => sb.append(c)
      }
      i += 1
    }
    sb.append('"')
  }
}
