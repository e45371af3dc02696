package cogs.absc.emit

import cogs.absc.parse.Parser
import cogs.absc.typecheck.TypeChecker
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{DynamicTest, TestFactory}
import scala.jdk.CollectionConverters._

/**
 * Golden tests of the generated Scala: for a dozen representative programs of the run corpus,
 * the text absc emits must equal the file kept in `src/test/golden` (one `.scala` file per
 * program, the modules one after the other). A change of the output shows as a line diff; when
 * the change is intended, rerun with `-Dgolden.update=true` to rewrite the files, and review them
 * in the commit.
 */
class GoldenTest {
  private val corpus = Paths.get("src/test/abs/run")
  private val golden = Paths.get("src/test/golden")
  private val update = java.lang.Boolean.getBoolean("golden.update")

  /** What each program shows of the output. */
  private val programs = List(
    "examples/abs/Listing1.abs",             // a suspending chain of synchronous calls, loops with get
    "await/await_in_try.abs",                // try/catch/finally around an await
    "await/await_in_foreach.abs",            // foreach with a continuation
    "await/and_guard.abs",                   // conjunctive guards
    "await/bounded_buffer.abs",              // condition guards over fields
    "control/blocks_and_scopes.abs",         // nested blocks and scopes
    "control/switch_on_values.abs",          // switch statements
    "datatypes/binary_search_tree.abs",      // data types, selectors, case expressions
    "functional/partial_anonymous.abs",      // partial functions with anonymous functions
    "exceptions/recover_block.abs",          // recover, exceptions, dead objects
    "modules/classes_across_modules.abs",    // references across modules
    "traits/trait_modifies_original.abs",    // traits and original()
    "names/hostile_names.abs",               // names of the generated code's world
    "names/shadowing.abs",                   // shadowing of every kind
    "schedulers/scheduler_reads_fields.abs", // a user-defined scheduler reading fields, and one on new
    "modelapi/http_names.abs")               // [HTTPName] registrations and [HTTPCallable] dispatchers

  /** The file of a program: in the run corpus, or the repository's `examples/`. */
  private def source(p: String): Path = if (p.startsWith("examples/")) Paths.get("..").resolve(p) else corpus.resolve(p)

  private def emit(p: String): String = {
    val file = source(p)
    val text = new String(Files.readAllBytes(file), UTF_8)
    // Positions in the output name the program as listed: independent of the working directory.
    val name = p
    val unit = Parser.parse(name, text).fold(ds => fail(ds.map(_.render(text)).mkString("\n")), identity)
    val typed = TypeChecker.check(List(unit)).fold(ds => fail(ds.map(_.render(text)).mkString("\n")), identity)
    cogs.absc.driver.Pipeline.translate(typed).files.map(f => s"// ===== ${f.relativePath}\n${f.text}").mkString("\n")
  }

  @TestFactory
  def generatedScala(): java.util.List[DynamicTest] = programs.map { p =>
    DynamicTest.dynamicTest(p, () => {
      val expectedFile = golden.resolve(p.replace(".abs", ".scala"))
      val actual = emit(p)
      if (update) {
        Files.createDirectories(expectedFile.getParent)
        Files.write(expectedFile, actual.getBytes(UTF_8))
      } else {
        assertTrue(Files.isRegularFile(expectedFile), s"no golden file $expectedFile: run with -Dgolden.update=true")
        val expected = new String(Files.readAllBytes(expectedFile), UTF_8)
        if (expected != actual) fail(s"the Scala emitted for $p differs from $expectedFile:\n${GoldenTest.diff(expected, actual)}")
      }
    })
  }.asJava
}

object GoldenTest {
  /** A line diff: the first differing region with three lines of context each side. */
  def diff(expected: String, actual: String): String = {
    val e = expected.split("\n", -1).toVector
    val a = actual.split("\n", -1).toVector
    val start = e.indices.find(i => i >= a.length || e(i) != a(i)).getOrElse(e.length)
    var (ee, ae) = (e.length, a.length)
    while (ee > start && ae > start && e(ee - 1) == a(ae - 1)) { ee -= 1; ae -= 1 }
    val from = math.max(0, start - 3)
    val ctx = e.slice(from, start).map("  " + _)
    val minus = e.slice(start, ee).map("- " + _)
    val plus = a.slice(start, ae).map("+ " + _)
    val after = e.slice(ee, math.min(e.length, ee + 3)).map("  " + _)
    (s"@@ line ${start + 1} @@" +: (ctx ++ minus ++ plus ++ after)).mkString("\n")
  }
}
