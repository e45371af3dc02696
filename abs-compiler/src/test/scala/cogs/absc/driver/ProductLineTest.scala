package cogs.absc.driver

import java.nio.file.Path

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * Product lines through the `absc` command (in process, the real back end): every kind of delta
 * that does not apply is an error at the delta's modifier, `file:line:col: error: ...` with the
 * source line, naming the delta and the product; bad products, feature models and delta orders;
 * `absc products`, `check --product-line`, and the core without `-p`. The products' outputs are
 * checked end to end by CorpusRunTest (`src/test/abs/run/spl`).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProductLineTest {
  private var dir: Path = _

  @BeforeAll def setUp(): Unit = dir = tempDir("absc-spl")

  private def abs(args: String*): AbscResult = absc(AbsBackend, args: _*)

  private val Core =
    """module M;
      |interface I { Unit m(); }
      |interface J { }
      |data T = A | B;
      |class C implements I { Int f = 0; Unit m() { skip; } }
      |{ I i = new local C(); i.m(); }
      |""".stripMargin

  /** A program: the core, `delta`, and a product line applying it to product P. */
  private def withDelta(name: String, delta: String): (String, String) = {
    val text = Core + delta + "\nproductline L; features F; delta D when F;\nproduct P(F);\n"
    (absFile(dir, name, text), text)
  }

  /** `line:col` of the first occurrence of `needle` in `text` at or after `from`. */
  private def at(text: String, needle: String, from: String = "delta D"): String = {
    val i = text.indexOf(needle, text.indexOf(from))
    assertTrue(i >= 0, s"'$needle' not in the program")
    val before = text.substring(0, i)
    s"${before.count(_ == '\n') + 1}:${i - before.lastIndexOf('\n')}"
  }

  /** `check -p P` fails with exactly this error at `needle`, and shows its source line. */
  private def deltaError(name: String, delta: String, needle: String, message: String): Unit = {
    val (f, text) = withDelta(name, delta)
    val r = abs("check", "-p", "P", f)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains(s"$f:${at(text, needle)}: error: delta D does not apply to product P: $message"), r.err)
    val line = text.linesIterator.drop(at(text, needle).takeWhile(_ != ':').toInt - 1).next()
    assertTrue(r.err.contains(line), s"the source line is shown:\n${r.err}")
    assertFalse(r.err.contains("Exception"), r.err)
  }

  @Test def removingAMissingMethod(): Unit =
    deltaError("rm-method", "delta D; uses M;\nmodifies class C { removes Unit gone(); }", "gone",
      "class 'C' has no method 'gone' to remove")

  @Test def modifyingAMissingMethod(): Unit =
    deltaError("mod-method", "delta D; uses M;\nmodifies class C { modifies Unit nope() { skip; } }", "nope",
      "class 'C' has no method 'nope' to modify")

  @Test def addingAMethodTheClassHas(): Unit =
    deltaError("add-method", "delta D; uses M;\nmodifies class C { adds Unit m() { skip; } }", "m()",
      "class 'C' already has a method 'm'; use 'modifies' to replace it")

  @Test def modifyingAMissingClass(): Unit =
    deltaError("mod-class", "delta D; uses M;\nmodifies class Missing { adds Int x = 1; }", "modifies",
      "module M has no class 'Missing' (the delta's 'uses M' says where unqualified names are)")

  @Test def modifyingAClassOfAMissingModule(): Unit =
    deltaError("mod-module", "delta D;\nmodifies class Nowhere.C { adds Int x = 1; }", "modifies", "there is no module 'Nowhere'")

  @Test def removingAMissingField(): Unit =
    deltaError("rm-field", "delta D; uses M;\nmodifies class C { removes Int g; }", "removes",
      "class 'C' has no field 'g' to remove")

  @Test def addingAFieldTheClassHas(): Unit =
    deltaError("add-field", "delta D; uses M;\nmodifies class C { adds Int f = 2; }", "adds",
      "class 'C' already has a field 'f'")

  @Test def removingAMissingClassOrInterface(): Unit = {
    deltaError("rm-class", "delta D; uses M;\nremoves class Gone;", "removes", "module M has no class 'Gone' (the delta's 'uses M' says where unqualified names are)")
    deltaError("rm-iface", "delta D; uses M;\nremoves interface K;", "removes", "module M has no interface 'K' (the delta's 'uses M' says where unqualified names are)")
  }

  @Test def removingAnInterfaceTheClassDoesNotImplement(): Unit =
    deltaError("rm-impl", "delta D; uses M;\nmodifies class C removes J { }", "J {", "class 'C' does not implement 'J', so it cannot be removed")

  @Test def interfaceSignatures(): Unit = {
    deltaError("rm-sig", "delta D; uses M;\nmodifies interface I { removes Unit z(); }", "removes", "interface 'I' has no method 'z' to remove")
    deltaError("add-sig", "delta D; uses M;\nmodifies interface I { adds Unit m(); }", "adds", "interface 'I' already has a method 'm'")
  }

  @Test def functionalLayer(): Unit = {
    deltaError("mod-data", "delta D; uses M;\nmodifies data Colour = Red;", "modifies", "module M has no data type 'Colour' (the delta's 'uses M' says where unqualified names are)")
    deltaError("mod-syn", "delta D; uses M;\nmodifies type Name = String;", "modifies", "module M has no type synonym 'Name' (the delta's 'uses M' says where unqualified names are)")
    deltaError("add-data", "delta D; uses M;\nadds data T = X;", "adds", "module M already has a data type 'T' (at ")
  }

  @Test def addingWithoutUses(): Unit =
    deltaError("no-uses", "delta D;\nadds class E { }", "adds", "it adds class 'E' but has no 'uses M;' clause naming the module that gets it")

  @Test def aDeltaThatAppliesGivesAProgramThatRuns(): Unit = {
    val (f, _) = withDelta("ok", "delta D; uses M;\nmodifies class C { modifies Unit m() { println(\"delta\"); original(); } }")
    val core = abs("run", "--no-cache", f)
    assertEquals(0, core.status, core.err)
    assertEquals("", core.programOut, "without -p the core runs, as with the reference toolchain")
    val product = abs("run", "--no-cache", "-p", "P", f)
    assertEquals(0, product.status, product.err)
    assertEquals("delta\n", product.programOut)
  }

  @Test def anUnknownProductIsACommandLineError(): Unit = {
    val (f, _) = withDelta("unknown", "delta D; uses M;")
    val r = abs("check", "-p", "Q", f)
    assertEquals(2, r.status)
    assertEquals("absc: the model has no product 'Q'; its products: P\n", r.err)
  }

  @Test def aProductThatViolatesTheFeatureModel(): Unit = {
    val text = Core + "productline L; features A, B;\nproduct Bad(A, B);\nroot R { group oneof { A, B } }\n"
    val f = absFile(dir, "fm", text)
    val r = abs("check", "-p", "Bad", f)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains(s"$f:${at(text, "Bad", "product")}: error: product Bad does not satisfy the feature model: " +
      "R needs exactly 1 of A, B; 2 selected"), r.err)
  }

  @Test def aCycleOfAfterClauses(): Unit = {
    val text = Core + "delta X; uses M;\ndelta Y; uses M;\nproductline L; features F;\ndelta X after Y when F;\ndelta Y after X when F;\nproduct P(F);\n"
    val f = absFile(dir, "cycle", text)
    val r = abs("check", "-p", "P", f)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains(s"$f:${at(text, "X after", "productline")}: error: the 'after' clauses of deltas X, Y form a cycle (product P)"), r.err)
  }

  @Test def declarationsOfTheProductLine(): Unit = {
    val text = Core + "productline L; features F;\ndelta Ghost when F;\nproduct P(F, G);\n"
    val f = absFile(dir, "decls", text)
    val r = abs("check", f)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains(s"$f:${at(text, "Ghost", "productline")}: error: the product line names delta 'Ghost', which is not declared"), r.err)
    assertTrue(r.err.contains(s"$f:${at(text, "G)", "product P")}: error: unknown feature 'G'"), r.err)
  }

  @Test def productsAreListed(): Unit = {
    val text = Core + "productline L; features A, B;\nproduct P1(A);\nproduct P2 = P1 || {B};\nproduct P3 = P2 - P1;\n"
    val r = abs("products", absFile(dir, "list", text))
    assertEquals(0, r.status, r.err)
    assertEquals("P1(A)\nP2(A, B)\nP3(B)\n", r.out)
  }

  @Test def checkingTheWholeProductLine(): Unit = {
    val good = Core + "delta D; uses M;\nmodifies class C { modifies Unit m() { original(); } }\n" +
      "productline L; features A, B;\ndelta D when A;\nproduct P1(A);\nproduct P2(B);\nroot R { group [1 .. 2] { A, B } }\n"
    val ok = abs("check", "--product-line", absFile(dir, "line-ok", good))
    assertEquals(0, ok.status, ok.err)
    assertEquals("core: well-typed\nfeature model: satisfiable (e.g. R, A)\nproduct P1(A): well-typed\nproduct P2(B): well-typed\n", ok.out)

    // two deltas change C.m, unordered: the product's result would depend on an order nobody fixed
    val ambiguous = Core + "delta D; uses M;\nmodifies class C { modifies Unit m() { skip; } }\n" +
      "delta E; uses M;\nmodifies class C { modifies Unit m() { skip; } }\n" +
      "productline L; features A;\ndelta D when A;\ndelta E when A;\nproduct P(A);\n"
    val f = absFile(dir, "line-ambiguous", ambiguous)
    val r = abs("check", "--product-line", f)
    assertEquals(2, r.status, r.err)
    assertTrue(r.err.contains(s"$f:${at(ambiguous, "E when", "productline")}: error: product P: deltas D and E both change M.C.m " +
      "and no 'after' orders them; add 'after D' to the clause of E (or the other way round)"), r.err)

    // a product whose flattened program does not type-check
    val broken = Core + "delta D; uses M;\nmodifies class C { modifies Unit m() { f = True; } }\n" +
      "productline L; features A;\ndelta D when A;\nproduct P(A);\n"
    val g = absFile(dir, "line-broken", broken)
    val b = abs("check", "--product-line", g)
    assertEquals(2, b.status, b.err)
    assertTrue(b.err.contains(s"$g:${at(broken, "f = True").takeWhile(_ != ':')}:") && b.err.contains("error: product P: "), b.err)
    assertTrue(b.out.contains("core: well-typed") && b.out.contains("product P(A): has errors"), b.out)

    // a feature model no selection satisfies
    val unsat = Core + "productline L; features A, B;\nroot R { group allof { A { exclude: B; }, B } }\n"
    val u = abs("check", "--product-line", absFile(dir, "line-unsat", unsat))
    assertEquals(2, u.status, u.err)
    assertTrue(u.err.contains("error: the feature model is not satisfiable: no selection of features meets all its constraints"), u.err)
  }
}
