package cogs.absc.lib

import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets
import java.util.concurrent.ThreadLocalRandom

/**
 * The random numbers of ABS `random(n)`, from the current run's [[AbsRandom.Source]] (see
 * `cogs.absc.run.RunContext`). By default each thread draws from its `ThreadLocalRandom` (no
 * contention between COGs). `setSeed` (or `-Dcogs.absc.seed=N`) switches to one seeded generator
 * shared by all threads, so that a run whose scheduling is deterministic draws the same numbers
 * every time. `setSeedPerCog` (a recorded or replayed run) gives each COG its own seeded stream,
 * named by the COG's name in the schedule: a COG that runs the same processes in the same order
 * draws the same numbers, however the threads interleave. The operations of this object act on
 * the current run's source (outside every run: the one of code outside runs, as `absc explore`'s).
 */
object AbsRandom {
  private def source: Source = cogs.absc.run.RunContext.current.random

  def setSeed(seed: Long): Unit = source.setSeed(seed)
  def setSeedPerCog(seed: Long): Unit = source.setSeedPerCog(seed)
  /** Back to unseeded, per-thread generators. */
  def unseed(): Unit = source.unseed()
  def below(n: AbsInt): AbsInt = source.below(n)

  /** The random numbers of one run. */
  final class Source(initialSeed: Option[Long]) {
    @volatile private var seeded: java.util.Random = initialSeed.map(new java.util.Random(_)).orNull

    def setSeed(seed: Long): Unit = { perCog = null; seeded = new java.util.Random(seed) }

    // Per-COG streams (setSeedPerCog), by COG name; null otherwise.
    @volatile private var perCog: java.util.concurrent.ConcurrentHashMap[String, java.util.Random] = _
    @volatile private var perCogSeed = 0L

    def setSeedPerCog(seed: Long): Unit = {
      perCogSeed = seed
      perCog = new java.util.concurrent.ConcurrentHashMap[String, java.util.Random]
      seeded = new java.util.Random(seed) // for code outside the runtime's COGs
    }

    def unseed(): Unit = { seeded = null; perCog = null }

    private def generator(): java.util.Random = {
      val s = seeded
      if (s eq null) return ThreadLocalRandom.current()
      val streams = perCog
      if (streams eq null) return s
      val cog = cogs.runtime.ScheduleTrace.currentCog
      if (cog eq null) s
      // Only the COG itself draws from its stream (one thread at a time): a plain Random suffices.
      else streams.computeIfAbsent(cog, c => new java.util.Random(perCogSeed ^ (c.hashCode.toLong * 0x9E3779B97F4A7C15L)))
    }

    def below(n: AbsInt): AbsInt = {
      if (n.signum <= 0) throw PatternMatchFailException(s"random($n): the bound must be positive")
      val r = generator()
      if (n.isLong) AbsInt(r.nextLong(n.lv))
      else {
        val b = n.big
        var x = new java.math.BigInteger(b.bitLength, r)
        while (x.compareTo(b) >= 0) x = new java.math.BigInteger(b.bitLength, r)
        AbsInt(x)
      }
    }
  }
}

/** When the model started, for `ms_since_model_start()`. */
object ModelClock {
  /** Restart the clock of the current run. */
  def start(): Unit = cogs.absc.run.RunContext.current.modelStartNanos = System.nanoTime()

  def millisSinceStart(): Long = (System.nanoTime() - cogs.absc.run.RunContext.current.modelStartNanos) / 1000000L
}

/** Standard input for `readln()`. */
object AbsInput {
  private lazy val in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))

  def readLine(): String = {
    Out.flush() // a prompt printed before reading must be visible
    in.synchronized {
      val line = in.readLine()
      if (line == null) "" else line.trim
    }
  }
}
