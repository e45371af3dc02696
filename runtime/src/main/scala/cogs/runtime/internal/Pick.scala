package cogs.runtime.internal

import cogs.runtime.{Active, Cog, CogSchedule, Scheduled, ScheduleTrace, SchedulingPolicy, SchedulingPolicyException}
import cogs.runtime.{Process => Proc0}

import java.util.ArrayDeque

/**
 * How a COG picks its next process when it does not run in the default order: a user's
 * scheduling policy (ABS `[Scheduler: ..]`), a recording of the run's decisions, or a replay of
 * one. Chosen once per COG, before its first process is queued ([[Pick.of]], from
 * `Cog.usePolicy` and `Cog.useSchedule`), and changed afterwards only when a policy fails
 * (`Cog.dropPolicy`), on the COG's own main task.
 *
 * The default order (FIFO among the processes whose guards hold) is not one of these classes: a
 * COG in that order has no pick object at all (`Cog.pick` is null), and `Cog.pickNext` runs its
 * own loop `Cog.pickFifo` after one null test, as before the strategies were classes. So the
 * default path has no virtual call (the call site `k.next` is reached only by COGs that have a
 * pick, and in a run it sees the one or two classes that run uses), and no allocation.
 *
 * Every method is called by the COG's main task only (or by a controlled run's controller between
 * the COG's batches, see `Cog.offer`), so the classes need no synchronisation.
 */
private[runtime] abstract class Pick {
  /**
   * The next process among the ready ones `r` of `cog`, taken out of `r` and resumed, or null
   * (none may run now). Those whose guards no longer hold are parked again, as in the default pick.
   */
  def next(cog: Cog, r: ArrayDeque[Proc0]): Proc0

  /** Whether the COG waits although processes are ready (a replay whose next call has not arrived). */
  def waits: Boolean = false

  /** The user's policy this pick follows (alone, or after a replay's end), or null. */
  def policy: PolicyPick = null
}

private[runtime] object Pick {
  /** The pick of a COG with the schedule part `s` (or null) and the policy `policy` (or null); null for the default order. */
  def of(s: CogSchedule, policy: PolicyPick): Pick =
    if (s eq null) policy
    else if (s.recording) new RecordPick(s, policy)
    else new ReplayPick(s, policy)

  /** The pick after a recording or a replay's end: the policy's, or the default order. */
  @inline private[internal] def usual(cog: Cog, inner: Pick, r: ArrayDeque[Proc0]): Proc0 =
    if (inner eq null) cog.pickFifo(r) else inner.next(cog, r)
}

/**
 * The policy's pick among the ready processes whose guards hold; the others stay ready in their
 * order. One that raises from its guard is taken at once: checking its guard replaced its
 * continuation by the exception, so it must run next, and it only raises. The policy is made
 * from the COG's first object at the first pick, on the COG's own thread, so it may read that
 * object's state.
 */
private[runtime] final class PolicyPick(maker: Active => SchedulingPolicy) extends Pick {
  private[this] var made: SchedulingPolicy = _

  override def policy: PolicyPick = this

  def next(cog: Cog, r: ArrayDeque[Proc0]): Proc0 = {
    val candidates = new java.util.ArrayList[Scheduled](r.size)
    val raising = cog.collectCandidates(r, candidates)
    if (raising ne null) return raising
    if (candidates.isEmpty) return null
    var pol = made
    if (pol eq null) { pol = maker(cog.firstObject); made = pol }
    val chosen =
      try pol.choose(java.util.Collections.unmodifiableList(candidates))
      catch {
        case e: Throwable =>
          cog.putBack(r, candidates)
          cog.dropPolicy()
          throw new SchedulingPolicyException(s"the scheduling policy of $cog failed: $e", e)
      }
    var i = 0
    while (i < candidates.size && (candidates.get(i) ne chosen)) i += 1
    if (i == candidates.size) {
      cog.putBack(r, candidates)
      cog.dropPolicy()
      throw new SchedulingPolicyException(
        s"the scheduling policy of $cog chose ${chosen match { case p: Proc0 => p.describe; case o => String.valueOf(o) }}, which is not one of the processes that may run", null)
    }
    candidates.remove(i)
    cog.putBack(r, candidates)
    val c = chosen.asInstanceOf[Proc0]
    c.resumed()
    c
  }
}

/**
 * A recorded run: the usual pick (the policy's, or the default order), noted in the COG's part of
 * the recording. A controlled run's choice comes first (a controlled run always records).
 */
private[runtime] final class RecordPick(s: CogSchedule, inner: PolicyPick) extends Pick {
  override def policy: PolicyPick = inner

  def next(cog: Cog, r: ArrayDeque[Proc0]): Proc0 = {
    val c = cog.chosen
    if (c ne null) return cog.takeChosen(r, c, s)
    val p = Pick.usual(cog, inner, r)
    if (p ne null) s.record(p, cog.runtime.now)
    p
  }
}

/**
 * A replay: the process the recording names next, once it may run; until then nothing (the COG
 * waits: [[waits]], which `Cog.hasLocalWork` asks, and `Cog.accept` clears when a process
 * arrives). After the recording's end, the usual pick. A checked replay (given the methods) stops
 * the COG where the run differs from the recording (see [[ScheduleTrace]]).
 */
private[runtime] final class ReplayPick(s: CogSchedule, after: PolicyPick) extends Pick {
  override def policy: PolicyPick = after
  override def waits: Boolean = s.waiting

  def next(cog: Cog, r: ArrayDeque[Proc0]): Proc0 = {
    val c = cog.chosen
    if (c ne null) return cog.takeChosen(r, c, s)
    if (s.diverged) { s.waiting = true; return null }
    val expected = s.expectedLive
    if (expected eq null) {
      if (!s.checked) return Pick.usual(cog, after, r)
      // A checked replay past the end of this COG's recording. A call the recording never ran here
      // is one the recorded run did not make: a divergence. A call it did run resumes: how many
      // slices a process takes depends on whether each future it awaits was already resolved when
      // it got there, which the threads' timing decides (one more resumption of an `awaitAll` is
      // not another program), so that goes on as in an unchecked replay.
      val candidates = new java.util.ArrayList[Scheduled](r.size)
      // (collectCandidates put the others back already when one raises.)
      val raising = cog.collectCandidates(r, candidates)
      if (raising ne null) r.addFirst(raising) else cog.putBack(r, candidates)
      val next = if (raising ne null) raising else if (candidates.isEmpty) null else candidates.get(0).asInstanceOf[Proc0]
      if ((next ne null) && s.replay.contains(next.scheduleName)) return Pick.usual(cog, after, r)
      if (next ne null) {
        diverge(cog, s"COG ${s.id} ran the ${s.replay.length} slices its recording names, but the run goes on with call " +
          s"${next.scheduleName} (${ScheduleTrace.methodOf(next)}): the recorded run ended there")
      }
      return null
    }
    val candidates = new java.util.ArrayList[Scheduled](r.size)
    val raising = cog.collectCandidates(r, candidates)
    if (raising ne null) {
      if (expected == raising.scheduleName) {
        if (s.checked && !sameMethod(cog, raising)) { r.addFirst(raising); return null }
        s.next += 1
      }
      return raising
    }
    var i = 0
    while (i < candidates.size && candidates.get(i).asInstanceOf[Proc0].scheduleName != expected) i += 1
    if (i == candidates.size) {
      cog.putBack(r, candidates)
      s.waiting = true
      return null
    }
    val p = candidates.get(i).asInstanceOf[Proc0]
    if (s.checked && !sameMethod(cog, p)) { cog.putBack(r, candidates); return null }
    candidates.remove(i)
    cog.putBack(r, candidates)
    s.next += 1
    p.resumed()
    p
  }

  /**
   * A checked replay: whether `p`, the call the recording names next, runs what it ran when
   * recorded; if not, the COG has diverged (and stops).
   */
  private def sameMethod(cog: Cog, p: Proc0): Boolean = {
    val recorded = if (s.next < s.replayMethods.length) s.replayMethods(s.next) else null
    val here = ScheduleTrace.methodOf(p)
    // A recording whose list of methods is shorter than its decisions (edited by hand) is checked as far as it goes.
    // One in the Erlang backend's format names the method without its class.
    if ((recorded eq null) || recorded == here || (recorded.indexOf('.') < 0 && here.endsWith("." + recorded))) true
    else {
      diverge(cog, s"COG ${s.id}, slice ${s.next + 1} of its recording: the recording runs call ${p.scheduleName} as " +
        s"$recorded, but here that call is $here")
      false
    }
  }

  /** This COG diverged from a checked replay: it runs nothing more, and the clock stops where it is. */
  private def diverge(cog: Cog, what: String): Unit = {
    s.diverged = true
    s.waiting = true
    s.trace.divergedAt(what)
    cog.runtime.replayDiverged()
  }
}
