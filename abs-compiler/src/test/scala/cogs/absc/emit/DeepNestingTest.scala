package cogs.absc.emit

import cogs.absc.parse.Parser
import cogs.absc.typecheck.TypeChecker
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Nesting 10,000 levels deep (statements, blocks, let, if and case expressions, a long sum) goes
 * through parsing, checking, lowering and printing without a stack overflow, and the printed
 * Scala keeps the whole nest (printing is linear: one builder, no re-indenting of nested text).
 * Whether scalac and the JVM then accept such a method is the driver's matter (see
 * `TooLargeTest`).
 */
class DeepNestingTest {
  private val N = 10000

  private def emit(body: String): String = {
    val text = s"module Deep;\n{\n$body\n}\n"
    val unit = Parser.parse("deep.abs", text).fold(ds => fail(ds.map(_.render(text)).mkString("\n")), identity)
    val typed = TypeChecker.check(List(unit)).fold(ds => fail(ds.map(_.render(text)).mkString("\n")), identity)
    cogs.absc.driver.Pipeline.translate(typed).files.map(_.text).mkString
  }

  @Test def nestedIfStatements(): Unit = {
    val out = emit("Int x = 0;\n" + (1 to N).map(i => s"if (x < $i) {\n").mkString + "x = x + 1;\n" + "}\n" * N)
    assertEquals(N, "if \\(x < AbsInt\\(".r.findAllIn(out).size)
  }

  @Test def nestedBlocks(): Unit = {
    val out = emit("Int x = 0;\n" + "{\n" * N + "x = x + 1;\n" + "}\n" * N)
    assertEquals(N, "locally \\{".r.findAllIn(out).size)
  }

  @Test def nestedBlocksAroundAnAwait(): Unit = {
    // Blocks that suspend become one flat chain of continuations.
    val out = emit("Int x = 0;\n" + "{\n" * N + "x = x + 1; await x > 0; x = x + 1;\n" + "}\n" * N)
    assertEquals(1, "Guard.cond".r.findAllIn(out).size)
    assertEquals(2, "x = x \\+ AbsInt\\(1\\)".r.findAllIn(out).size)
  }

  @Test def nestedWhileLoopsWithSuspend(): Unit = {
    val out = emit("Int x = 0;\n" + "while (x < 1) {\n" * 2000 + "x = x + 1; suspend;\n" + "}\n" * 2000)
    assertEquals(2000, "Proc.loopWhile".r.findAllIn(out).size)
  }

  @Test def nestedLetCaseAndIfExpressions(): Unit = {
    val e = (0 until N).foldLeft("0")((acc, i) => i % 3 match {
      case 0 => s"let Int v$i = $i in ($acc)"
      case 1 => s"case $i { $i => ($acc); _ => 1 }"
      case _ => s"if $i > 0 then ($acc) else 1"
    })
    val out = emit(s"Int x = $e;")
    assertTrue(out.contains("val v9999: AbsInt = AbsInt(9999)"), "the innermost let")
  }

  @Test def aLongSum(): Unit = {
    val out = emit(s"Int x = ${Seq.fill(N)("1").mkString(" + ")};")
    assertEquals(N, "AbsInt\\(1\\)".r.findAllIn(out).size)
  }
}
