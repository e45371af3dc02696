package cogs.absc.ast

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.diag.Diagnostic
import cogs.absc.parse.Parser

/**
 * `AbsPrinter`: over every `.abs` file of the repository's corpus, parse -> print -> parse
 * gives an equal AST and printing is idempotent; the exact layout of a small model; the
 * parentheses precedence needs (on trees built by hand, where the parser cannot have put
 * them); escapes; and 10,000 levels of nesting printed on a small stack.
 */
class AbsPrinterTest {

  private implicit val noPos: Pos = Pos.Unknown

  private def parse(name: String, text: String): CompilationUnit =
    Parser.parse(name, text).fold(ds => fail(s"does not parse:\n${Diagnostic.renderAll(ds, text)}\n--- text:\n$text"), identity)

  private def filesUnder(dir: Path): List[Path] =
    if (!Files.isDirectory(dir)) Nil
    else {
      val s = Files.walk(dir)
      try s.iterator.asScala.filter(p => Files.isRegularFile(p) && p.toString.endsWith(".abs")).toList.sortBy(_.toString)
      finally s.close()
    }

  /** The property, for one parsed unit: the printed text parses to an equal AST, and printing that gives the same text. */
  private def roundTrip(u: CompilationUnit): Option[String] = {
    val printed = AbsPrinter.print(u)
    Parser.parse(u.file, printed) match {
      case Left(ds) => Some(s"${u.file}: the printed text does not parse:\n${Diagnostic.renderAll(ds, printed)}")
      case Right(again) =>
        if (again != u) {
          val diff = u.modules.flatMap(_.decls).zipAll(again.modules.flatMap(_.decls), null, null).find(p => p._1 != p._2)
          Some(s"${u.file}: the AST changed; first differing declaration:\n  ${diff.map(_._1)}\n  ${diff.map(_._2)}")
        } else if (AbsPrinter.print(again) != printed) Some(s"${u.file}: printing is not idempotent")
        else None
    }
  }

  @Test def everyFileOfTheCorpusRoundTrips(): Unit = {
    val files = filesUnder(Paths.get("src", "test", "abs")) ++ filesUnder(Paths.get("..", "examples", "abs"))
    assertTrue(files.size >= 280, s"only ${files.size} .abs files found")
    var parsed = 0
    val notParsing = List.newBuilder[Path]
    val problems = List.newBuilder[String]
    for (f <- files) {
      val text = new String(Files.readAllBytes(f), UTF_8)
      Parser.parse(f.toString, text) match {
        case Left(_) => notParsing += f
        case Right(u) =>
          parsed += 1
          problems ++= roundTrip(u)
      }
    }
    val ps = problems.result()
    if (ps.nonEmpty) fail[Unit](s"${ps.size} of $parsed files fail the round trip:\n\n" + ps.mkString("\n\n"))
    // Only deliberate syntax errors may be skipped: they live under typecheck/err or errors-* directories.
    val skipped = notParsing.result()
    assertTrue(skipped.size * 20 < files.size, s"${skipped.size} of ${files.size} files do not parse: $skipped")
  }

  @Test def equalityIgnoresPositionsButNotStructure(): Unit = {
    val a = parse("a.abs", "module M; def Int f(Int x) = x - (1 - 2);")
    val b = parse("a.abs", "module M;\n\n  def Int f(Int x) =\n    x - (1 - 2)  ;")
    assertEquals(a, b)
    val (fa, fb) = (a.modules.head.decls.head, b.modules.head.decls.head)
    assertNotEquals(fa.pos, fb.pos)
    assertNotEquals(a, parse("a.abs", "module M; def Int f(Int x) = x - 1 - 2;"))
    assertEquals("module M;\n\ndef Int f(Int x) =\n  x - (1 - 2);\n", AbsPrinter.print(a))
  }

  @Test def layoutOfASmallModel(): Unit = {
    val src =
      """module Bank; export *; import * from ABS.StdLib;
        |data Op = Deposit(Int amount) | Withdraw(Int) | Nop;
        |type Amount = Int;
        |exception Overdrawn(Int);
        |[Pure] def List<B> map2<A, B>(f)(List<A> l) = case l { Nil => Nil | Cons(x, xs) => Cons(f(x), map2(f)(xs)) };
        |interface Account extends Object { Int balance(); Unit apply([Final] Op op); }
        |class AccountImpl(Int start) implements Account {
        |  Int b = start; Fut<Int> f;
        |  { b = b + 0; }
        |  recover { Overdrawn(n) => skip; }
        |  Int balance() { return b; }
        |  Unit apply(Op op) {
        |    switch (op) { Deposit(a) => b = b + a; Withdraw(a) => { if (a > b) throw Overdrawn(a); else b = b - a; } _ => skip; }
        |    while (b < 0) { await b >= 0 & f?; suspend; }
        |    try { b = b / 1; } catch { _ => b = 0; } finally { skip; }
        |    foreach (x, i in list[1, 2]) println(`$x$ at \$$i$`);
        |  }
        |}
        |{ [Local] Account a = new local AccountImpl(10); Int n = await a!balance(); Fut<Unit> u = a!apply(Deposit(-1 * n)); u.get; a.apply(Nop); }
        |""".stripMargin
    val expected =
      """module Bank;
        |export *;
        |import * from ABS.StdLib;
        |
        |data Op = Deposit(Int amount) | Withdraw(Int) | Nop;
        |
        |type Amount = Int;
        |
        |exception Overdrawn(Int);
        |
        |[Pure]
        |def List<B> map2<A, B>(f)(List<A> l) =
        |  case l {
        |    Nil => Nil
        |    | Cons(x, xs) => Cons(f(x), map2(f)(xs))
        |  };
        |
        |interface Account extends Object {
        |  Int balance();
        |  Unit apply([Final] Op op);
        |}
        |
        |class AccountImpl(Int start) implements Account {
        |  Int b = start;
        |  Fut<Int> f;
        |
        |  {
        |    b = b + 0;
        |  }
        |
        |  recover {
        |    Overdrawn(n) => skip;
        |  }
        |
        |  Int balance() {
        |    return b;
        |  }
        |
        |  Unit apply(Op op) {
        |    switch (op) {
        |      Deposit(a) => b = b + a;
        |      Withdraw(a) => {
        |        if (a > b)
        |          throw Overdrawn(a);
        |        else
        |          b = b - a;
        |      }
        |      _ => skip;
        |    }
        |    while (b < 0) {
        |      await b >= 0 & f?;
        |      suspend;
        |    }
        |    try {
        |      b = b / 1;
        |    } catch {
        |      _ => b = 0;
        |    } finally {
        |      skip;
        |    }
        |    foreach (x, i in list[1, 2])
        |      println(`$x$ at \$$i$`);
        |  }
        |}
        |
        |{
        |  [Local] Account a = new local AccountImpl(10);
        |  Int n = await a!balance();
        |  Fut<Unit> u = a!apply(Deposit(-1 * n));
        |  u.get;
        |  a.apply(Nop);
        |}
        |""".stripMargin
    val u = parse("bank.abs", src)
    assertEquals(expected, AbsPrinter.print(u))
    assertEquals(None, roundTrip(u))
  }

  @Test def traitsAndElseIfChains(): Unit = {
    val src =
      """module T;
        |trait Logging = { Unit log() { skip; } } adds { Unit trace() { skip; } } removes Unit old();
        |class C { uses Logging modifies { Unit log() { original(); } }; Unit run() { if (True) skip; else if (False) { skip; } else suspend; } }
        |""".stripMargin
    val expected =
      """module T;
        |
        |trait Logging = {
        |  Unit log() {
        |    skip;
        |  }
        |} adds {
        |  Unit trace() {
        |    skip;
        |  }
        |} removes Unit old();
        |
        |class C {
        |  uses Logging modifies {
        |    Unit log() {
        |      original();
        |    }
        |  };
        |
        |  Unit run() {
        |    if (True)
        |      skip;
        |    else if (False) {
        |      skip;
        |    } else
        |      suspend;
        |  }
        |}
        |""".stripMargin
    val u = parse("t.abs", src)
    assertEquals(expected, AbsPrinter.print(u))
    assertEquals(None, roundTrip(u))
  }

  private def v(n: String) = VarUse(n)
  private def i(n: Int) = IntLit(n)

  @Test def parenthesesFollowPrecedenceAndAssociativity(): Unit = {
    import BinaryOp._
    def b(op: BinaryOp, l: PureExp, r: PureExp) = Binary(op, l, r)
    assertEquals("1 - 2 - 3", AbsPrinter.print(b(Sub, b(Sub, i(1), i(2)), i(3))))
    assertEquals("1 - (2 - 3)", AbsPrinter.print(b(Sub, i(1), b(Sub, i(2), i(3)))))
    assertEquals("(1 + 2) * 3", AbsPrinter.print(b(Mul, b(Add, i(1), i(2)), i(3))))
    assertEquals("1 + 2 * 3", AbsPrinter.print(b(Add, i(1), b(Mul, i(2), i(3)))))
    assertEquals("a || b && c", AbsPrinter.print(b(Or, v("a"), b(And, v("b"), v("c")))))
    assertEquals("(a || b) && c", AbsPrinter.print(b(And, b(Or, v("a"), v("b")), v("c"))))
    assertEquals("-(a + b)", AbsPrinter.print(Unary(UnaryOp.Neg, b(Add, v("a"), v("b")))))
    assertEquals("!!a", AbsPrinter.print(Unary(UnaryOp.Not, Unary(UnaryOp.Not, v("a")))))
    assertEquals("a + b implements I", AbsPrinter.print(ImplementsExp(b(Add, v("a"), v("b")), QName("I"))))
    assertEquals("(a < b) implements I", AbsPrinter.print(ImplementsExp(b(Lt, v("a"), v("b")), QName("I"))))
    assertEquals("a < b as I", AbsPrinter.print(b(Lt, v("a"), AsExp(v("b"), QName("I")))))
    assertEquals("a as I == null", AbsPrinter.print(b(Eq, AsExp(v("a"), QName("I")), NullLit())))
    // let, if and case extend to the right: bracketed as operands.
    val let = LetExp(List(LetBinding("x", TypeRef(QName("Int")), i(1))), v("x"))
    assertEquals("(let Int x = 1 in x) + 1", AbsPrinter.print(b(Add, let, i(1))))
    assertEquals("1 + (if a then 1 else 2)", AbsPrinter.print(b(Add, i(1), IfExp(v("a"), i(1), i(2)))))
    // Receivers are atoms; a constructor is bracketed so that `C.m` is not read as one name.
    assertEquals("(a + b).get", AbsPrinter.print(GetExp(b(Add, v("a"), v("b")))))
    assertEquals("(C)!m(1, x)", AbsPrinter.print(AsyncCall(ConstructorApp(QName("C"), Nil), "m", List(i(1), v("x")))))
    assertEquals("this.f.m()", AbsPrinter.print(SyncCall(FieldUse("f"), "m", Nil)))
    for (e <- List(b(Sub, i(1), b(Sub, i(2), i(3))), b(Mul, b(Add, i(1), i(2)), i(3)), b(Add, let, i(1)),
        ImplementsExp(b(Lt, v("a"), v("b")), QName("I")), Unary(UnaryOp.Neg, b(Add, v("a"), v("b")))))
      assertEquals(e, Parser.parseExp("e.abs", AbsPrinter.print(e)).fold(ds => fail(ds.toString), identity))
  }

  @Test def expressionStatementsThatWouldReadOtherwiseAreBracketed(): Unit = {
    // `(List < Int) > x;` is an expression statement; unbracketed it would declare x.
    val s = ExpStmt(Binary(BinaryOp.Gt, Binary(BinaryOp.Lt, ConstructorApp(QName("List"), Nil), ConstructorApp(QName("Int"), Nil)), v("x")))
    assertEquals("(List < Int > x);", AbsPrinter.print(s))
    assertEquals(s, Parser.parseStmt("s.abs", AbsPrinter.print(s)).fold(ds => fail(ds.toString), identity))
    val c = ExpStmt(CaseExp(v("x"), List(CaseBranch(WildcardPattern(), i(1)))))
    assertEquals(c, Parser.parseStmt("s.abs", AbsPrinter.print(c)).fold(ds => fail(ds.toString), identity))
  }

  @Test def stringsAndTemplatesAreEscaped(): Unit = {
    val s = "tab\there \"quoted\" back\\slash\nnew line \u0001 caf\u00e9 \ud83d\ude00 $ `"
    assertEquals("\"tab\\there \\\"quoted\\\" back\\\\slash\\nnew line \\u0001 caf\u00e9 \ud83d\ude00 $ `\"",
      AbsPrinter.print(StringLit(s)))
    val t = TemplateString(List("cost: \\$", " `q` \\ ", ""), List(v("x"), TemplateString(List("in $"), Nil)))
    assertEquals("""`cost: \\$$x$ \`q\` \ $`in \$`$`""", AbsPrinter.print(t))
    for (e <- List(StringLit(s), t))
      assertEquals(e, Parser.parseExp("e.abs", AbsPrinter.print(e)).fold(ds => fail(ds.toString), identity))
    val p = parse("p.abs", "module P; def Int f(Int x) = case x { -1 => 0 | -2.5 => 1 | \"a\\\"\" => 2 | C(_, y) => y };")
    assertTrue(AbsPrinter.print(p).contains("-1 => 0\n    | -2.5 => 1\n    | \"a\\\"\" => 2\n    | C(_, y) => y"), AbsPrinter.print(p))
    assertEquals(None, roundTrip(p))
  }

  @Test def annotationsAndTimedSyntax(): Unit = {
    val u = parse("a.abs",
      """module A;
        |[Atomic] [Cost: 10] def [Nullable] Fut<[Far] I> f() = builtin(1, "x");
        |interface I { [HTTPCallable] Unit m([Near] I x); }
        |{ [DC: dc] duration(1, 2); await duration(1) & x?; movecogto dc; die Exc; [Debug] { skip; } }
        |""".stripMargin)
    val printed = AbsPrinter.print(u)
    for (s <- List("[Atomic]\n[Cost: 10]\ndef [Nullable] Fut<[Far] I> f() = builtin(1, \"x\");", "[HTTPCallable] Unit m([Near] I x);",
        "[DC: dc] duration(1, 2);", "await duration(1) & x?;", "movecogto dc;", "die Exc;", "[Debug] {"))
      assertTrue(printed.contains(s), s"no '$s' in:\n$printed")
    assertEquals(None, roundTrip(u))
  }

  private val N = 10000

  /** Prints on a thread with a 256 KB stack: recursion 10,000 deep would overflow it. */
  private def printOnSmallStack(u: CompilationUnit): String = {
    var out: Either[Throwable, String] = null
    val t = new Thread(null, () => { out = try Right(AbsPrinter.print(u)) catch { case e: Throwable => Left(e) } }, "small", 256L << 10)
    t.start(); t.join()
    out.fold(e => fail(s"printing failed: $e"), identity)
  }

  @Test def tenThousandLevelsOfNestingPrintOnASmallStack(): Unit = {
    val e = (0 until N).foldLeft("0")((acc, k) => k % 4 match {
      case 0 => s"let Int v$k = $k in ($acc)"
      case 1 => s"case $k { $k => ($acc) | _ => 1 }"
      case 2 => s"if $k > 0 then ($acc) else 1"
      case _ => s"1 - ($acc)"
    })
    val text = "module Deep;\n{\nInt x = 0;\n" + "if (x < 1) {\n" * (N / 2) + "{\n" * (N / 2) + s"x = $e;\n" + "}\n" * N +
      s"Int y = ${Seq.fill(N)("1").mkString(" + ")};\n}\n"
    val u = parse("deep.abs", text)
    val printed = printOnSmallStack(u)
    assertEquals(N / 2, "if \\(x < 1\\) \\{".r.findAllIn(printed).size)
    assertEquals(N / 4, "let Int v".r.findAllIn(printed).size)
    assertEquals(N / 4, "1 - \\(".r.findAllIn(printed).size)
    // Indentation stops growing, so the text stays linear in the size of the tree.
    assertTrue(printed.linesIterator.forall(_.takeWhile(_ == ' ').length <= 2 * AbsPrinter.MaxIndent))
    assertTrue(printed.length < 10 * text.length, s"${printed.length} characters printed for ${text.length} read")
    val again = parse("deep.abs", printed)
    assertEquals(printed, printOnSmallStack(again))
  }
}
