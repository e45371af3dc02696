package cogs.distributed

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8
import org.apache.pekko.actor.AddressFromURIString
import org.apache.pekko.serialization.{Serialization, Serializers}

/**
 * The messages between the endpoints of two nodes. The envelopes are serialised by
 * [[ProtocolSerializer]] (bound in reference.conf); each value inside (argument, result) is serialised on its own by
 * Pekko's serialization extension into a [[Protocol.Payload]], so that a value's serializer is
 * chosen by its class exactly as for any Pekko message, and a value that has none is refused
 * before anything is sent, with its class named.
 */
private[distributed] object Protocol {

  /** Marker bound to ProtocolSerializer. */
  trait Msg

  /** Create an object with a registered factory; answered by Created or Failed. */
  final case class Create(id: Long, factory: String, args: Vector[Payload]) extends Msg
  /**
   * Call a method on object `obj`; answered by Reply or Failed. The method is `index` in the
   * object's [[MethodTable]] when the caller's reference knows the table (then `method` is null on
   * the wire), else -1 and found by the name `method`.
   */
  final case class Call(id: Long, obj: Long, index: Int, method: String, args: Vector[Payload]) extends Msg
  /**
   * A one-way call of `method` on object `obj`: no id, never answered, no pending entry on the
   * sender (`RemoteRef.tell`). A failure of the method is the receiving runtime's, as for a local
   * `Cogs.tell`; a target that does not exist is logged there.
   */
  final case class Tell(obj: Long, index: Int, method: String, args: Vector[Payload]) extends Msg
  /** The object exists: its id, its class's simple name, and its class's [[MethodTable]] (names in index order). */
  final case class Created(id: Long, obj: Long, className: String, methods: Vector[String]) extends Msg
  final case class Reply(id: Long, value: Payload) extends Msg
  /**
   * The call or creation failed: the exception's class and message as text, and the exception
   * itself where it has a serializer of its own (ABS exceptions, which are data; `Wire` classes),
   * so that the caller can catch it by its type.
   */
  final case class Failed(id: Long, errorClass: String, message: String, error: Option[Payload] = None) extends Msg

  // ---- the cluster clock (ClusterClock; docs/distributed.md, "One simulated clock for the cluster")

  /**
   * A counted message (any of the above) under a cluster clock: sent while the sender's clock was
   * at `epoch` (the number of cluster advances it has applied), whose time is `time`. A receiver
   * behind that epoch applies the advance before it takes the message (ClusterClock.catchUp).
   */
  final case class Stamped(epoch: Long, time: cogs.runtime.SimTime, msg: Msg) extends Msg
  /** Wave `wave` of the coordinator asks for a Report, to be given when the node is passive. */
  final case class Probe(wave: Long) extends Msg
  /**
   * A node's answer to a probe, given while it was passive: its epoch, how many counted messages it
   * has sent and received, and where its own clock would advance next (null: nothing waits).
   */
  final case class Report(wave: Long, epoch: Long, sent: Long, received: Long, next: cogs.runtime.SimTime) extends Msg
  /** Every node advances its clock to `time`, the cluster's advance number `epoch`. */
  final case class Advance(epoch: Long, time: cogs.runtime.SimTime) extends Msg
  /** The cluster clock is over (why): every node gives back its hold. */
  final case class ClockEnd(reason: String) extends Msg

  /** One serialised value: Pekko's serializer id and manifest, or one of the tags below (id 0). */
  final case class Payload(serializer: Int, manifest: String, bytes: Array[Byte])

  // Values Pekko has no default binding for, but that every method uses: encoded here.
  private final val Own = 0

  def encode(ser: Serialization, v: Any, what: => String): Payload = v match {
    case null                       => Payload(Own, "null", Array.emptyByteArray)
    case _: scala.runtime.BoxedUnit => Payload(Own, "unit", Array.emptyByteArray)
    case d: java.lang.Double        => Payload(Own, "D", ByteBuffer.allocate(8).putDouble(d).array())
    case f: java.lang.Float         => Payload(Own, "F", ByteBuffer.allocate(4).putFloat(f).array())
    case s: java.lang.Short         => Payload(Own, "S", ByteBuffer.allocate(2).putShort(s).array())
    case b: java.lang.Byte          => Payload(Own, "B", Array(b.byteValue))
    case c: java.lang.Character     => Payload(Own, "C", ByteBuffer.allocate(2).putChar(c).array())
    // A reference travels as (node, object id, class name); the receiving node makes its own.
    case r: RemoteRef               => Payload(Own, "ref", s"${r.node}\n${r.objectId}\n${r.className}".getBytes(UTF_8))
    case x =>
      val o = x.asInstanceOf[AnyRef]
      try {
        val s = ser.findSerializerFor(o)
        Payload(s.identifier, Serializers.manifestFor(s, o), s.toBinary(o))
      } catch {
        case e: Exception =>
          // A call's process is its own future: name it as the API type the user holds.
          val cls = o match { case _: cogs.runtime.Fut[_] => "cogs.runtime.Fut"; case _ => o.getClass.getName }
          throw new NotSerializableValueException(cls,
            s"cannot serialise $what: a value of class $cls has no serializer (mark the class cogs.distributed.Wire " +
              s"for Jackson CBOR, or bind it in pekko.actor.serialization-bindings); ${e.getClass.getSimpleName}: ${e.getMessage}", e)
      }
  }

  def decode(node: Node, p: Payload, what: => String): Any =
    if (p.serializer == Own) {
      val b = ByteBuffer.wrap(p.bytes)
      p.manifest match {
        case "null" => null
        case "unit" => ()
        case "D"    => b.getDouble
        case "F"    => b.getFloat
        case "S"    => b.getShort
        case "B"    => p.bytes(0)
        case "C"    => b.getChar
        case "ref" =>
          // Malformed only if a peer is not this protocol: an IllegalArgumentException, which
          // fails the call like any undecodable value (the parse may throw checked exceptions).
          try {
            val Array(addr, id, cls) = new String(p.bytes, UTF_8).split("\n", 3)
            new RemoteRef(node, AddressFromURIString(addr), id.toLong, cls)
          } catch { case e: Exception => throw new IllegalArgumentException(s"malformed reference in $what: $e", e) }
        case m      => throw new IllegalArgumentException(s"unknown value tag '$m' in $what")
      }
    } else
      node.serialization.deserialize(p.bytes, p.serializer, p.manifest).fold(
        e => throw new NotSerializableValueException(p.manifest,
          s"cannot deserialise $what (serializer ${p.serializer}, manifest '${p.manifest}'): ${e.getClass.getSimpleName}: ${e.getMessage}", e),
        v => v)

  def size(args: Vector[Payload]): Int = args.foldLeft(0)((n, p) => n + p.bytes.length + p.manifest.length + 16)
}
