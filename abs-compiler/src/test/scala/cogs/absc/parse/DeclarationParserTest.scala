package cogs.absc.parse

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast._
import cogs.absc.ast.BinaryOp._
import cogs.absc.parse.TestSupport._

class DeclarationParserTest {

  private val IntT = TypeRef(QName("Int"))
  private val UnitT = TypeRef(QName("Unit"))
  private def t(n: String, args: TypeRef*) = TypeRef(QName(n), args.toList)
  private def ctor(n: String, args: PureExp*) = ConstructorApp(QName(n), args.toList)

  // ---------------------------------------------------------------------------------
  // Modules, imports and exports

  @Test def emptyFileHasNoModules(): Unit = {
    assertEquals(CompilationUnit(File, Nil), parseOk(""))
    assertEquals(CompilationUnit(File, Nil), parseOk("// only a comment\n/* and another */"))
  }

  @Test def severalModulesInOneFile(): Unit = {
    val unit = parseOk("module A; data D;\nmodule B.C; { skip; }\nmodule E;")
    assertEquals(List("A", "B.C", "E"), unit.modules.map(_.name))
    assertEquals(List(DataDecl("D", Nil, Nil)), unit.modules.head.decls)
    assertEquals(Some(Block(List(SkipStmt()))), unit.modules(1).main)
    assertEquals(None, unit.modules(2).main)
    assertEquals(Pos(File, 2, 1), unit.modules(1).pos)
  }

  @Test def exportClauses(): Unit = {
    val m = module(
      """module M;
        |export *;
        |export * from Other;
        |export Drink, pourMilk;
        |export Drink from Drinks;""".stripMargin)
    assertEquals(List(
      Export(AllNames, None),
      Export(AllNames, Some("Other")),
      Export(SomeNames(List(NameRef(QName("Drink")), NameRef(QName("pourMilk")))), None),
      Export(SomeNames(List(NameRef(QName("Drink")))), Some("Drinks"))), m.exports)
  }

  @Test def importClauses(): Unit = {
    val m = module(
      """module M;
        |import * from ABS.DC;
        |import Drinks.Drink, Drinks.pourMilk;
        |import pourMilk, Drink from Drinks;
        |export *;
        |import x from Y;""".stripMargin)
    assertEquals(List(
      Import(AllNames, Some("ABS.DC")),
      Import(SomeNames(List(NameRef(QName(Some("Drinks"), "Drink")), NameRef(QName(Some("Drinks"), "pourMilk")))), None),
      Import(SomeNames(List(NameRef(QName("pourMilk")), NameRef(QName("Drink")))), Some("Drinks")),
      Import(SomeNames(List(NameRef(QName("x")))), Some("Y"))), m.imports)
    assertEquals(List(Export(AllNames, None)), m.exports)
  }

  @Test def mainBlockWithAnnotations(): Unit =
    assertEquals(Some(Block(List(SkipStmt()), List(Annotation(None, ctor("Main"))))), module("module M; [Main] { skip; }").main)

  // ---------------------------------------------------------------------------------
  // The functional layer

  @Test def dataTypes(): Unit = {
    assertEquals(
      DataDecl("IntList", Nil, List(
        ConstructorDecl("NoInt", Nil),
        ConstructorDecl("ConsInt", List(ConstructorArg(IntT, Some("head")), ConstructorArg(t("IntList"), Some("tail")))))),
      decl("data IntList = NoInt | ConsInt(Int head, IntList tail);"))
    assertEquals(DataDecl("NotInstantiable", Nil, Nil), decl("data NotInstantiable;"))
    assertEquals(
      DataDecl("List", List(TypeParam("A")), List(
        ConstructorDecl("Nil", Nil),
        ConstructorDecl("Cons", List(ConstructorArg(t("A"), None), ConstructorArg(t("List", t("A")), None))))),
      decl("data List<A> = Nil | Cons(A, List<A>);"))
    assertEquals(
      DataDecl("Pair", List(TypeParam("A"), TypeParam("B")), List(
        ConstructorDecl("Pair", List(ConstructorArg(t("A"), Some("fst")), ConstructorArg(t("B"), Some("snd")))))),
      decl("data Pair<A, B> = Pair(A fst, B snd);"))
  }

  @Test def typeSynonyms(): Unit = {
    assertEquals(TypeSynDecl("Filename", Nil, t("String")), decl("type Filename = String;"))
    assertEquals(TypeSynDecl("Catalog", Nil, t("List", t("Pair", t("Servername"), t("Filenames")))),
      decl("type Catalog = List<Pair<Servername,Filenames>>;"))
  }

  @Test def exceptions(): Unit = {
    assertEquals(ExceptionDecl("MyException", Nil), decl("exception MyException;"))
    assertEquals(
      ExceptionDecl("MyOtherException", List(ConstructorArg(t("String"), Some("param")), ConstructorArg(IntT, None))),
      decl("exception MyOtherException(String param, Int);"))
  }

  @Test def functions(): Unit = {
    assertEquals(
      FunctionDecl("abs", Nil, Nil, List(Param("x", t("Rat"))), t("Rat"),
        ExpBody(IfExp(Binary(Gt, VarUse("x"), IntLit(0)), VarUse("x"), Unary(UnaryOp.Neg, VarUse("x"))))),
      decl("def Rat abs(Rat x) = if x > 0 then x else -x;"))
    assertEquals(
      FunctionDecl("head", List(TypeParam("A")), Nil, List(Param("list", t("List", t("A")))), t("A"),
        ExpBody(CaseExp(VarUse("list"), List(
          CaseBranch(ConstructorPattern(QName("Cons"), List(VarPattern("x"), WildcardPattern())), VarUse("x")))))),
      decl("def A head<A>(List<A> list) = case list { Cons(x, _) => x };"))
    assertEquals(FunctionDecl("zero", Nil, Nil, Nil, IntT, ExpBody(IntLit(0))), decl("def Int zero() = 0;"))
  }

  @Test def builtinFunctions(): Unit = {
    assertEquals(FunctionDecl("println", Nil, Nil, List(Param("s", t("String"))), UnitT, BuiltinBody(Nil)),
      decl("def Unit println(String s) = builtin;"))
    assertEquals(
      FunctionDecl("rows", Nil, Nil, Nil, t("List", IntT),
        BuiltinBody(List(VarUse("sqlite3"), StringLit("db"), StringLit("SELECT 1")))),
      decl("def List<Int> rows() = builtin(sqlite3, \"db\", \"SELECT 1\");"))
  }

  @Test def partialFunctions(): Unit = {
    val f = decl("def List<B> map<A, B>(f)(List<A> list) = case list { Nil => Nil | Cons(x, xs) => Cons(f(x), map(xs)) };")
      .asInstanceOf[FunctionDecl]
    assertTrue(f.isPartial)
    assertEquals(List(FunParam("f")), f.funParams)
    assertEquals(List(Param("list", t("List", t("A")))), f.params)
    assertEquals(List(TypeParam("A"), TypeParam("B")), f.typeParams)
    val g = decl("def B apply2<A, B>(fn, gn)(A value) = fn(gn(value));").asInstanceOf[FunctionDecl]
    assertEquals(List(FunParam("fn"), FunParam("gn")), g.funParams)
    assertEquals(ExpBody(FnApp(QName("fn"), List(FnApp(QName("gn"), List(VarUse("value")))))), g.body)
  }

  // ---------------------------------------------------------------------------------
  // The object layer

  @Test def interfaces(): Unit = {
    assertEquals(
      InterfaceDecl("Peer", List(NameRef(QName("Client")), NameRef(QName(Some("Net"), "Server"))), List(
        MethodSig("getNeighbors", t("List", t("Server")), Nil),
        MethodSig("reqFile", UnitT, List(Param("sId", t("Server")), Param("fId", t("Filename")))))),
      decl("interface Peer extends Client, Net.Server { List<Server> getNeighbors(); Unit reqFile(Server sId, Filename fId); }"))
    assertEquals(InterfaceDecl("Empty", Nil, Nil), decl("interface Empty {}"))
    assertEquals(
      InterfaceDecl("A", Nil, List(MethodSig("m", UnitT, Nil, List(Annotation(None, ctor("Atomic")))))),
      decl("interface A { [Atomic] Unit m(); }"))
  }

  @Test def classesWithEveryKindOfMember(): Unit = {
    val c = decl(
      """[Scheduler: randomscheduler(queue)]
        |class Node(DB db, [Final] Int id) implements Peer, Server {
        |  Int count = 0;
        |  List<Server> neighbours;
        |  { count = id; }
        |  recover {
        |    MyError(code) => println("recovered");
        |    _ => skip;
        |  }
        |  uses Logging;
        |  Unit run() { skip; }
        |  [Atomic] Int size() { return count; }
        |}""".stripMargin).asInstanceOf[ClassDecl]
    assertEquals("Node", c.name)
    assertEquals(List(Annotation(Some(QName("Scheduler")), FnApp(QName("randomscheduler"), List(VarUse("queue"))))),
      c.annotations)
    assertEquals(List(Param("db", t("DB")), Param("id", IntT, List(Annotation(None, ctor("Final"))))), c.params)
    assertEquals(List(NameRef(QName("Peer")), NameRef(QName("Server"))), c.implementsList)
    assertEquals(List(FieldDecl("count", IntT, Some(IntLit(0))), FieldDecl("neighbours", t("List", t("Server")), None)),
      c.fields)
    assertEquals(Some(Block(List(AssignStmt(VarUse("count"), VarUse("id"))))), c.init)
    assertEquals(List(
      SwitchBranch(ConstructorPattern(QName("MyError"), List(VarPattern("code"))),
        ExpStmt(FnApp(QName("println"), List(StringLit("recovered"))))),
      SwitchBranch(WildcardPattern(), SkipStmt())), c.recover)
    assertEquals(List(TraitExpr(TraitRef("Logging"), Nil)), c.uses)
    assertEquals(List(
      MethodDecl(MethodSig("run", UnitT, Nil), Block(List(SkipStmt()))),
      MethodDecl(MethodSig("size", IntT, Nil, List(Annotation(None, ctor("Atomic")))), Block(List(ReturnStmt(VarUse("count")))))),
      c.methods)
    assertEquals(Pos(File, 3, 7), c.pos) // at the class name
    assertEquals(Pos(File, 12, 8), c.methods.head.pos) // at the method name
  }

  @Test def minimalClasses(): Unit = {
    assertEquals(ClassDecl("C", Nil, Nil, Nil, None, Nil, Nil, Nil), decl("class C { }"))
    assertEquals(ClassDecl("C", Nil, Nil, Nil, None, Nil, Nil, Nil), decl("class C() { }"))
  }

  @Test def classMembersMayComeInAnyOrder(): Unit = {
    val c = decl("class C { Unit m() { } Int f = 1; { f = 2; } Int g; }").asInstanceOf[ClassDecl]
    assertEquals(List("f", "g"), c.fields.map(_.name))
    assertEquals(List("m"), c.methods.map(_.name))
    assertTrue(c.init.isDefined)
  }

  @Test def traits(): Unit = {
    val ts = decls(
      """trait T = { Unit x() { skip; } }
        |trait T2 = { Unit y() { skip; } } adds T;
        |trait T3 = T2 modifies Bool m() { return False; } removes { Unit x(); Unit y(); }""".stripMargin)
    assertEquals(3, ts.length)
    val (t1, t2, t3) = (ts(0), ts(1), ts(2))
    val xMethod = MethodDecl(MethodSig("x", UnitT, Nil), Block(List(SkipStmt())))
    assertEquals(TraitDecl("T", TraitExpr(MethodList(List(xMethod)), Nil)), t1)
    assertEquals(
      TraitDecl("T2", TraitExpr(MethodList(List(MethodDecl(MethodSig("y", UnitT, Nil), Block(List(SkipStmt()))))),
        List(TraitAdds(TraitRef("T"))))), t2)
    assertEquals(
      TraitDecl("T3", TraitExpr(TraitRef("T2"), List(
        TraitModifies(MethodList(List(MethodDecl(MethodSig("m", t("Bool"), Nil), Block(List(ReturnStmt(ctor("False")))))))),
        TraitRemoves(List(MethodSig("x", UnitT, Nil), MethodSig("y", UnitT, Nil)))))), t3)
    val c = decl("class C { uses T removes Unit x(); }").asInstanceOf[ClassDecl]
    assertEquals(List(TraitExpr(TraitRef("T"), List(TraitRemoves(List(MethodSig("x", UnitT, Nil)))))), c.uses)
  }

  @Test def annotationsAfterDefBelongToTheResultType(): Unit = {
    val f = decl("def [Nullable] Maybe<Int> g() = Nothing;").asInstanceOf[FunctionDecl]
    assertEquals(TypeRef(QName("Maybe"), List(IntT), List(Annotation(None, ctor("Nullable")))), f.resultType)
    assertEquals(Nil, f.annotations)
  }

  @Test def aRemovedSignatureMayKeepItsOwnSemicolon(): Unit = {
    val expected = List(TraitExpr(TraitRef("T"), List(TraitRemoves(List(MethodSig("m", UnitT, Nil))))))
    assertEquals(expected, decl("class C { uses T removes Unit m(); }").asInstanceOf[ClassDecl].uses)
    assertEquals(expected, decl("class C { uses T removes Unit m();; }").asInstanceOf[ClassDecl].uses)
  }

  @Test def annotationsOnDeclarationsAndParameters(): Unit = {
    val f = decl("[Deprecated] [Since: \"1.2\", Pure] def Int f([Positive] Int x) = x;").asInstanceOf[FunctionDecl]
    assertEquals(List(
      Annotation(None, ctor("Deprecated")),
      Annotation(Some(QName("Since")), StringLit("1.2")),
      Annotation(None, ctor("Pure"))), f.annotations)
    assertEquals(List(Annotation(None, ctor("Positive"))), f.params.head.annotations)
    val d = decl("[Abstract] data D = A;").asInstanceOf[DataDecl]
    assertEquals(List(Annotation(None, ctor("Abstract"))), d.annotations)
  }

  @Test def commentsAreIgnoredEverywhere(): Unit = {
    val ds = decls(
      """// line comment
        |data /* inline */ D = A // trailing
        |  | /* multi
        |       line */ B;
        |def Int f() = 1 /* not a division */ + 2; // end""".stripMargin)
    assertEquals(List(
      DataDecl("D", Nil, List(ConstructorDecl("A", Nil), ConstructorDecl("B", Nil))),
      FunctionDecl("f", Nil, Nil, Nil, IntT, ExpBody(Binary(Add, IntLit(1), IntLit(2))))), ds)
  }

  @Test def keywordPrefixesAreIdentifiers(): Unit =
    assertEquals(
      List(FunctionDecl("getter", Nil, Nil, List(Param("ifx", IntT), Param("newest", IntT)), IntT,
        ExpBody(Binary(Add, VarUse("ifx"), VarUse("newest"))))),
      decls("def Int getter(Int ifx, Int newest) = ifx + newest;"))

  @Test def declarationPositionsPointAtNames(): Unit = {
    val ds = decls("data D = K(Int a);\n  def Int f(Int x) = x;\ninterface I { Unit m(Int p); }")
    val d = ds.head.asInstanceOf[DataDecl]
    assertEquals(Pos(File, 2, 6), d.pos)
    assertEquals(Pos(File, 2, 10), d.constructors.head.pos)
    val f = ds(1).asInstanceOf[FunctionDecl]
    assertEquals(Pos(File, 3, 11), f.pos)
    assertEquals(Pos(File, 3, 17), f.params.head.pos)
    val i = ds(2).asInstanceOf[InterfaceDecl]
    assertEquals(Pos(File, 4, 11), i.pos)
    assertEquals(Pos(File, 4, 20), i.methods.head.pos)
    assertEquals(Pos(File, 4, 26), i.methods.head.params.head.pos)
  }
}
