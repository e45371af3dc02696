package cogs.absc.driver

import cogs.absc.run.ProgramRunner

import cogs.absc.emit.EmittedFile
import cogs.absc.lib.Out
import cogs.absc.parse.Parser
import cogs.absc.typecheck.TypeChecker
import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * A property of absc's naming: whatever names a valid model uses, the generated Scala compiles
 * and the model computes what it computes with ordinary names. Programs are generated from one
 * template whose every kind of identifier (field, method, parameter, local, let and case binder,
 * function, function parameter, loop variable, data type, constructor, interface, class,
 * exception) is drawn from names of the generated code's world: Scala keywords that ABS allows,
 * the runtime's and the library's names, members of `java.lang.Object` and `ActiveObject`,
 * standard-library functions, names ending in `_`. A fixed seed keeps the run reproducible; all
 * programs are compiled in one scalac run.
 */
class NamesPropertyTest {
  private val lower = Vector(
    "yield", "macro", "object", "lazy", "match", "implicit", "val", "var", "forSome", "sealed", "override",
    "private", "protected", "super", "final", "with", "do", "abstract", "enum", "given",
    "using", "package", "inline", "opaque", "end", "forSome", "sealed",
    "absToString", "nullCheck", "matchFail", "selectorFail", "absAssert", "lt", "le", "gt", "ge", "fdiv", "fmod", "setFromList",
    "cogs", "scala", "java", "absmodel", "lib", "locally", "identity", "implicitly", "require",
    "wait", "notify", "notifyAll", "getClass", "clone", "hashCode", "equals", "finalize", "eq", "ne",
    "synchronized", "cog", "runtime", "send", "tell", "sync", "traceName", "traceSlot", "traceRef", "main", "copy",
    "map", "set", "list", "head", "tail", "length", "size", "fst", "snd", "contains", "lookup", "toString",
    "x_", "send_", "a__", "map_", "v_", "e", "x", "c", "other", "dead", "recover", "arg0", "i").distinct
  private val upper = Vector(
    "Proc", "Cogs", "Guard", "Fut", "Active", "ActiveObject", "CogRuntime", "AbsInt", "AbsRat", "AbsSet", "AbsMap",
    "AbsData", "AbsException", "ObjectDeadException", "Option", "Some", "None", "Main", "Predef", "Null", "Any",
    "AnyRef", "Object", "Array", "Seq", "Throwable", "Boolean", "Double", "Long", "Vector", "Symbol", "Class",
    "Out", "Show", "Ord", "Types", "Prop", "Prop_", "K_", "Tuple2", "Thread", "System", "Math").distinct

  private val template =
    """module Prop;
      |data $D = $K(Int) | Other;
      |exception $E(Int);
      |interface $I { Int $M(Int $P); }
      |class $CL(Int $F) implements $I {
      |  Int $M(Int $P) {
      |    Int $L = $P + $F;
      |    await $F > 0;
      |    $F = $F + 1;
      |    return $L;
      |  }
      |}
      |def Int $FN(Int $FP) = let Int $B = $FP + 1 in case $K($B) { $K($C) => $C; Other => 0; };
      |{
      |  $I o = new $CL(1);
      |  Int $L = await o!$M(2);
      |  Int r = await o!$M(2);
      |  List<Int> xs = Cons(1, Cons(2, Nil));
      |  Int s = 0;
      |  foreach ($V in xs) { s = s + $V; }
      |  Int $B = $FN($L);
      |  Int caught = 0;
      |  try { throw $E(5); } catch { $E($C) => caught = $C; }
      |  Bool testresult = $L == 3 && r == 4 && s == 3 && $B == 4 && caught == 5;
      |}
      |""".stripMargin

  private val lowerSlots = List("F", "M", "P", "L", "B", "C", "FN", "FP", "V")
  private val upperSlots = List("D", "K", "E", "I", "CL")

  private def program(rnd: scala.util.Random): String = {
    val ls = rnd.shuffle(lower).take(lowerSlots.size)
    val us = rnd.shuffle(upper).take(upperSlots.size)
    val names = (lowerSlots.zip(ls) ++ upperSlots.zip(us)).sortBy(-_._1.length) // $FN before $F
    names.foldLeft(template) { case (t, (slot, n)) => t.replace("$" + slot, n) }
  }

  @Test def anyNamesAModelMayUseCompileAndRun(): Unit = {
    val rnd = new scala.util.Random(20261124L)
    val candidates = (0 until 60).map(_ => program(rnd)).distinct
    // Some draws are not valid ABS (an ABS keyword, or a name the checker rejects for its own
    // reasons): those are skipped, but most must be valid or the test would check little.
    val checked = candidates.zipWithIndex.flatMap { case (text, i) =>
      Parser.parse(s"prop$i.abs", text).toOption.flatMap(u => TypeChecker.check(List(u)).toOption).map(t => (i, text, t))
    }
    assertTrue(checked.size >= candidates.size / 2, s"only ${checked.size} of ${candidates.size} generated programs are valid ABS")

    val emitted = checked.map { case (i, text, typed) => (i, text, Pipeline.translate(typed, s"prop.p$i")) }
    val out = Files.createTempDirectory("absc-names")
    val sources = emitted.flatMap { case (i, _, e) => e.files.map(f => EmittedFile(s"p$i/${f.relativePath}", f.text)) }.toList
    val errors = ScalaCompiler.compile(sources, System.getProperty("java.class.path"), out)
    if (errors.nonEmpty) {
      val bad = errors.head.file.split('/').find(_.matches("p\\d+")).getOrElse("?")
      val text = emitted.find(e => s"p${e._1}" == bad).map(_._2).getOrElse("")
      fail(s"generated Scala does not compile:\n${errors.map(_.render).mkString("\n")}\nfor the program:\n$text")
    }
    val loader = new java.net.URLClassLoader("absc-names", Array(out.toUri.toURL), getClass.getClassLoader)
    for ((i, text, e) <- emitted) {
      val report = new ByteArrayOutputStream
      val session = new ProgramRunner.Session(false, new PrintStream(report, true, UTF_8))
      var outcome: ProgramRunner.Outcome = null
      Out.capture {
        val t = new Thread(() => {
          outcome = ProgramRunner.withSession(session) {
            Class.forName(e.mainObject.get, true, loader).getMethod("main", classOf[Array[String]]).invoke(null, Array.empty[String])
            session.outcome
          }
        }, s"names-p$i")
        t.setDaemon(true)
        t.start()
        t.join(60000)
        assertFalse(t.isAlive, s"program $i did not finish in 60 s:\n$text")
      }
      assertEquals(0, outcome.status, s"program $i failed:\n${report.toString(UTF_8)}\n$text")
      assertEquals(Some(true), outcome.testResult, s"program $i: testresult\n$text")
    }
  }
}
