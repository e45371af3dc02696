package cogs.absc.lower

import cogs.absc.parse.Parser
import cogs.absc.typecheck.TypeChecker
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** The lowering phase alone: the lowered program of small models, as data. */
class LowerTest {
  private def lower(text: String): LProgram = {
    val unit = Parser.parse("t.abs", text).fold(ds => fail(ds.map(_.render(text)).mkString("\n")), identity)
    val typed = TypeChecker.check(List(unit)).fold(ds => fail(ds.map(_.render(text)).mkString("\n")), identity)
    Instrument(Lower(typed, "p", None), Instrumentation.Off)
  }

  private def method(p: LProgram, cls: String, m: String): LMethod =
    p.modules.flatMap(_.decls).collectFirst { case c: LClass if c.absName == cls => c }.get
      .methods.find(_.sig.absName == m).get

  private val model =
    """module M;
      |interface I { Int m(); Int n(Int x); }
      |class C implements I {
      |  Int f = 0;
      |  Int m() { return f; }
      |  Int n(Int x) { I o = this; Int v = await o!m(); x = x + v; await f > 0; return x; }
      |}
      |""".stripMargin

  @Test def everyJvmFormOfAMethodIsTracedBackToIt(): Unit = {
    // scalac's "Method too large: C.n$body" must become an ABS error at method n (Driver), not an
    // internal error: each generated form of a method names its ABS origin.
    // The frame form `n$body` exists, and is named, only when a call uses it (see EffectPhase).
    def forms(p: LProgram) = p.origins.collect { case (k, (_, what)) if what == "method 'C.n'" => k.substring(k.lastIndexOf('.') + 1) }.toSet
    assertEquals(Set("n"), forms(lower(model)))
    val called = model.replace("  Int m() { return f; }", "  Int m() { return f; }\n  Int k() { Int r = this.n(1); return r; }")
    assertEquals(Set("n", "n$body"), forms(lower(called)))
  }

  @Test def aMethodWithoutSchedulingPointsIsPlain(): Unit = {
    val m = method(lower(model), "C", "m")
    assertEquals(None, m.cps)
    assertEquals(Some((Nil, S.Sel(S.This, "f"))), m.plain)
  }

  @Test def codeAfterAnAwaitIsItsContinuation(): Unit = {
    val m = method(lower(model), "C", "n")
    // The assigned parameter is shadowed by a local; the body is one chain of binds.
    assertEquals(List(("x_in$1", "x")), m.shadowedParams)
    // Each statement is preceded by its ABS line (St.Line), the suspending ones too.
    m.cps.get match {
      case P.Then(List(St.Line(6), St.Def("o", Some(T.Ref("I", Nil)), S.This, false), St.Line(6)),
        P.Bind(P.AwaitValue(_), Some(("v", T.Ref("AbsInt", Nil))),
          P.Then(List(St.Line(6), St.Assign(S.Id("x"), S.Infix(S.Id("x"), "+", S.Id("v"))), St.Line(6)),
            P.Bind(P.Await(G.Cond("t.abs:6:68", _)), None, P.Done(S.Id("x")))))) =>
      case other => fail(s"unexpected lowering: $other")
    }
  }

  @Test def aDurationAloneWaitsInTheClockButInsideAConjunctionIsAFuture(): Unit = {
    val timed =
      """module M;
        |interface I { Unit w(Fut<Int> f); }
        |class C implements I {
        |  Unit w(Fut<Int> f) { await duration(1, 2); await duration(3) & f?; }
        |}
        |""".stripMargin
    val calls = scala.collection.mutable.ListBuffer.empty[String]
    def walk(p: Any): Unit = p match {
      case P.Call(S.App(S.Id(f), _, _)) => calls += f
      case P.Await(g) => calls += s"await $g"
      case x: Product => x.productIterator.foreach(walk)
      case _ =>
    }
    walk(method(lower(timed), "C", "w").cps.get)
    calls.toList match {
      case List("AbsTime.awaitDuration", conj) =>
        assertTrue(conj.contains("AbsTime.timer") && conj.startsWith("await And("), conj)
      case other => fail(s"unexpected lowering: $other")
    }
  }

  @Test def shadowingLetBindingsGetFreshNames(): Unit = {
    val p = lower("module M;\ndef Bool f(Bool y) = let Bool x = y, Bool x = !x in x;\n")
    val f = p.modules.head.decls.collectFirst { case f: LFunction => f }.get
    assertEquals(S.Block(List(St.Def("x", Some(T.Ref("Boolean")), S.Id("y"), mutable = false),
      St.Def("x$1", Some(T.Ref("Boolean")), S.Prefix("!", S.Id("x")), mutable = false)), S.Id("x$1")), f.body)
  }

  @Test def namesOfTheGeneratedWorldAreMangledInjectively(): Unit = {
    assertEquals("yield_", Naming.termName("yield", Set.empty))
    assertEquals("wait_", Naming.termName("wait", Set.empty))
    assertEquals("x__", Naming.termName("x_", Set.empty))
    assertEquals("map_", Naming.termName("map", Set("map")))
    assertEquals("count", Naming.termName("count", Set("map")))
    assertEquals("Proc_", Naming.typeName("Proc", Set.empty))
    assertEquals("Bank_", Naming.typeName("Bank", Set("Bank")))
    assertEquals("A_", Naming.typeParam("A"))
    assertNotEquals(Naming.typeName("A_", Set.empty), Naming.typeParam("A"))
  }
}
