package cogs.runtime

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicLong
import scala.jdk.CollectionConverters._

/**
 * The scheduling decisions of a run, recorded so that a later run can replay them (ABS's
 * `--record`/`--replay`, as in the reference toolchain's Erlang backend): a run whose outcome
 * depends on scheduling becomes reproducible.
 *
 * What is recorded is, for each COG, the sequence of processes it ran a slice of. COGs and calls
 * are named by where they come from, not by when: a COG by its creator and the creator's count of
 * COGs made so far (`x1.2.1`: the first COG made by the second COG made by the first COG created
 * from outside the runtime's processes), a call by its sender COG and the sender's count of calls
 * (`x1.2#7`). Those names do not depend on timing as long as every COG runs the same processes in
 * the same order, which is what a replay enforces: a COG runs the process its recording names
 * next, and waits (holding no thread) until it has arrived. So a replay reproduces every COG's
 * schedule, and with it every value computed from messages and their order, however the threads
 * interleave. It does not order output that COGs print at the same time on different threads.
 *
 * A replay that diverges (the model changed, or it reads the clock or a source of randomness that
 * was not recorded) leaves a COG waiting for a call that never comes: the deadlock report says
 * which. When a COG has run everything its recording names, it goes on in the default order.
 *
 * Use: `rt.useSchedule(ScheduleTrace.record())` before the first object is created, run,
 * then read [[decisions]]; `rt.useSchedule(ScheduleTrace.replay(decisions))` for the replay.
 */
final class ScheduleTrace private (replayed: Map[String, Array[String]]) {
  // Every COG of the run (for `decisions`), and the counter naming what comes from outside.
  private[this] val cogs = new ConcurrentLinkedQueue[Cog]
  private[this] val external = new AtomicLong

  /** True for a replay, false for a recording. */
  def isReplay: Boolean = replayed ne null

  /**
   * Recording: every COG's processes in the order they ran (by call name). Read it once the run
   * is over (after `run` returned or the runtime was closed).
   */
  def decisions: Map[String, List[String]] = {
    if (replayed ne null) return replayed.map { case (k, v) => k -> v.toList }
    cogs.asScala.map(c => c.schedule.id -> c.schedule.recorded.asScala.toList).toMap
  }

  /** A new COG made by `creator` (null: from outside the runtime's processes). */
  private[runtime] def cogCreated(cog: Cog, creator: Cog): Unit = {
    val id =
      if (creator ne null) { val s = creator.schedule; s.children += 1; s.id + "." + s.children }
      else "x" + external.incrementAndGet()
    cog.schedule = new CogSchedule(id, if (replayed eq null) null else replayed.getOrElse(id, CogSchedule.Nothing))
    cogs.add(cog)
  }

  /** The name of a call sent by a process of `sender` (null: from outside). */
  private[runtime] def callName(sender: Cog): String =
    if (sender ne null) { val s = sender.schedule; s.sends += 1; s.id + "#" + s.sends }
    else "x#" + external.incrementAndGet()
}

object ScheduleTrace {
  /** Record the decisions of a run. */
  def record(): ScheduleTrace = new ScheduleTrace(null)

  /** Replay recorded decisions (`decisions` of a recording: COG name to call names). */
  def replay(decisions: Map[String, Seq[String]]): ScheduleTrace =
    new ScheduleTrace(decisions.map { case (k, v) => k -> v.toArray })

  /** Java: `replay`. */
  def replay(decisions: java.util.Map[String, java.util.List[String]]): ScheduleTrace =
    replay(decisions.asScala.map { case (k, v) => k -> v.asScala.toSeq }.toMap)

  /**
   * The name of the COG running the calling process in a recorded or replayed run, or null: for
   * per-COG state that must be the same in a replay, such as a stream of random numbers.
   */
  def currentCog: String = {
    val c = Cog.current()
    if ((c eq null) || (c.schedule eq null)) null else c.schedule.id
  }
}

/**
 * A COG's part of a [[ScheduleTrace]]; touched only by the COG's own main task (its counters also
 * by the code that creates objects and sends calls from its processes, which runs in that task).
 */
private[runtime] final class CogSchedule(val id: String, val replay: Array[String]) {
  var children = 0
  var sends = 0L
  /** Recording: the calls this COG ran a slice of, in order. */
  val recorded: java.util.ArrayList[String] = if (replay eq null) new java.util.ArrayList[String] else null
  /** Replay: the next entry of `replay`, and whether the COG waits for it to arrive. */
  var next = 0
  var waiting = false

  def expected: String = if ((replay ne null) && next < replay.length) replay(next) else null
}

private[runtime] object CogSchedule {
  val Nothing = new Array[String](0)
}
