package cogs.absc.driver

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * A construct whose generated method exceeds the JVM's 64 KB of code is reported as an ABS error
 * at that construct (exit 2), not as an internal error of absc.
 */
class TooLargeTest {
  @Test def aHugeMainBlockIsAnErrorAtTheBlock(): Unit = {
    val dir = tempDir("absc-large")
    val body = "  x = x + 1;\n" * 6000
    val f = absFile(dir, "large", s"module Large;\n{\n  Int x = 0;\n$body  println(toString(x));\n}\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(Exit.Compile, r.status, r.err)
    assertTrue(r.err.contains("large.abs:2:1: error: the main block of module Large is too large for the JVM"), r.err)
    assertFalse(r.err.contains("internal error"), r.err)
  }
}
