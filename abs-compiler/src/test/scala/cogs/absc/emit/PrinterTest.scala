package cogs.absc.emit

import cogs.absc.lower._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** The printer alone: hand-built lowered code to Scala text. */
class PrinterTest {
  private def exp(e: S): String = { val p = new Printer; p.exp(e); p.result.trim }
  private def proc(c: P): String = { val p = new Printer; p.proc(c); p.result.trim }

  @Test def operatorsGetParenthesesOnlyWhereScalaNeedsThem(): Unit = {
    val (a, b, c) = (S.Id("a"), S.Id("b"), S.Id("c"))
    assertEquals("a + b + c", exp(S.Infix(S.Infix(a, "+", b), "+", c)))
    assertEquals("a + (b + c)", exp(S.Infix(a, "+", S.Infix(b, "+", c))))
    assertEquals("(a + b) * c", exp(S.Infix(S.Infix(a, "+", b), "*", c)))
    assertEquals("a + b * c", exp(S.Infix(a, "+", S.Infix(b, "*", c))))
    assertEquals("a :: b :: c", exp(S.Infix(a, "::", S.Infix(b, "::", c))))
    assertEquals("(a :: b) :: c", exp(S.Infix(S.Infix(a, "::", b), "::", c)))
    assertEquals("a == b && b == c", exp(S.Infix(S.Infix(a, "==", b), "&&", S.Infix(b, "==", c))))
    assertEquals("-(-a)", exp(S.Prefix("-", S.Prefix("-", a))))
  }

  @Test def aNameEndingInUnderscoreIsSeparatedFromItsType(): Unit =
    assertEquals("(x_ : AbsInt) => x_", exp(S.Lambda(List(("x_", Some(T.Ref("AbsInt")))), S.Id("x_"))))

  @Test def aChainOfContinuations(): Unit = {
    val p = P.Bind(P.AwaitValue(S.Id("f")), Some(("v", T.Ref("AbsInt"))),
      P.Then(List(St.Assign(S.Id("x"), S.Id("v"))), P.Bind(P.Await(G.Claim(S.Id("g"))), None, P.Done(S.Id("x")))))
    // The printer lays out what it is given: the last step as it is...
    assertEquals(
      """Proc.await(f).flatMap { (v: AbsInt) =>
        |  x = v
        |  Proc.awaitResolved(g).flatMap { _ =>
        |    Proc.done(x)
        |  }
        |}""".stripMargin, proc(p))
    // ...and fused into a map once the optimise pass has made it one (a P.Map).
    assertEquals(
      """Proc.await(f).flatMap { (v: AbsInt) =>
        |  x = v
        |  Proc.awaitResolved(g).map { _ =>
        |    x
        |  }
        |}""".stripMargin, proc(Optimise.proc(p)))
  }
}
