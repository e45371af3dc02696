package cogs.absc.lib

import java.math.BigInteger

/**
 * A quick timing harness (not a test, not JMH) for the choice of the ABS Int representation:
 * [[AbsInt]] against Scala's `BigInt`, `java.math.BigInteger`, and a primitive `long` as the
 * floor. Run it from the module directory after `mvn test-compile`:
 *
 * {{{
 * java -cp target/classes:target/test-classes:$HOME/.m2/repository/org/scala-lang/scala-library/2.13.18/scala-library-2.13.18.jar \
 *   cogs.absc.lib.IntBench
 * }}}
 *
 * Each kernel runs `rounds` times over `n` iterations; the best round is reported (ns per
 * iteration). The numbers quoted in docs/values.md come from this program.
 */
object IntBench {

  // ---- kernel 1: acc = acc + i (all values fit a long) ----
  def sumLong(n: Int): Long = { var acc = 0L; var i = 0; while (i < n) { acc = acc + i; i += 1 }; acc }
  def sumBigInteger(n: Int): BigInteger = {
    var acc = BigInteger.ZERO; var i = 0
    while (i < n) { acc = acc.add(BigInteger.valueOf(i.toLong)); i += 1 }; acc
  }
  def sumBigInt(n: Int): BigInt = { var acc = BigInt(0); var i = 0; while (i < n) { acc = acc + BigInt(i); i += 1 }; acc }
  def sumAbsInt(n: Int): AbsInt = { var acc = AbsInt.Zero; var i = 0; while (i < n) { acc = acc + AbsInt(i); i += 1 }; acc }

  // ---- kernel 2: acc = acc + one, with a counter that is itself an ABS Int (typical ABS loop) ----
  def loopBigInt(n: Int): BigInt = {
    var acc = BigInt(0); var i = BigInt(0); val one = BigInt(1); val lim = BigInt(n)
    while (i < lim) { acc = acc + i; i = i + one }; acc
  }
  def loopAbsInt(n: Int): AbsInt = {
    var acc = AbsInt.Zero; var i = AbsInt.Zero; val one = AbsInt.One; val lim = AbsInt(n)
    while (i < lim) { acc = acc + i; i = i + one }; acc
  }

  // ---- kernel 3: values beyond Long (2^70 + i) ----
  private val base = BigInteger.ONE.shiftLeft(70)
  def bigBigInt(n: Int): BigInt = { var acc = BigInt(base); var i = 0; while (i < n) { acc = acc + BigInt(i); i += 1 }; acc }
  def bigAbsInt(n: Int): AbsInt = { var acc = AbsInt(base); var i = 0; while (i < n) { acc = acc + AbsInt(i); i += 1 }; acc }

  // ---- kernel 4: acc = (acc * 31 + i) % 1000003 ----
  def mixBigInt(n: Int): BigInt = {
    var acc = BigInt(1); val m = BigInt(1000003); val k = BigInt(31); var i = 0
    while (i < n) { acc = (acc * k + BigInt(i)) % m; i += 1 }; acc
  }
  def mixAbsInt(n: Int): AbsInt = {
    var acc = AbsInt.One; val m = AbsInt(1000003); val k = AbsInt(31); var i = 0
    while (i < n) { acc = (acc * k + AbsInt(i)) % m; i += 1 }; acc
  }

  private def time(name: String, n: Int, rounds: Int)(body: => Any): Double = {
    var best = Double.MaxValue
    var sink: Any = null
    for (_ <- 1 to rounds) {
      val t0 = System.nanoTime()
      sink = body
      val t = (System.nanoTime() - t0).toDouble / n
      if (t < best) best = t
    }
    Predef.println(f"$name%-28s $best%8.2f ns/op   (result ${sink.toString.take(24)})")
    best
  }

  def main(args: Array[String]): Unit = {
    val n = if (args.nonEmpty) args(0).toInt else 20000000
    val rounds = if (args.length > 1) args(1).toInt else 7
    Predef.println(s"n = $n, best of $rounds rounds, ${System.getProperty("java.vm.name")} ${System.getProperty("java.version")}")
    time("sum  long (floor)", n, rounds)(sumLong(n))
    time("sum  java BigInteger", n, rounds)(sumBigInteger(n))
    time("sum  scala BigInt", n, rounds)(sumBigInt(n))
    time("sum  AbsInt", n, rounds)(sumAbsInt(n))
    time("loop scala BigInt", n, rounds)(loopBigInt(n))
    time("loop AbsInt", n, rounds)(loopAbsInt(n))
    time("big  scala BigInt (2^70+i)", n, rounds)(bigBigInt(n))
    time("big  AbsInt (2^70+i)", n, rounds)(bigAbsInt(n))
    time("mix  scala BigInt (*,+,%)", n, rounds)(mixBigInt(n))
    time("mix  AbsInt (*,+,%)", n, rounds)(mixAbsInt(n))
  }
}
