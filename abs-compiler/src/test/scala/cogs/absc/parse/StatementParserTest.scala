package cogs.absc.parse

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast._
import cogs.absc.ast.BinaryOp._
import cogs.absc.parse.TestSupport._

class StatementParserTest {

  private val IntT = TypeRef(QName("Int"))
  private def futOf(t: TypeRef) = TypeRef(QName("Fut"), List(t))

  @Test def skipSuspendAndBlocks(): Unit = {
    assertEquals(SkipStmt(), stmt("skip;"))
    assertEquals(SuspendStmt(), stmt("suspend;"))
    assertEquals(Block(Nil), stmt("{ }"))
    assertEquals(Block(List(SkipStmt(), Block(List(SuspendStmt())))), stmt("{ skip; { suspend; } }"))
  }

  @Test def variableDeclarations(): Unit = {
    assertEquals(VarDeclStmt("b", TypeRef(QName("Bool")), Some(ConstructorApp(QName("True"), Nil))), stmt("Bool b = True;"))
    assertEquals(VarDeclStmt("f", futOf(IntT), None), stmt("Fut<Int> f;"))
    assertEquals(
      VarDeclStmt("m", TypeRef(QName(Some("ABS.StdLib"), "Map"), List(IntT, TypeRef(QName("List"), List(TypeRef(QName("String")))))), None),
      stmt("ABS.StdLib.Map<Int, List<String>> m;"))
    // Declarations may be initialised with effects.
    assertEquals(VarDeclStmt("r", IntT, Some(GetExp(VarUse("f")))), stmt("Int r = f.get;"))
    assertEquals(VarDeclStmt("o", TypeRef(QName("I")), Some(NewExp(QName("C"), Nil, local = false))), stmt("I o = new C();"))
    assertEquals(VarDeclStmt("x", IntT, Some(AwaitExp(AsyncCall(VarUse("o"), "m", Nil)))), stmt("Int x = await o!m();"))
  }

  @Test def aGenericDeclarationIsNotAComparison(): Unit =
    assertEquals(VarDeclStmt("l", TypeRef(QName("List"), List(IntT)), None), stmt("List<Int> l;"))

  @Test def assignments(): Unit = {
    assertEquals(AssignStmt(VarUse("x"), IntLit(5)), stmt("x = 5;"))
    assertEquals(AssignStmt(FieldUse("f"), ConstructorApp(QName("True"), Nil)), stmt("this.f = True;"))
    assertEquals(AssignStmt(VarUse("f"), AsyncCall(VarUse("o"), "m", List(IntLit(1)))), stmt("f = o!m(1);"))
    assertEquals(AssignStmt(VarUse("v"), SyncCall(ThisExp(), "get_", Nil)), stmt("v = this.get_();"))
  }

  @Test def expressionStatements(): Unit = {
    assertEquals(ExpStmt(AsyncCall(VarUse("server"), "operate", Nil)), stmt("server!operate();"))
    assertEquals(ExpStmt(NewExp(QName("Client"), List(VarUse("server")), local = false)), stmt("new Client(server);"))
    assertEquals(ExpStmt(FnApp(QName("println"), List(StringLit("x")))), stmt("println(\"x\");"))
    assertEquals(ExpStmt(FnApp(QName("print"), List(VarUse("s")))), stmt("print(s);"))
    assertEquals(ExpStmt(SyncCall(VarUse("o"), "m", Nil)), stmt("o.m();"))
    assertEquals(ExpStmt(GetExp(VarUse("f"))), stmt("f.get;"))
  }

  @Test def awaitStatements(): Unit = {
    assertEquals(AwaitStmt(ClaimGuard(VarUse("f"))), stmt("await f?;"))
    assertEquals(AwaitStmt(ClaimGuard(FieldUse("f"))), stmt("await this.f?;"))
    assertEquals(AwaitStmt(ExpGuard(Binary(Eq, FieldUse("x"), ConstructorApp(QName("True"), Nil)))),
      stmt("await this.x == True;"))
    assertEquals(AwaitStmt(ExpGuard(VarUse("ready"))), stmt("await ready;"))
    assertEquals(
      AwaitStmt(AndGuard(ClaimGuard(VarUse("f")), ExpGuard(Binary(Gt, FieldUse("y"), IntLit(5))))),
      stmt("await f? & this.y > 5;"))
    // '&' is left associative and binds looser than '&&'.
    assertEquals(
      AwaitStmt(AndGuard(AndGuard(ClaimGuard(VarUse("a")), ExpGuard(Binary(And, VarUse("b"), VarUse("c")))),
        ClaimGuard(VarUse("d")))),
      stmt("await a? & b && c & d?;"))
    assertEquals(AwaitStmt(DurationGuard(IntLit(3), Some(IntLit(5)))), stmt("await duration(3, 5);"))
    assertEquals(AwaitStmt(DurationGuard(Binary(Div, IntLit(1), IntLit(2)), None)), stmt("await duration(1/2);"))
  }

  @Test def awaitOnACallIsAnExpressionStatement(): Unit =
    assertEquals(ExpStmt(AwaitExp(AsyncCall(VarUse("o"), "m", List(IntLit(1), IntLit(2))))), stmt("await o!m(1, 2);"))

  @Test def returnAssertThrowDie(): Unit = {
    assertEquals(ReturnStmt(VarUse("x")), stmt("return x;"))
    assertEquals(ReturnStmt(GetExp(VarUse("f"))), stmt("return f.get;"))
    assertEquals(AssertStmt(Binary(Ne, VarUse("x"), NullLit())), stmt("assert x != null;"))
    assertEquals(ThrowStmt(ConstructorApp(QName("AssertionFailException"), Nil)), stmt("throw AssertionFailException;"))
    assertEquals(DieStmt(StringLit("fatal")), stmt("die \"fatal\";"))
  }

  @Test def conditionals(): Unit = {
    assertEquals(
      IfStmt(Binary(Lt, IntLit(5), VarUse("x")),
        Block(List(AssignStmt(VarUse("y"), IntLit(6)))),
        Some(Block(List(AssignStmt(VarUse("y"), IntLit(7)))))),
      stmt("if (5 < x) { y = 6; } else { y = 7; }"))
    assertEquals(IfStmt(ConstructorApp(QName("True"), Nil), AssignStmt(VarUse("x"), IntLit(5)), None),
      stmt("if (True) x = 5;"))
  }

  @Test def elseBindsToTheNearestIf(): Unit =
    assertEquals(
      IfStmt(VarUse("a"), IfStmt(VarUse("b"), SkipStmt(), Some(SuspendStmt())), None),
      stmt("if (a) if (b) skip; else suspend;"))

  @Test def loops(): Unit = {
    assertEquals(
      WhileStmt(Binary(Lt, VarUse("x"), IntLit(5)), Block(List(AssignStmt(VarUse("x"), Binary(Add, VarUse("x"), IntLit(1)))))),
      stmt("while (x < 5) { x = x + 1; }"))
    assertEquals(
      ForeachStmt("v", None, NAryFnApp(QName("list"), List(StringLit("a"), StringLit("b"))),
        ExpStmt(FnApp(QName("println"), List(VarUse("v"))))),
      stmt("foreach (v in list[\"a\", \"b\"]) println(v);"))
    assertEquals(
      ForeachStmt("v", Some("i"), VarUse("xs"), Block(Nil)),
      stmt("foreach (v, i in xs) { }"))
  }

  @Test def switchAndCaseStatements(): Unit = {
    val expected = SwitchStmt(VarUse("p"), List(
      SwitchBranch(ConstructorPattern(QName("Pair"), List(LiteralPattern(IntLit(2)), VarPattern("y"))),
        Block(List(AssignStmt(VarUse("x"), VarUse("y")), SkipStmt()))),
      SwitchBranch(WildcardPattern(), AssignStmt(VarUse("x"), Unary(UnaryOp.Neg, IntLit(1))))))
    assertEquals(expected, stmt("switch (p) { Pair(2, y) => { x = y; skip; } _ => x = -1; }"))
    assertEquals(expected, stmt("case p { Pair(2, y) => { x = y; skip; } _ => x = -1; }"))
    assertEquals(SwitchStmt(VarUse("p"), Nil), stmt("switch (p) { }"))
  }

  @Test def aCaseExpressionWithSemicolonsReadsAsACaseStatement(): Unit =
    // Older models write `case e { p => e; ... };` as a statement; with statement branches
    // that evaluate and discard an expression, the meaning is the same.
    assertEquals(
      SwitchStmt(VarUse("l"), List(
        SwitchBranch(ConstructorPattern(QName("Cons"), List(LiteralPattern(IntLit(1)), WildcardPattern())), ExpStmt(IntLit(1))),
        SwitchBranch(WildcardPattern(), ExpStmt(IntLit(2))))),
      stmt("case l { Cons(1, _) => 1; _ => 2; };"))

  @Test def pureExpressionStatements(): Unit = {
    assertEquals(ExpStmt(ConstructorApp(QName("True"), Nil)), stmt("True;"))
    assertEquals(ExpStmt(IfExp(ConstructorApp(QName("True"), Nil), IntLit(5), IntLit(3))), stmt("(when True then 5 else 3);"))
  }

  @Test def tryCatchFinally(): Unit = {
    assertEquals(
      TryCatchStmt(
        Block(List(VarDeclStmt("z", TypeRef(QName("Rat")), Some(Binary(Div, IntLit(1), VarUse("x")))))),
        List(
          SwitchBranch(ConstructorPattern(QName("DivisionByZeroException"), Nil),
            ExpStmt(FnApp(QName("println"), List(StringLit("zero"))))),
          SwitchBranch(ConstructorPattern(QName("MyError"), List(VarPattern("code"))), ThrowStmt(VarUse("e")))),
        Some(Block(List(ExpStmt(FnApp(QName("println"), List(StringLit("done")))))))),
      stmt(
        """try {
          |  Rat z = 1/x;
          |} catch {
          |  DivisionByZeroException => println("zero");
          |  MyError(code) => throw e;
          |} finally {
          |  println("done");
          |}""".stripMargin))
    // A single catch branch needs no braces.
    assertEquals(
      TryCatchStmt(AssignStmt(VarUse("b"), GetExp(VarUse("f"))),
        List(SwitchBranch(WildcardPattern(), AssignStmt(VarUse("b"), ConstructorApp(QName("False"), Nil)))), None),
      stmt("try b = f.get; catch _ => b = False;"))
  }

  @Test def timedAndDeploymentStatements(): Unit = {
    assertEquals(DurationStmt(Binary(Div, IntLit(1), IntLit(2)), Some(IntLit(5))), stmt("duration(1/2, 5);"))
    assertEquals(DurationStmt(IntLit(1), None), stmt("duration(1);"))
    assertEquals(MoveCogToStmt(VarUse("dc")), stmt("movecogto dc;"))
  }

  @Test def annotationsOnStatements(): Unit = {
    assertEquals(
      ExpStmt(AsyncCall(VarUse("o"), "m", Nil), List(
        Annotation(Some(QName("Cost")), IntLit(15)),
        Annotation(Some(QName("Deadline")), ConstructorApp(QName("Duration"), List(IntLit(20)))))),
      stmt("[Cost: 15, Deadline: Duration(20)] o!m();"))
    // Separate brackets mean the same.
    assertEquals(stmt("[Cost: 15, Deadline: Duration(20)] o!m();"), stmt("[Cost: 15] [Deadline: Duration(20)] o!m();"))
    assertEquals(
      VarDeclStmt("w", TypeRef(QName("Worker")), Some(NewExp(QName("CWorker"), Nil, local = false)),
        List(Annotation(Some(QName("DC")), VarUse("dc")))),
      stmt("[DC: dc] Worker w = new CWorker();"))
    assertEquals(
      VarDeclStmt("c", IntT, Some(IntLit(24)), List(Annotation(None, ConstructorApp(QName("Final"), Nil)))),
      stmt("[Final] Int c = 24;"))
    assertEquals(SkipStmt(List(Annotation(None, ConstructorApp(QName("HTTPName"), Nil)))), stmt("[HTTPName] skip;"))
  }

  @Test def annotationsOnTypeArguments(): Unit =
    assertEquals(
      VarDeclStmt("f", futOf(TypeRef(QName("I"), Nil, List(Annotation(None, ConstructorApp(QName("Far"), Nil))))), None),
      stmt("Fut<[Far] I> f;"))

  @Test def deeplyNestedStatementsAndExpressions(): Unit = {
    // Generated models nest deeply; parsing must not overflow the stack.
    val n = 3000
    var s = stmt("if (a) { " * n + "skip;" + " }" * n)
    var depth = 0
    while (s.isInstanceOf[IfStmt]) { depth += 1; s = s.asInstanceOf[IfStmt].thenStmt.asInstanceOf[Block].stmts.head }
    assertEquals(n, depth)
    assertEquals(ExpStmt(IntLit(1)), stmt("(" * 20000 + "1" + ")" * 20000 + ";"))
  }

  @Test def runIsAnOrdinaryMethodName(): Unit =
    assertEquals(ExpStmt(AsyncCall(VarUse("w"), "run", Nil)), stmt("w!run();"))

  @Test def statementPositions(): Unit = {
    val ss = mainStmts("  Int x = 1;\n  [Cost: 1] x = 2;\n  o!m();")
    assertEquals(3, ss.length)
    val (decl, assign, call) = (ss(0), ss(1), ss(2))
    assertEquals(Pos(File, 3, 7), decl.pos) // the declared name
    assertEquals(Pos(File, 4, 13), assign.pos) // first token after the annotation
    assertEquals(Pos(File, 4, 4), assign.annotations.head.pos)
    assertEquals(Pos(File, 5, 3), call.pos)
  }
}
