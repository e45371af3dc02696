package cogs.distributed

import cogs.absc.lib.{AbsInt, AbsRat, Just, Left, Pair, Right, Time, Triple}
import java.nio.{ByteBuffer, ByteOrder}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance, Timeout}

/** The codecs of call values (Values) and the envelopes (ProtocolSerializer), on one node, without sending. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ValuesTest {
  private var node: Node = _
  private def values = node.values
  @BeforeAll def up(): Unit = node = TestNodes.start(1).head
  @AfterAll def down(): Unit = TestNodes.closeAll(Seq(node))

  private def what(i: Int) = s"argument $i of the test"
  private def roundTrip(args: Any*): Vector[Any] = values.decodeArgs(values.encodeArgs(args, what), what).toVector

  private def assertRoundTrips(args: Any*): Unit = {
    val back = roundTrip(args: _*)
    assertEquals(args.toVector, back)
    // Same classes too (an Int stays an Int, not a Long).
    assertEquals(args.map(a => if (a == null) null else a.getClass).toVector, back.map(a => if (a == null) null else a.getClass))
  }

  @Test def primitivesStringsAndNullRoundTrip(): Unit = {
    assertRoundTrips(null, (), true, false, 0, 1, -1, Int.MaxValue, Int.MinValue, 0L, Long.MaxValue, Long.MinValue,
      1.5, -0.0, Double.MaxValue, Double.MinPositiveValue, 2.5f, Float.MinValue, 7.toShort, Short.MinValue,
      (-3).toByte, Byte.MaxValue, 'x', '\u20ac', "", "plain", "unicode: \u00e9\u20ac\ud83d\ude00")
    val nan = roundTrip(Double.NaN, Float.NaN)
    assertTrue(nan(0).asInstanceOf[Double].isNaN && nan(1).asInstanceOf[Float].isNaN)
    assertEquals(Vector.empty, roundTrip())
  }

  @Test def largeStringsRoundTrip(): Unit = {
    val ascii = "abcdefghij" * 100000
    val mixed = "\u00e9\u20ac\ud83d\ude00x" * 50000
    assertRoundTrips(ascii, mixed)
    assertEquals(1 + 1 + 1 + 3 + ascii.length, values.encodeArgs(Seq(ascii), what).length) // format, count, tag, length, ASCII as is
  }

  @Test def absNumbersRoundTrip(): Unit = {
    val big = AbsInt(java.math.BigInteger.ONE.shiftLeft(100).negate())
    val frac = AbsRat(AbsInt(-7), AbsInt(3))
    val bigFrac = AbsRat(AbsInt(1), big)
    assertRoundTrips(AbsInt(0), AbsInt(5000), AbsInt(Long.MinValue), big, frac, bigFrac)
    // Small values come back as the runtime's shared instances (AbsInt's cache).
    assertTrue(roundTrip(AbsInt(7)).head.asInstanceOf[AnyRef] eq AbsInt(7))
  }

  @Test def nestedAbsDataAndListsRoundTrip(): Unit = {
    val nested = Just(Pair(AbsInt(1), List("a", cogs.absc.lib.Nothing, Left(Time(AbsRat(AbsInt(1), AbsInt(2)))))))
    val triple = Triple(Right(true), List(List(AbsInt(1)), Nil), cogs.absc.lib.Duration.Duration(AbsInt(3)))
    assertRoundTrips(nested, triple, cogs.absc.lib.Nothing, cogs.absc.lib.InfDuration, Nil, List(1, 2, 3), List(nested, nested))
    assertTrue(roundTrip(cogs.absc.lib.Nothing).head.asInstanceOf[AnyRef] eq cogs.absc.lib.Nothing) // the case object itself
    // A class appears by name once per block, then by number.
    val once = values.encodeArgs(Seq(Just(1)), what).length
    val twice = values.encodeArgs(Seq(Just(1), Just(1)), what).length
    assertEquals(4, twice - once) // the second: data tag, class number 1, the Int's tag and byte
  }

  @Test def referencesWireValuesAndFallbacksRoundTrip(): Unit = {
    val ref = node.export(node.runtime.spawn(new Store(1)))
    val point = Point(3, -4, "p")
    val back = roundTrip(ref, point, Array[Byte](1, 2, 3), point)
    assertEquals(ref, back(0))
    assertEquals(point, back(1))
    assertArrayEquals(Array[Byte](1, 2, 3), back(2).asInstanceOf[Array[Byte]]) // Pekko's ByteArraySerializer, by its binding
    assertEquals(point, back(3))
    // A Wire exception travels as itself.
    val e = values.decodeOne(values.encodeOne(OutOfStock("tea", 2), "the exception"), "the exception")
    assertEquals(OutOfStock("tea", 2), e)
  }

  @Test def aValueWithoutCodecOrSerializerIsRefusedByItsClass(): Unit = {
    val e = assertThrows(classOf[NotSerializableValueException], () => values.encodeArgs(Seq(1, Opaque(2)), what))
    assertEquals(classOf[Opaque].getName, e.valueClass)
    assertTrue(e.getMessage.contains("argument 1 of the test"), e.getMessage)
    // Inside a list too.
    val f = assertThrows(classOf[NotSerializableValueException], () => values.encodeArgs(Seq(List(Opaque(2))), what))
    assertEquals(classOf[Opaque].getName, f.valueClass)
  }

  @Test def corruptBlocksGiveClearErrors(): Unit = {
    val good = values.encodeArgs(Seq(42, "text", Just(AbsInt(1))), what)
    def fails(block: Array[Byte], expected: String): Unit = {
      val e = assertThrows(classOf[IllegalArgumentException], () => values.decodeArgs(block, what))
      assertTrue(e.getMessage.contains(expected), e.getMessage)
    }
    val otherFormat = good.clone(); otherFormat(0) = 9
    fails(otherFormat, "format 9, this node reads format 1")
    for (n <- 1 until good.length) fails(java.util.Arrays.copyOf(good, n), "corrupt value block")
    fails(good :+ 0.toByte, "bytes left over")
    fails(Array[Byte](1, 1, 99), "unknown value tag 99")
    fails(Array[Byte](1, 2, 4), "corrupt value block")                 // two values announced, the one there cut short
    fails(Array[Byte](1, 1, 11, 0x7f, 'a'), "corrupt value block")   // a string longer than the block
    // A class that is neither ABS data nor Wire is never made from a block.
    val name = "java.lang.Thread".getBytes("UTF-8")
    fails(Array[Byte](1, 1, 17, 0, name.length.toByte) ++ name, "may not travel")
    // ABS data whose fields do not fit its constructor: Time(Rat) given a String.
    val time = "cogs.absc.lib.Time".getBytes("UTF-8")
    fails(Array[Byte](1, 1, 17, 0, time.length.toByte) ++ time ++ Array[Byte](11, 1, 'x'), "do not fit the constructor of cogs.absc.lib.Time")
    val missing = "absmodel.NoSuchType".getBytes("UTF-8")
    fails(Array[Byte](1, 1, 17, 0, missing.length.toByte) ++ missing, "not on this node's class path")
  }

  @Test def envelopesRoundTripThroughArraysAndBuffers(): Unit = {
    import Protocol._
    val ser = new ProtocolSerializer
    val block = values.encodeArgs(Seq(1, "two"), what)
    val msgs: Seq[Msg] = Seq(
      Call(7, 8, 2, "ignored", block), Call(7, 8, -1, "byName", block),
      Call(7, 8, 2, null, block, cogs.runtime.SimTime.of(java.math.BigInteger.valueOf(-7), java.math.BigInteger.valueOf(3))),
      Tell(8, -1, "m\u00e9", block),
      Reply(9, block), Create(3, "store", block), Created(3, 4, "Store", Vector("add/1", "total/0")),
      Failed(5, "java.lang.IllegalStateException", "why", Some(block)), Failed(5, "X", "no value", None),
      Stamped(2, cogs.runtime.SimTime.of(java.math.BigInteger.valueOf(3), java.math.BigInteger.valueOf(2)), Reply(9, block)),
      Probe(1), Report(1, 2, 3, 4, null), Advance(3, cogs.runtime.SimTime.of(java.math.BigInteger.TEN, java.math.BigInteger.ONE)),
      ClockEnd("over"))
    def same(a: Msg, b: AnyRef): Unit = (a, b) match {
      case (Call(i, o, k, m, x, d), Call(i2, o2, k2, m2, y, d2)) =>
        assertEquals((i, o, k, if (k >= 0) null else m, d), (i2, o2, k2, m2, d2)); assertArrayEquals(x, y)
      case (Tell(o, k, m, x), Tell(o2, k2, m2, y)) => assertEquals((o, k, m), (o2, k2, m2)); assertArrayEquals(x, y)
      case (Reply(i, x), Reply(i2, y)) => assertEquals(i, i2); assertArrayEquals(x, y)
      case (Create(i, f, x), Create(i2, f2, y)) => assertEquals((i, f), (i2, f2)); assertArrayEquals(x, y)
      case (Failed(i, c, m, x), Failed(i2, c2, m2, y)) =>
        assertEquals((i, c, m, x.isDefined), (i2, c2, m2, y.isDefined)); x.foreach(assertArrayEquals(_, y.get))
      case (Stamped(e, t, m), Stamped(e2, t2, m2)) => assertEquals((e, t), (e2, t2)); same(m, m2)
      case _ => assertEquals(a, b)
    }
    for (m <- msgs) {
      same(m, ser.fromBinary(ser.toBinary(m), ser.manifest(m)))
      // Artery's way: into and out of its (little-endian) buffer, after a header of its own.
      val buf = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN)
      buf.putInt(0x01020304)
      ser.toBinary(m, buf)
      assertEquals(ByteOrder.LITTLE_ENDIAN, buf.order())
      buf.flip(); assertEquals(0x01020304, buf.getInt())
      same(m, ser.fromBinary(buf, ser.manifest(m)))
      assertEquals(0, buf.remaining)
    }
    val old = assertThrows(classOf[IllegalArgumentException], () => ser.fromBinary(Array[Byte](0, 0, 0, 1), "K"))
    assertTrue(old.getMessage.contains("unknown Cogs protocol manifest 'K'"), old.getMessage)
    val cut = ser.toBinary(Reply(9, block))
    val short = assertThrows(classOf[IllegalArgumentException], () => ser.fromBinary(cut.take(cut.length - 1), "R2"))
    assertTrue(short.getMessage.contains("ends early"), short.getMessage)
  }
}
