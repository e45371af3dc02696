package cogs.absc.typecheck

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.{DynamicTest, TestFactory}
import org.junit.jupiter.api.Assertions._

import cogs.absc.ast.Exp

/**
 * Runs the ABS programs under `src/test/abs/typecheck`. A program is one `.abs` file, or a
 * directory of them (checked together). `ok/` programs must check, `err/` programs must
 * not. Expectations are comments anywhere in a file, with positions in that file:
 *
 * {{{
 * // error: 12:5: type mismatch: expected Int, found String
 * // warning: 3:1: unknown annotation 'Foo' is ignored
 * // type: 20:11: List<Int>          (the type of the outermost expression at 20:11)
 * // suspends: Account.transfer      (maySuspend of a method: Class.method)
 * // plain: Account.deposit          (it never suspends)
 * // suspends: main                  (the module's main block; "plain: main" likewise)
 * }}}
 *
 * The reported diagnostics (errors and warnings) must be exactly the listed ones.
 */
class AbsFilesTest {

  private val root: Path = Paths.get("src", "test", "abs", "typecheck")

  private val Diag = """\s*//\s*(error|warning):\s*(\d+):(\d+):\s*(.*?)\s*""".r
  private val TypeAt = """\s*//\s*type:\s*(\d+):(\d+):\s*(.*?)\s*""".r
  private val Suspends = """\s*//\s*(suspends|plain):\s*(\S+)\s*""".r

  private def programs(kind: String): List[(String, List[Path])] = {
    val dir = root.resolve(kind)
    Files.list(dir).iterator.asScala.toList.sortBy(_.getFileName.toString).flatMap { p =>
      if (Files.isDirectory(p))
        List((s"$kind/${p.getFileName}", Files.list(p).iterator.asScala.filter(_.toString.endsWith(".abs")).toList.sorted))
      else if (p.toString.endsWith(".abs")) List((s"$kind/${p.getFileName}", List(p)))
      else Nil
    }
  }

  private def read(p: Path): String = new String(Files.readAllBytes(p), StandardCharsets.UTF_8)

  private def name(p: Path): String = root.relativize(p).toString

  private def expectedDiagnostics(files: List[Path]): List[String] =
    files.flatMap { p =>
      read(p).linesIterator.collect { case Diag(sev, l, c, msg) => s"${name(p)}:$l:$c: $sev: $msg" }
    }.sorted

  private def run(files: List[Path]): (List[String], Either[List[cogs.absc.diag.Diagnostic], TypedProgram], List[cogs.absc.ast.CompilationUnit]) = {
    val units = TypeCheckSupport.parseAll(files.map(p => name(p) -> read(p)))
    val res = TypeChecker.check(units)
    val ds = res.fold(identity, _.warnings)
    (ds.map(d => s"${d.pos.file}:${d.pos.line}:${d.pos.col}: ${d.severity.label}: ${d.message}").sorted, res, units)
  }

  @TestFactory def okPrograms(): java.util.List[DynamicTest] = programs("ok").map { case (label, files) =>
    DynamicTest.dynamicTest(label, () => {
      val (actual, res, units) = run(files)
      res match {
        case Left(_) => fail[Unit](s"$label does not check:\n${actual.mkString("\n")}")
        case Right(program) =>
          assertEquals(expectedDiagnostics(files).mkString("\n"), actual.mkString("\n"), s"warnings of $label")
          assertEquals("", TypeCheckSupport.untyped(program, units).mkString("\n"), s"completeness of $label")
          val checked = TypeCheckSupport.Checked(program, units)
          var facts = 0
          for (p <- files; line <- read(p).linesIterator) line match {
            case TypeAt(l, c, t) =>
              val unit = units.find(_.file == name(p)).get
              val e = TypeCheckSupport.nodes(unit).collectFirst {
                case e: Exp if e.pos.line == l.toInt && e.pos.col == c.toInt => e
              }.getOrElse(fail[Exp](s"${name(p)}: no expression at $l:$c"))
              assertEquals(t, program.typeOf(e).show, s"type at ${name(p)}:$l:$c")
              facts += 1
            case Suspends(kind, what) =>
              val actualSuspends =
                if (what == "main") {
                  val m = program.userModules.find(m => m.main.isDefined && m.file == name(p)).get
                  program.mainMaySuspend(m)
                } else {
                  val Array(c, m) = what.split('.')
                  program.maySuspend(checked.method(c, m))
                }
              assertEquals(kind == "suspends", actualSuspends, s"$kind: $what in $label")
              facts += 1
            case _ =>
          }
          assertTrue(facts >= 0)
      }
    })
  }.asJava

  @TestFactory def errPrograms(): java.util.List[DynamicTest] = programs("err").map { case (label, files) =>
    DynamicTest.dynamicTest(label, () => {
      val expected = expectedDiagnostics(files)
      assertTrue(expected.exists(_.contains(": error: ")), s"$label lists no expected error")
      val (actual, res, _) = run(files)
      assertTrue(res.isLeft, s"$label should not check")
      assertEquals(expected.mkString("\n"), actual.mkString("\n"), s"diagnostics of $label")
    })
  }.asJava
}
