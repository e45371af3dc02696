package cogs.absc.typecheck

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Assertions._

import cogs.absc.ast._
import TypeCheckSupport._

/** Programs that check, and what the `TypedProgram` says about them. */
class TypeCheckerTest {

  private def m(body: String): String = "module T;\n" + body

  // ---------------------------------------------------------------------------------
  // The prelude

  @Test def preludeDeclaresTheStandardLibrary(): Unit = {
    val p = ok(m("{ skip; }")).program
    val std = p.prelude
    assertEquals("ABS.StdLib", std.name)
    assertTrue(std.isPrelude)
    val fns = std.functions.map(_.name).toSet ++ std.dataTypes.flatMap(_.selectors).map(_.name)
    for (f <- List("random", "toString", "println", "print", "head", "tail", "length", "nth", "concatenate",
      "reverse", "insertElement", "lookup", "lookupDefault", "put", "keys", "values", "fst", "snd", "fromJust",
      "isJust", "abs", "pow", "truncate", "float", "substr", "strlen", "map", "filter", "foldl", "foldr", "set",
      "list", "contains", "size", "union", "min", "max", "sqrt", "floor", "ceil", "rat", "numerator", "isEmpty",
      "appendright", "without", "copy", "emptyMap", "removeKey", "entries", "insert", "takeMaybe", "fstT", "trdT"))
      assertTrue(fns(f), s"prelude lacks $f")
    val types = std.dataTypes.map(_.name).toSet ++ std.interfaces.map(_.name)
    for (t <- List("Int", "Rat", "Float", "String", "Bool", "Unit", "List", "Set", "Map", "Pair", "Triple", "Maybe",
      "Either", "Fut", "Exception", "Destiny", "Object"))
      assertTrue(types(t), s"prelude lacks $t")
    assertEquals(List("DivisionByZeroException", "AssertionFailException", "PatternMatchFailException",
      "NullPointerException", "StackOverflowException", "HeapOverflowException", "KeyboardInterruptException",
      "ObjectDeadException"), std.exceptions.map(_.name))
    val head = std.dataTypes.find(_.name == "List").get.selectors.find(_.name == "head").get
    assertEquals("ABS.StdLib.head", head.qualifiedName)
    assertEquals(FunctionKind.Selector(std.dataTypes.find(_.name == "List").get, "head"), head.functionKind)
  }

  @Test def preludePartialFunctionsHaveInferredFunctionTypes(): Unit = {
    val std = ok(m("{ skip; }")).program.prelude
    def fp(n: String) = std.functions.find(f => f.name == n && f.isPartial).get.funParams.head.tpe.get.show
    assertEquals("(A) => B", fp("map"))
    assertEquals("(A) => Bool", fp("filter"))
    assertEquals("(A, B) => B", fp("foldl"))
    assertEquals("(A, B) => B", fp("foldr"))
  }

  // ---------------------------------------------------------------------------------
  // Types of expressions

  @Test def numericTypes(): Unit = {
    val c = ok(m("def Bool f(Int i, Rat r, Float x) =\n" +
      "  i + i == 0 && i / i == r && i * r == r && x / x == x && i % 2 == 1 && -r < r;"))
    assertEquals("Int", c.typeAt(3, 5))   // i + i
    assertEquals("Rat", c.typeAt(3, 19))  // i / i
    assertEquals("Rat", c.typeAt(3, 33))  // i * r
    assertEquals("Float", c.typeAt(3, 47)) // x / x
    assertEquals("Int", c.typeAt(3, 61))  // i % 2
    assertEquals("Rat", c.typeAt(3, 73))  // -r
  }

  @Test def typeArgumentsAreInferred(): Unit = {
    val c = ok(m("{\n  List<Int> l = Cons(1, Nil);\n  Int n = length(list[\"a\", \"b\"]);\n  Maybe<Rat> r = Just(1);\n" +
      "  Map<String, List<Int>> mp = map[Pair(\"k\", l)];\n  List<Int> x = lookupDefault(mp, \"k\", Nil);\n}"))
    val cons = c.expAt(3, 17).asInstanceOf[ConstructorApp]
    assertEquals("List<Int>", c.program.typeOf(cons).show)
    assertEquals(List("Int"), c.program.typeArgs(cons).map(_.show))
    val nil = c.expAt(3, 25)
    assertEquals("List<Int>", c.program.typeOf(nil).show)
    val len = c.expAt(4, 11).asInstanceOf[FnApp]
    assertEquals(List("String"), c.program.typeArgs(len).map(_.show))
    assertEquals("ABS.StdLib.length", c.program.functionOf(len).qualifiedName)
    assertEquals(List("String"), c.program.typeArgs(c.expAt(4, 18)).map(_.show)) // list[..]
    // Just(1) flows into a Maybe<Rat>: the type argument is the most precise one, Int (data types are covariant)
    assertEquals(List("Int"), c.program.typeArgs(c.expAt(5, 18)).map(_.show))
    assertEquals(List("String", "List<Int>"), c.program.typeArgs(c.expAt(6, 31)).map(_.show))
    assertEquals(List("String", "List<Int>"), c.program.typeArgs(c.expAt(7, 17)).map(_.show))
  }

  @Test def unconstrainedTypeArgumentsAreBottom(): Unit = {
    val c = ok(m("{ Int n = length(Nil); }"))
    assertEquals(List("Bottom"), c.program.typeArgs(c.expAt(2, 11)).map(_.show))
    assertEquals("List<Bottom>", c.typeAt(2, 18))
  }

  @Test def typeSynonymsAreExpanded(): Unit = {
    val c = ok(m("type Name = String;\ntype Names = List<Name>;\ndef Names two(Name a) = list[a, a];"))
    val f = c.function("two")
    assertEquals("List<String>", f.resultType.show)
    assertEquals(List("String"), f.paramTypes.map(_.show))
    val tref = c.all[TypeRef].find(t => t.name.name == "Names").get
    assertEquals("List<String>", c.program.typeOf(tref).show)
  }

  @Test def ifAndCaseJoinTheirBranches(): Unit = {
    val c = ok(m("interface I {} interface J extends I {}\n" +
      "def Rat f(Bool b, Int i, Rat r) = if b then i else r;\n" +
      "def I g(Bool b, I i, J j) = case b { True => j | False => i };\n" +
      "def I h(J j) = if True then null else j;"))
    assertEquals("Rat", c.typeAt(3, 35))
    assertEquals("I", c.typeAt(4, 29))
    assertEquals("J", c.typeAt(5, 16))
  }

  @Test def templateStringsAndComparisonsOfAnyType(): Unit = {
    val c = ok(m("data D = A | B;\ndef Bool f(D d, List<Int> l) = d < B && l == Nil && `$d$ and $l$` != \"\";"))
    assertEquals("Bool", c.typeAt(3, 34))  // d < B
    assertEquals("String", c.typeAt(3, 53)) // the template
  }

  // ---------------------------------------------------------------------------------
  // Objects

  @Test def objectTypesAndCalls(): Unit = {
    val c = ok(m("interface I { Int get_(); }\ninterface J extends I { Unit set(Int v); }\n" +
      "class C(Int v) implements J {\n  Int get_() { return v; }\n  Unit set(Int v2) { v = v2; this.v = v2; }\n" +
      "  Int twice() { Int a = this.get_(); return a * 2; }\n}\n" +
      "{\n  J j = new C(1);\n  I i = j;\n  Fut<Int> f = i!get_();\n  Int x = f.get;\n  Int y = await j!get_();\n" +
      "  Int z = i.get_();\n  Bool b = i implements J;\n  J back = i as J;\n}"))
    val p = c.program
    val newC = c.expAt(10, 9).asInstanceOf[NewExp]
    assertEquals("C", p.typeOf(newC).show)
    assertEquals(Type.Obj(c.cls("C")), p.typeOf(newC))
    assertEquals("T.C", p.classOf(newC).qualifiedName)
    val async = c.expAt(12, 18).asInstanceOf[AsyncCall]
    assertEquals("Fut<Int>", p.typeOf(async).show)
    assertEquals("T.I.get_", p.methodOf(async).qualifiedName)
    assertEquals("Int", c.typeAt(13, 13))
    val aw = c.expAt(14, 11).asInstanceOf[AwaitExp]
    assertEquals("Int", p.typeOf(aw).show)
    assertEquals("T.I.get_", p.methodOf(aw).qualifiedName) // inherited: declared by I
    assertEquals("T.I.get_", p.methodOf(c.expAt(15, 13).asInstanceOf[SyncCall]).qualifiedName)
    assertEquals("Bool", c.typeAt(16, 14))
    assertEquals("J", c.typeAt(17, 14))
    assertEquals("T.J", p.interfaceOf(c.expAt(17, 14)).qualifiedName)
    // `this.get_()` calls the class's method
    val own = c.all[SyncCall].find(_.target.isInstanceOf[ThisExp]).get
    assertEquals("T.C.get_", p.methodOf(own).qualifiedName)
    assertEquals("C", p.typeOf(own.target).show)
  }

  @Test def namesResolveToLocalsAndFields(): Unit = {
    val c = ok(m("class C(Int p) {\n  Int f = p + 1;\n  Unit m(Int a) {\n    Int f = a;\n    this.f = f;\n    p = f;\n  }\n}"))
    val p = c.program
    val uses = c.all[VarUse] ++ c.all[FieldUse]
    def at(l: Int, col: Int): Symbol = p.variableOf(uses.find(u => u.pos.line == l && u.pos.col == col).get)
    assertEquals("T.C.p", at(3, 11).qualifiedName)
    assertTrue(at(3, 11).isInstanceOf[FieldSym])
    assertTrue(at(3, 11).asInstanceOf[FieldSym].isClassParam)
    assertTrue(at(6, 14).isInstanceOf[LocalSym])                 // the local f
    assertEquals("T.C.f", at(6, 5).qualifiedName)                // this.f (an assignment target is at the statement)
    assertTrue(at(7, 5).isInstanceOf[FieldSym])                  // p = f
    val decl = c.all[VarDeclStmt].head
    assertEquals(LocalKind.Variable, p.declared(decl).asInstanceOf[LocalSym].localKind)
    assertEquals("Int", p.declared(decl).tpe.show)
  }

  @Test def nullHasEveryInterfaceType(): Unit = {
    ok(m("interface I {} interface J {}\n{ I i = null; J j = null; List<I> is = list[null, i]; Bool b = i == null; }"))
  }

  @Test def futuresMayBeNull(): Unit = {
    ok(m("interface I { Int m(); }\n{ Fut<Int> f; Fut<Int> g = null; Destiny d = null; Bool b = f == null && null != g; }"))
  }

  @Test def everyInterfaceIsAnObject(): Unit = {
    ok(m("interface I {} class C implements I {} class D {}\n{ I i = new C(); Object o = i; Object d = new D(); }"))
  }

  @Test def destinyIsTheSupertypeOfFutures(): Unit = {
    val c = ok(m("interface I { Int m(); }\nclass C implements I { Int m() { Destiny d = destiny; return 1; } }\n" +
      "{ I i = new C(); Fut<Int> f = i!m(); Destiny d = f; await d?; }"))
    assertEquals("Destiny", c.program.typeOf(c.all[DestinyExp].head).show)
  }

  @Test def exceptionsAreData(): Unit = {
    val c = ok(m("exception Overdrawn(Int missing);\nexception Closed;\n" +
      "{ Exception e = Overdrawn(5); Overdrawn o = Closed; Int n = missing(e);\n" +
      "  try { throw e; } catch { Overdrawn(k) => n = k; Closed => skip; DivisionByZeroException => skip; } }"))
    val ctor = c.all[ConstructorApp].find(_.constructor.name == "Overdrawn").get
    assertEquals("Exception", c.program.typeOf(ctor).show)
    val sym = c.program.constructorOf(ctor)
    assertTrue(sym.isException)
    assertEquals("T.Overdrawn", sym.qualifiedName)
    assertEquals("ABS.StdLib.Exception", sym.dataType.qualifiedName)
    assertTrue(c.program.prelude.dataTypes.find(_.name == "Exception").get.constructors.contains(sym))
    val pat = c.all[ConstructorPattern].find(_.constructor.name == "Overdrawn").get
    assertEquals("Exception", c.program.typeOf(pat).show)
    assertEquals("Int", c.program.typeOf(pat.args.head).show)
  }

  // ---------------------------------------------------------------------------------
  // Patterns

  @Test def patternVariablesBindOrCompare(): Unit = {
    val c = ok(m("def Int f(Int x, Pair<Int, Int> p) = case p { Pair(y, y) => y | Pair(x, z) => z | _ => 0 };"))
    val vps = c.all[VarPattern]
    val roles = vps.map(v => (v.name, c.program.patternVar(v)))
    roles(0) match { case ("y", PatternVarRole.Binds(l)) => assertEquals("Int", l.tpe.show); case r => fail(r.toString) }
    roles(1) match { case ("y", PatternVarRole.Compares(l: LocalSym)) => assertEquals(LocalKind.PatternVar, l.localKind); case r => fail(r.toString) }
    roles(2) match { case ("x", PatternVarRole.Compares(l: LocalSym)) => assertEquals(LocalKind.FunctionParam, l.localKind); case r => fail(r.toString) }
    roles(3) match { case ("z", PatternVarRole.Binds(_)) => case r => fail(r.toString) }
  }

  @Test def fieldsInScopeAreComparedInPatterns(): Unit = {
    val c = ok(m("class C { Int limit = 3; Bool at(Int v) { Bool r = False; switch (v) { limit => r = True; _ => skip; } return r; } }"))
    c.program.patternVar(c.all[VarPattern].head) match {
      case PatternVarRole.Compares(f: FieldSym) => assertEquals("T.C.limit", f.qualifiedName)
      case r => fail(r.toString)
    }
  }

  @Test def foreachVariables(): Unit = {
    val c = ok(m("{ foreach (s, i in list[\"a\"]) { println(s + toString(i)); } }"))
    val (v, i) = c.program.foreachVars(c.all[ForeachStmt].head)
    assertEquals("String", v.tpe.show)
    assertEquals("Int", i.get.tpe.show)
    assertEquals(LocalKind.ForeachIndex, i.get.localKind)
  }

  // ---------------------------------------------------------------------------------
  // Partial functions

  @Test def partialFunctionsAndTheirCalls(): Unit = {
    val c = ok(m("def B twice<A, B>(f, g)(A a) = g(f(a));\ndef Int inc(Int x) = x + 1;\n" +
      "def List<String> shown(List<Int> l) = map((Int i) => toString(inc(i)))(l);\n" +
      "def String viaNames(Int x) = twice(inc, toString)(x);"))
    val p = c.program
    val twice = c.function("twice")
    assertEquals(List("A", "B", "F1"), twice.typeParams.map(_.name))
    assertEquals(List("(A) => F1", "(F1) => B"), twice.funParams.map(_.tpe.get.show))
    val app = c.all[PartialFnApp].find(_.fn.name == "map").get
    assertEquals("ABS.StdLib.map", p.functionOf(app).qualifiedName)
    assertTrue(p.functionOf(app).isPartial)
    assertEquals(List("Int", "String"), p.typeArgs(app).map(_.show))
    val anon = app.funArgs.head
    assertEquals("(Int) => String", p.typeOf(anon).show)
    val named = c.all[PartialFnApp].find(_.fn.name == "twice").get
    assertEquals(List("Int", "String", "Int"), p.typeArgs(named).map(_.show))
    val toStr = named.funArgs(1)
    assertEquals("ABS.StdLib.toString", p.functionOf(toStr).qualifiedName)
    assertEquals(List("Int"), p.typeArgs(toStr).map(_.show))
    // inside the body: calls of function parameters
    val inBody = c.all[FnApp].filter(a => a.fn.name == "g" || a.fn.name == "f")
    assertEquals(List("g", "f"), inBody.map(a => p.funParamOf(a).get.name))
  }

  @Test def recursiveCallsOfAPartialFunctionOmitTheFunctionArguments(): Unit = {
    val c = ok(m("def Int count<A>(p)(List<A> l) = case l { Nil => 0 | Cons(x, r) => (if p(x) then 1 else 0) + count(r) };\n" +
      "{ Int n = count((String s) => s != \"\")(list[\"a\", \"\"]); }"))
    val rec = c.all[FnApp].find(_.fn.name == "count").get
    assertEquals(c.function("count"), c.program.functionOf(rec))
    assertEquals(List("A"), c.program.typeArgs(rec).map(_.show))
    assertEquals("(A) => Bool", c.function("count").funParams.head.tpe.get.show)
  }

  // ---------------------------------------------------------------------------------
  // Scheduling points

  @Test def maySuspendFacts(): Unit = {
    val c = ok(m("interface I { Unit go(); }\nclass C(I other) implements I {\n  Bool flag = False;\n" +
      "  Unit go() { await flag; }\n  Unit plain() { flag = True; }\n  Unit callsGo() { this.go(); }\n" +
      "  Unit callsPlain() { this.plain(); }\n  Unit remote() { other.go(); }\n  Unit fire() { other!go(); }\n" +
      "  Unit blocks() { Fut<Unit> f = other!go(); f.get; }\n}\n{ I i = new C(null); i!go(); }"))
    val p = c.program
    def s(n: String) = p.maySuspend(c.method("C", n))
    assertTrue(s("go"))
    assertFalse(s("plain"))
    assertTrue(s("callsGo"))
    assertFalse(s("callsPlain"))
    assertTrue(s("remote"))
    assertFalse(s("fire"))
    assertTrue(s("blocks"))
    assertFalse(p.mainMaySuspend(p.module("T").get))
    val calls = c.all[SyncCall]
    assertEquals(List(true, false, true), calls.map(p.maySuspend(_: SyncCall)))
    // statements: the if/else is plain, the await is not
    val body = c.method("C", "blocks").body.get
    assertEquals(List(false, true), body.stmts.map(p.maySuspend(_: Stmt)))
    assertTrue(p.maySuspend(body: Stmt))
  }

  @Test def suspensionThroughRecursionAndTransitiveCalls(): Unit = {
    val c = ok(m("class C {\n  Bool flag = False;\n" +
      "  Int leaf(Int n) { return n + 1; }\n" +
      "  Int mid(Int n) { Int r = this.leaf(n); return r; }\n" +
      "  Int top(Int n) { Int r = this.mid(n); return r; }\n" +
      "  Int rec(Int n) { Int r = 0; if (n > 0) { r = this.rec(n - 1); } return r; }\n" +
      "  Int usesRec(Int n) { Int r = this.rec(n); return r; }\n" +
      "  Int ping(Int n) { Int r = 0; if (n > 0) { r = this.pong(n - 1); } return r; }\n" +
      "  Int pong(Int n) { Int r = this.ping(n); return r; }\n" +
      "  Int even(Int n) { Int r = 0; if (n > 0) { r = this.odd(n - 1); } else { await flag; } return r; }\n" +
      "  Int odd(Int n) { Int r = this.even(n); return r; }\n" +
      "  Int waitsDeep(Int n) { Int r = this.odd(n); return r; }\n}\n{ new C(); }"))
    val p = c.program
    def s(n: String) = p.maySuspend(c.method("C", n))
    def cont(n: String) = p.needsContinuation(c.method("C", n))
    def direct(n: String) = p.hasDirectForm(c.method("C", n))
    // plain, and plain through two levels of calls: direct calls all the way
    for (n <- List("leaf", "mid", "top")) { assertFalse(s(n), n); assertFalse(cont(n), n) }
    assertTrue(direct("leaf"))
    assertTrue(direct("mid"))
    assertFalse(direct("top")) // nobody calls it synchronously
    // recursion that never suspends: no scheduling point, but a continuation (heap stack), never direct
    for (n <- List("rec", "ping", "pong")) { assertFalse(s(n), n); assertTrue(cont(n), n); assertFalse(direct(n), n) }
    // a caller of a recursive method is no continuation of its own cycle, but calls rec through the runtime
    assertFalse(s("usesRec"))
    assertTrue(cont("usesRec"))
    // mutual recursion with an await on the cycle: all of it suspends, and so does a caller of it
    for (n <- List("even", "odd", "waitsDeep")) { assertTrue(s(n), n); assertTrue(cont(n), n); assertFalse(direct(n), n) }
    val calls = c.all[SyncCall].map(call => call.method -> p.isDirect(call))
    assertEquals(List("leaf" -> true, "mid" -> true, "rec" -> false, "rec" -> false, "pong" -> false, "ping" -> false,
      "odd" -> false, "even" -> false, "odd" -> false), calls)
  }

  @Test def callsThroughInterfacesAreNeverDirect(): Unit = {
    // Every implementation of I.one is plain, but a call through I may reach another COG, where it
    // waits like a `.get`: it may suspend, and so does its caller; `this.one()` itself is direct.
    val c = ok(m("interface I { Int one(); Int viaThis(); Int viaIface(I o); }\n" +
      "class A implements I { Int one() { return 1; } Int viaThis() { Int r = this.one(); return r; }\n" +
      "  Int viaIface(I o) { Int r = o.one(); return r; } }\n" +
      "class B implements I { Int one() { return 2; } Int viaThis() { return 0; } Int viaIface(I o) { return 0; } }\n" +
      "{ I a = new A(); }"))
    val p = c.program
    assertFalse(p.maySuspend(c.method("A", "one")))
    assertFalse(p.maySuspend(c.method("B", "one")))
    assertFalse(p.maySuspend(c.method("A", "viaThis")))
    assertTrue(p.maySuspend(c.method("A", "viaIface")))
    assertTrue(p.hasDirectForm(c.method("A", "one")))
    assertFalse(p.hasDirectForm(c.method("B", "one")))
    val calls = c.all[SyncCall]
    assertEquals(List(true, false), calls.map(p.isDirect))
    assertEquals(List(false, true), calls.map(p.maySuspend(_: SyncCall)))
  }

  @Test def initBlocksMayCallPlainMethods(): Unit = {
    val c = ok(m("class C { Int x = 0; { x = this.compute(); } Int compute() { return 41 + 1; } }"))
    assertFalse(c.program.initMaySuspend(c.cls("C")))
  }

  // ---------------------------------------------------------------------------------
  // Modules

  @Test def modulesAndQualifiedNames(): Unit = {
    val c = okAll(List(
      "lib.abs" -> ("module Lib.Shapes;\nexport Shape, area, Circle;\ndata Shape = Circle(Rat r) | Square(Rat s);\n" +
        "def Rat area(Shape s) = case s { Circle(r) => 3 * r * r | Square(x) => x * x };"),
      "app.abs" -> ("module App;\nimport Shape, area from Lib.Shapes;\nimport Lib.Shapes.Circle;\n" +
        "{ Shape s = Lib.Shapes.Circle(1); Rat a = area(s) + Lib.Shapes.area(s); }")))
    val p = c.program
    assertEquals(List("ABS.StdLib", "ABS.Scheduler", "Lib.Shapes", "App"), p.modules.map(_.name))
    assertEquals(List("Lib.Shapes", "App"), p.userModules.map(_.name))
    val lib = c.module("Lib.Shapes")
    assertEquals(List("Shape", "area"), lib.declarations.map(_.name))
    assertEquals(Set("Lib.Shapes.Shape", "Lib.Shapes.area", "Lib.Shapes.Circle"), lib.exported.map(_.qualifiedName).toSet)
    val areas = c.all[FnApp].filter(_.fn.name == "area")
    assertEquals(List("Lib.Shapes.area", "Lib.Shapes.area"), areas.map(p.functionOf(_).qualifiedName))
    assertEquals("Lib.Shapes.Circle", p.constructorOf(c.all[ConstructorApp].last).qualifiedName)
    assertEquals(List("App"), p.mainModules.map(_.name))
  }

  @Test def ownDefinitionsHideTheStandardLibrary(): Unit = {
    val c = ok(m("def Int size(List<Int> l) = length(l);\n{ Int n = size(list[1]); Int k = ABS.StdLib.size(set[1]); }"))
    val calls = c.all[FnApp].filter(_.fn.name == "size")
    assertEquals(List("T.size", "ABS.StdLib.size"), calls.map(c.program.functionOf(_).qualifiedName))
  }

  @Test def reexportsThroughAnotherModule(): Unit = {
    ok("module A; export *; data X = X1;\nmodule B; import * from A; export * from A;\n" +
      "module C; import * from B; { X x = X1; B.X y = B.X1; }")
  }

  // ---------------------------------------------------------------------------------
  // Traits

  @Test def traitMethodsAreCopiedPerClass(): Unit = {
    val c = ok(m("interface I { Unit inc(); }\ntrait T = { Unit inc() { n = n + 1; } }\n" +
      "class A implements I { Int n = 0; uses T; }\nclass B implements I { Rat n = 0; uses T; }"))
    val a = c.method("A", "inc")
    val b = c.method("B", "inc")
    assertNotSame(a.decl.get, b.decl.get)
    def plus(ms: MethodSym) = ms.body.get.stmts.head.asInstanceOf[AssignStmt].value
    assertEquals("Int", c.program.typeOf(plus(a)).show)
    assertEquals("Rat", c.program.typeOf(plus(b)).show)
    assertEquals(a.decl.get.pos, b.decl.get.pos) // both point into the trait
  }

  // ---------------------------------------------------------------------------------
  // Warnings

  @Test def warningsComeWithTheProgram(): Unit = {
    assertEquals(List(
      "2:2: warning: unknown annotation 'Frobnicate' is ignored",
      "3:20: warning: this guard reads no field, so waiting cannot change its value"),
      warnings(m("[Frobnicate] class C { }\n{ Int x = 0; await x > 0; }")))
  }

  @Test def aPriorityAnnotationIsIgnoredAsTheReferenceIgnoresItToo(): Unit = {
    assertEquals(List(
      "4:19: warning: annotation 'Priority' is ignored, as the reference backends ignore it: no ABS backend schedules by it; " +
        "to prefer some processes, give the COG a scheduler ([Scheduler: f(queue)], module ABS.Scheduler)"),
      warnings(m("interface I { Unit m(); }\nclass C implements I { Unit m() { } }\n{ I o = new C(); [Priority: 3] o!m(); }")))
  }

  @Test def locationTypesAndNullabilityAreAcceptedSilently(): Unit =
    assertEquals(Nil, warnings(m("interface I {}\n{ [Far] I i = null; [Nullable] I j = i; Fut<[Near] I> f; }")))

  // ---------------------------------------------------------------------------------
  // The foreign language interface (ABS.FLI)

  private val foreign = "import * from ABS.FLI;\ninterface I { Int f(); }\n"

  @Test def aForeignClassIsAcceptedSilentlyWithTheFliImport(): Unit =
    assertEquals(Nil, warnings(m(foreign + "[Foreign] class C implements I { Int f() { return 1; } }\n{ I i = new C(); }")))

  @Test def aForeignClassWithClassParametersIsAnErrorAtTheParameter(): Unit =
    assertEquals("4:23: error: the foreign class 'C' has class parameters; a [Foreign] class has none " +
      "(a foreign implementation is created without arguments): make them fields set by methods",
      error(m(foreign + "[Foreign] class C(Int x) implements I { Int f() { return x; } }\n{ I i = new C(1); }")))

  @Test def foreignOnAnythingButAClassIsAWarning(): Unit =
    assertEquals(List("4:2: warning: '[Foreign]' applies to classes; it is ignored here"),
      warnings(m(foreign + "[Foreign] def Int g() = 1;\n{ Int x = g(); }")))
}
