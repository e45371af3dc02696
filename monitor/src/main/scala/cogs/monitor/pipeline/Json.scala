package cogs.monitor.pipeline

import java.io.StringWriter
import com.fasterxml.jackson.core.{JsonFactoryBuilder, JsonGenerator, StreamWriteFeature}

/**
 * The JSON lines of the reports (one object per line), written with Jackson's streaming generator
 * (the project's one JSON library). Also the writer of the session monitors' lines in a compiled
 * model's run (`cogs.absc.monitoring.AbsSessions`), so that both reports quote and format alike.
 *
 * The format is the one the reports always had (monitor/README.md, "Reports"): no spaces, fields
 * in the order given, `None`/null as `null`, a Double rounded to three decimals and written without
 * exponent or trailing zeros (NaN and infinities as `null`), any other value as its string. (The
 * hand-written writer before it escaped every control character as `\u00xx`; Jackson writes
 * backspace and form feed as `\b` and `\f` and the rest with upper-case hex: the same JSON.)
 */
private[cogs] object Json {
  // Thread-safe once configured; plain decimal notation for the rounded Doubles.
  private[this] val factory = new JsonFactoryBuilder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build()

  def obj(fields: (String, Any)*): String = {
    val out = new StringWriter(128)
    val g = factory.createGenerator(out)
    try {
      g.writeStartObject()
      fields.foreach { case (k, v) => g.writeFieldName(k); value(g, v) }
      g.writeEndObject()
    } finally g.close()
    out.toString
  }

  private def value(g: JsonGenerator, v: Any): Unit = v match {
    case null                      => g.writeNull()
    case None                      => g.writeNull()
    case Some(x)                   => value(g, x)
    case b: Boolean                => g.writeBoolean(b)
    case d: Double if d.isNaN || d.isInfinite => g.writeNull()
    case d: Double                 => g.writeNumber(BigDecimal(d).setScale(3, BigDecimal.RoundingMode.HALF_UP).bigDecimal.stripTrailingZeros)
    case n: Int                    => g.writeNumber(n)
    case n: Long                   => g.writeNumber(n)
    case s: Iterable[_]            =>
      g.writeStartArray()
      s.foreach(value(g, _))
      g.writeEndArray()
    case Raw(s)                    => g.writeRawValue(s)
    case other                     => g.writeString(String.valueOf(other))
  }

  /** Already-rendered JSON (a nested object of [[obj]]), inserted as is. */
  final case class Raw(json: String)
}
