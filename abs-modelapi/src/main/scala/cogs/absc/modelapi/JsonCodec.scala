package cogs.absc.modelapi

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.{JsonNodeFactory, ObjectNode}

import cogs.absc.lib.{AbsInt, AbsMap, AbsRat, AbsSet, Duration, Just, Left, Pair, Right, Show, Time, Triple}

/**
 * ABS values to JSON and back, as the ABS manual's Model API chapter specifies.
 *
 * Arguments: a value given in the query string is text (`?p=42`, `?p=true`); one given in a JSON
 * body is a JSON value. `List` and `Map` arguments only come as JSON. A value that does not fit
 * its parameter's type is a [[BadArgument]] (the server answers 400).
 *
 * Results: Bool, String, Int, Float as themselves, Rat as a JSON number (a double: the JSON reader
 * of a page wants a number, not an exact fraction), List and Set as arrays, Map as an object keyed
 * by the ABS `toString` of the keys (a String key as itself), everything else as its ABS
 * `toString`, except a value of a data type of the model whose constructor names some of its
 * arguments ([[HttpData]]): a JSON object of the named ones. The standard library's constructors
 * name their arguments too, so they are objects the same way, as the Erlang backend gives them:
 * `Pair(1, "a")` is `{"fst":1,"snd":"a"}`, `Just(3)` is `{"fromJust":3}`, `Time(5)` is
 * `{"timeValue":5}`; constructors without arguments (`Nothing`, `InfDuration`) stay `toString`.
 */
private[modelapi] object JsonCodec {
  // Single-quoted strings too: the manual's own example body is `{ 'param1': 'value', 'param2': 50 }`,
  // which the reference backends accept.
  val mapper: ObjectMapper = com.fasterxml.jackson.databind.json.JsonMapper.builder()
    .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_SINGLE_QUOTES).build()
  private val nodes = JsonNodeFactory.instance

  final class BadArgument(message: String) extends Exception(message)

  // ------------------------------------------------------------------ requests

  /** A query-string value for a parameter of type `t`. */
  def fromText(name: String, text: String, t: HttpType): Any = t match {
    case HttpType.BoolT => text match {
      case "true" | "True" => true
      case "false" | "False" => false
      case _ => bad(name, t, s"'$text'")
    }
    case HttpType.IntT =>
      if (text.matches("-?[0-9]+")) AbsInt(text) else bad(name, t, s"'$text'")
    case HttpType.FloatT =>
      // The same numbers JSON has (no "NaN", "Infinity", hexadecimal or a trailing "d").
      if (text.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?")) text.toDouble else bad(name, t, s"'$text'")
    case HttpType.StringT => text
    case _ => throw new BadArgument(s"argument '$name' of type ${t.absName} must be given in a JSON body (POST), not in the query string")
  }

  /** A JSON value for a parameter of type `t`. */
  def fromJson(name: String, j: JsonNode, t: HttpType): Any =
    try decode(j, t) catch {
      case Mismatch(part, pt) =>
        val detail = if (part eq j) "" else s" ($part is not of type ${pt.absName})"
        bad(name, t, j.toString + detail)
    }

  private final case class Mismatch(part: JsonNode, tpe: HttpType) extends scala.util.control.ControlThrowable

  private def decode(j: JsonNode, t: HttpType): Any = t match {
    case HttpType.BoolT if j.isBoolean => j.booleanValue
    case HttpType.IntT if j.isIntegralNumber => AbsInt(j.bigIntegerValue)
    // An integral JSON number is a Float too (the reference backends accept 5 for a Float).
    case HttpType.FloatT if j.isNumber => j.doubleValue
    case HttpType.StringT if j.isTextual => j.textValue
    case HttpType.ListT(e) if j.isArray =>
      val b = List.newBuilder[Any]
      j.elements().forEachRemaining(x => b += decode(x, e))
      b.result()
    case HttpType.MapT(v) if j.isObject =>
      val b = List.newBuilder[Pair[String, Any]]
      j.fields().forEachRemaining(e => b += Pair(e.getKey, decode(e.getValue, v)))
      AbsMap.fromIterable(b.result())
    case _ => throw Mismatch(j, t)
  }

  private def bad(name: String, t: HttpType, given: String): Nothing =
    throw new BadArgument(s"argument '$name' must be of type ${t.absName}; got $given")

  // ------------------------------------------------------------------ results

  def toJson(v: Any): JsonNode = v match {
    case null => nodes.nullNode()
    case b: Boolean => nodes.booleanNode(b)
    case s: String => nodes.textNode(s)
    case i: AbsInt => nodes.numberNode(i.toBigInt.bigInteger)
    case r: AbsRat => nodes.numberNode(r.toDouble)
    case d: Double => nodes.numberNode(d)
    case l: List[_] =>
      val a = nodes.arrayNode()
      l.foreach(x => a.add(toJson(x)))
      a
    case s: AbsSet[_] =>
      val a = nodes.arrayNode()
      s.iterator.foreach(x => a.add(toJson(x)))
      a
    case m: AbsMap[_, _] =>
      val o = nodes.objectNode()
      m.entriesIterator.foreach { p =>
        val key = p.fst match {
          case s: String => s
          case k => Show.show(k)
        }
        o.set[JsonNode](key, toJson(p.snd))
      }
      o
    case d: HttpData =>
      val o = nodes.objectNode()
      d.http$names.iterator.zip(d.productIterator).foreach { case (n, v) => if (n ne null) o.set[JsonNode](n, toJson(v)) }
      o
    case d @ (_: Pair[_, _] | _: Triple[_, _, _] | _: Just[_] | _: Left[_] | _: Right[_] | _: Time | _: Duration.Duration) =>
      // The library's case classes: their Scala field names are the ABS selector names.
      val p = d.asInstanceOf[Product]
      val o = nodes.objectNode()
      p.productElementNames.zip(p.productIterator).foreach { case (n, v) => o.set[JsonNode](n, toJson(v)) }
      o
    case other => nodes.textNode(Show.show(other))
  }

  def obj(fields: (String, JsonNode)*): ObjectNode = {
    val o = nodes.objectNode()
    fields.foreach { case (k, v) => o.set[JsonNode](k, v) }
    o
  }

  def text(s: String): JsonNode = nodes.textNode(s)
  def array(xs: Iterable[JsonNode]): JsonNode = { val a = nodes.arrayNode(); xs.foreach(a.add); a }
}
