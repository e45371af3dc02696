package cogs.absc.corpus

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic
import cogs.absc.parse.Parser

/**
 * Keeps the end-to-end corpus (src/test/abs/run, see its README) and the ABS examples
 * (../examples/abs) syntactically valid and true to the corpus conventions, until the runner
 * that compiles and runs them exists.
 */
class CorpusParseTest {

  private val runDir: Path = Paths.get("src", "test", "abs", "run")
  private val examplesDir: Path = Paths.get("..", "examples", "abs")

  private def filesUnder(dir: Path, suffix: String): List[Path] =
    if (!Files.isDirectory(dir)) Nil
    else {
      val s = Files.walk(dir)
      try s.iterator.asScala.filter(p => Files.isRegularFile(p) && p.toString.endsWith(suffix)).toList.sortBy(_.toString)
      finally s.close()
    }

  private def read(p: Path): String = new String(Files.readAllBytes(p), StandardCharsets.UTF_8)

  private lazy val corpus: List[Path] = filesUnder(runDir, ".abs")
  private lazy val examples: List[Path] = filesUnder(examplesDir, ".abs")

  /** Every program parsed once: the file, its text and its compilation unit (or diagnostics). */
  private lazy val parsed: List[(Path, String, Either[List[Diagnostic], CompilationUnit])] =
    (corpus ++ examples).map { p =>
      val text = read(p)
      (p, text, Parser.parse(p.toString, text))
    }

  private def sibling(p: Path, ext: String): Path = {
    val name = p.getFileName.toString
    p.resolveSibling(name.stripSuffix(".abs") + ext)
  }

  private def failIfAny(what: String, problems: List[String]): Unit =
    if (problems.nonEmpty) fail[Unit](s"${problems.length} $what:\n\n" + problems.mkString("\n\n"))

  @Test def corpusIsLargeAndOrganised(): Unit = {
    assertTrue(corpus.length >= 200, s"expected at least 200 programs under $runDir, found ${corpus.length}")
    val dirs = corpus.map(p => runDir.relativize(p).getName(0).toString).toSet
    for (d <- List("functional", "datatypes", "patterns", "stdlib-list", "stdlib-set", "stdlib-map",
        "stdlib-string", "numbers", "modules", "objects", "async", "await", "sync", "exceptions", "control",
        "output", "errors-runtime", "seeds", "stress", "timed"))
      assertTrue(dirs.contains(d), s"no programs in $runDir/$d")
    assertTrue(corpus.forall(p => runDir.relativize(p).getNameCount == 2),
      "programs live exactly one directory below the corpus root")
    assertEquals(List("CloudAutoscaler.abs", "Foreign.abs", "Listing1.abs", "NQueens.abs", "RareDeadlock.abs"), examples.map(_.getFileName.toString))
  }

  @Test def everyProgramParses(): Unit = {
    val errors = parsed.collect { case (p, text, Left(ds)) => s"$p:\n${Diagnostic.renderAll(ds, text)}" }
    failIfAny("files with syntax errors", errors)
  }

  @Test def everyProgramFollowsTheConventions(): Unit = {
    val problems = parsed.flatMap {
      case (_, _, Left(_)) => Nil // reported by everyProgramParses
      case (p, text, Right(unit)) =>
        val first = text.linesIterator.map(_.trim).find(_.nonEmpty).getOrElse("")
        val comment =
          if (first.startsWith("//") || first.startsWith("/*")) Nil
          else List(s"$p: does not start with a comment saying what it tests")
        val mains = unit.modules.filter(_.main.isDefined)
        val main =
          if (mains.length != 1) List(s"$p: has ${mains.length} main blocks, expected exactly one")
          else if (unit.modules.last.main.isEmpty) List(s"$p: the main block is not in the last module")
          else Nil
        val failing = Files.exists(sibling(p, ".fail"))
        val testresult =
          if (failing || mains.length != 1) Nil
          else {
            val declared = mains.head.main.get.stmts.exists {
              case VarDeclStmt("testresult", TypeRef(QName(None, "Bool"), Nil, _), Some(_), _) => true
              case _ => false
            }
            if (declared) Nil else List(s"$p: the main block does not declare `Bool testresult = ...;` at its top level")
          }
        comment ++ main ++ testresult
    }
    failIfAny("convention violations", problems)
  }

  @Test def expectationFilesBelongToPrograms(): Unit = {
    val problems = List.newBuilder[String]
    for (ext <- List(".out", ".fail"); f <- filesUnder(runDir, ext)) {
      val program = f.resolveSibling(f.getFileName.toString.stripSuffix(ext) + ".abs")
      // a product line's `NAME.PRODUCT.out` belongs to NAME.abs (see CorpusRunTest)
      val productLine = f.resolveSibling(f.getFileName.toString.stripSuffix(ext).replaceAll("\\.[A-Za-z0-9_]+$", "") + ".abs")
      if (!Files.exists(program) && !(ext == ".out" && Files.exists(productLine))) problems += s"$f: no program $program"
    }
    for (f <- filesUnder(runDir, ".fail")) {
      val lines = read(f).linesIterator.toList
      lines match {
        case status :: fragment :: _ if status.trim.nonEmpty && status.trim.forall(_.isDigit) &&
            status.trim.toInt != 0 && fragment.trim.nonEmpty => ()
        case _ => problems += s"$f: expected a non-zero exit status on line 1 and a stderr fragment on line 2"
      }
    }
    for (f <- filesUnder(runDir, ".abs") if runDir.relativize(f).getName(0).toString == "output")
      if (!Files.exists(sibling(f, ".out"))) problems += s"$f: programs in output/ need a .out file"
    for (f <- filesUnder(runDir, ".abs") if runDir.relativize(f).getName(0).toString == "errors-runtime")
      if (!Files.exists(sibling(f, ".fail"))) problems += s"$f: programs in errors-runtime/ need a .fail file"
    failIfAny("problems with .out/.fail files", problems.result())
  }

  @Test def examplesAreCopiesOfTheSeedPrograms(): Unit =
    for (e <- examples) {
      val seed = runDir.resolve("seeds").resolve(e.getFileName)
      assertTrue(Files.exists(seed), s"$e has no counterpart $seed")
      assertEquals(read(seed), read(e), s"$e differs from $seed")
    }
}
