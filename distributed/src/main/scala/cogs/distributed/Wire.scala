package cogs.distributed

/**
 * Marks a class whose values travel between nodes as arguments or results of remote calls: they
 * are serialised with Pekko's Jackson CBOR serializer (a Scala case class or a Java class with a
 * Jackson-readable constructor). `String`, the boxed primitives, `Unit` and `null` need no mark;
 * any other class can be bound to a serializer in `pekko.actor.serialization-bindings`.
 * A value of any other class fails its call with a [[NotSerializableValueException]] naming the
 * class.
 */
trait Wire
