package cogs.savina.bitonicsort

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark, Sorted}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[BitonicSort]]. */
final case class Params(values: Int, maxValue: Long, seed: Long) {
  require(values >= 2 && Integer.bitCount(values) == 1 && maxValue >= 1, s"bad parameters $this (values must be a power of two)")
  override def toString = {
    val max = if (java.lang.Long.bitCount(maxValue) == 1) s"2^${java.lang.Long.numberOfTrailingZeros(maxValue)}" else maxValue.toString
    s"values=$values max=$max seed=$seed"
  }
}

/**
 * Savina's `bitonicsort`: a bitonic sorting network built as a StreamIt-style pipeline of
 * actors, with the values streaming through it one message each. For n values there are log n
 * merge stages; stage `size` (2, 4, ..., n) is log(size) steps, and a step of length L cuts the
 * stream into runs of L values, one per partition: a splitter deals each run to its partition,
 * whose own splitter deals the values one by one to L/2 compare-exchange actors (so exchanger i
 * gets values i and i + L/2 of the run), whose joiner puts their outputs back in order; the
 * step's joiner puts the partitions' runs back in order. An exchanger emits its two values in
 * ascending or descending order, as the stage's network says (the last stage: ascending). A
 * step of length 2 has exchangers in place of partitions. Adapters tag values with the index of
 * the partition they leave, as the joiners need, and forward them. The answer is the sequence
 * the validator receives at the end (count, order, digest), checked against the sorted input.
 */
object BitonicSort extends SavinaBenchmark[Params, Sorted] {
  val name = "bitonicsort"
  val title = "Bitonic Sort"
  val defaults: Params = Params(values = 4096, maxValue = 1L << 60, seed = 2048)
  val quick: Params = Params(values = 256, maxValue = 1L << 60, seed = 2048)

  def input(p: Params): Array[Long] = {
    val random = new Rand(p.seed)
    Array.fill(p.values)((random.nextLong() >>> 1) % p.maxValue)
  }

  def expected(p: Params): Sorted = Sorted.of(input(p).sorted)

  /**
   * One step of the network: `partitions` runs of `length` values each; partition j sorts its run
   * ascending when `ascending(j)`.
   *
   * @param period partitions of this step per run of the stage's first step: in all but the
   *               last stage, the runs of that first step alternate ascending and descending
   * @param last   a step of the last stage (everything ascending; no adapter after its joiner)
   */
  final case class Step(length: Int, partitions: Int, period: Int, last: Boolean) {
    def ascending(j: Int): Boolean = last || (j / period) % 2 == 0
  }

  /** The merge stages of the network in stream order: sizes 2, 4, ..., n / 2, each a list of steps; then the last stage. */
  def stages(n: Int): List[List[Step]] = {
    def sizes(from: Int): List[Int] = if (from >= n) Nil else from :: sizes(from * 2)
    val merges = sizes(2).map { size =>
      // Steps of lengths size, size / 2, ..., 2.
      Iterator.iterate(1)(_ * 2).takeWhile(_ <= size / 2).map(i => Step(size / i, (n / size) * i, i, last = false)).toList
    }
    val lastStage = Iterator.iterate(1)(_ * 2).takeWhile(_ <= n / 2).map(i => Step(n / i, i, i, last = true)).toList
    merges :+ lastStage
  }

  /** A splitter's dealing: runs of `run` values to each of `ways` receivers in turn. */
  final class Dealer(run: Int, ways: Int) {
    private[this] var way = 0
    private[this] var count = 0

    /** The receiver of the next value. */
    def next(): Int = {
      val w = way
      count += 1
      if (count == run) { count = 0; way = (way + 1) % ways }
      w
    }
  }

  /**
   * A joiner's state: the values received from each of `ways` senders (each sends `perWay`, in
   * order), given back in runs of `run` values from each sender in turn.
   */
  final class Merge(ways: Int, run: Int, perWay: Int) {
    private[this] val buffer = new Array[Long](ways * perWay)
    private[this] val written = new Array[Int](ways)
    private[this] val read = new Array[Int](ways)
    private[this] var way = 0
    private[this] var count = 0
    private[this] var taken = 0

    def put(from: Int, v: Long): Unit = { buffer(from * perWay + written(from)) = v; written(from) += 1 }

    /** The next value in order has arrived. */
    def available: Boolean = read(way) < written(way)

    def take(): Long = {
      val v = buffer(way * perWay + read(way))
      read(way) += 1
      taken += 1
      count += 1
      if (count == run) { count = 0; way = (way + 1) % ways }
      v
    }

    /** Every value went through. */
    def complete: Boolean = taken == buffer.length
  }

  def runCogs(rt: CogRuntime, p: Params): Sorted = BitonicSortCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Sorted = BitonicSortPekko.run(system, p)
}
