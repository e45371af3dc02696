package cogs.absc.diag

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast.Pos

class DiagnosticTest {

  private val text = "first line\r\n  second line\rthird\n\tfourth"

  @Test def headerFollowsTheCompilerConvention(): Unit = {
    assertEquals("a.abs:2:3: error: bad", Diagnostic.error(Pos("a.abs", 2, 3), "bad").header)
    assertEquals("a.abs:1:1: warning: odd", Diagnostic.warning(Pos("a.abs", 1, 1), "odd").header)
  }

  @Test def renderShowsTheLineAndACaretUnderTheColumn(): Unit = {
    assertEquals("a.abs:2:3: error: bad\n  second line\n  ^", Diagnostic.error(Pos("a.abs", 2, 3), "bad").render(text))
    assertEquals("a.abs:1:1: error: x\nfirst line\n^", Diagnostic.error(Pos("a.abs", 1, 1), "x").render(text))
  }

  @Test def everyLineTerminatorCounts(): Unit = {
    assertEquals(Some("first line"), Diagnostic.sourceLine(text, 1))
    assertEquals(Some("  second line"), Diagnostic.sourceLine(text, 2))
    assertEquals(Some("third"), Diagnostic.sourceLine(text, 3))
    assertEquals(Some("\tfourth"), Diagnostic.sourceLine(text, 4))
    assertEquals(None, Diagnostic.sourceLine(text, 5))
    assertEquals(None, Diagnostic.sourceLine(text, 0))
  }

  @Test def tabsAreCopiedSoTheCaretLinesUp(): Unit =
    assertEquals("a.abs:4:3: error: e\n\tfourth\n\t ^", Diagnostic.error(Pos("a.abs", 4, 3), "e").render(text))

  @Test def aCaretPastTheEndOfTheLineIsFine(): Unit =
    assertEquals("a.abs:3:6: error: e\nthird\n     ^", Diagnostic.error(Pos("a.abs", 3, 6), "e").render(text))

  @Test def aPositionOutsideTheTextRendersOnlyTheHeader(): Unit =
    assertEquals("a.abs:9:1: error: e", Diagnostic.error(Pos("a.abs", 9, 1), "e").render(text))

  @Test def renderAllJoinsDiagnostics(): Unit =
    assertEquals("a.abs:1:1: error: x\nfirst line\n^\na.abs:3:1: warning: y\nthird\n^",
      Diagnostic.renderAll(List(Diagnostic.error(Pos("a.abs", 1, 1), "x"), Diagnostic.warning(Pos("a.abs", 3, 1), "y")), text))

  /** The character above the caret, in the rendered excerpt. */
  private def charAtCaret(rendered: String): Char = {
    val List(_, shown, caret) = rendered.split("\n", -1).toList
    assertTrue(caret.endsWith("^") && caret.init.forall(c => c == ' ' || c == '\t'), caret)
    shown.charAt(caret.length - 1)
  }

  @Test def aLongLineIsShownAsAWindowAroundTheCaret(): Unit = {
    // A 1 MB line with a marker at column 500,001.
    val line = ("x" * 500000) + "#" + ("y" * 500000)
    val r = Diagnostic.error(Pos("big.abs", 2, 500001), "e").render("first\n" + line + "\nlast")
    assertTrue(r.length < 400, s"${r.length} characters")
    assertEquals('#', charAtCaret(r))
    val shown = r.split("\n")(1)
    assertTrue(shown.startsWith("...x") && shown.endsWith("y..."), shown)
  }

  @Test def theWindowStaysInsideTheLineAtBothEnds(): Unit = {
    val line = "#" + ("a" * 300) + "$"
    val start = Diagnostic.error(Pos("a.abs", 1, 1), "e").render(line)
    assertEquals('#', charAtCaret(start))
    assertFalse(start.split("\n")(1).startsWith("..."), start)
    val end = Diagnostic.error(Pos("a.abs", 1, 302), "e").render(line)
    assertEquals('$', charAtCaret(end))
    assertTrue(end.split("\n")(1).startsWith("...") && end.split("\n")(1).endsWith("$"), end)
    // A line of exactly the limit is shown whole.
    val whole = "b" * Diagnostic.MaxLineShown
    assertEquals(s"a.abs:1:3: error: e\n$whole\n  ^", Diagnostic.error(Pos("a.abs", 1, 3), "e").render(whole))
  }

  @Test def tabsInTheWindowStillLineUp(): Unit = {
    val line = ("z" * 400) + "\t\t#" + ("z" * 400)
    val r = Diagnostic.error(Pos("t.abs", 1, 403), "e").render(line)
    assertEquals('#', charAtCaret(r))
    assertTrue(r.split("\n")(2).contains("\t\t^"), r)
  }

  @Test def aHugeMessageIsShortened(): Unit = {
    val h = Diagnostic.error(Pos("a.abs", 1, 1), "unknown name '" + ("n" * 100000) + "'").header
    assertTrue(h.length < 1200, s"${h.length}")
    assertTrue(h.startsWith("a.abs:1:1: error: unknown name 'nnn") && h.endsWith("nnn'"), h.take(100))
    assertTrue(h.contains("characters left out"), h)
  }
}
