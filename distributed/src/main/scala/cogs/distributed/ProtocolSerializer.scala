package cogs.distributed

import java.nio.{BufferUnderflowException, ByteBuffer, ByteOrder}
import java.nio.charset.StandardCharsets.UTF_8
import org.apache.pekko.serialization.{ByteBufferSerializer, SerializerWithStringManifest}

/**
 * The envelopes of the protocol (`Protocol.Msg`) in a fixed binary layout: ids as longs, names as
 * UTF-8, the values of a call or an answer as the one block [[Values]] wrote. The envelope's fields
 * never change type, so a generic serializer buys nothing here and cost most of a remote call's
 * time (PingPong between two nodes ran at 0.39 of plain Pekko with the envelopes in Jackson CBOR;
 * see docs/distributed.md). As a `ByteBufferSerializer`, Artery has it write into (and read from)
 * its own envelope buffer: no byte array per message and no copy of one.
 *
 * The manifests of the envelopes that carry value blocks end in "2": their layout changed when the
 * values became one block (docs/distributed.md, "Codecs for the values of a call"), and a node of
 * the earlier layout answers an unknown manifest with an error rather than reading garbage. A
 * call's is "K3": it carries the caller's deadline since.
 */
private[distributed] final class ProtocolSerializer extends SerializerWithStringManifest with ByteBufferSerializer {
  import Protocol._

  // Unique among the serializers of an actor system; Pekko reserves 0 to 40.
  def identifier: Int = 0x436f6773 // "Cogs"

  def manifest(o: AnyRef): String = o match {
    case _: Call    => "K3"
    case _: Tell    => "T2"
    case _: Reply   => "R2"
    case _: Create  => "C2"
    case _: Created => "D"
    case _: Failed  => "F2"
    case _: Stamped => "S2"
    case _: Probe   => "P"
    case _: Report  => "Q"
    case _: Advance => "A"
    case _: ClockEnd => "E"
    case other      => throw new IllegalArgumentException(s"not a Cogs protocol message: ${other.getClass.getName}")
  }

  def toBinary(o: AnyRef): Array[Byte] = {
    // Sized from above (names at 3 bytes a character), so that one allocation does.
    val buf = ByteBuffer.allocate(bound(o))
    toBinary(o, buf)
    java.util.Arrays.copyOf(buf.array(), buf.position())
  }

  def fromBinary(bytes: Array[Byte], manifest: String): AnyRef = fromBinary(ByteBuffer.wrap(bytes), manifest)

  // The layout is big-endian whatever order the buffer was given in (Artery's is little-endian):
  // the order is the envelope's, not the transport's.
  def toBinary(o: AnyRef, buf: ByteBuffer): Unit = {
    val order = buf.order()
    buf.order(ByteOrder.BIG_ENDIAN)
    try write(o, buf) finally buf.order(order)
  }

  def fromBinary(buf: ByteBuffer, manifest: String): AnyRef = {
    val order = buf.order()
    buf.order(ByteOrder.BIG_ENDIAN)
    try read(buf, manifest)
    catch {
      case e: BufferUnderflowException =>
        throw new IllegalArgumentException(s"a Cogs protocol message '$manifest' ends early (a peer of another version of Cogs?)", e)
    } finally buf.order(order)
  }

  private def write(o: AnyRef, out: ByteBuffer): Unit = o match {
    case Call(id, obj, i, method, args, deadline) =>
      out.putLong(id); out.putLong(obj); out.putInt(i); str(out, if (i >= 0) null else method); block(out, args); time(out, deadline)
    case Tell(obj, i, method, args) => out.putLong(obj); out.putInt(i); str(out, if (i >= 0) null else method); block(out, args)
    case Reply(id, value)            => out.putLong(id); block(out, value)
    case Create(id, factory, args)   => out.putLong(id); str(out, factory); block(out, args)
    case Created(id, obj, cls, ms)   => out.putLong(id); out.putLong(obj); str(out, cls); out.putInt(ms.size); ms.foreach(str(out, _))
    case Failed(id, cls, msg, error) =>
      out.putLong(id); str(out, cls); str(out, msg)
      out.put((if (error.isDefined) 1 else 0).toByte); error.foreach(block(out, _))
    case Stamped(e, t, m) =>
      // The inner message follows inline: its layout is self-delimiting.
      out.putLong(e); time(out, t); str(out, manifest(m)); write(m, out)
    case Probe(w)                    => out.putLong(w)
    case Report(w, e, sent, recv, n) => out.putLong(w); out.putLong(e); out.putLong(sent); out.putLong(recv); time(out, n)
    case Advance(e, t)               => out.putLong(e); time(out, t)
    case ClockEnd(reason)            => str(out, reason)
    case other                       => throw new IllegalArgumentException(s"not a Cogs protocol message: ${other.getClass.getName}")
  }

  private def read(in: ByteBuffer, manifest: String): AnyRef = manifest match {
    case "K3" => Call(in.getLong(), in.getLong(), in.getInt(), str(in), block(in), time(in))
    case "T2" => Tell(in.getLong(), in.getInt(), str(in), block(in))
    case "R2" => Reply(in.getLong(), block(in))
    case "C2" => Create(in.getLong(), str(in), block(in))
    case "D"  => Created(in.getLong(), in.getLong(), str(in), Vector.fill(count(in))(str(in)))
    case "F2" => Failed(in.getLong(), str(in), str(in), if (in.get() != 0) Some(block(in)) else None)
    case "S2" =>
      val e = in.getLong(); val t = time(in); val m = str(in)
      Stamped(e, t, read(in, m).asInstanceOf[Msg])
    case "P" => Probe(in.getLong())
    case "Q" => Report(in.getLong(), in.getLong(), in.getLong(), in.getLong(), time(in))
    case "A" => Advance(in.getLong(), time(in))
    case "E" => ClockEnd(str(in))
    case m   => throw new IllegalArgumentException(s"unknown Cogs protocol manifest '$m' (a peer of another version of Cogs?)")
  }

  // An upper bound of the bytes `write` takes.
  private def bound(o: AnyRef): Int = {
    def s(x: String): Int = 4 + (if (x == null) 0 else 3 * x.length)
    def t(x: cogs.runtime.SimTime): Int = if (x == null) 4 else 8 + x.numerator.bitLength / 8 + x.denominator.bitLength / 8 + 2
    o match {
      case Call(_, _, _, m, a, d)  => 20 + s(m) + 4 + a.length + t(d)
      case Tell(_, _, m, a)        => 12 + s(m) + 4 + a.length
      case Reply(_, v)             => 8 + 4 + v.length
      case Create(_, f, a)         => 8 + s(f) + 4 + a.length
      case Created(_, _, c, ms)    => 16 + s(c) + 4 + ms.iterator.map(s).sum
      case Failed(_, c, m, e)      => 8 + s(c) + s(m) + 1 + e.fold(0)(4 + _.length)
      case Stamped(_, tm, m)       => 8 + t(tm) + s(manifest(m)) + bound(m)
      case Probe(_)                => 8
      case Report(_, _, _, _, n)   => 32 + t(n)
      case Advance(_, tm)          => 8 + t(tm)
      case ClockEnd(r)             => s(r)
      case other                   => throw new IllegalArgumentException(s"not a Cogs protocol message: ${other.getClass.getName}")
    }
  }

  private def str(out: ByteBuffer, s: String): Unit =
    if (s == null) out.putInt(-1)
    else { val b = s.getBytes(UTF_8); out.putInt(b.length); out.put(b) }

  private def str(in: ByteBuffer): String = {
    val n = in.getInt()
    if (n < 0) null
    else {
      if (n > in.remaining) throw new BufferUnderflowException
      val b = new Array[Byte](n); in.get(b); new String(b, UTF_8)
    }
  }

  private def count(in: ByteBuffer): Int = {
    val n = in.getInt()
    if (n < 0 || n > in.remaining) throw new BufferUnderflowException
    n
  }

  // A value block: copied out of the buffer, which Artery reuses once this message is read.
  private def block(out: ByteBuffer, b: Array[Byte]): Unit = { out.putInt(b.length); out.put(b) }

  private def block(in: ByteBuffer): Array[Byte] = { val b = new Array[Byte](count(in)); in.get(b); b }

  // A simulated time (a rational of big integers), or null.
  private def time(out: ByteBuffer, t: cogs.runtime.SimTime): Unit =
    if (t == null) out.putInt(-1)
    else {
      val n = t.numerator.toByteArray; val d = t.denominator.toByteArray
      out.putInt(n.length); out.put(n); out.putInt(d.length); out.put(d)
    }

  private def time(in: ByteBuffer): cogs.runtime.SimTime = {
    val k = in.getInt()
    if (k < 0) null
    else {
      if (k > in.remaining) throw new BufferUnderflowException
      val n = new Array[Byte](k); in.get(n)
      val d = new Array[Byte](count(in)); in.get(d)
      cogs.runtime.SimTime.of(new java.math.BigInteger(n), new java.math.BigInteger(d))
    }
  }
}
