package cogs.absc.driver

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Models past the JVM's class-file limits (a method's 64 KB of code, a constant's 65,535 bytes)
 * compile and run with the right result (issue 16, point 1): the generated code splits what is
 * too big (see `cogs.absc.lower.Limits`). Each model is generated here and run through `absc run`.
 *
 * The four expressions 10,000 terms long or deep run only with `-Dabsc.deepTests=true`: scalac's
 * typer is slow on such trees (40 s to over 200 s each on the shared 2-core machine, typing
 * overloaded `AbsInt(..)` and `+` and nested blocks), too slow for every `mvn verify`; see the
 * README for which of them were seen to pass.
 */
class HugeInputsTest {
  private val N = 10000

  private def deep(): Unit =
    org.junit.jupiter.api.Assumptions.assumeTrue(java.lang.Boolean.getBoolean("absc.deepTests"),
      "10,000-deep expressions: -Dabsc.deepTests=true")

  private def run(name: String, body: String, decls: String = ""): AbscResult = {
    val dir = tempDir("absc-huge")
    val f = absFile(dir, name, s"module Huge;\n$decls\n{\n$body\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertFalse(r.err.contains("internal error"), r.err.take(2000))
    assertEquals(Exit.Ok, r.status, r.err.take(2000))
    r
  }

  @Test def aSumOfTenThousandTerms(): Unit = {
    deep()
    val r = run("sum", s"Int x = ${(1 to N).mkString(" + ")};\nprintln(toString(x));")
    assertEquals(s"${N.toLong * (N + 1) / 2}\n", r.programOut)
  }

  @Test def ifLetAndCaseNestedTenThousandDeep(): Unit = {
    deep()
    val e = (0 until N).foldLeft("42")((acc, i) => i % 3 match {
      case 0 => s"let Int v$i = $i in ($acc)"
      case 1 => s"case $i { $i => ($acc); _ => 1 }"
      case _ => s"if $i > 0 then ($acc) else 1"
    })
    val r = run("nested", s"Int x = $e;\nprintln(toString(x));")
    assertEquals("42\n", r.programOut)
  }

  @Test def consNestedTenThousandDeep(): Unit = {
    deep()
    val e = (1 to N).foldRight("Nil")((i, acc) => s"Cons($i, $acc)")
    val r = run("cons", s"List<Int> l = $e;\nprintln(toString(length(l)) + \" \" + toString(head(l)) + \" \" + toString(nth(l, ${N - 1})));")
    assertEquals(s"$N 1 $N\n", r.programOut)
  }

  @Test def templatesNestedTenThousandDeep(): Unit = {
    deep()
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
}
