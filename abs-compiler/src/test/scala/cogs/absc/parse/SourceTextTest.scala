package cogs.absc.parse

import java.nio.charset.StandardCharsets.UTF_8

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.diag.Diagnostic

/** Source bytes to text: line-ending conventions, strict UTF-8 with located errors. */
class SourceTextTest {

  private val File = "enc.abs"

  /** `text` with its `\n` line ends replaced by `eol`. */
  private def withEol(text: String, eol: String): String = text.replace("\n", eol)

  // An error on line 4 (a missing ';'), and a second one on line 6 after a tab.
  private val broken = "module M;\n// comment\n{\n  Int x = 5\n  x = 6;\n\tInt y = ;\n}\n"

  @Test def everyLineEndingGivesTheSameErrorsAndSourceLines(): Unit = {
    def rendered(eol: String): String = {
      val text = withEol(broken, eol)
      Parser.parse(File, text) match {
        case Left(ds) => Diagnostic.renderAll(ds, text)
        case Right(_) => fail[String]("expected syntax errors")
      }
    }
    val lf = rendered("\n")
    assertEquals(
      "enc.abs:4:12: error: expected ';'\n  Int x = 5\n           ^\n" +
        "enc.abs:6:10: error: expected an expression, found ';'\n\tInt y = ;\n\t        ^", lf)
    assertEquals(lf, rendered("\r\n"))
    assertEquals(lf, rendered("\r"))
  }

  @Test def everyLineEndingGivesTheSameAstPositions(): Unit = {
    val program = "module M;\n\ninterface I {}\n{\n  Int x = 1;\n    x = x + 1;\n}\n"
    def positions(eol: String): List[String] = {
      val m = TestSupport.module(withEol(program, eol))
      (m.pos :: m.decls.map(_.pos) ++ m.main.toList.flatMap(_.stmts.map(_.pos))).map(_.toString)
    }
    val lf = positions("\n")
    assertEquals(List("test.abs:1:1", "test.abs:3:11", "test.abs:5:7", "test.abs:6:5"), lf)
    assertEquals(lf, positions("\r\n"))
    assertEquals(lf, positions("\r"))
  }

  @Test def aMultiLineTemplateCountsLinesAfterItWithLoneCarriageReturns(): Unit = {
    val text = "module M;\r{\r  String s = `a\rb`;\r  Int x = ;\r}\r"
    Parser.parse(File, text) match {
      case Left(ds) => assertEquals(List("enc.abs:5:11: error: expected an expression, found ';'"), ds.map(_.header))
      case Right(_) => fail("expected a syntax error")
    }
  }

  @Test def validUtf8IsDecodedAndAByteOrderMarkDropped(): Unit = {
    assertEquals(Right("module Ä; // ⊢ \uD83D\uDE00"), SourceText.decode(File, "module Ä; // ⊢ \uD83D\uDE00".getBytes(UTF_8)))
    assertEquals(Right("module M;"), SourceText.decode(File, "\uFEFFmodule M;".getBytes(UTF_8)))
  }

  private def bytes(parts: Any*): Array[Byte] = parts.flatMap {
    case s: String => s.getBytes(UTF_8).toSeq
    case b: Int => Seq(b.toByte)
  }.toArray

  @Test def anInvalidByteIsAnErrorAtItsLineAndColumn(): Unit = {
    // Line 3 in every convention; 'é' in UTF-8 and a 4-byte emoji before the bad byte count one column each.
    for (eol <- List("\n", "\r\n", "\r")) {
      val b = bytes(s"module M;${eol}// ok$eol{ println(\"é\uD83D\uDE00", 0xE9, "t\"); }")
      SourceText.decode(File, b) match {
        case Left((List(d), text)) =>
          assertEquals("enc.abs:3:14: error: invalid UTF-8 byte 0xE9 (source files must be encoded in UTF-8)", d.header)
          assertEquals("{ println(\"é\uD83D\uDE00\uFFFDt\"); }", Diagnostic.sourceLine(text, 3).get)
        case other => fail(s"expected one error, got $other")
      }
    }
  }

  @Test def aTruncatedSequenceIsOneErrorWithItsBytes(): Unit =
    SourceText.decode(File, bytes("ab", 0xF0, 0x9F, "c")) match {
      case Left((List(d), _)) => assertEquals("enc.abs:1:3: error: invalid UTF-8 bytes 0xF0 0x9F (source files must be encoded in UTF-8)", d.header)
      case other => fail(s"expected one error, got $other")
    }

  @Test def aFileInAnotherEncodingGetsABoundedNumberOfErrors(): Unit = {
    val latin1 = ("// caf\u00e9\n" * 50).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)
    SourceText.decode(File, latin1) match {
      case Left((ds, _)) =>
        assertEquals(20, ds.size)
        assertEquals((1 to 20).toList, ds.map(_.pos.line))
        assertTrue(ds.forall(_.pos.col == 7), ds.toString)
        assertTrue(ds.last.message.endsWith("; 30 more invalid byte sequence(s) after this one are not shown"), ds.last.message)
      case Right(_) => fail("expected errors")
    }
  }

  @Test def lineAndColumnCountCodePointsAndEveryLineEnding(): Unit =
    assertEquals(List((1, 1), (1, 3), (2, 1), (3, 2), (4, 1), (4, 3)),
      SourceText.lineAndColumn("a\uD83D\uDE00b\r\nc\rde\nf\uD83D\uDE00g", List(0, 3, 6, 9, 11, 14)))
}
