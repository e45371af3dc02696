package cogs.savina

/**
 * A small deterministic pseudo-random generator (SplitMix64), one per actor or object, never
 * shared between threads. The benchmarks that draw random numbers use it in both implementations
 * and in the computation of their expected answers, so that a seed gives the same sequence
 * everywhere. (Savina has its own `PseudoRandom`; the sequences differ, the distributions do not
 * matter to the benchmarks.)
 */
final class Rand(seed: Long) {
  private[this] var state = seed

  def nextLong(): Long = {
    state += 0x9e3779b97f4a7c15L
    var z = state
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL
    z ^ (z >>> 31)
  }

  /** Uniform in [0, bound). */
  def nextInt(bound: Int): Int = {
    require(bound > 0, s"bound must be positive, got $bound")
    ((nextLong() >>> 33) % bound).toInt
  }

  /** Uniform in [0, 1). */
  def nextDouble(): Double = (nextLong() >>> 11) * Rand.Ulp
}

object Rand {
  /** 2^-53: the spacing of doubles in [0.5, 1). */
  private final val Ulp = 1.0 / (1L << 53)
}

object Work {
  /**
   * Savina's busy wait: `limit` draws from a generator, and a result the JIT cannot drop. Used
   * where a benchmark models time spent working (sleeping barber, producer-consumer).
   */
  def busyWait(rand: Rand, limit: Int): Long = {
    var acc = 0L
    var k = 0
    while (k < limit) { acc += rand.nextLong(); k += 1 }
    acc
  }

  /** Savina's `performComputation(theta)` of fjcreate and fjthrput: sin(theta)^2, checked positive. */
  def sinSquared(theta: Double): Double = {
    val s = math.sin(theta)
    val r = s * s
    if (r <= 0) throw new IllegalStateException(s"unrealistic result $r")
    r
  }
}

/** Order-sensitive digests of answers made of many numbers. */
object Digest {
  def of(xs: Array[Long]): Long = {
    var h = 1125899906842597L
    var i = 0
    while (i < xs.length) { h = h * 31 + xs(i); i += 1 }
    h
  }

  def of(xs: Array[Double]): Long = of(xs.map(java.lang.Double.doubleToLongBits))
}
