package cogs.absc.explore

import scala.collection.mutable

import cogs.runtime.ControlledRun

/**
 * Takes the decisions of the schedules an [[Explorer]] runs: `startRun` before a schedule,
 * `choose` at each of its choice points (two or more enabled steps), `next` after it (false: no
 * more schedules to run).
 */
private[explore] abstract class Strategy {
  def startRun(): Unit
  def choose(enabled: java.util.List[ControlledRun.Step]): Int
  /**
   * Before every step, choice or not (`epoch`: the clock's advances so far): the index of the
   * step to take, or -1 to cut the run short (it would repeat a schedule already covered).
   */
  def chooseStep(enabled: java.util.List[ControlledRun.Step], epoch: Long): Int =
    if (enabled.size == 1) 0 else choose(enabled)
  /** After every step: what it touched. */
  def stepped(t: Touch): Unit = ()
  /** At the end of a run: what was still enabled (nothing, unless it was cut short or hit the step bound). */
  def finished(enabled: java.util.List[ControlledRun.Step], epoch: Long): Unit = ()
  def next(): Boolean
  /** True if running out of schedules (`next` false) means every schedule was run. */
  def exhausts: Boolean
  /** A bound that made the exploration leave schedules out, if one did. */
  def incomplete: Option[String] = None
}

private[explore] object Strategy {
  def apply(o: Explorer.Options): Strategy = o.strategy match {
    case "dpor"       => new Dpor(o.maxDepth)
    case "exhaustive" => new Exhaustive(o.maxDepth)
    case "random"     => new RandomWalk(o.seed)
    case "pct"        => new Pct(o.seed, o.pctDepth)
    case other        => throw new IllegalArgumentException(s"no strategy '$other'")
  }

  /**
   * Stateless depth-first search over the choice points: each schedule replays the choices of the
   * previous one up to its deepest choice point with an alternative left, takes that alternative,
   * and then the first step at every new choice point. A run is re-executed from the start each
   * time (no state is saved), which is why the runs must be deterministic given their choices: the
   * step at every replayed point is checked by name, and a difference is reported, not ignored.
   * Choice points deeper than `maxDepth` take their first step and are not branched on; that
   * is noted, and exhaustiveness is then not claimed.
   */
  final class Exhaustive(maxDepth: Int) extends Strategy {
    // The current schedule's choice points: what was chosen, among how many, and its name.
    private val chosen = mutable.ArrayBuffer.empty[Int]
    private val counts = mutable.ArrayBuffer.empty[Int]
    private val names = mutable.ArrayBuffer.empty[String]
    private var depth = 0
    private var replayDepth = 0
    private var cutOff = false

    def startRun(): Unit = depth = 0

    def choose(enabled: java.util.List[ControlledRun.Step]): Int = {
      val d = depth
      depth += 1
      if (d < replayDepth) {
        val i = chosen(d)
        if (counts(d) != enabled.size || ((names(d) ne null) && enabled.get(i).key != names(d)))
          throw new IllegalStateException(
            s"the model ran differently under the same decisions (choice point ${d + 1}: ${names(d)} among ${counts(d)} before, " +
              s"${enabled.get(math.min(i, enabled.size - 1)).key} among ${enabled.size} now); it reads something that is not scheduled (the wall clock?)")
        names(d) = enabled.get(i).key
        i
      } else {
        if (d >= maxDepth) { cutOff = true; return 0 }
        chosen += 0
        counts += enabled.size
        names += enabled.get(0).key
        0
      }
    }

    def next(): Boolean = {
      var d = chosen.size - 1
      while (d >= 0 && chosen(d) + 1 >= counts(d)) d -= 1
      if (d < 0) false
      else {
        chosen.remove(d + 1, chosen.size - d - 1)
        counts.remove(d + 1, counts.size - d - 1)
        names.remove(d + 1, names.size - d - 1)
        chosen(d) += 1
        replayDepth = d + 1
        names(d) = null // the alternative's name, set when the run reaches it
        true
      }
    }

    override def exhausts: Boolean = true
    override def incomplete: Option[String] =
      if (cutOff) Some(s"the bound on depth (--max-depth $maxDepth): deeper choice points took their first step only") else None
  }

  /** Every choice uniformly at random; one seeded generator for the whole exploration. */
  final class RandomWalk(seed: Long) extends Strategy {
    private val rnd = new java.util.SplittableRandom(seed)
    def startRun(): Unit = ()
    def choose(enabled: java.util.List[ControlledRun.Step]): Int = rnd.nextInt(enabled.size)
    def next(): Boolean = true
    def exhausts: Boolean = false
  }

  /**
   * Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010),
   * with processes in the place of threads: each process gets a random priority when first seen,
   * the enabled step of the highest-priority process runs, and at `depth - 1` randomly chosen
   * steps of the run the priority of the process that runs is lowered below all others. A bug of
   * depth `d` (d ordering constraints) is found by one run with probability at least
   * 1/(n k^(d-1)), n processes and k steps. `k` is estimated from the longest run so far.
   */
  final class Pct(seed: Long, depth: Int) extends Strategy {
    private val rnd = new java.util.SplittableRandom(seed)
    private val priority = mutable.HashMap.empty[String, Long]
    private var changePoints = Set.empty[Int]
    private var step = 0
    private var longest = 16
    private var lowered = 0L

    def startRun(): Unit = {
      priority.clear()
      step = 0
      lowered = 0L
      changePoints = Set.fill(math.max(0, depth - 1))(rnd.nextInt(longest))
    }

    def choose(enabled: java.util.List[ControlledRun.Step]): Int = {
      var best = 0
      var bestP = Long.MinValue
      var i = 0
      while (i < enabled.size) {
        val k = enabled.get(i).callName
        val p = priority.getOrElseUpdate(k, rnd.nextLong(1L << 40, Long.MaxValue))
        if (p > bestP) { bestP = p; best = i }
        i += 1
      }
      if (changePoints.contains(step)) {
        lowered += 1
        priority(enabled.get(best).callName) = lowered // below every initial priority
      }
      step += 1
      if (step > longest) longest = step
      best
    }

    def next(): Boolean = true
    def exhausts: Boolean = false
  }
}
