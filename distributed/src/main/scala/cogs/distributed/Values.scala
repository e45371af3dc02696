package cogs.distributed

import cogs.absc.lib.{AbsData, AbsInt, AbsRat}
import java.lang.invoke.{MethodHandle, MethodHandles, MethodType}
import java.lang.reflect.Modifier
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.ConcurrentHashMap
import org.apache.pekko.actor.{Address, AddressFromURIString}
import org.apache.pekko.serialization.{Serializer, Serializers}

/**
 * The values of remote calls on the wire: a call's arguments in one block, an answer's value (a
 * result, an exception) in a block of one. Each value is written by a codec chosen by its class
 * and fixed once per class, not by a Pekko serializer per value into a payload of its own (which
 * cost, per argument, a serializer lookup, a manifest string, a byte array and the envelope's copy
 * of all three; docs/distributed.md, "Codecs for the values of a call"):
 *
 *  - `null`, `Unit`, the boxed primitives, `String`, a [[RemoteRef]], the ABS numbers (`AbsInt`,
 *    fractions) and Scala `List`s (ABS lists) are written directly, with a tag byte;
 *  - an ABS data value (a case class or case object extending `AbsData`: the library's and the
 *    model's data types, not exceptions) by a codec made once per class: its class name once per
 *    block, then its constructor's arguments (`productElement`), read back through the
 *    constructor's method handle (no reflection per value);
 *  - a `Wire` class by the Pekko serializer found once per class (Jackson CBOR), its class named
 *    once per block instead of a manifest per value;
 *  - anything else (and an ABS object reference, a future, an exception) by Pekko's serialization
 *    as before (serializer id, manifest, bytes), so that a class with a binding of its own keeps it
 *    and a class with none is refused, named, before anything is sent.
 *
 * A block starts with its format number ([[Values.Format]]); a node reading a block of another
 * format, or a block that ends early or has an unknown tag, fails the call with an error saying so,
 * never with a value made of garbage.
 */
private[distributed] final class Values(node: Node) {
  import Values._

  private[this] val serialization = node.serialization
  // Per node: the serializer of a Wire class depends on the actor system's bindings.
  private[this] val wireCodecs = new ConcurrentHashMap[Class[_], WireCodec]
  // Class names read from blocks: the data-type codec or the Wire serializer of that class,
  // resolved once per name.
  private[this] val byName = new ConcurrentHashMap[String, AnyRef]
  private[this] val addresses = new ConcurrentHashMap[String, Address]

  // ------------------------------------------------------------------ writing

  /** `args` as one block; `what(i)` names argument i (from 0) in an error. */
  def encodeArgs(args: Seq[Any], what: Int => String): Array[Byte] = {
    val w = new Writer(16 + 8 * args.size)
    w.byte(Format)
    w.varint(args.size)
    var i = 0
    val it = args.iterator
    while (it.hasNext) {
      val a = it.next()
      val k = i
      write(w, a, what(k))
      i += 1
    }
    w.result()
  }

  /** One value (a result, an exception) as a block of one. */
  def encodeOne(v: Any, what: => String): Array[Byte] = {
    val w = new Writer(32)
    w.byte(Format)
    w.varint(1)
    write(w, v, what)
    w.result()
  }

  private def write(w: Writer, v: Any, what: => String): Unit = v match {
    case null                       => w.byte(TNull)
    case i: java.lang.Integer       => w.byte(TInt); w.zigzag(i.intValue)
    case s: String                  => w.byte(TString); w.string(s)
    case a: AbsInt                  => writeAbsInt(w, a)
    case l: java.lang.Long          => w.byte(TLong); w.zigzag(l.longValue)
    case b: java.lang.Boolean       => w.byte(if (b.booleanValue) TTrue else TFalse)
    case _: scala.runtime.BoxedUnit => w.byte(TUnit)
    case d: java.lang.Double        => w.byte(TDouble); w.fixed64(java.lang.Double.doubleToRawLongBits(d))
    case r: AbsRat                  => w.byte(TFrac); writeAbsInt(w, r.numerator); writeAbsInt(w, r.denominator)
    case r: RemoteRef               => w.byte(TRef); w.string(r.node.toString); w.zigzag(r.objectId); w.string(r.className)
    case l: List[_] =>
      w.byte(TList); w.varint(l.length)
      var rest: List[_] = l
      while (rest.nonEmpty) { write(w, rest.head, what); rest = rest.tail }
    case f: java.lang.Float         => w.byte(TFloat); w.fixed32(java.lang.Float.floatToRawIntBits(f))
    case s: java.lang.Short         => w.byte(TShort); w.zigzag(s.shortValue)
    case b: java.lang.Byte          => w.byte(TByte); w.byte(b.intValue)
    case c: java.lang.Character     => w.byte(TChar); w.varint(c.charValue)
    case x: AnyRef =>
      val c = x.getClass
      val data = DataCodec.of(c)
      if ((data ne null) && data.fits(x)) {
        w.byte(TData); w.classRef(c)
        if (data.module eq null) {
          val p = x.asInstanceOf[Product]
          var i = 0
          while (i < data.arity) { write(w, p.productElement(i), what); i += 1 }
        }
      } else {
        val wire = if (x.isInstanceOf[Wire]) wireCodec(c, x) else NoWire
        if (wire ne NoWire) {
          val bytes = try wire.serializer.toBinary(x) catch { case e: Exception => throw refused(x, what, e) }
          w.byte(TWire); w.classRef(c); w.bytes(bytes)
        }
        else other(w, x, what)
      }
  }

  private def writeAbsInt(w: Writer, a: AbsInt): Unit =
    if (a.isLong) { w.byte(TAbsInt); w.zigzag(a.toLong) }
    else { w.byte(TAbsBig); w.bytes(a.big.toByteArray) }

  // A Wire class's serializer, if its manifest is the class's name (Jackson's, without
  // migrations): then the name in the block's class table is the manifest.
  private def wireCodec(c: Class[_], x: AnyRef): WireCodec = {
    val known = wireCodecs.get(c)
    if (known ne null) known
    else {
      val made =
        try {
          val s = serialization.findSerializerFor(x)
          if (Serializers.manifestFor(s, x) == c.getName) new WireCodec(s) else NoWire
        } catch { case _: Exception => NoWire }
      wireCodecs.put(c, made)
      made
    }
  }

  private def other(w: Writer, x: AnyRef, what: => String): Unit = {
    val (id, manifest, bytes) =
      try {
        val s = serialization.findSerializerFor(x)
        (s.identifier, Serializers.manifestFor(s, x), s.toBinary(x))
      } catch { case e: Exception => throw refused(x, what, e) }
    w.byte(TOther); w.zigzag(id); w.string(manifest); w.bytes(bytes)
  }

  private def refused(x: AnyRef, what: String, e: Exception): NotSerializableValueException = {
    // A call's process is its own future: name it as the API type the user holds.
    val cls = x match { case _: cogs.runtime.Fut[_] => "cogs.runtime.Fut"; case _ => x.getClass.getName }
    new NotSerializableValueException(cls,
      s"cannot serialise $what: a value of class $cls has no serializer (mark the class cogs.distributed.Wire " +
        s"for Jackson CBOR, or bind it in pekko.actor.serialization-bindings); ${e.getClass.getSimpleName}: ${e.getMessage}", e)
  }

  // ------------------------------------------------------------------ reading

  /** The arguments of a block; `what(i)` names argument i (from 0) in an error. */
  def decodeArgs(block: Array[Byte], what: Int => String): Array[AnyRef] = {
    val r = new Reader(block)
    val n = header(r, what(-1))
    val args = new Array[AnyRef](n)
    var i = 0
    while (i < n) {
      val k = i
      args(i) = read(r, what(k)).asInstanceOf[AnyRef]
      i += 1
    }
    end(r, what(-1))
    args
  }

  /** The value of a block of one. */
  def decodeOne(block: Array[Byte], what: => String): Any = {
    val r = new Reader(block)
    val n = header(r, what)
    if (n != 1) throw corrupt(what, s"$n values where one was expected")
    val v = read(r, what)
    end(r, what)
    v
  }

  private def header(r: Reader, what: => String): Int =
    try {
      val f = r.byte()
      if (f != Format)
        throw new IllegalArgumentException(s"cannot read $what: its values are in format $f, this node reads format $Format " +
          "(the nodes run different versions of Cogs?)")
      val n = r.varint()
      if (n < 0 || n > r.remaining) throw corrupt(what, s"a count of $n values")
      n.toInt
    } catch { case e: IndexOutOfBoundsException => throw corrupt(what, "it ends early", e) }

  private def end(r: Reader, what: => String): Unit =
    if (r.remaining != 0) throw corrupt(what, s"${r.remaining} bytes left over after its values")

  private def read(r: Reader, what: => String): Any =
    try readValue(r, what)
    catch {
      case e: IndexOutOfBoundsException => throw corrupt(what, "it ends early", e)
      case e: NegativeArraySizeException => throw corrupt(what, "a negative length", e)
    }

  private def readValue(r: Reader, what: => String): Any = (r.byte(): @annotation.switch) match {
    case TNull    => null
    case TInt     => Integer.valueOf(r.zigzag().toInt)
    case TString  => r.string()
    case TAbsInt  => AbsInt(r.zigzag())
    case TAbsBig  => AbsInt(new java.math.BigInteger(r.bytes()))
    case TLong    => java.lang.Long.valueOf(r.zigzag())
    case TTrue    => java.lang.Boolean.TRUE
    case TFalse   => java.lang.Boolean.FALSE
    case TUnit    => scala.runtime.BoxedUnit.UNIT
    case TDouble  => java.lang.Double.valueOf(java.lang.Double.longBitsToDouble(r.fixed64()))
    case TFrac    =>
      val n = readValue(r, what); val d = readValue(r, what)
      (n, d) match {
        case (n: AbsInt, d: AbsInt) if d.signum != 0 => AbsRat(n, d)
        case _ => throw corrupt(what, s"a fraction of $n and $d")
      }
    case TRef =>
      val a = r.string(); val id = r.zigzag(); val cls = r.string()
      val addr = addresses.get(a) match {
        case null =>
          val parsed =
            try AddressFromURIString(a)
            catch { case e: Exception => throw new IllegalArgumentException(s"malformed reference in $what: node address '$a'", e) }
          addresses.put(a, parsed); parsed
        case known => known
      }
      new RemoteRef(node, addr, id, cls)
    case TList =>
      val n = r.varint()
      if (n < 0 || n > r.remaining) throw corrupt(what, s"a list of $n values")
      val b = List.newBuilder[Any]
      var i = 0L
      while (i < n) { b += readValue(r, what); i += 1 }
      b.result()
    case TFloat => java.lang.Float.valueOf(java.lang.Float.intBitsToFloat(r.fixed32()))
    case TShort => java.lang.Short.valueOf(r.zigzag().toShort)
    case TByte  => java.lang.Byte.valueOf(r.byte().toByte)
    case TChar  => java.lang.Character.valueOf(r.varint().toChar)
    case TData =>
      resolve(r.classRef(), what) match {
        case d: DataCodec =>
          if (d.module ne null) d.module
          else {
            val args = new Array[AnyRef](d.arity)
            var i = 0
            while (i < d.arity) { args(i) = readValue(r, what).asInstanceOf[AnyRef]; i += 1 }
            d.construct(args, what)
          }
        case _: WireCodec => throw corrupt(what, "a Wire class tagged as ABS data")
      }
    case TWire =>
      val name = r.classRef()
      resolve(name, what) match {
        case wc: WireCodec =>
          serialization.deserialize(r.bytes(), wc.serializer.identifier, name).fold(
            e => throw new NotSerializableValueException(name, s"cannot deserialise $what (class $name): ${e.getClass.getSimpleName}: ${e.getMessage}", e),
            v => v)
        case _ => throw corrupt(what, s"ABS data of class $name tagged as a Wire value")
      }
    case TOther =>
      val id = r.zigzag().toInt; val manifest = r.string(); val bytes = r.bytes()
      serialization.deserialize(bytes, id, manifest).fold(
        e => throw new NotSerializableValueException(manifest,
          s"cannot deserialise $what (serializer $id, manifest '$manifest'): ${e.getClass.getSimpleName}: ${e.getMessage}", e),
        v => v)
    case t => throw corrupt(what, s"unknown value tag $t")
  }

  // The codec of a class named in a block: ABS data of the ABS library or the model, or a Wire
  // class; anything else is refused (a peer may name any class, and loading is all it gets).
  private def resolve(name: String, what: => String): AnyRef = {
    val known = byName.get(name)
    val codec = if (known ne null) known else {
      val made: AnyRef =
        try {
          val c = Class.forName(name, false, Values.loaderFor(node))
          if (classOf[AbsData].isAssignableFrom(c) && AbsPackages(name)) {
            val d = DataCodec.of(c)
            if (d eq null) s"class $name is ABS data with no codec (not a case class or case object)" else d
          } else if (classOf[Wire].isAssignableFrom(c)) {
            val s = serialization.serializerFor(c)
            new WireCodec(s)
          } else s"class $name may not travel as a value (neither ABS data of the library or the model, nor cogs.distributed.Wire)"
        } catch {
          case e: ClassNotFoundException => s"class $name is not on this node's class path ($e)"
          case e: LinkageError => s"class $name cannot be loaded on this node ($e)"
          case e: Exception => s"class $name has no codec on this node ($e)"
        }
      // Refusals are not kept: a peer could name any number of classes.
      if (!made.isInstanceOf[String]) byName.put(name, made)
      made
    }
    codec match {
      case reason: String => throw new IllegalArgumentException(s"cannot read $what: $reason")
      case c => c
    }
  }
}

private[distributed] object Values {
  /** The format of the blocks: bump it when the layout changes (a peer of another version then fails its calls, saying so). */
  final val Format = 1

  private final val TNull = 0
  private final val TUnit = 1
  private final val TFalse = 2
  private final val TTrue = 3
  private final val TInt = 4
  private final val TLong = 5
  private final val TDouble = 6
  private final val TFloat = 7
  private final val TShort = 8
  private final val TByte = 9
  private final val TChar = 10
  private final val TString = 11
  private final val TRef = 12
  private final val TAbsInt = 13
  private final val TAbsBig = 14
  private final val TFrac = 15
  private final val TList = 16
  private final val TData = 17
  private final val TWire = 18
  private final val TOther = 19

  private def corrupt(what: String, why: String, cause: Throwable = null): IllegalArgumentException =
    new IllegalArgumentException(s"corrupt value block in $what: $why (a peer that is not this version of Cogs?)", cause)

  // As AbsValueSerializer's filter: the ABS library's own classes and the model's (absc's package).
  private def AbsPackages(name: String): Boolean =
    (name.startsWith("cogs.absc.lib.") && name.indexOf('.', "cogs.absc.lib.".length) < 0) || name.startsWith("absmodel.")

  /** The class loader of a node's model classes (ABS), else this module's. */
  private def loaderFor(node: Node): ClassLoader = {
    val l = cogs.distributed.abs.AbsValueSerializer.modelLoader(node.system)
    if (l ne null) l else classOf[Values].getClassLoader
  }

  private final class WireCodec(val serializer: Serializer)
  private val NoWire = new WireCodec(null)

  /** The codec of an ABS data class: its case object, or its constructor as a method handle over an argument array. */
  private final class DataCodec(cls: Class[_], val module: AnyRef, val arity: Int, ctor: MethodHandle) {
    def fits(x: AnyRef): Boolean = (module ne null) || x.asInstanceOf[Product].productArity == arity

    def construct(args: Array[AnyRef], what: => String): AnyRef =
      try (ctor.invokeExact(args): AnyRef)
      catch {
        // A field of the wrong class, null for a primitive, or the constructor's own check.
        case e: RuntimeException =>
          throw new IllegalArgumentException(s"cannot read $what: the fields read do not fit the constructor of ${cls.getName} ($e)", e)
      }
  }

  private object DataCodec {
    private val Generic = MethodType.methodType(classOf[Object], classOf[Array[Object]])

    private val codecs = new ClassValue[Option[DataCodec]] {
      def computeValue(c: Class[_]): Option[DataCodec] = Option(make(c))
    }

    /** The codec of `c`, made once per class; null if `c` is not ABS data this codec can take. */
    def of(c: Class[_]): DataCodec = codecs.get(c).orNull

    private def make(c: Class[_]): DataCodec =
      if (!classOf[AbsData].isAssignableFrom(c) || classOf[Throwable].isAssignableFrom(c) || !Modifier.isPublic(c.getModifiers)) null
      else
        try {
          val module =
            try {
              val f = c.getField("MODULE$")
              if (Modifier.isStatic(f.getModifiers) && f.getType == c) f.get(null) else null
            } catch { case _: NoSuchFieldException => null }
          if (module ne null) new DataCodec(c, module, 0, null)
          else {
            val ctors = c.getConstructors
            if (ctors.length != 1) null
            else {
              val k = ctors(0).getParameterCount
              val h = MethodHandles.publicLookup().unreflectConstructor(ctors(0)).asSpreader(classOf[Array[Object]], k).asType(Generic)
              new DataCodec(c, null, k, h)
            }
          }
        } catch { case _: ReflectiveOperationException | _: SecurityException => null }
  }

  /** A growing byte array: the block being written, with its table of class names. */
  private final class Writer(initial: Int) {
    private[this] var buf = new Array[Byte](math.max(initial, 16))
    private[this] var pos = 0
    private[this] var classes: Array[Class[_]] = null
    private[this] var classCount = 0

    private def room(n: Int): Unit =
      if (pos + n > buf.length) buf = java.util.Arrays.copyOf(buf, math.max(buf.length * 2, pos + n))

    def byte(b: Int): Unit = { room(1); buf(pos) = b.toByte; pos += 1 }

    def varint(v0: Long): Unit = {
      room(10)
      var v = v0
      while ((v & ~0x7fL) != 0) { buf(pos) = ((v & 0x7f) | 0x80).toByte; pos += 1; v >>>= 7 }
      buf(pos) = v.toByte; pos += 1
    }

    def zigzag(v: Long): Unit = varint((v << 1) ^ (v >> 63))

    def fixed64(v: Long): Unit = { fixed32((v >>> 32).toInt); fixed32(v.toInt) }

    def fixed32(v: Int): Unit = {
      room(4)
      buf(pos) = (v >>> 24).toByte; buf(pos + 1) = (v >>> 16).toByte; buf(pos + 2) = (v >>> 8).toByte; buf(pos + 3) = v.toByte
      pos += 4
    }

    def bytes(b: Array[Byte]): Unit = { varint(b.length); room(b.length); System.arraycopy(b, 0, buf, pos, b.length); pos += b.length }

    /** UTF-8; a string of ASCII characters (most names and many values) copied without an intermediate array. */
    def string(s: String): Unit = {
      val n = s.length
      var i = 0
      while (i < n && s.charAt(i) < 0x80) i += 1
      if (i == n) {
        varint(n); room(n)
        var j = 0
        while (j < n) { buf(pos + j) = s.charAt(j).toByte; j += 1 }
        pos += n
      } else bytes(s.getBytes(UTF_8))
    }

    /** A class: its name the first time in this block (index 0), else 1 + its place in the table. */
    def classRef(c: Class[_]): Unit = {
      var i = 0
      while (i < classCount && (classes(i) ne c)) i += 1
      if (i < classCount) varint(i + 1)
      else {
        if (classes eq null) classes = new Array[Class[_]](4)
        else if (classCount == classes.length) {
          val more = new Array[Class[_]](classCount * 2); System.arraycopy(classes, 0, more, 0, classCount); classes = more
        }
        classes(classCount) = c; classCount += 1
        varint(0); string(c.getName)
      }
    }

    def result(): Array[Byte] = java.util.Arrays.copyOf(buf, pos)
  }

  /** Reading a block; out of bounds is an IndexOutOfBoundsException, which the caller turns into "corrupt". */
  private final class Reader(buf: Array[Byte]) {
    private[this] var pos = 0
    private[this] var names: Array[String] = null
    private[this] var nameCount = 0

    def remaining: Int = buf.length - pos

    def byte(): Int = { val b = buf(pos); pos += 1; b & 0xff }

    def varint(): Long = {
      var v = 0L
      var shift = 0
      var b = 0
      while ({ b = buf(pos); pos += 1; v |= (b & 0x7fL) << shift; shift += 7; (b & 0x80) != 0 })
        if (shift >= 64) throw new IndexOutOfBoundsException("a variable-length number longer than 10 bytes")
      v
    }

    def zigzag(): Long = { val v = varint(); (v >>> 1) ^ -(v & 1) }

    def fixed32(): Int = {
      if (pos + 4 > buf.length) throw new IndexOutOfBoundsException("a 4-byte number")
      val v = ((buf(pos) & 0xff) << 24) | ((buf(pos + 1) & 0xff) << 16) | ((buf(pos + 2) & 0xff) << 8) | (buf(pos + 3) & 0xff)
      pos += 4; v
    }

    def fixed64(): Long = { val hi = fixed32(); (hi.toLong << 32) | (fixed32() & 0xffffffffL) }

    private def length(): Int = {
      val n = varint()
      if (n < 0 || n > remaining) throw new IndexOutOfBoundsException(s"a length of $n with $remaining bytes left")
      n.toInt
    }

    def bytes(): Array[Byte] = { val n = length(); val b = java.util.Arrays.copyOfRange(buf, pos, pos + n); pos += n; b }

    def string(): String = { val n = length(); val s = new String(buf, pos, n, UTF_8); pos += n; s }

    def classRef(): String = {
      val k = varint()
      if (k == 0) {
        val s = string()
        if (names eq null) names = new Array[String](4)
        else if (nameCount == names.length) names = java.util.Arrays.copyOf(names, nameCount * 2)
        names(nameCount) = s; nameCount += 1
        s
      } else if (k > 0 && k <= nameCount) names((k - 1).toInt)
      else throw new IndexOutOfBoundsException(s"class number $k of $nameCount")
    }
  }
}
