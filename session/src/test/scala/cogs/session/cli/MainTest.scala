package cogs.session.cli

import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.file.{Files, Path, Paths}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

/** The `session` command: outputs, error reports and exit statuses. */
class MainTest {
  private val example = Paths.get("examples/purchase.scr") // surefire runs in the module's directory

  private def run(args: String*): (Int, String, String) = {
    val out, err = new ByteArrayOutputStream
    val status = Main.run(args.toArray, new PrintStream(out, true), new PrintStream(err, true))
    (status, out.toString, err.toString)
  }

  @Test def checkAcceptsTheExampleAndWarnsOfItsMailboxRaces(): Unit = {
    val (status, out, err) = run("check", example.toString)
    assertEquals((0, s"$example: ok (module warehouse: Purchase(B, S, A), StoreLoad(D, S))\n"), (status, out))
    assertEquals(List("request", "buy", "quit").map(l => s"role S may receive $l from B before authenticate from A (line 13)"),
      "role S may receive \\w+ from B before authenticate from A \\(line 13\\)".r.findAllIn(err).toList, err)
    assertTrue(err.startsWith(s"$example:15:5: warning: role S may receive request from B"), err)
  }

  @Test def projectPrintsOneRolesMachine(): Unit =
    assertEquals((0,
      """fsm StoreLoad@S: 4 states, initial 0, final {3}
        |  0 -> 1  D!quit()
        |  0 -> 2  D!request(String, Int)
        |  1 -> 3  D?acc()
        |  2 -> 0  D?put(String, Int)
        |""".stripMargin, ""), run("project", example.toString, "-p", "StoreLoad", "-r", "S"))

  @Test def projectPrintsLocalProtocolsAndDot(): Unit = {
    val (s1, local, _) = run("project", example.toString, "-p", "StoreLoad", "-r", "D", "-f", "local")
    assertEquals(0, s1)
    assertTrue(local.startsWith("local protocol StoreLoad at D(role D, role S) {\n  rec Rec {\n    choice at S {\n"), local)
    val (s2, dot, _) = run("project", example.toString, "-p", "Purchase", "-f", "dot")
    assertEquals(0, s2)
    assertEquals(3, "digraph ".r.findAllIn(dot).size, dot)
  }

  @Test def errorsAreReportedWithTheSourceLineAndStatus1(@TempDir dir: Path): Unit = {
    val f = dir.resolve("bad.scr")
    Files.writeString(f, "module bad;\nglobal protocol P(role A, role B) {\n  ping() from A to C;\n}\n")
    val (status, out, err) = run("check", f.toString)
    assertEquals(1, status)
    assertEquals("", out)
    assertEquals(
      s"""$f:2:32: error: role 'B' is declared but takes part in no interaction of protocol P
         |global protocol P(role A, role B) {
         |                               ^
         |$f:3:20: error: role 'C' is not declared in protocol P (its roles: A, B)
         |  ping() from A to C;
         |                   ^
         |2 errors
         |""".stripMargin, err)
  }

  @Test def badCommandLinesAreStatus2(): Unit = {
    val (s1, _, e1) = run("project", example.toString, "-f", "svg")
    assertEquals((2, "session: unknown format 'svg' (the formats: local, fsm, dot)\n"), (s1, e1))
    val (s2, _, e2) = run("project", example.toString, "-p", "Nope")
    assertEquals(2, s2)
    assertTrue(e2.contains("has no protocol 'Nope' (it has: Purchase, StoreLoad)"), e2)
    val (s3, _, e3) = run("check")
    assertEquals(2, s3)
    assertTrue(e3.startsWith("session: Missing required parameter"), e3)
    val (s4, _, e4) = run("check", "no-such.scr")
    assertEquals((1, "session: no-such.scr: no such file\n"), (s4, e4))
  }
}
