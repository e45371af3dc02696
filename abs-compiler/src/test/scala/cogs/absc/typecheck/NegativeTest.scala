package cogs.absc.typecheck

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.{DynamicTest, Test, TestFactory}
import org.junit.jupiter.api.Assertions._

import TypeCheckSupport._

/**
 * Programs the checker must reject, each with the exact diagnostics expected
 * (`line:col: error: message`). Line 1 of every program is `module T;`.
 */
class NegativeTest {

  private def m(body: String): String = "module T;\n" + body

  private val metaReflection = "it reflects on and changes the running model (an object's class, fields and COG, a COG's " +
    "scheduler, the methods of a class), which only the reference toolchain's deprecated dynamic Java " +
    "backend does; absc compiles classes ahead of time into JVM classes that cannot change while the model runs"
  private val metaReconfiguration = "it reconfigures the running product (delta application at run time), which only the reference " +
    "toolchain's deprecated dynamic Java backend does; absc compiles one product, flattened before " +
    "compiling (-p PRODUCT), whose classes cannot change while it runs"

  /** (name, program, expected diagnostics) */
  private val cases: List[(String, String, List[String])] = List(
    // ---- types of values
    ("string into Int", m("{ Int i = \"one\"; }"),
      List("2:11: error: type mismatch: expected Int, found String")),
    ("Rat into Int", m("{ Int i = 7 / 2; }"),
      List("2:13: error: type mismatch: expected Int, found Rat; use truncate(..) to turn a Rat into an Int (integer division '/' gives a Rat)")),
    ("Int into Float", m("{ Float f = 1; }"),
      List("2:13: error: type mismatch: expected Float, found Int; use float(..) to turn a number into a Float")),
    ("Float and Int do not mix", m("{ Float f = 1.5 + 1; }"),
      List("2:17: error: operator '+' cannot combine Float and Int: Float does not mix with Int and Rat; convert with float(..) or rat(..)")),
    ("String plus Int", m("{ String s = \"n = \" + 1; }"),
      List("2:23: error: operator '+' cannot join a String and an Int; use toString(..) to turn a value into a String")),
    ("arithmetic on Bool", m("{ Int i = 1 + True; }"),
      List("2:15: error: operator '+' needs numbers, found Bool")),
    ("negation of String", m("{ Int i = -\"x\"; }"),
      List("2:11: error: operator '-' needs a number, found String")),
    ("not of Int", m("{ Bool b = !1; }"),
      List("2:13: error: type mismatch: expected Bool, found Int")),
    ("and of Int", m("{ Bool b = True && 0; }"),
      List("2:20: error: type mismatch: expected Bool, found Int")),
    ("comparing unrelated types", m("{ Bool b = 1 == \"1\"; }"),
      List("2:14: error: cannot compare Int and String with '=='")),
    ("if condition", m("{ if (1) skip; }"),
      List("2:7: error: type mismatch: expected Bool, found Int")),
    ("while condition", m("{ while (\"go\") skip; }"),
      List("2:10: error: type mismatch: expected Bool, found String")),
    ("branches of if", m("def Int f(Bool b) = if b then 1 else \"one\";"),
      List("2:21: error: the branches of this conditional have incompatible types: Int and String")),
    ("function result", m("def String f(Int x) = x;"),
      List("2:23: error: type mismatch: expected String, found Int; use toString(..) to turn a value into a String")),
    ("let binding", m("def Int f() = let Bool b = 5 in 1;"),
      List("2:28: error: type mismatch: expected Bool, found Int")),
    ("list elements", m("{ List<Int> l = list[1, \"two\"]; }"),
      List("2:25: error: the elements of this list have incompatible types: Int and String")),
    ("covariant lists only", m("{ List<Rat> r = list[1]; List<Int> i = r; }"),
      List("2:40: error: type mismatch: expected List<Int>, found List<Rat>")),
    ("interface not implemented", m("interface I {} interface J {} class C implements I {} { J j = new C(); }"),
      List("2:63: error: type mismatch: expected J, found C; class 'C' does not implement interface 'J'")),
    ("unrelated interfaces", m("interface I {} interface J {} { J j; I i = j; }"),
      List("2:44: error: type mismatch: expected I, found J")),
    ("null is not a data value", m("{ Int i = null; }"),
      List("2:11: error: type mismatch: expected Int, found null")),
    ("data variable needs a value", m("{ Bool b; }"),
      List("2:8: error: variable 'b' of type Bool needs an initial value")),
    ("data field needs a value", m("class C { Int count; }"),
      List("2:15: error: field 'count' of type Int needs an initial value")),

    // ---- names
    ("misspelt function", m("def Int f(List<Int> l) = lenght(l);"),
      List("2:26: error: unknown function 'lenght'; did you mean 'length'?")),
    ("undefined variable", m("{ Int x = y + 1; }"),
      List("2:11: error: 'y' is not defined")),
    ("misspelt variable", m("{ Int total = 0; Int x = totl; }"),
      List("2:26: error: 'totl' is not defined; did you mean 'total'?")),
    ("unknown type", m("{ Foo f = 1; }"),
      List("2:3: error: unknown type 'Foo'")),
    ("unknown constructor", m("{ Bool b = Ture; }"),
      List("2:12: error: unknown constructor 'Ture'; did you mean 'True'?")),
    ("unknown class", m("interface I {} { I i = new C(); }"),
      List("2:24: error: unknown class 'C'")),
    ("new of an interface", m("interface I {} { I i = new I(); }"),
      List("2:24: error: 'I' is an interface: 'new' needs a class that implements it")),
    ("class is not a type", m("class C {} { C c = new C(); }"),
      List("2:14: error: 'C' is a class, not a type: objects are typed by the interfaces their class implements")),
    ("unknown method", m("interface I { Unit run(); } { I i; i.runn(); }"),
      List("2:38: error: interface 'I' has no method 'runn'; did you mean 'run'?")),
    ("variable used before declaration", m("{ Int x = x; }"),
      List("2:11: error: 'x' is not defined")),
    ("field used before initialisation", m("class C { Int x = y + 1; Int y = 1; }"),
      List("2:19: error: field 'y' is used before it is initialised")),
    ("this outside a class", m("{ Int x = this.f; }"),
      List("2:11: error: 'this.f' can only be used in a class")),
    ("unknown field", m("class C { Int count = 0; Unit m() { this.cont = 1; } }"),
      List("2:37: error: class 'C' has no field 'cont'; did you mean 'count'?")),

    // ---- declarations
    ("duplicate function", m("def Int f() = 1;\ndef Int f() = 2;"),
      List("3:9: error: function 'f' is already defined at 2:9")),
    ("duplicate local variable", m("{ Int x = 1; { Int x = 2; } }"),
      List("2:20: error: local variable 'x' is already declared at 2:7")),
    ("wrong number of type arguments", m("{ List<Int, Int> l = Nil; }"),
      List("2:3: error: type 'List' expects 1 type argument, found 2")),
    ("cyclic type synonym", m("type A = List<A>;"),
      List("2:6: error: type synonym 'A' is defined in terms of itself")),
    ("cyclic interfaces", m("interface I extends J {} interface J extends I {}"),
      List("2:46: error: interface 'J' extends itself (through 'I')")),

    // ---- calls and arity
    ("function arity", m("def Int f(Int x) = x; { Int y = f(1, 2); }"),
      List("2:33: error: function 'f' expects 1 argument, found 2")),
    ("constructor arity", m("{ List<Int> l = Cons(1); }"),
      List("2:17: error: constructor 'Cons' expects 2 arguments, found 1")),
    ("class arity", m("class C(Int x) {} { new C(); }"),
      List("2:21: error: class 'C' expects 1 argument, found 0")),
    ("method argument", m("interface I { Unit m(Int x); } { I i; i.m(True); }"),
      List("2:43: error: type mismatch: expected Int, found Bool")),
    ("inference of a type argument", m("def A same<A>(A a, A b) = a; { Int x = same(1, \"two\"); }"),
      List("2:48: error: type mismatch: expected Int, found String")),
    ("calling a non-object", m("{ Int x = 1; x!m(); }"),
      List("2:16: error: cannot call method 'm' on a value of type Int: only objects have methods")),
    ("calling null", m("interface I { Unit m(); } { null.m(); }"),
      List("2:34: error: cannot call method 'm' on null")),

    // ---- futures and await
    ("get on a non-future", m("{ Bool b = True; Bool c = b.get; }"),
      List("2:29: error: '.get' needs a future, found Bool")),
    ("await on a non-future", m("{ Bool b = True; await b?; }"),
      List("2:24: error: 'await b?' needs a future, found Bool")),
    ("await guard must be Bool", m("{ await 5; }"),
      List("2:9: error: type mismatch: expected Bool, found Int")),
    ("future is not its value", m("interface I { Int m(); } { I i; Int x = i!m(); }"),
      List("2:43: error: type mismatch: expected Int, found Fut<Int>; use '.get' or 'await' to obtain the value of a future")),
    ("await of a call gives its value", m("interface I { Int m(); } { I i; Bool x = await i!m(); }"),
      List("2:42: error: type mismatch: expected Bool, found Int")),

    // ---- methods and classes
    ("method does not match its interface", m("interface I { Int m(); } class C implements I { Bool m() { return True; } }"),
      List("2:54: error: method 'm' of class 'C' does not match interface 'I': expected Int, found Bool")),
    ("parameter does not match its interface", m("interface I { Unit m(Int x); } class C implements I { Unit m(Bool x) { } }"),
      List("2:67: error: method 'm' of class 'C' does not match interface 'I': expected parameter 'x' of type Int, found Bool")),
    ("missing method", m("interface I { Unit m(); } class C implements I { }"),
      List("2:46: error: class 'C' does not implement method 'm' of interface 'I'")),
    ("missing return", m("class C { Int m() { skip; } }"),
      List("2:15: error: method 'm' must end with a 'return' statement: it returns Int")),
    ("return not last", m("class C { Int m() { return 1; skip; } }"),
      List("2:21: error: 'return' must be the last statement of the method",
        "2:15: error: method 'm' must end with a 'return' statement: it returns Int").sorted),
    ("return type", m("class C { Int m() { return \"x\"; } }"),
      List("2:28: error: type mismatch: expected Int, found String")),
    ("return in main", m("{ return 1; }"),
      List("2:3: error: the main block cannot 'return'")),
    ("await in init block", m("class C { Bool ready = False; { await ready; } }"),
      List("2:33: error: 'await' is not allowed in an init block")),
    ("suspending call in init block", m("class C { { this.m(); } Unit m() { suspend; } }"),
      List("2:18: error: synchronous call of 'm' is not allowed in an init block: 'm' may suspend")),
    ("throw needs an exception", m("{ throw 5; }"),
      List("2:9: error: type mismatch: expected Exception, found Int")),
    ("final variable", m("{ [Final] Int x = 1; x = 2; }"),
      List("2:22: error: 'x' is declared [Final] and cannot be assigned")),

    // ---- patterns
    ("pattern of another type", m("def Int f(Int x) = case x { Nil => 0 | _ => 1 };"),
      List("2:29: error: constructor 'Nil' of type List<A> cannot match a value of type Int")),
    ("pattern arity", m("def Int f(List<Int> l) = case l { Cons(x) => x | _ => 0 };"),
      List("2:35: error: constructor 'Cons' has 2 arguments, but the pattern gives 1")),
    ("literal pattern type", m("def Int f(String s) = case s { 1 => 1 | _ => 0 };"),
      List("2:32: error: type mismatch: expected String, found Int")),
    ("branches of case", m("def Int f(Bool b) = case b { True => 1 | False => \"no\" };"),
      List("2:51: error: the branches of this case have incompatible types: Int and String")),

    // ---- partial functions
    ("function argument arity", m("def Int add(Int a, Int b) = a + b; { List<Int> l = map(add)(list[1]); }"),
      List("2:56: error: function 'add' takes 2 arguments, but is called with 1 here")),
    ("partial function without function arguments", m("{ List<Int> l = filter(list[1]); }"),
      List("2:17: error: 'filter' is a partial function: give it function arguments first, as in filter(f)(..)")),

    // ---- modules
    ("import of a hidden name", m("data X = X;\nmodule U;\nimport X from T;"),
      List("4:8: error: 'X' is not exported by module 'T'")),
    ("unknown module", m("import * from Nowhere;"),
      List("2:1: error: unknown module 'Nowhere'")),
    ("ambiguous import", "module A; export *; def Int f() = 1;\nmodule B; export *; def Int f() = 2;\n" +
      "module C; import * from A; import * from B; { Int x = f(); }",
      List("3:55: error: function 'f' is ambiguous: it may be 'A.f' or 'B.f'; write the qualified name")),
    ("only the named standard library names", m("import Int from ABS.StdLib;\n{ Int x = length(Nil); }"),
      List("3:11: error: unknown function 'length'", "3:18: error: unknown constructor 'Nil'")),

    // ---- Timed ABS and deployment components used wrongly
    ("now() is a Time, not a Rat", m("{ Rat t = now(); }"),
      List("2:11: error: type mismatch: expected Rat, found Time")),
    ("duration of a string", m("{ duration(\"1\", 2); }"),
      List("2:12: error: type mismatch in the minimum duration: expected Rat, found String")),
    ("await duration of a Bool", m("{ await duration(1, True); }"),
      List("2:21: error: type mismatch in the maximum duration: expected Rat, found Bool")),
    ("deployment component annotation without ABS.DC", m("class C {} { [DC: 1] new C(); }"),
      List("2:15: error: '[DC: ..]' needs the module ABS.DC: add 'import * from ABS.DC;'")),
    ("cost of a string", m("{ [Cost: \"x\"] skip; }"),
      List("2:10: error: type mismatch in the cost: expected Rat, found String")),
    ("movecogto", m("{ movecogto 1; }"),
      List("2:3: error: 'movecogto' is not supported: it moves this COG to another deployment component, and the reference's Java and Erlang backends do not implement it either (only its retired Maude backend ran it), so there is no reference behaviour to match")),
    // ---- ABS.Meta: importing it costs nothing, each use of one of its names is an error at the use
    ("ABS.Meta: reflect and its mirror type", m("import * from ABS.Meta;\ninterface I {}\nclass C implements I {}\n{ I o = new C(); ObjectMirror r = reflect(o); }"),
      List(s"5:18: error: interface 'ObjectMirror' of module ABS.Meta is not supported, because $metaReflection",
        s"5:35: error: function 'reflect' of module ABS.Meta is not supported, because $metaReflection")),
    ("ABS.Meta: product reconfiguration, imported by name", m("import getProductLine, Runtime from ABS.Meta;\n{ Runtime r = new Runtime(); Bool b = getProductLine() == null; }"),
      List(s"3:3: error: interface 'Runtime' of module ABS.Meta is not supported, because $metaReconfiguration",
        s"3:15: error: class 'Runtime' of module ABS.Meta is not supported, because $metaReconfiguration",
        s"3:39: error: function 'getProductLine' of module ABS.Meta is not supported, because $metaReconfiguration")),
    ("ABS.Meta: a qualified name", m("import ABS.Meta.Cog;\n{ ABS.Meta.Cog c = null; }"),
      List(s"3:3: error: interface 'Cog' of module ABS.Meta is not supported, because $metaReflection")),
    ("a deployment name without its import", m("{ Rat s = total(Speed); }"),
      List("2:11: error: unknown function 'total'", "2:17: error: the deployment constructor 'Speed' is in the module ABS.DC: add 'import * from ABS.DC;' to module 'T'")),
    // ---- the Model API (HttpAnnotations)
    ("HTTPCallable with a Rat parameter", m("interface I { [HTTPCallable] Unit m(Int ok, Rat r); }"),
      List("2:49: error: parameter 'r' of the [HTTPCallable] method 'm' has type Rat; the Model API passes only Bool, Int, Float, String, and List<A> and Map<String, A> of these")),
    ("HTTPCallable with a Map keyed by Int", m("interface I { [HTTPCallable] Unit m(Map<Int, String> p, Map<String, List<Bool>> ok); }"),
      List("2:54: error: parameter 'p' of the [HTTPCallable] method 'm' has type Map<Int, String>; the Model API passes only Bool, Int, Float, String, and List<A> and Map<String, A> of these")),
    ("HTTPCallable with a list of data", m("interface I { [HTTPCallable] Unit m(List<Maybe<Int>> p); }"),
      List("2:54: error: parameter 'p' of the [HTTPCallable] method 'm' has type List<Maybe<Int>>; the Model API passes only Bool, Int, Float, String, and List<A> and Map<String, A> of these")),
    ("HTTPName of an Int", m("interface I {} class C implements I {} { [HTTPName: 1] I x = new C(); }"),
      List("2:53: error: type mismatch in the name of [HTTPName: ..]: expected String, found Int; use toString(..) to turn a value into a String")),
    ("HTTPName on a data value", m("{ [HTTPName: \"n\"] Int x = 1; }"),
      List("2:4: error: '[HTTPName: ..]' exposes an object; this statement gives a value of type Int")),
    ("HTTPName on skip", m("{ [HTTPName: \"n\"] skip; }"),
      List("2:4: error: '[HTTPName: ..]' applies to a statement that declares or assigns a variable, or to 'new C(..);'")),
    ("HTTPName key of a constructor argument not a literal", m("def String k() = \"k\"; data D = D([HTTPName: k()] Int);"),
      List("2:45: error: the key of '[HTTPName: ..]' on a constructor argument must be a string literal"))
  )

  @TestFactory def rejected(): java.util.List[DynamicTest] = cases.map { case (name, program, expected) =>
    DynamicTest.dynamicTest(name, () => assertEquals(expected.mkString("\n"), errors(program).mkString("\n")))
  }.asJava

  @Test def enoughCases(): Unit = assertTrue(cases.length >= 40)

  @Test def independentErrorsAreAllReported(): Unit = {
    val es = errors(m("def Int f() = \"a\";\ndef Bool g() = 1;\n{ Int x = y; Foo z = 1; }"))
    assertEquals(List(
      "2:15: error: type mismatch: expected Int, found String",
      "3:16: error: type mismatch: expected Bool, found Int",
      "4:11: error: 'y' is not defined",
      "4:14: error: unknown type 'Foo'"), es)
  }

  @Test def errorsAreRenderedWithSourceAndCaret(): Unit = {
    val text = m("{ Int i = True; }")
    val ds = checkSources(List("bank.abs" -> text)).swap.getOrElse(fail("expected errors"))
    assertEquals(
      "bank.abs:2:11: error: type mismatch: expected Int, found Bool\n{ Int i = True; }\n          ^",
      ds.head.render(text))
  }

  @Test def noCascadeAfterAnUnknownName(): Unit =
    assertEquals(List("2:11: error: 'y' is not defined"), errors(m("{ Int x = y + 1 * 2; Bool b = x > 2 && y; }")).take(1))
}
