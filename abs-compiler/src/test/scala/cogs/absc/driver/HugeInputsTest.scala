package cogs.absc.driver

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Models past the JVM's class-file limits (a method's 64 KB of code, a constant's 65,535 bytes)
 * compile and run with the right result (issue 16, point 1): the generated code splits what is
 * too big (see `cogs.absc.lower.Limits`). Each model is generated here and run through `absc run`.
 *
 * The four expressions 10,000 terms long or deep are the slowest tests of the module (scalac
 * spends seconds on trees that deep), but they run in every build: `Limits` rewrites the two
 * shapes on which scalac's work grew with the square of the depth (a `::` chain, nested matches).
 */
class HugeInputsTest {
  private val N = 10000

  private def run(name: String, body: String, decls: String = ""): AbscResult = {
    val dir = tempDir("absc-huge")
    val f = absFile(dir, name, s"module Huge;\n$decls\n{\n$body\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertFalse(r.err.contains("internal error"), r.err.take(2000))
    assertEquals(Exit.Ok, r.status, r.err.take(2000))
    r
  }

  /** The Scala that `absc compile` writes for the model. */
  private def generated(name: String, body: String, decls: String = ""): String = {
    val dir = tempDir("absc-huge")
    val f = absFile(dir, name, s"module Huge;\n$decls\n{\n$body\n}\n")
    val out = dir.resolve("scala")
    val r = absc(AbsBackend, "compile", "-d", out.toString, f)
    assertEquals(Exit.Ok, r.status, r.err.take(2000))
    java.nio.file.Files.readString(out.resolve("Huge.scala"))
  }

  @Test def aSumOfTenThousandTerms(): Unit = {
    val r = run("sum", s"Int x = ${(1 to N).mkString(" + ")};\nprintln(toString(x));")
    assertEquals(s"${N.toLong * (N + 1) / 2}\n", r.programOut)
  }

  @Test def ifLetAndCaseNestedTenThousandDeep(): Unit = {
    val e = (0 until N).foldLeft("42")((acc, i) => i % 3 match {
      case 0 => s"let Int v$i = $i in ($acc)"
      case 1 => s"case $i { $i => ($acc); _ => 1 }"
      case _ => s"if $i > 0 then ($acc) else 1"
    })
    val r = run("nested", s"Int x = $e;\nprintln(toString(x));")
    assertEquals("42\n", r.programOut)
  }

  @Test def consNestedTenThousandDeep(): Unit = {
    val e = (1 to N).foldRight("Nil")((i, acc) => s"Cons($i, $acc)")
    val r = run("cons", s"List<Int> l = $e;\nprintln(toString(length(l)) + \" \" + toString(head(l)) + \" \" + toString(nth(l, ${N - 1})));")
    assertEquals(s"$N 1 $N\n", r.programOut)
  }

  @Test def templatesNestedTenThousandDeep(): Unit = {
    val e = (1 to N).foldLeft("`x`")((acc, _) => "`a$" + acc + "$`")
    val r = run("template", s"String s = $e;\nprintln(toString(strlen(s)));")
    assertEquals(s"${N + 1}\n", r.programOut)
  }

  @Test def aListLiteralOfHalfAMillionIntegers(): Unit = {
    val M = 500000
    val r = run("biglist", s"List<Int> l = list[${(1 to M).mkString(", ")}];\n" +
      s"println(toString(length(l)) + \" \" + toString(nth(l, 0)) + \" \" + toString(nth(l, ${M - 1})));")
    assertEquals(s"$M 1 $M\n", r.programOut)
  }

  @Test def largeListSetAndMapLiteralsOfExpressions(): Unit = {
    val M = 2000 // four chunks of 500 each
    val r = run("bigmaps",
      s"Int k = 3;\n" +
      s"List<Int> l = list[${(1 to M).map(i => s"k + $i").mkString(", ")}];\n" +
      s"Set<Int> s = set[${(1 to M).map(i => s"${i % 1000}").mkString(", ")}];\n" +
      s"Set<Int> t = set[${(1 to M).map(i => s"k * ${i % 1000}").mkString(", ")}];\n" +
      s"Map<Int, String> m = map[${(1 to M).map(i => s"Pair($i, \"v$i\")").mkString(", ")}];\n" +
      s"println(toString(length(l)) + \" \" + toString(nth(l, ${M - 1})) + \" \" + toString(size(s)) + \" \" + " +
      s"toString(size(t)) + \" \" + toString(size(keys(m))) + \" \" + lookupUnsafe(m, $M));")
    assertEquals(s"$M ${M + 3} 1000 1000 $M v$M\n", r.programOut)
  }

  @Test def stringLiteralsAndTemplatesOverSixtyFourKilobytes(): Unit = {
    val text = "é\u4e2dx" * 30000 // 180,000 bytes of UTF-8
    val r = run("bigstring",
      s"""String s = "$text";\nInt n = 7;\nString t = `$text$$n$$$text`;\n""" +
      s"""println(toString(strlen(s)) + " " + toString(strlen(t)) + " " + substr(t, ${text.length - 2}, 4));""" + "\n" +
      s"""case s { "$text" => println("matched"); _ => println("no match"); }""")
    assertEquals(s"${text.length} ${2 * text.length + 1} \u4e2dx7é\nmatched\n", r.programOut)
  }

  @Test def identifiersOverSixtyFourKilobytes(): Unit = {
    val long = "x" * 70000
    val cls = "C" + "c" * 70000
    val decls =
      s"""def Int ${long}f(Int $long) = $long + 1;
         |interface I { Int ${long}m(Int $long); }
         |class $cls implements I { Int ${long}fld = 10; Int ${long}m(Int $long) { return $long + this.${long}fld; } }
         |""".stripMargin
    val r = run("bigname", s"Int $long = 1;\nI o = new $cls();\nInt v = await o!${long}m(${long}f($long));\nprintln(toString(v));", decls)
    assertEquals("12\n", r.programOut)
  }

  @Test def anIntegerLiteralOfAMillionDigits(): Unit = {
    val digits = Iterator.from(0).map(i => ('1' + i % 9).toChar).take(1000000).mkString
    val p = 1000000007L
    val expected = digits.foldLeft(0L)((acc, d) => (acc * 10 + (d - '0')) % p)
    val r = run("bigint", s"Int x = $digits;\nprintln(toString(x % $p));")
    assertEquals(s"$expected\n", r.programOut)
  }

  /**
   * A match too big for one method is decided by a chain of `if`s (see `Limits.ifChain`): the
   * same branches as the plain match, in the same order, including a constant pattern, a binder,
   * a literal test (a guard in the generated code) and the failure of a match that covers nothing.
   */
  @Test def aMatchTooBigForOneMethodPicksTheSameBranches(): Unit = {
    val zero = s"0 * (${(1 to 400).mkString(" + ")})" // about 800 IR nodes, and worth 0
    val decls =
      s"""def Int pick(Int i, String s) =
         |  case i {
         |    0 => case s { "a" => 1 + $zero; "b" => 2 + $zero; };
         |    3 => 30 + $zero;
         |    y => if y > 5 then y + $zero else -y;
         |  };
         |""".stripMargin
    val body =
      """println(toString(pick(0, "a")) + " " + toString(pick(0, "b")) + " " + toString(pick(3, "x")) + " " +
        |  toString(pick(7, "x")) + " " + toString(pick(4, "x")));
        |try { Int v = pick(0, "c"); println(toString(v)); }
        |catch { PatternMatchFailException => println("no match"); }
        |""".stripMargin
    assertTrue(generated("bigmatch", body, decls).contains("val scrutinee$k"),
      "the match was not rewritten; the test no longer tests Limits.ifChain")
    val r = run("bigmatch", body, decls)
    assertEquals("1 2 30 7 -4\nno match\n", r.programOut)
  }

  /**
   * A chain of `Cons` longer than `Limits.MaxChain` is built as a list and prepended to its tail:
   * the same list, and its elements are still evaluated first to last, before the tail (the
   * first failure is the division by zero, not `head` of an empty list further on).
   */
  @Test def aLongConsChainIsTheSameListInTheSameOrder(): Unit = {
    def chain(heads: Seq[String], tail: String) = heads.foldRight(tail)((h, acc) => s"Cons($h, $acc)")
    val body =
      s"""List<Int> l0 = list[7, 8];
         |List<Int> l = ${chain((1 to 100).map(_.toString), "l0")};
         |println(toString(length(l)) + " " + toString(nth(l, 0)) + " " + toString(nth(l, 99)) + " " + toString(nth(l, 100)));
         |Int z = 0;
         |try {
         |  List<Int> bad = ${chain((1 to 50).map(_.toString) ++ Seq("truncate(10 / z)") ++ (1 to 50).map(_.toString) ++ Seq("head(tail(list[1]))"), "Nil")};
         |  println(toString(length(bad)));
         |} catch {
         |  DivisionByZeroException => println("division first");
         |  _ => println("something else first");
         |}
         |""".stripMargin
    assertTrue(generated("conschain", body).contains(":::"), "the chain was not rewritten; the test no longer tests Limits.flatCons")
    val r = run("conschain", body)
    assertEquals("102 1 100 7\ndivision first\n", r.programOut)
  }
}
