package cogs.absc.driver

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast.CompilationUnit
import cogs.absc.emit.EmittedProgram
import cogs.absc.lower._
import cogs.absc.typecheck.TypedProgram

/**
 * absc's phases, each run alone on the value the one before gives (see [[Pipeline]]): what each
 * gives, and that a decision of an analysis reaches the printer only through the IR.
 */
class PipelineTest {

  private val model =
    """module M;
      |interface I { Int f(Int n); Int h(Int n); }
      |class C implements I {
      |  Int f(Int n) { Int r = this.g(n); return r + 1; }
      |  Int g(Int n) { suspend; return n * 2; }
      |  Int h(Int n) {
      |    Int r = 0;
      |    try { r = this.g(n); } catch { _ => r = 0; }
      |    return r;
      |  }
      |}
      |{
      |  I o = new C();
      |  Int x = await o!f(1);
      |  println(toString(x));
      |}
      |""".stripMargin

  private val pipeline = new Pipeline(AbsBackend, ProgramOptions())
  private def sources(text: String = model) = List(SourceFile("m.abs", text))

  private def ok[A](r: Either[Stop, A]): A = r.fold(s => fail(s"stopped: $s"), identity)

  private def units: List[CompilationUnit] = ok(pipeline.parse.run(sources()))
  private def checked: CheckedProgram[TypedProgram] =
    ok(pipeline.check.run(units)).asInstanceOf[CheckedProgram[TypedProgram]]
  private def entered = ok(pipeline.entry.run(checked.asInstanceOf[CheckedProgram[pipeline.backend.Checked]]))
    .asInstanceOf[CheckedProgram[TypedProgram]]
  private def lowered: LProgram = ok(AbsBackend.lower.run(entered))
  private def instrumented: LProgram = ok(AbsBackend.instrument.run(lowered))

  @Test def thePhasesInOrder(): Unit = {
    assertEquals(List("parse", "flatten", "check", "entry", "lower", "instrument", "limits", "optimise", "frames", "print"), pipeline.phases.names)
    // A back end of the tests' own: the same phases up to entry, then its one translation phase.
    assertEquals(List("parse", "flatten", "check", "entry", "emit"),
      new Pipeline(new FakeBackend(Map.empty), ProgramOptions()).phases.names)
  }

  @Test def parseGivesTheAstAndReportsEverySyntaxError(): Unit = {
    assertEquals(List("M"), units.flatMap(_.modules.map(_.name)))
    assertTrue(units.head.modules.head.main.isDefined)
    pipeline.parse.run(List(SourceFile("a.abs", "module A; { Int x = 1 }"), SourceFile("b.abs", "module B; { skip }"))) match {
      case Left(Stop.Diagnostics(ds)) => assertEquals(List("a.abs", "b.abs"), ds.map(_.pos.file))
      case other => fail(s"two syntax errors expected, got $other")
    }
  }

  @Test def flattenLeavesAProgramWithoutAProductLineAsItIs(): Unit = {
    val us = units
    assertEquals(us, ok(pipeline.flatten.run(us)))
    new Pipeline(AbsBackend, ProgramOptions(product = Some("P"))).flatten.run(us) match {
      case Left(Stop.Refused(message)) => assertTrue(message.contains("P"), message)
      case other => fail(s"no product P: $other")
    }
  }

  @Test def checkRecordsTheEffectAnalysisFramesIncluded(): Unit = {
    val p = checked.program
    val c = p.classes.find(_.name == "C").get
    val Seq(f, g, h) = Seq("f", "g", "h").map(c.method(_).get)
    assertTrue(p.maySuspend(g) && p.needsContinuation(g))
    // f calls g outside a try: the call uses g's frame form; h's call, inside a try, does not.
    assertTrue(p.hasFrameForm(g))
    assertFalse(p.hasFrameForm(f) || p.hasFrameForm(h))
    val summary = AbsBackend.describe(p)
    assertTrue(summary.contains("method Int g(Int n): may suspend, continuation, frame form"), summary)
  }

  @Test def entryChoosesTheMainModuleByOneRule(): Unit = {
    assertEquals(Some("M"), entered.mainModule)
    val two = "module A; { skip; }\nmodule B; { skip; }\n"
    val twoUnits = ok(pipeline.parse.run(sources(two)))
    val twoChecked = ok(pipeline.check.run(twoUnits))
    pipeline.entry.run(twoChecked) match {
      case Left(Stop.Refused(m)) => assertTrue(m.startsWith("2 modules have a main block: A (m.abs:1:11), B (m.abs:2:11)"), m)
      case other => fail(s"a choice is needed: $other")
    }
    val chosen = new Pipeline(AbsBackend, ProgramOptions(mainModule = Some("A"), mainModuleOption = true))
    val c2 = ok(chosen.check.run(twoUnits))
    assertEquals(Some("A"), ok(chosen.entry.run(c2)).mainModule)
    // Lowering runs what entry chose, and only that.
    assertEquals("A", ok(AbsBackend.lower.run(ok(chosen.entry.run(c2)).asInstanceOf[CheckedProgram[TypedProgram]])).mainModule.get.absName)
  }

  @Test def lowerRecordsTheFrameDecisionInTheIr(): Unit = {
    val ir = lowered
    assertEquals("M", ir.mainModule.get.absName)
    val cls = ir.modules.flatMap(_.decls).collectFirst { case c: LClass if c.absName == "C" => c }.get
    def method(n: String) = cls.methods.find(_.sig.absName == n).get
    assertEquals(Some("g$body"), method("g").frame)
    assertEquals(None, method("f").frame)
    def selfCalls(p: P): List[String] = p match {
      case P.Sync(_, Some(m)) => List(m)
      case P.Then(_, n) => selfCalls(n)
      case P.Bind(a, _, b) => selfCalls(a) ++ selfCalls(b)
      case P.Void(a) => selfCalls(a)
      case P.Try(b, h, f) => selfCalls(b) ++ h.toList.flatMap(x => selfCalls(x._2)) ++ f.toList.flatMap(selfCalls)
      case P.If(_, t, e) => selfCalls(t) ++ selfCalls(e)
      case P.Match(_, cs) => cs.flatMap(c => selfCalls(c.body))
      case _ => Nil
    }
    assertEquals(List("g$body"), selfCalls(method("f").cps.get))
    assertEquals(List("g"), selfCalls(method("h").cps.get))
    assertTrue(ir.origins.contains("absmodel/M$C.g$body"), ir.origins.keys.toString)
    assertFalse(ir.origins.contains("absmodel/M$C.f$body"), "only methods that have a frame form are named")
    val shown = IrPrinter(ir)
    assertTrue(shown.contains("""frame = Some("g$body")"""), shown)
  }

  @Test def limitsLeavesAnOrdinaryProgramAndMovesAHugeStringOut(): Unit = {
    val ir = instrumented
    assertEquals(ir, ok(AbsBackend.limits.run(ir)))
    val huge = "x" * 30000
    val big = ok(pipeline.check.run(ok(pipeline.parse.run(sources(s"""module H;\n{ String s = "$huge"; println(s); }\n""")))))
    val bigIr = ok(AbsBackend.instrument.run(ok(AbsBackend.lower.run(ok(pipeline.entry.run(big)).asInstanceOf[CheckedProgram[TypedProgram]]))))
    def consts(p: LProgram) = p.modules.flatMap(_.decls).collect { case k: LConst => k }
    assertEquals(Nil, consts(bigIr))
    assertEquals(1, consts(ok(AbsBackend.limits.run(bigIr))).size, "the string is a constant of the module after limits")
  }

  @Test def printLaysOutWhatTheIrDecided(): Unit = {
    val ir = ok(AbsBackend.limits.run(instrumented))
    val text = ok(AbsBackend.print.run(ir)).files.map(_.text).mkString
    assertTrue(text.contains("private def g$body(n: AbsInt): Proc[AbsInt]"), text)
    assertTrue(text.contains("this.g$body(n)"), text)
    assertTrue(text.contains("this.g(n)"), text)
    // Take the frame form away in the IR: the printer follows, with no analysis of its own.
    val noFrames = ir.copy(modules = ir.modules.map(m => m.copy(decls = m.decls.map {
      case c: LClass => c.copy(methods = c.methods.map(_.copy(frame = None)))
      case d => d
    })))
    val plain = ok(AbsBackend.print.run(noFrames)).files.map(_.text).mkString
    assertFalse(plain.contains("private def g$body"), plain)
  }

  @Test def optimiseFusesMapsAndDropsVoidsForThePrinter(): Unit = {
    val ir = ok(AbsBackend.limits.run(instrumented))
    def f(p: LProgram) = p.modules.flatMap(_.decls).collectFirst { case c: LClass => c }.get.methods.find(_.sig.absName == "f").get.cps.get match {
      case P.Then(List(St.Line(4)), next) => next // the statement's ABS line, then the call
      case other => other
    }
    // `Int r = this.g(n); return r + 1;`: a continuation that only computes the result.
    assertTrue(f(ir).isInstanceOf[P.Bind], f(ir).toString)
    val optimised = ok(AbsBackend.optimise.run(ir))
    f(optimised) match {
      case P.Map(P.SelfCall("g$body", _), Some(("r", _)), S.Infix(S.Id("r"), "+", _)) =>
      case other => fail(s"a map expected: $other")
    }
    assertTrue(ok(AbsBackend.print.run(optimised)).files.map(_.text).mkString.contains("this.g$body(n).map { (r: AbsInt) =>"))
    // A value dropped: the voids at the ends of its branches go (through if and match).
    val c = S.Id("c")
    val main = LMain(test = false, P.Bind(P.If(c, P.Void(P.Call(S.Id("a"))), P.Then(Nil, P.Void(P.Call(S.Id("b"))))), None,
      P.Bind(P.Void(P.Call(S.Id("d"))), None, P.Unit)))
    val mod = LModule("M", "m.abs", "M", List(main))
    val out = ok(AbsBackend.optimise.run(LProgram("p", List(mod), Some(mod), mainIsTest = false, None)))
    assertEquals(P.Bind(P.If(c, P.Call(S.Id("a")), P.Then(Nil, P.Call(S.Id("b")))), None, P.Bind(P.Call(S.Id("d")), None, P.Unit)),
      out.modules.head.decls.head.asInstanceOf[LMain].body)
    assertEquals(out.modules.head, out.mainModule.get)
  }

  @Test def instrumentDecidesEveryCallSiteAndLeavesNoneForThePrinter(): Unit = {
    // Lowering leaves the call sites as data, whatever the configuration.
    val calls = lowered.modules.flatMap(_.decls).collect { case m: LMain => m }.head.toString
    assertTrue(calls.contains("Send(Call(") && calls.contains("CallSite(None,List(C),m.abs:14:"), calls)
    assertFalse(calls.contains("sendWithArgs"), calls)
    // Without a monitor or a session: the plain calls.
    val plain = IrPrinter(instrumented)
    assertFalse(plain.contains("Send(") || plain.contains("Sync("), plain)
    // The message knows its method (`AbsCall.message("f")`): the call site writes the target and its position.
    val printed = ok(AbsBackend.print.run(instrumented)).files.map(_.text).mkString
    assertTrue("send\\(o, \"m.abs:14:\\d+\"\\)\\(I.f\\(AbsInt\\(1\\)\\)\\)".r.findFirstIn(printed).isDefined, printed)
    assertTrue(printed.contains("AbsCall.message(\"f\")"), printed)
    // Observing C.f: the main block's call of f is traced with its argument, evaluated first.
    val observing = Instrumentation(_ == "C", (c, m) => c == "C" && m == "f", Some("cogs.monitor {}"))
    val traced = Instrument(lowered, observing)
    assertEquals(Some("cogs.monitor {}"), traced.monitorConfig)
    val text = ok(AbsBackend.print.run(traced)).files.map(_.text).mkString
    assertTrue(text.contains("{ val sent$1 = AbsInt(1); AbsCall.sendWithArgs(o, \"m.abs:14:") &&
      text.contains("\", List[Any](sent$1))(I.f(sent$1)) }"), text)
    // Observing another method: nothing is traced.
    val other = Instrument(lowered, Instrumentation(_ => true, (_, m) => m == "h", Some("cogs.monitor {}")))
    assertFalse(ok(AbsBackend.print.run(other)).files.map(_.text).mkString.contains("sendWithArgs"))
    // A phase after instrument that met a call site would be an internal error, said as such.
    val e = assertThrows(classOf[IllegalStateException], () => AbsBackend.limits.run(lowered))
    assertTrue(e.getMessage.contains("after the instrument phase"), e.getMessage)
  }

  @Test def thePhasesTogetherAreTheTranslation(): Unit = {
    val whole = ok(pipeline.phases.run(sources()))
    val byPhase = ok(AbsBackend.print.run(ok(AbsBackend.frames.run(ok(AbsBackend.optimise.run(ok(AbsBackend.limits.run(instrumented))))))))
    assertEquals(byPhase.files, whole.files)
    assertEquals(Some("absmodel_main.Main"), whole.mainObject)
    val upToLower = ok(pipeline.phases.runUntil(sources(), Some("lower")))
    assertEquals("lower", upToLower._1.name)
    assertEquals(lowered, upToLower._2)
  }

  @Test def framesGivesEverySuspendingMethodItsFrameFormAndDecidesHowSequencesJoin(): Unit = {
    val ir = ok(AbsBackend.frames.run(ok(AbsBackend.optimise.run(ok(AbsBackend.limits.run(instrumented))))))
    val c = ir.modules.flatMap(_.decls).collectFirst { case c: LClass => c }.get
    def code(m: String): F = c.methods.find(_.sig.absName == m).get.frameCode match {
      case Some((name, f)) => assertEquals(s"$m$$f", name); f
      case None => fail(s"$m: a frame form expected")
    }
    def strip(f: F): F = f match { case F.Then(List(St.Line(_)), next) => strip(next); case other => other }
    // f: `Int r = this.g(n); return r + 1;`: g's frame form called as a plain JVM call; it may or
    // may not suspend, so the rest is a local method called either way.
    strip(code("f")) match {
      case F.Seq(F.SelfCall("g$f", List(S.Id("n"))), Some(("r", _)), F.Value(_), F.Either("k$1", "r$1")) =>
      case other => fail(s"f: $other")
    }
    // g: `suspend; return n * 2;`: the suspension always happens, the rest is the frame.
    strip(code("g")) match {
      case F.Seq(F.Run(P.Suspend), None, _, F.Suspends) =>
      case other => fail(s"g: $other")
    }
    // h: the try around a self-call stays a Proc computation that the interpreter runs.
    def runs(f: F): Boolean = f match {
      case F.Run(_: P.Try) => true
      case F.Then(_, n) => runs(n)
      case F.Seq(a, _, b, _) => runs(a) || runs(b)
      case _ => false
    }
    assertTrue(runs(code("h")), code("h").toString)
    // No decision is left to the printer: it lays out what the IR says.
    val text = ok(AbsBackend.print.run(ir)).files.map(_.text).mkString
    assertTrue(text.contains("def f$f(p$: Process, n: AbsInt): Any = {"), text)
    assertTrue(text.contains("if (r$1.asInstanceOf[AnyRef] eq Frame.Suspended) p$.suspendedIn((p$, in$) => k$1(in$)) else k$1(r$1)"), text)
    assertTrue(text.contains("p$.suspendedIn { (p$, in$) =>"), text)
    assertTrue(text.contains("FrameCall.on[AbsInt](this) { (p$, _) => f$f(p$, n) }"), text)
    // g's form without the handler, `g$body`, was for f's call, which calls g$f now (h's try calls
    // g itself, under g's handler): nothing calls it, so it is not printed.
    assertEquals(None, c.methods.find(_.sig.absName == "g").get.frame)
    assertFalse(text.contains("g$body"), text)
    assertTrue(text.contains("this.g(n)"), text)
  }
}
