package cogs.absc.parse

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic

/** Parses the small, realistic ABS models under src/test/abs/parse and checks their shape. */
class ExampleProgramsTest {

  private val dir: Path = Paths.get("src", "test", "abs", "parse")

  private def load(name: String): (String, CompilationUnit) = {
    val text = new String(Files.readAllBytes(dir.resolve(name)), StandardCharsets.UTF_8)
    Parser.parse(name, text) match {
      case Right(unit) => (text, unit)
      case Left(ds) => fail[(String, CompilationUnit)](s"$name does not parse:\n${Diagnostic.renderAll(ds, text)}")
    }
  }

  /** Every node of a tree, found generically through the case classes' fields. */
  private def nodes(root: Any): Iterator[Node] = {
    def walk(x: Any): Iterator[Node] = x match {
      case n: Node => Iterator.single(n) ++ n.productIterator.flatMap(walk)
      case o: Option[_] => o.iterator.flatMap(walk)
      case xs: List[_] => xs.iterator.flatMap(walk)
      case p: Product => p.productIterator.flatMap(walk)
      case _ => Iterator.empty
    }
    walk(root)
  }

  @Test def everyExampleParses(): Unit = {
    val files = Files.list(dir).iterator.asScala.map(_.getFileName.toString).filter(_.endsWith(".abs")).toList.sorted
    assertTrue(files.length >= 6, s"expected the example models, found $files")
    for (f <- files) {
      val (text, unit) = load(f)
      assertFalse(unit.modules.isEmpty, f)
      // Every position lies inside the file.
      val lines = text.split("\n", -1).length
      for (n <- nodes(unit)) {
        assertEquals(f, n.pos.file)
        assertTrue(n.pos.line >= 1 && n.pos.line <= lines && n.pos.col >= 1, s"$f: $n at ${n.pos}")
      }
    }
  }

  @Test def bank(): Unit = {
    val (_, unit) = load("bank.abs")
    val m = unit.modules.head
    val cls = m.decls.collectFirst { case c: ClassDecl => c }.get
    assertEquals(List("balance", "deposit", "withdraw", "transfer"), cls.methods.map(_.name))
    assertEquals(2, cls.recover.length)
    val transfer = cls.methods.last.body.stmts
    assertTrue(transfer.exists(_.isInstanceOf[TryCatchStmt]))
    assertTrue(nodes(cls).exists { case AwaitStmt(ClaimGuard(VarUse("f")), _) => true; case _ => false })
    assertEquals(1, m.decls.count(_.isInstanceOf[ExceptionDecl]))
    assertTrue(nodes(m.main).exists { case NewExp(QName(None, "AccountImpl"), _, true) => true; case _ => false })
  }

  @Test def functional(): Unit = {
    val (_, unit) = load("functional.abs")
    val fs = unit.modules.head.decls.collect { case f: FunctionDecl => f }
    assertEquals(List("area", "size", "insert", "mapTree", "twice", "describe", "clamp", "mean", "isSpecial", "sign"),
      fs.map(_.name))
    assertEquals(List("mapTree"), fs.filter(_.isPartial).map(_.name))
    assertTrue(fs.exists(_.body.isInstanceOf[BuiltinBody]))
    val describe = fs.find(_.name == "describe").get
    assertTrue(nodes(describe).exists {
      case TemplateString(parts, _) => parts.last == " (half: " || parts.exists(_.contains("$ signs and ` backquotes"))
      case _ => false
    })
  }

  @Test def modules(): Unit = {
    val (_, unit) = load("modules.abs")
    assertEquals(List("Geometry.Points", "Geometry.Shapes", "Main"), unit.modules.map(_.name))
    val shapes = unit.modules(1)
    assertEquals(List(Export(AllNames, None)(Pos.Unknown),
      Export(SomeNames(List(NameRef(QName("Point"))(Pos.Unknown), NameRef(QName("origin"))(Pos.Unknown))),
        Some("Geometry.Points"))(Pos.Unknown)), shapes.exports)
    assertTrue(nodes(unit.modules(2).main).exists {
      case FnApp(QName(Some("Geometry.Points"), "origin"), Nil) => true
      case _ => false
    })
  }

  @Test def buffer(): Unit = {
    val (_, unit) = load("buffer.abs")
    val all = nodes(unit).toList
    assertEquals(2, all.count(_.isInstanceOf[ForeachStmt]))
    assertEquals(2, all.count(_.isInstanceOf[SwitchStmt]))
    assertTrue(all.exists(_.isInstanceOf[AndGuard]))
    assertTrue(all.exists(_.isInstanceOf[SuspendStmt]))
  }

  @Test def timedAndDeployment(): Unit = {
    val (_, unit) = load("timed.abs")
    val all = nodes(unit).toList
    assertTrue(all.exists(_.isInstanceOf[DurationStmt]))
    assertEquals(2, all.count(_.isInstanceOf[DurationGuard]))
    assertTrue(all.exists(_.isInstanceOf[MoveCogToStmt]))
    assertTrue(all.exists(_.isInstanceOf[DieStmt]))
    assertTrue(all.exists(_.isInstanceOf[DestinyExp]))
    val tags = all.collect { case a: Annotation => a.tag.map(_.name) }.flatten.toSet
    assertEquals(Set("Scheduler", "Cost", "DC", "Deadline"), tags)
  }

  @Test def traits(): Unit = {
    val (_, unit) = load("traits.abs")
    val traits = unit.modules.head.decls.collect { case t: TraitDecl => t }
    assertEquals(List("Incrementing", "Reading", "Full", "Strict"), traits.map(_.name))
    val cls = unit.modules.head.decls.collectFirst { case c: ClassDecl => c }.get
    assertEquals(2, cls.uses.length)
    assertTrue(nodes(unit.modules.head.main).exists(_.isInstanceOf[ImplementsExp]))
    assertTrue(nodes(unit.modules.head.main).exists(_.isInstanceOf[AsExp]))
  }
}
