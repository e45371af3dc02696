package cogs.absc.driver

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * A construct whose generated method would exceed the JVM's 64 KB of code: long statement lists
 * are cut into parts (`Limits`), so a huge method compiles and runs; what cannot be cut is an ABS
 * error at that construct (exit 2), never an internal error of absc.
 */
class TooLargeTest {
  @Test def aHugeMainBlockIsCutIntoPartsAndRuns(): Unit = {
    val dir = tempDir("absc-large")
    // Locals declared all along the block and used after it: they are declared ahead of the parts.
    val body = (1 to 3000).map(i => s"  x = x + 1;\n  Int y$i = x * 2;\n  if (y$i > 0) { x = x + y$i - y$i; }\n").mkString
    val f = absFile(dir, "large", s"module Large;\n{\n  Int x = 0;\n$body  println(toString(x + y1 - y1));\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("3000\n", r.programOut)
  }

  @Test def aHugeMethodAndLoopBodyAreCutIntoPartsAndRun(): Unit = {
    val dir = tempDir("absc-large")
    val body = (1 to 2500).map(k => s"      s = s + i;\n      Int t$k = s % 7;\n      s = s - t$k + t$k;\n").mkString
    val f = absFile(dir, "largemethod",
      s"""module LargeMethod;
         |interface I { Int sum(Int n); }
         |class C implements I {
         |  Int sum(Int n) {
         |    Int s = 0;
         |    Int i = 0;
         |    while (i < n) {
         |$body      i = i + 1;
         |    }
         |    return s;
         |  }
         |}
         |{
         |  I o = new C();
         |  Int r = await o!sum(3);
         |  println(toString(r));
         |}
         |""".stripMargin)
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("7500\n", r.programOut) // 2,500 times (0 + 1 + 2)
  }
}
