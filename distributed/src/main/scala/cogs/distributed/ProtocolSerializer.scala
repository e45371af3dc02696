package cogs.distributed

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, DataInputStream, DataOutputStream}
import java.nio.charset.StandardCharsets.UTF_8
import org.apache.pekko.serialization.SerializerWithStringManifest

/**
 * The envelopes of the protocol (`Protocol.Msg`) in a fixed binary layout: ids as longs, names as
 * UTF-8, each value as the bytes its own serializer made (Pekko's, chosen by the value's class:
 * Jackson CBOR for `Wire` classes). The envelope's fields never change type, so a generic
 * serializer buys nothing here and cost most of a remote call's time (PingPong between two nodes
 * ran at 0.39 of plain Pekko with the envelopes in Jackson CBOR; see docs/distributed.md).
 */
private[distributed] final class ProtocolSerializer extends SerializerWithStringManifest {
  import Protocol._

  // Unique among the serializers of an actor system; Pekko reserves 0 to 40.
  def identifier: Int = 0x436f6773 // "Cogs"

  def manifest(o: AnyRef): String = o match {
    case _: Call    => "K"
    case _: Tell    => "T"
    case _: Reply   => "R"
    case _: Create  => "C"
    case _: Created => "D"
    case _: Failed  => "F"
    case _: Stamped => "S"
    case _: Probe   => "P"
    case _: Report  => "Q"
    case _: Advance => "A"
    case _: ClockEnd => "E"
    case other      => throw new IllegalArgumentException(s"not a Cogs protocol message: ${other.getClass.getName}")
  }

  def toBinary(o: AnyRef): Array[Byte] = {
    val bytes = new ByteArrayOutputStream(64)
    val out = new DataOutputStream(bytes)
    o match {
      case Call(id, obj, i, method, args) =>
        out.writeLong(id); out.writeLong(obj); out.writeInt(i); str(out, if (i >= 0) null else method); payloads(out, args)
      case Tell(obj, i, method, args) => out.writeLong(obj); out.writeInt(i); str(out, if (i >= 0) null else method); payloads(out, args)
      case Reply(id, value)            => out.writeLong(id); payload(out, value)
      case Create(id, factory, args)   => out.writeLong(id); str(out, factory); payloads(out, args)
      case Created(id, obj, cls, ms)   => out.writeLong(id); out.writeLong(obj); str(out, cls); out.writeInt(ms.size); ms.foreach(str(out, _))
      case Failed(id, cls, msg, error) =>
        out.writeLong(id); str(out, cls); str(out, msg)
        out.writeBoolean(error.isDefined); error.foreach(payload(out, _))
      case Stamped(e, t, m) =>
        out.writeLong(e); time(out, t); str(out, manifest(m))
        val b = toBinary(m); out.writeInt(b.length); out.write(b)
      case Probe(w)                    => out.writeLong(w)
      case Report(w, e, sent, recv, n) => out.writeLong(w); out.writeLong(e); out.writeLong(sent); out.writeLong(recv); time(out, n)
      case Advance(e, t)               => out.writeLong(e); time(out, t)
      case ClockEnd(reason)            => str(out, reason)
      case other                       => throw new IllegalArgumentException(s"not a Cogs protocol message: ${other.getClass.getName}")
    }
    out.flush()
    bytes.toByteArray
  }

  def fromBinary(bytes: Array[Byte], manifest: String): AnyRef = {
    val in = new DataInputStream(new ByteArrayInputStream(bytes))
    manifest match {
      case "K" => Call(in.readLong(), in.readLong(), in.readInt(), str(in), payloads(in))
      case "T" => Tell(in.readLong(), in.readInt(), str(in), payloads(in))
      case "R" => Reply(in.readLong(), payload(in))
      case "C" => Create(in.readLong(), str(in), payloads(in))
      case "D" => Created(in.readLong(), in.readLong(), str(in), Vector.fill(in.readInt())(str(in)))
      case "F" => Failed(in.readLong(), str(in), str(in), if (in.readBoolean()) Some(payload(in)) else None)
      case "S" =>
        val e = in.readLong(); val t = time(in); val m = str(in)
        val b = new Array[Byte](in.readInt()); in.readFully(b)
        Stamped(e, t, fromBinary(b, m).asInstanceOf[Msg])
      case "P" => Probe(in.readLong())
      case "Q" => Report(in.readLong(), in.readLong(), in.readLong(), in.readLong(), time(in))
      case "A" => Advance(in.readLong(), time(in))
      case "E" => ClockEnd(str(in))
      case m   => throw new IllegalArgumentException(s"unknown Cogs protocol manifest '$m'")
    }
  }

  private def str(out: DataOutputStream, s: String): Unit =
    if (s == null) out.writeInt(-1)
    else { val b = s.getBytes(UTF_8); out.writeInt(b.length); out.write(b) }

  private def str(in: DataInputStream): String = {
    val n = in.readInt()
    if (n < 0) null else { val b = new Array[Byte](n); in.readFully(b); new String(b, UTF_8) }
  }

  // A simulated time (a rational of big integers), or null.
  private def time(out: DataOutputStream, t: cogs.runtime.SimTime): Unit =
    if (t == null) out.writeInt(-1)
    else {
      val n = t.numerator.toByteArray; val d = t.denominator.toByteArray
      out.writeInt(n.length); out.write(n); out.writeInt(d.length); out.write(d)
    }

  private def time(in: DataInputStream): cogs.runtime.SimTime = {
    val k = in.readInt()
    if (k < 0) null
    else {
      val n = new Array[Byte](k); in.readFully(n)
      val d = new Array[Byte](in.readInt()); in.readFully(d)
      cogs.runtime.SimTime.of(new java.math.BigInteger(n), new java.math.BigInteger(d))
    }
  }

  private def payload(out: DataOutputStream, p: Payload): Unit = {
    out.writeInt(p.serializer); str(out, p.manifest); out.writeInt(p.bytes.length); out.write(p.bytes)
  }

  private def payload(in: DataInputStream): Payload = {
    val s = in.readInt()
    val m = str(in)
    val b = new Array[Byte](in.readInt())
    in.readFully(b)
    Payload(s, m, b)
  }

  private def payloads(out: DataOutputStream, ps: Vector[Payload]): Unit = { out.writeInt(ps.size); ps.foreach(payload(out, _)) }

  private def payloads(in: DataInputStream): Vector[Payload] = Vector.fill(in.readInt())(payload(in))
}
