package cogs.absc.modelapi

import cogs.runtime.Fut

/**
 * The type of a parameter of an `[HTTPCallable]` method: the types the reference toolchain
 * accepts, and how a request's value becomes an ABS value of that type (see [[JsonCodec]]).
 */
sealed trait HttpType extends Product with Serializable {
  /** The ABS name of the type, as `/call/NAME` lists it. */
  def absName: String
}

object HttpType {
  case object BoolT extends HttpType { def absName = "Bool" }
  case object IntT extends HttpType { def absName = "Int" }
  case object FloatT extends HttpType { def absName = "Float" }
  case object StringT extends HttpType { def absName = "String" }
  /** `List<A>`: from a JSON array only. */
  final case class ListT(elem: HttpType) extends HttpType { def absName = s"List<${elem.absName}>" }
  /** `Map<String, A>`: from a JSON object only. */
  final case class MapT(value: HttpType) extends HttpType { def absName = s"Map<String, ${value.absName}>" }
}

/** A parameter of an `[HTTPCallable]` method. */
final case class HttpParam(name: String, tpe: HttpType)

/**
 * An `[HTTPCallable]` method of one object, as absc generates it. `call` gets the decoded
 * arguments in parameter order (each of its parameter's type) and sends the ABS call
 * asynchronously to the object, returning the call's future; it is called from the server's
 * threads, outside every COG.
 */
final case class HttpMethod(name: String, params: List[HttpParam], resultType: String, call: IndexedSeq[Any] => Fut[Any])

/**
 * An object whose class absc compiled for the Model API: its callable methods and a snapshot of
 * its fields. Every class of a model that uses `[HTTPName]` implements it.
 */
trait HttpExposed {
  /** The object's `[HTTPCallable]` methods, from every interface its class implements. */
  def http$methods: List[HttpMethod]

  /**
   * The object's fields by name, read by a process of the object's COG (so never while one of its
   * methods runs), as the future of that process.
   */
  def http$state: Fut[List[(String, Any)]]

  /**
   * The object's fields by name, read by the calling thread: only inside a process of the
   * object's COG (what `http$state` runs), or through `CogRuntime.inspectBlocked`, which makes
   * such a read safe while the COG is blocked in `get`.
   */
  def http$fields: List[(String, Any)]
}

/**
 * A value of an ABS data type whose constructor names at least one of its arguments, in a program
 * that uses the Model API: the Model API returns it as a JSON object of its named arguments
 * (`data Item = Item(String name, Int price)`: `{"name": "apple", "price": 3}`), as the ABS
 * manual says; unnamed arguments are left out.
 */
trait HttpData extends Product {
  /** The ABS name of each argument, in order; null for an unnamed one. */
  def http$names: List[String]
}
