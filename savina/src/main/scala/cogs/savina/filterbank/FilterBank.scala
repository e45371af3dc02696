package cogs.savina.filterbank

import cogs.runtime.CogRuntime
import cogs.savina.{Digest, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[FilterBank]]. */
final case class Params(simulations: Int, columns: Int, channels: Int) {
  require(columns >= 2 && simulations >= 2 * columns && channels >= 1, s"bad parameters $this")
  override def toString = s"simulations=$simulations columns=$columns channels=$channels"

  /** How many values leave the second filter of a bank, and so reach the sink: each filter swallows `columns - 1` to fill its window. */
  def outputs: Int = simulations - 2 * (columns - 1)
}

/** What the sink received: how many values, their sum (in arrival order) and a digest of their bits in order. */
final case class Output(values: Int, sum: Double, digest: Long) {
  override def toString = s"$values values, sum $sum, digest ${java.lang.Long.toHexString(digest)}"
}

/**
 * Savina's `filterbank` (from StreamIt): a producer and a source, in lock step, emit
 * `simulations` samples; a splitter copies each to `channels` banks; each bank is a pipeline of
 * six stages: a delay line of `columns - 1` samples, an FIR filter of `columns` taps (the bank's
 * row of `H`), a sampler that keeps one value in `columns` and replaces the others by zero, a
 * second delay line, a second FIR filter (row of `F`) and a stage that tags values with the
 * bank's number. An integrator lines up the i-th value of every bank, a combiner adds them up
 * (in bank order), the sink consumes the sums.
 *
 * Savina's sink only counts; here the sink's [[Output]] (count, sum, digest of every value in
 * order) is the answer, checked exactly against a sequential computation that works on whole
 * arrays and skips the zeros the samplers make. Every stage keeps its input order, so the
 * floating-point operations are the same on both runtimes, done in the same order.
 *
 * Savina's source counts 0, 1, ..., 999, 0, ...; ours counts 1, ..., 1000, 1, ... With Savina's
 * defaults (`simulations = 2 columns + 2048`) the only value kept by a sampler that gets through
 * the second delay line before the run ends is the first filter's response to the first sample
 * alone: with a first sample of 0 every output would be zero. Even so, at these sizes each
 * output is that value times one tap of the second filter, so the full run checks the order
 * and plumbing of the pipeline more than its arithmetic; the quick parameters check whole
 * convolutions. Our filters compute the textbook convolution `y(n) = sum_k x(n - k) h(k)`
 * (Savina's reads its ring buffer from slot 0 rather than from the newest value), at the same
 * cost: a multiply-add per tap per value.
 */
object FilterBank extends SavinaBenchmark[Params, Output] {
  val name = "filterbank"
  val title = "Filter Bank"
  val defaults: Params = Params(simulations = 2048 + 2 * math.max(2048, 16384), columns = 16384, channels = 8)
  // More than 3 simulations per column: the samplers' second kept values reach the sink, so
  // the answer depends on whole windows of the first filter, not just on its first tap.
  val quick: Params = Params(simulations = 3000, columns = 128, channels = 8)

  /** The source's i-th sample (from 0). */
  def sample(i: Int): Double = (i % 1000 + 1).toDouble

  /** Savina's coefficients of the first filter of bank `c`. */
  def h(p: Params, c: Int): Array[Double] =
    Array.tabulate(p.columns)(i => 1.0 * i * p.columns + 1.0 * c * p.channels + c + i + c + 1)

  /** Savina's coefficients of the second filter of bank `c`. */
  def f(p: Params, c: Int): Array[Double] =
    Array.tabulate(p.columns)(i => 1.0 * i * c + 1.0 * c * c + c + i)

  def expected(p: Params): Output = {
    val n = p.columns
    val lag = n - 1
    val filtered = p.simulations - lag // values leaving the first filter (and the sampler)
    val out = new Array[Double](p.outputs)
    for (c <- 0 until p.channels) {
      val hc = h(p, c)
      val fc = f(p, c)
      // The first filter's input is the source delayed by `lag`: zero before. Its j-th output
      // ends at input j + lag; only outputs j = 0, n, 2n, ... survive the sampler.
      def delayed(t: Int): Double = if (t < lag) 0.0 else sample(t - lag)
      val kept = (0 until filtered by n).map { j =>
        val end = j + lag
        var sum = 0.0
        var k = 0
        while (k < n) { sum += delayed(end - k) * hc(k); k += 1 }
        j -> sum
      }
      // The second filter's input: the sampler's output delayed by `lag`, zero except at
      // j + lag for the kept j. Adding the products of zeros (+0.0) leaves a sum of
      // non-negative terms unchanged, so the taps on non-zero inputs, in tap order, give
      // exactly what the streaming filter computes.
      var i = 0
      while (i < out.length) {
        val end = i + lag
        var sum = 0.0
        for ((j, v) <- kept.reverseIterator) { // taps in increasing order, as the filter adds them
          val k = end - (j + lag)
          if (k >= 0 && k < n) sum += v * fc(k)
        }
        // The combiner adds the banks' values in bank order, starting from zero.
        out(i) = if (c == 0) 0.0 + sum else out(i) + sum
        i += 1
      }
    }
    var total = 0.0
    out.foreach(total += _)
    Output(out.length, total, Digest.of(out))
  }

  // ---------------------------------------------------------------- the stages' kernels, shared

  /** A delay line: gives back the value it was given `length` values ago (zero at first). */
  final class DelayLine(length: Int) {
    private[this] val state = new Array[Double](length)
    private[this] var at = 0

    def shift(v: Double): Double = {
      val out = state(at)
      state(at) = v
      at += 1
      if (at == length) at = 0
      out
    }
  }

  /** An FIR filter; [[push]] is true once its window is full, and [[output]] is then the new value. */
  final class Fir(coefficients: Array[Double]) {
    private[this] val n = coefficients.length
    private[this] val window = new Array[Double](n)
    private[this] var newest = -1
    private[this] var seen = 0
    var output = 0.0

    def push(v: Double): Boolean = {
      newest += 1
      if (newest == n) newest = 0
      window(newest) = v
      if (seen < n) seen += 1
      if (seen < n) false
      else {
        // sum_k x(n - k) h(k), k from 0: the ring buffer read backwards from the newest value,
        // in two runs so that the inner loops need no modulo.
        var sum = 0.0
        var k = 0
        var at = newest
        while (at >= 0) { sum += window(at) * coefficients(k); k += 1; at -= 1 }
        at = n - 1
        while (k < n) { sum += window(at) * coefficients(k); k += 1; at -= 1 }
        output = sum
        true
      }
    }
  }

  /** Keeps one value in `rate` (the first of each run), replaces the others by zero. */
  final class Sampler(rate: Int) {
    private[this] var seen = 0

    def pass(v: Double): Double = {
      val out = if (seen == 0) v else 0.0
      seen += 1
      if (seen == rate) seen = 0
      out
    }
  }

  /**
   * Lines up the banks' values: the i-th value of every bank makes row i. Each bank's values
   * arrive in order, so a row is complete only once every earlier row is, and one value can
   * complete at most the oldest row.
   */
  final class Integrator(channels: Int) {
    private[this] final class Row { val values = new Array[Double](channels); var filled = 0 }
    // Indexed from the oldest incomplete row; a bank may run far ahead of the others.
    private[this] val rows = scala.collection.mutable.ArrayDeque.empty[Row]
    private[this] var firstRow = 0L
    private[this] val received = new Array[Long](channels)

    /** Add bank `c`'s next value; the oldest row if that completed it, else null. */
    def add(c: Int, v: Double): Array[Double] = {
      val r = (received(c) - firstRow).toInt
      received(c) += 1
      while (rows.length <= r) rows.append(new Row)
      val row = rows(r)
      row.values(c) = v
      row.filled += 1
      if (r == 0 && row.filled == channels) {
        rows.removeHead()
        firstRow += 1
        row.values
      } else null
    }
  }

  /** The combiner's sum of a row, in bank order. */
  def combine(row: Array[Double]): Double = {
    var sum = 0.0
    var i = 0
    while (i < row.length) { sum += row(i); i += 1 }
    sum
  }

  /** The sink's state: its [[Output]] so far. */
  final class Tally {
    private[this] var values = 0
    private[this] var sum = 0.0
    // Digest.of's starting value, so that the result equals Digest.of of all the values in order.
    private[this] var digest = Digest.of(new Array[Long](0))

    def add(v: Double): Unit = {
      values += 1
      sum += v
      digest = digest * 31 + java.lang.Double.doubleToLongBits(v)
    }

    def output: Output = Output(values, sum, digest)
  }

  def runCogs(rt: CogRuntime, p: Params): Output = FilterBankCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Output = FilterBankPekko.run(system, p)
}
