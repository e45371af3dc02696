package cogs.absc.typecheck

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Assertions._

/**
 * The end-to-end corpus (`src/test/abs/run`) and the examples (`../examples/abs`) are
 * programs that must run, so they must check, completely typed; the only errors allowed
 * are "not supported yet" (a construct Cogs does not run yet).
 */
class CorpusTypeCheckTest {

  private def files(dir: Path): List[Path] =
    if (!Files.isDirectory(dir)) Nil
    else {
      val s = Files.walk(dir)
      try s.iterator.asScala.filter(p => Files.isRegularFile(p) && p.toString.endsWith(".abs")).toList.sortBy(_.toString)
      finally s.close()
    }

  @Test def everyCorpusProgramChecks(): Unit = {
    val all = files(Paths.get("src", "test", "abs", "run")) ++ files(Paths.get("..", "examples", "abs"))
    val problems = List.newBuilder[String]
    var checked = 0
    for (p <- all) {
      val text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
      cogs.absc.parse.Parser.parse(p.toString, text) match {
        case Left(_) => // syntax is CorpusParseTest's business
        case Right(unit) =>
          // the core, as the pipeline checks it (flattened without a product: ABS.Productline supplied)
          TypeChecker.check(cogs.absc.spl.Flatten.flatten(List(unit), None).getOrElse(List(unit))) match {
            case Right(program) =>
              checked += 1
              // a product line's deltas are not part of the core program the checker saw (see spl/)
              problems ++= TypeCheckSupport.untyped(program, List(unit.copy(spl = cogs.absc.ast.SplDecls.empty)))
            case Left(ds) =>
              problems ++= ds.filter(d => d.isError && !d.message.endsWith("is not supported yet")).map(_.header)
          }
      }
    }
    assertEquals("", problems.result().mkString("\n"))
    assertTrue(checked > 0 || all.isEmpty)
  }
}
