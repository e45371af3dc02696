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
}
