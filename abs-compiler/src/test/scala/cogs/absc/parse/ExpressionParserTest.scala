package cogs.absc.parse

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast._
import cogs.absc.ast.BinaryOp._
import cogs.absc.parse.TestSupport._

class ExpressionParserTest {

  // ---------------------------------------------------------------------------------
  // Literals

  @Test def integerLiterals(): Unit = {
    assertEquals(IntLit(0), exp("0"))
    assertEquals(IntLit(42), exp("42"))
    assertEquals(IntLit(BigInt("123456789012345678901234567890")), exp("123456789012345678901234567890"))
  }

  @Test def negativeNumbersAreUnaryMinus(): Unit =
    assertEquals(Unary(UnaryOp.Neg, IntLit(5)), exp("-5"))

  @Test def floatLiterals(): Unit = {
    assertEquals(FloatLit(0.5), exp("0.5"))
    assertEquals(FloatLit(0.25), exp(".25"))
    assertEquals(FloatLit(1.5e3), exp("1.5e3"))
    assertEquals(FloatLit(1.0e-15), exp("1.0e-15"))
    assertEquals(FloatLit(2.0e10), exp("2.0E+10"))
  }

  @Test def rationalsAreDivisions(): Unit =
    assertEquals(Binary(Div, IntLit(1), IntLit(4)), exp("1/4"))

  @Test def stringLiteralsDecodeEscapes(): Unit = {
    assertEquals(StringLit("hello world"), exp("\"hello world\""))
    assertEquals(StringLit(""), exp("\"\""))
    assertEquals(StringLit("a\nb\tc\rd\"e\\f'g"), exp("\"a\\nb\\tc\\rd\\\"e\\\\f\\'g\""))
    assertEquals(StringLit("\u00e9A"), exp("\"\\u00e9\\u0041\""))
  }

  @Test def templateStrings(): Unit = {
    assertEquals(TemplateString(List("plain"), Nil), exp("`plain`"))
    assertEquals(TemplateString(List(""), Nil), exp("``"))
    assertEquals(
      TemplateString(List("Hello ", "!\nThe price is $", "."), List(VarUse("name"), VarUse("price"))),
      exp("`Hello $name$!\nThe price is \\$$price$.`"))
    // Holes hold any pure expression, including other templates; only \` and \$ are escapes.
    assertEquals(
      TemplateString(List("", " and ", ""),
        List(Binary(Add, VarUse("a"), IntLit(1)), TemplateString(List("in ", "\\n"), List(VarUse("b"))))),
      exp("`$a + 1$ and $`in $b$\\n`$`"))
    assertEquals(TemplateString(List("tick ` dollar $"), Nil), exp("`tick \\` dollar \\$`"))
  }

  @Test def nullThisAndDestiny(): Unit = {
    assertEquals(NullLit(), exp("null"))
    assertEquals(ThisExp(), exp("this"))
    assertEquals(FieldUse("count"), exp("this.count"))
    assertEquals(DestinyExp(), exp("destiny"))
  }

  // ---------------------------------------------------------------------------------
  // Names, constructors and function calls

  @Test def variablesAndConstructors(): Unit = {
    assertEquals(VarUse("x"), exp("x"))
    assertEquals(ConstructorApp(QName("Nil"), Nil), exp("Nil"))
    assertEquals(ConstructorApp(QName("Nil"), Nil), exp("Nil()"))
    assertEquals(ConstructorApp(QName("True"), Nil), exp("True"))
    assertEquals(
      ConstructorApp(QName("Cons"), List(IntLit(1), ConstructorApp(QName("Nil"), Nil))),
      exp("Cons(1, Nil)"))
  }

  @Test def qualifiedNames(): Unit = {
    assertEquals(ConstructorApp(QName(Some("ABS.StdLib"), "Nil"), Nil), exp("ABS.StdLib.Nil"))
    assertEquals(FnApp(QName(Some("M"), "f"), List(IntLit(1))), exp("M.f(1)"))
    assertEquals(NAryFnApp(QName(Some("A.B"), "set"), List(IntLit(1))), exp("A.B.set[1]"))
  }

  @Test def functionCalls(): Unit = {
    assertEquals(FnApp(QName("f"), Nil), exp("f()"))
    assertEquals(FnApp(QName("println"), List(StringLit("hi"))), exp("println(\"hi\")"))
    assertEquals(
      FnApp(QName("max"), List(Binary(Add, VarUse("a"), IntLit(1)), FnApp(QName("g"), List(VarUse("b"))))),
      exp("max(a + 1, g(b))"))
  }

  @Test def naryConstructorCalls(): Unit = {
    assertEquals(NAryFnApp(QName("list"), List(IntLit(1), IntLit(2), IntLit(3))), exp("list[1, 2, 3]"))
    assertEquals(NAryFnApp(QName("list"), Nil), exp("list[]"))
    assertEquals(
      NAryFnApp(QName("map"), List(
        ConstructorApp(QName("Pair"), List(IntLit(1), ConstructorApp(QName("True"), Nil))),
        ConstructorApp(QName("Pair"), List(IntLit(2), ConstructorApp(QName("False"), Nil))))),
      exp("map[Pair(1, True), Pair(2, False)]"))
  }

  @Test def partialFunctionApplications(): Unit = {
    assertEquals(
      PartialFnApp(QName("map"), List(FunName(QName("toString"))), List(NAryFnApp(QName("list"), List(IntLit(1))))),
      exp("map(toString)(list[1])"))
    assertEquals(
      PartialFnApp(QName("filter"),
        List(AnonFun(List(Param("i", TypeRef(QName("Int")))), Binary(Gt, VarUse("i"), IntLit(0)))),
        List(VarUse("xs"))),
      exp("filter((Int i) => i > 0)(xs)"))
    assertEquals(
      PartialFnApp(QName("fold"),
        List(FunName(QName(Some("M"), "plus")), AnonFun(Nil, IntLit(0))),
        Nil),
      exp("fold(M.plus, () => 0)()"))
  }

  // ---------------------------------------------------------------------------------
  // Operators: precedence and associativity (the manual's table, loosest first:
  // ||, &&, == !=, < <= > >=, + -, * / %, unary ! -)

  @Test def multiplicationBindsTighterThanAddition(): Unit = {
    assertEquals("(1 + (2 * 3))", showPure("1 + 2 * 3"))
    assertEquals("((1 * 2) + 3)", showPure("1 * 2 + 3"))
    assertEquals("((1 + 2) * 3)", showPure("(1 + 2) * 3"))
    assertEquals("(a - ((b / c) % d))", showPure("a - b / c % d"))
  }

  @Test def binaryOperatorsAreLeftAssociative(): Unit = {
    assertEquals("((1 - 2) - 3)", showPure("1 - 2 - 3"))
    assertEquals("((8 / 4) / 2)", showPure("8 / 4 / 2"))
    assertEquals("((a % b) * c)", showPure("a % b * c"))
    assertEquals("((a || b) || c)", showPure("a || b || c"))
    assertEquals("((a && b) && c)", showPure("a && b && c"))
    assertEquals("((a == b) != c)", showPure("a == b != c"))
    assertEquals("((a < b) < c)", showPure("a < b < c"))
  }

  @Test def comparisonBindsTighterThanEquality(): Unit = {
    assertEquals("((a < b) == (c >= d))", showPure("a < b == c >= d"))
    assertEquals("((a <= b) != (c > d))", showPure("a <= b != c > d"))
  }

  @Test def arithmeticBindsTighterThanComparison(): Unit =
    assertEquals("((a + 1) <= (b * 2))", showPure("a + 1 <= b * 2"))

  @Test def andBindsTighterThanOr(): Unit = {
    assertEquals("(a || (b && c))", showPure("a || b && c"))
    assertEquals("((a && b) || c)", showPure("a && b || c"))
    assertEquals("((x == 1) || ((y > 2) && (z != 3)))", showPure("x == 1 || y > 2 && z != 3"))
  }

  @Test def unaryOperatorsBindTightest(): Unit = {
    assertEquals("((-a) * b)", showPure("-a * b"))
    assertEquals("((!a) && b)", showPure("!a && b"))
    assertEquals("(!(!a))", showPure("!!a"))
    assertEquals("(-(-1))", showPure("- -1"))
    assertEquals("(1 - (-2))", showPure("1 - -2"))
    assertEquals("(!(a == b))", showPure("!(a == b)"))
  }

  @Test def everyOperatorMapsToItsAstOperator(): Unit = {
    val ops = List("||" -> Or, "&&" -> And, "==" -> Eq, "!=" -> Ne, "<" -> Lt, "<=" -> Le, ">" -> Gt,
      ">=" -> Ge, "+" -> Add, "-" -> Sub, "*" -> Mul, "/" -> Div, "%" -> Mod)
    for ((sym, op) <- ops) assertEquals(Binary(op, VarUse("a"), VarUse("b")), exp(s"a $sym b"), sym)
    assertEquals(BinaryOp.all.toSet, ops.map(_._2).toSet)
  }

  @Test def aLongSumDoesNotOverflowTheStack(): Unit = {
    val n = 20000
    val e = pure(List.fill(n)("1").mkString(" + "))
    var depth = 0
    var cur: PureExp = e
    while (cur.isInstanceOf[Binary]) { depth += 1; cur = cur.asInstanceOf[Binary].left }
    assertEquals(n - 1, depth)
  }

  @Test def typeChecksAndCasts(): Unit = {
    assertEquals(ImplementsExp(VarUse("o"), QName("J")), exp("o implements J"))
    assertEquals(AsExp(VarUse("o"), QName(Some("M"), "J")), exp("o as M.J"))
    // Looser than arithmetic, tighter than comparisons and the logical operators.
    assertEquals("((o implements J) && b)", showPure("o implements J && b"))
    assertEquals("((o as J) == null)", showPure("o as J == null"))
  }

  // ---------------------------------------------------------------------------------
  // let, if/when, case

  @Test def letExpressions(): Unit = {
    assertEquals(
      LetExp(List(LetBinding("x", TypeRef(QName("Int")), IntLit(2))), Binary(Add, VarUse("x"), IntLit(1))),
      exp("let Int x = 2 in x + 1"))
    assertEquals(
      LetExp(List(
        LetBinding("x", TypeRef(QName("Int")), Binary(Add, IntLit(2), IntLit(2))),
        LetBinding("y", TypeRef(QName("Int")), Binary(Add, VarUse("x"), IntLit(1)))),
        Binary(Mul, VarUse("y"), IntLit(2))),
      exp("let Int x = 2 + 2, Int y = x + 1 in y * 2"))
    // The older form with parentheses around the declaration.
    assertEquals(
      LetExp(List(LetBinding("l", TypeRef(QName("List"), List(TypeRef(QName("Int")))), VarUse("xs"))), VarUse("l")),
      exp("let (List<Int> l) = xs in l"))
  }

  @Test def letBodyExtendsAsFarAsPossible(): Unit =
    assertEquals("(1 + (let Int x = 2 in (x * 3)))", showPure("1 + let Int x = 2 in x * 3"))

  @Test def conditionalExpressions(): Unit = {
    assertEquals(IfExp(Binary(Gt, VarUse("x"), IntLit(0)), VarUse("x"), Unary(UnaryOp.Neg, VarUse("x"))),
      exp("if x > 0 then x else -x"))
    assertEquals(IfExp(Binary(Eq, IntLit(5), IntLit(4)), StringLit("Hmm"), StringLit("ok")),
      exp("when 5 == 4 then \"Hmm\" else \"ok\""))
    assertEquals("(if a then b else (c + 1))", showPure("if a then b else c + 1"))
    assertEquals("(if a then 1 else (if b then 2 else 3))", showPure("if a then 1 else if b then 2 else 3"))
  }

  @Test def caseExpressionsWithEveryKindOfPattern(): Unit = {
    val expected = CaseExp(VarUse("l"), List(
      CaseBranch(ConstructorPattern(QName("Nil"), Nil), IntLit(0)),
      CaseBranch(ConstructorPattern(QName("Cons"), List(LiteralPattern(IntLit(1)), WildcardPattern())), IntLit(15)),
      CaseBranch(ConstructorPattern(QName("Cons"), List(WildcardPattern(),
        ConstructorPattern(QName("Cons"), List(VarPattern("y"), WildcardPattern())))), VarUse("y")),
      CaseBranch(LiteralPattern(StringLit("s")), IntLit(1)),
      CaseBranch(LiteralPattern(IntLit(-3)), IntLit(2)),
      CaseBranch(LiteralPattern(FloatLit(2.5)), IntLit(3)),
      CaseBranch(ConstructorPattern(QName(Some("M"), "K"), Nil), IntLit(4)),
      CaseBranch(VarPattern("other"), VarUse("other"))))
    // Current syntax: branches separated by '|'.
    assertEquals(expected, exp(
      """case l {
        |  Nil => 0
        |  | Cons(1, _) => 15
        |  | Cons(_, Cons(y, _)) => y
        |  | "s" => 1
        |  | -3 => 2
        |  | 2.5 => 3
        |  | M.K() => 4
        |  | other => other
        |}""".stripMargin))
    // Older syntax: each branch ends with ';'.
    assertEquals(expected, exp(
      """case l { Nil => 0; Cons(1, _) => 15; Cons(_, Cons(y, _)) => y; "s" => 1; -3 => 2; 2.5 => 3;
        |  M.K => 4; other => other; }""".stripMargin))
  }

  @Test def aBarMayPrecedeTheFirstCaseBranch(): Unit =
    assertEquals(exp("case x { 1 => 2 | _ => 3 }"), exp("case x {\n  | 1 => 2\n  | _ => 3\n}"))

  @Test def nestedCaseBranchesBelongToTheInnerCase(): Unit =
    assertEquals(
      CaseExp(VarUse("a"), List(
        CaseBranch(ConstructorPattern(QName("X"), Nil),
          CaseExp(VarUse("b"), List(CaseBranch(ConstructorPattern(QName("Y"), Nil), IntLit(1))))),
        CaseBranch(WildcardPattern(), IntLit(2)))),
      exp("case a { X => case b { Y => 1 } | _ => 2 }"))

  // ---------------------------------------------------------------------------------
  // Expressions with effects

  @Test def objectCreation(): Unit = {
    assertEquals(NewExp(QName("C"), List(IntLit(1), VarUse("x")), local = false), exp("new C(1, x)"))
    assertEquals(NewExp(QName(Some("M"), "C"), Nil, local = true), exp("new local M.C()"))
  }

  @Test def methodCalls(): Unit = {
    assertEquals(AsyncCall(VarUse("o"), "m", List(IntLit(1))), exp("o!m(1)"))
    assertEquals(SyncCall(VarUse("o"), "m", Nil), exp("o.m()"))
    assertEquals(AsyncCall(ThisExp(), "run", Nil), exp("this!run()"))
    assertEquals(SyncCall(ThisExp(), "helper", List(FieldUse("f"))), exp("this.helper(this.f)"))
    assertEquals(SyncCall(FieldUse("peer"), "ping", Nil), exp("this.peer.ping()"))
    assertEquals(AsyncCall(FnApp(QName("head"), List(VarUse("workers"))), "go", Nil), exp("(head(workers))!go()"))
    assertEquals(AsyncCall(FnApp(QName("head"), List(VarUse("workers"))), "go", Nil), exp("head(workers)!go()"))
  }

  @Test def getAndAwait(): Unit = {
    assertEquals(GetExp(VarUse("f")), exp("f.get"))
    assertEquals(GetExp(FieldUse("f")), exp("this.f.get"))
    assertEquals(AwaitExp(AsyncCall(VarUse("o"), "m", List(IntLit(5)))), exp("await o!m(5)"))
  }

  @Test def positionsPointAtTheRightTokens(): Unit = {
    val e = pure("a +\n  b * c").asInstanceOf[Binary]
    assertEquals(Pos(File, 1, 3), e.pos) // the operator
    assertEquals(Pos(File, 1, 1), e.left.pos)
    assertEquals(Pos(File, 2, 5), e.right.pos)
    assertEquals(Pos(File, 2, 3), e.right.asInstanceOf[Binary].left.pos)
    val call = exp("  obj!work(1)").asInstanceOf[AsyncCall]
    assertEquals(Pos(File, 1, 7), call.pos) // the method name
    assertEquals(Pos(File, 1, 3), call.target.pos)
    assertEquals(Pos(File, 1, 4), exp("f\t.get").pos) // the 'get', a tab counting as one column
  }
}
