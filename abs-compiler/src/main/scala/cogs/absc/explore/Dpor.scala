package cogs.absc.explore

import scala.collection.mutable

import cogs.runtime.ControlledRun

/**
 * What one step of a schedule touched, as the dependency relation of [[Dpor]] sees it: the
 * runtime's report ([[cogs.runtime.ControlledRun.Footprint]]) and what the explorer saw around
 * the step (whether it printed, whether it gave an object its number, whether a process failed in
 * it, the clock's advances so far).
 * The next step of a process that takes no further step in a run is known only by its COG and
 * process ([[Touch.untaken]]): dependent on every step of its COG, which is what the race with the
 * step that disabled it needs (see `docs/explore.md`).
 */
private[explore] final case class Touch(
    cog: String,
    call: String,
    sentTo: Set[String],
    created: Map[String, String],
    read: Set[String],
    ended: Boolean,
    orderSensitive: Boolean,
    printed: Boolean,
    named: Boolean,
    failed: Boolean,
    epoch: Long)

private[explore] object Touch {
  def apply(fp: ControlledRun.Footprint, printed: Boolean, named: Boolean, failed: Boolean, epoch: Long): Touch =
    Touch(fp.cog, fp.call, fp.sentTo, fp.created, fp.read, fp.ended, fp.orderSensitive, printed, named, failed, epoch)

  /** An enabled step that was not taken: its COG and process only. */
  def untaken(s: ControlledRun.Step, epoch: Long): Touch =
    Touch(s.cogName, s.callName, Set.empty, Map.empty, Set.empty, ended = false, orderSensitive = false, printed = false, named = false, failed = false, epoch)

  /**
   * The dependency relation: two steps that do not commute, or one of which may enable or disable
   * the other, are dependent. The argument that every such pair is caught is in docs/explore.md.
   */
  def dependent(a: Touch, b: Touch): Boolean =
    a.orderSensitive || b.orderSensitive ||
      a.epoch != b.epoch ||
      a.cog == b.cog ||
      a.sentTo.contains(b.cog) || b.sentTo.contains(a.cog) ||
      (a.ended && b.read.contains(a.call)) || (b.ended && a.read.contains(b.call)) ||
      (a.printed && b.printed) ||
      (a.named && b.named) ||
      (a.failed && b.failed)
}

/**
 * Dynamic partial-order reduction: Flanagan and Godefroid (POPL 2005) with sleep sets
 * (Godefroid 1996), stateless: every schedule is run from the start, replaying the choices of
 * the previous one up to the node where it takes a new step.
 *
 * A process plays the part of a thread: its next step is the one slice it would run now. After
 * each run, for every state `k` of the run and every process `p` alive there, the last step
 * `i < k` that is dependent on `p`'s next step and does not happen before `p` (happens-before:
 * the transitive closure of the dependency relation along the run, with the clock's advances as
 * barriers) is a race: at the state before `i`, `p` is added to the steps to try, or, if `p` was not
 * enabled there, every step enabled there. Sleep sets keep a step that was explored from a node,
 * and is independent of what ran since, from being explored again; a run whose every enabled step
 * sleeps is cut short (it would only repeat a schedule already covered).
 */
private[explore] final class Dpor(maxDepth: Int) extends Strategy {
  private final class Node(val keys: Array[String], val calls: Array[String], val cogs: Array[String], val sleep: Map[String, Touch], val choiceIndex: Int) {
    var chosen: String = _
    var touch: Touch = _
    val backtrack = mutable.LinkedHashSet.empty[String]
    val done = mutable.LinkedHashMap.empty[String, Touch]
    var epoch = 0L
    def choice: Boolean = keys.length > 1
  }

  private val nodes = mutable.ArrayBuffer.empty[Node]
  private var depth = 0
  // Nodes below this one are replayed as they were (their sleep sets stay as computed then).
  private var freshFrom = 0
  private var pendingSleep = Map.empty[String, Touch]
  // The state a run ended in: what was still enabled (a cut-short run, or the step bound).
  private var lastEnabled: Array[(String, Touch)] = Array.empty
  private var cutOff = false
  private var allDependent = false
  /** Runs cut short because every enabled step was asleep. */
  var sleepBlocked = 0L

  private def dependent(a: Touch, b: Touch): Boolean = allDependent || Touch.dependent(a, b)

  def startRun(): Unit = {
    depth = 0
    pendingSleep = Map.empty
    lastEnabled = Array.empty
  }

  // Only chooseStep is used: every step, choice or not, is a node.
  def choose(enabled: java.util.List[ControlledRun.Step]): Int = chooseStep(enabled, 0L)

  override def chooseStep(enabled: java.util.List[ControlledRun.Step], epoch: Long): Int = {
    val n = enabled.size
    val keys = Array.tabulate(n)(enabled.get(_).key)
    val d = depth
    if (d < nodes.size) {
      val node = nodes(d)
      if (!java.util.Arrays.equals(keys.asInstanceOf[Array[AnyRef]], node.keys.asInstanceOf[Array[AnyRef]]))
        throw new IllegalStateException(
          s"the model ran differently under the same decisions (step ${d + 1}: ${node.keys.mkString(", ")} enabled before, " +
            s"${keys.mkString(", ")} now); it reads something that is not scheduled (the wall clock?)")
      node.epoch = epoch
      keys.indexOf(node.chosen)
    } else {
      val choices = if (d == 0) 0 else { val p = nodes(d - 1); p.choiceIndex + (if (p.choice) 1 else 0) }
      val node = new Node(keys, Array.tabulate(n)(enabled.get(_).callName), Array.tabulate(n)(enabled.get(_).cogName), pendingSleep, choices)
      node.epoch = epoch
      val i = keys.indexWhere(k => !node.sleep.contains(k))
      if (i < 0) {
        // Every enabled step sleeps: whatever follows was covered from an earlier node.
        lastEnabled = Array.tabulate(n)(j => node.calls(j) -> Touch.untaken(enabled.get(j), epoch))
        sleepBlocked += 1
        return -1
      }
      node.chosen = keys(i)
      node.backtrack += keys(i)
      nodes += node
      i
    }
  }

  override def stepped(t: Touch): Unit = {
    if (t.orderSensitive) allDependent = true
    val node = nodes(depth)
    node.touch = t
    if (depth >= freshFrom) {
      node.done(node.chosen) = t
      pendingSleep = (node.sleep ++ node.done.view.filterKeys(_ != node.chosen)).filter { case (_, u) => !dependent(u, t) }
    }
    depth += 1
  }

  override def finished(enabled: java.util.List[ControlledRun.Step], epoch: Long): Unit =
    if (lastEnabled.isEmpty && !enabled.isEmpty)
      lastEnabled = Array.tabulate(enabled.size)(j => enabled.get(j).callName -> Touch.untaken(enabled.get(j), epoch))

  /** The race analysis of the run just finished (nodes(0 until depth)), then the next node to branch at. */
  def next(): Boolean = {
    analyse()
    var d = nodes.size - 1
    while (d >= 0 && pick(nodes(d)).isEmpty) d -= 1
    if (d < 0) false
    else {
      val node = nodes(d)
      node.chosen = pick(node).get
      nodes.remove(d + 1, nodes.size - d - 1)
      freshFrom = d
      true
    }
  }

  private def pick(node: Node): Option[String] =
    node.backtrack.find(k => !node.done.contains(k) && !node.sleep.contains(k))

  /**
   * Flanagan and Godefroid's race check, for every state `k` of the run just finished and every
   * process `p` alive there (created and not ended, enabled or not: a step that disables another,
   * as a `get` that blocks its COG does, races with it too): the last step `i < k` dependent on
   * `p`'s next step that does not happen before `p` is a race. `p`'s next step is the one it takes
   * next in this run, or, if it takes none, a step known only by its COG.
   */
  private def analyse(): Unit = {
    val n = depth
    val steps = nodes.take(n)
    val touch = steps.map(_.touch).toArray
    // pred(j): the steps that happen before step j (the clock's advances are barriers).
    val pred = new Array[java.util.BitSet](n)
    var j = 0
    while (j < n) {
      val b = new java.util.BitSet(n)
      var i = j - 1
      while (i >= 0) {
        if (!b.get(i) && (touch(i).epoch != touch(j).epoch || dependent(touch(i), touch(j)))) { b.set(i); b.or(pred(i)) }
        i -= 1
      }
      pred(j) = b
      j += 1
    }
    // Every process of the run: its COG, the state from which it exists, the step it ends in.
    val cogOf = mutable.LinkedHashMap.empty[String, String]
    val from = mutable.HashMap.empty[String, Int]
    val endAt = mutable.HashMap.empty[String, Int]
    val creator = mutable.HashMap.empty[String, Int]
    def known(call: String, cog: String, k: Int): Unit = {
      if (!cogOf.contains(call)) cogOf(call) = cog
      if (!from.contains(call) || from(call) > k) from(call) = k
    }
    var k = 0
    while (k <= n) {
      if (k < n) {
        val node = steps(k)
        node.calls.indices.foreach(e => known(node.calls(e), node.cogs(e), k))
        touch(k).created.foreach { case (c, cog) => known(c, cog, k + 1); creator(c) = k }
        if (touch(k).ended && !endAt.contains(touch(k).call)) endAt(touch(k).call) = k
      } else lastEnabled.foreach { case (c, t) => known(c, t.cog, n) }
      k += 1
    }
    // next(k)(p): the index of p's next step at or after state k.
    val nextOf = mutable.HashMap.empty[String, Int]
    val epochAt = (0 to n).map(k => if (k < n) steps(k).epoch else lastEnabled.headOption.map(_._2.epoch).getOrElse(if (n > 0) touch(n - 1).epoch else 0L))
    k = n
    while (k >= 0) {
      if (k < n) nextOf(touch(k).call) = k
      val epoch = epochAt(k)
      cogOf.foreach { case (p, cog) =>
        if (from(p) <= k && endAt.get(p).forall(_ >= k)) {
          val tp = nextOf.get(p).map(touch(_)).getOrElse(
            Touch(cog, p, Set.empty, Map.empty, Set.empty, false, false, false, false, false, epoch))
          race(k, p, tp, touch, pred, creator.get(p), epoch).foreach(i => addBacktrack(steps(i), p))
        }
      }
      k -= 1
    }
  }

  /** The last step before state `k` that races with `p`'s next step `tp`, if any. */
  private def race(k: Int, p: String, tp: Touch, touch: Array[Touch], pred: Array[java.util.BitSet], creator: Option[Int], epoch: Long): Option[Int] = {
    // The steps that happen before p: before (or being) one of p's steps so far, or its creator.
    val before = new java.util.BitSet(k)
    var q = 0
    while (q < k) { if (touch(q).call == p) { before.set(q); before.or(pred(q)) }; q += 1 }
    creator.filter(_ < k).foreach { c => before.set(c); before.or(pred(c)) }
    var i = k - 1
    while (i >= 0) {
      val ti = touch(i)
      if (ti.epoch != epoch) return None // the clock advanced since: everything earlier happens before
      if (ti.call != p && !before.get(i) && dependent(ti, tp)) return Some(i)
      i -= 1
    }
    None
  }

  private def addBacktrack(node: Node, call: String): Unit = {
    val e = node.calls.indexOf(call)
    val add = if (e >= 0) List(node.keys(e)) else node.keys.toList
    add.foreach { key =>
      if (!node.backtrack.contains(key)) {
        if (node.choiceIndex >= maxDepth) cutOff = true
        else node.backtrack += key
      }
    }
  }

  override def exhausts: Boolean = true
  override def incomplete: Option[String] =
    if (cutOff) Some(s"the bound on depth (--max-depth $maxDepth): deeper choice points were not branched on") else None
}
