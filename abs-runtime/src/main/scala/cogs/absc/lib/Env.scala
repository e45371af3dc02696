package cogs.absc.lib

import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets
import java.util.concurrent.ThreadLocalRandom

/**
 * The random numbers of ABS `random(n)`. By default each thread draws from its
 * `ThreadLocalRandom` (no contention between COGs). [[setSeed]] (or `-Dcogs.absc.seed=N`) switches
 * to one seeded generator shared by all threads, so that a run whose scheduling is deterministic
 * draws the same numbers every time.
 */
object AbsRandom {
  @volatile private var seeded: java.util.Random =
    sys.props.get("cogs.absc.seed").map(s => new java.util.Random(s.trim.toLong)).orNull

  def setSeed(seed: Long): Unit = seeded = new java.util.Random(seed)

  /** Back to unseeded, per-thread generators. */
  def unseed(): Unit = seeded = null

  def below(n: AbsInt): AbsInt = {
    if (n.signum <= 0) throw PatternMatchFailException(s"random($n): the bound must be positive")
    val r: java.util.Random = { val s = seeded; if (s ne null) s else ThreadLocalRandom.current() }
    if (n.isLong) AbsInt(r.nextLong(n.lv))
    else {
      val b = n.big
      var x = new java.math.BigInteger(b.bitLength, r)
      while (x.compareTo(b) >= 0) x = new java.math.BigInteger(b.bitLength, r)
      AbsInt(x)
    }
  }
}

/** When the model started, for `ms_since_model_start()`. */
object ModelClock {
  @volatile private var startNanos: Long = System.nanoTime()

  /** Restart the clock (the generated main calls it as the model starts). */
  def start(): Unit = startNanos = System.nanoTime()

  def millisSinceStart(): Long = (System.nanoTime() - startNanos) / 1000000L
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
