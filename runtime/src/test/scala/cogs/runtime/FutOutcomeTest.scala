package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** The shared outcomes of `Fut.valueOf`: no allocation for the JVM's cached boxes, identity kept. */
class FutOutcomeTest {
  private def box(i: Int): AnyRef = Integer.valueOf(i)

  @Test def cachedBoxesShareOneOutcomeAndKeepTheirValue(): Unit =
    for (i <- Seq(-128, -1, 0, 1, 127)) {
      val o = Fut.valueOf(box(i))
      assertSame(o, Fut.valueOf(box(i)), s"$i: one outcome")
      assertSame(box(i), o.value, s"$i: the very box")
    }

  @Test def otherValuesGetTheirOwnOutcomeWithTheSameObject(): Unit =
    for (i <- Seq(-129, 128, 100000)) {
      val b = box(i)
      val o = Fut.valueOf(b)
      assertNotSame(o, Fut.valueOf(box(i)), s"$i: not shared")
      assertSame(b, o.value, s"$i: the value keeps its identity")
      assertEquals(i, o.value)
    }

  @Test def unitAndBooleans(): Unit = {
    assertSame(Fut.UnitValue, Fut.valueOf(()))
    assertSame(Fut.valueOf(java.lang.Boolean.TRUE), Fut.valueOf(true))
    assertEquals(false, Fut.valueOf(false).value)
    val s = "a string"
    assertSame(s, Fut.valueOf(s).value)
  }

  @Test def registeredCanonicalValuesShareOneOutcomeAndKeepTheirIdentity(): Unit = {
    final class Tok(val n: Int)
    val toks = Array.tabulate(3)(new Tok(_))
    internal.CanonicalValues.register(new internal.CanonicalValues {
      def valueClass: Class[_] = classOf[Tok]
      def count: Int = toks.length
      def value(i: Int): AnyRef = toks(i)
      def indexOf(v: AnyRef): Int = { val t = v.asInstanceOf[Tok]; if (t.n >= 0 && t.n < 3 && (toks(t.n) eq t)) t.n else -1 }
    })
    for (t <- toks) {
      val o = Fut.valueOf(t)
      assertSame(o, Fut.valueOf(t), s"${t.n}: one outcome")
      assertSame(t, o.value, s"${t.n}: the very instance")
    }
    val lookalike = new Tok(1) // equal number, another object: its own outcome, its own identity
    assertNotSame(Fut.valueOf(toks(1)), Fut.valueOf(lookalike))
    assertSame(lookalike, Fut.valueOf(lookalike).value)
    assertNull(Fut.valueOf(null).value)
  }

  @Test def aFutureResolvedWithASmallIntReadsItBack(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
    try {
      val p = Promise[Int](rt, "small")
      p.success(7)
      assertEquals(7, p.future.join())
      val q = Promise[Int](rt, "large")
      q.success(70000)
      assertEquals(70000, q.future.join())
    } finally rt.close()
  }
}
