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
 * A recording also notes what each decision ran ([[steps]]): the call's target class and method
 * (`Account.deposit`) and the simulated time of the slice. A replay given those methods
 * (`replay(decisions, methods)`) is checked: a COG whose next recorded call turns out to run
 * another method or target, or that would run, after the last slice its recording names, a call
 * that its recording never ran, has diverged from the recording (more slices of a call it did run
 * are not a divergence: how many slices a process takes depends on whether the futures it awaits
 * were already resolved, which the threads' timing decides). It then runs nothing more, the clock stops where it is (so the
 * rest of the run comes to rest), and [[divergence]] says where; the caller reports it instead of
 * the run's result. A replay without methods (a recording of an older version) is not checked
 * that way, and a COG that has run everything its recording names goes on in the default order.
 * In both, a replay that diverges otherwise (the model changed, or it reads the clock or a source
 * of randomness that was not recorded) leaves a COG waiting for a call that never comes: the
 * deadlock report says which.
 *
 * Use: `rt.useSchedule(ScheduleTrace.record())` before the first object is created, run,
 * then read [[decisions]] and [[steps]]; `rt.useSchedule(ScheduleTrace.replay(decisions, methods))`
 * for the replay.
 */
final class ScheduleTrace private (replayed: Map[String, Array[String]], methods: Map[String, Array[String]]) {
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
    cogs.asScala.map(c => c.schedule.id -> c.schedule.stepsSoFar.map(_.call)).toMap
  }

  /**
   * Recording: what each of [[decisions]] ran, in the same order (the call's target and method,
   * the simulated time of the slice). Read it once the run is over. A replay: empty.
   */
  def steps: Map[String, List[ScheduleTrace.Step]] =
    if (replayed ne null) Map.empty
    else cogs.asScala.map(c => c.schedule.id -> c.schedule.stepsSoFar).toMap

  /**
   * Recording: what each COG did, in its order (see [[ScheduleTrace.Event]]): its slices as in
   * [[steps]], and between them the calls its processes sent, the objects they created, the
   * futures they read or awaited, and how each slice ended. What the Erlang backend's traces hold
   * (for the tools written for them); a replay reads only the slices. May be read while the run
   * goes on (the Model API's `/trace`). A replay: empty.
   */
  def events: Map[String, List[ScheduleTrace.Event]] =
    if (replayed ne null) Map.empty
    else cogs.asScala.map(c => c.schedule.id -> c.schedule.eventsSoFar).toMap

  // The first divergence of a checked replay (see the class comment), or null.
  private[this] val diverged = new java.util.concurrent.atomic.AtomicReference[String]

  /** A checked replay that diverged from its recording: where, and how (the first COG that did). */
  def divergence: Option[String] = Option(diverged.get)

  private[runtime] def divergedAt(what: String): Unit = diverged.compareAndSet(null, what)

  /** A new COG made by `creator` (null: from outside the runtime's processes). */
  private[runtime] def cogCreated(cog: Cog, creator: Cog): Unit = {
    val id =
      if (creator ne null) { val s = creator.schedule; s.children += 1; s.id + "." + s.children }
      else "x" + external.incrementAndGet()
    cog.useSchedule(
      if (replayed eq null) new CogSchedule(id, null, null, this)
      else new CogSchedule(id, replayed.getOrElse(id, CogSchedule.Nothing),
        if (methods eq null) null else methods.getOrElse(id, CogSchedule.Nothing), this))
    cogs.add(cog)
  }

  /** The name of a call sent by a process of `sender` (null: from outside). */
  private[runtime] def callName(sender: Cog): String =
    if (sender ne null) { val s = sender.schedule; s.sends += 1; s.id + "#" + s.sends }
    else "x#" + external.incrementAndGet()
}

object ScheduleTrace {
  /** Record the decisions of a run. */
  def record(): ScheduleTrace = new ScheduleTrace(null, null)

  /** Replay recorded decisions (`decisions` of a recording: COG name to call names), unchecked. */
  def replay(decisions: Map[String, Seq[String]]): ScheduleTrace =
    new ScheduleTrace(decisions.map { case (k, v) => k -> v.toArray }, null)

  /**
   * Replay recorded decisions and check each against what it ran when recorded: `methods` gives,
   * for each COG, the `method` of its [[Step]]s, in the order of its decisions.
   */
  def replay(decisions: Map[String, Seq[String]], methods: Map[String, Seq[String]]): ScheduleTrace =
    new ScheduleTrace(decisions.map { case (k, v) => k -> v.toArray }, methods.map { case (k, v) => k -> v.toArray })

  /**
   * One decision of a recording: a COG ran a slice of call `call` (`x1.2#7`), whose target and
   * method were `method` (the target's class and the method: `Account.deposit`), at simulated
   * time `time` (zero in an untimed run).
   */
  final case class Step(call: String, method: String, time: SimTime)

  /**
   * One thing a COG did in a recorded run, in the COG's order. `kind` is one of the constants
   * below; `call` names the call the event is about (`x1.2#7`), except for [[NewObject]], where it
   * names the object by the creating COG and its count of objects made (`x1.2@3`: the third object
   * a process of COG `x1.2` created); `name` is
   * the method (`Account.deposit`) or, for [[NewObject]], the class; `time` the simulated time.
   *
   *  - [[Schedule]]: the COG ran a slice of `call`;
   *  - [[Invocation]]: a process of the COG sent `call`;
   *  - [[NewObject]]: a process of the COG created an object (in a new COG or its own);
   *  - [[FutureRead]]: a process of the COG read the future of `call` with `get`;
   *  - [[AwaitFuture]]: a process of the COG awaited the future of `call`, which was resolved;
   *  - [[Suspend]]: the slice of `call` ended without ending the call;
   *  - [[FutureWrite]]: the slice of `call` ended the call (its future was resolved or failed).
   */
  final case class Event(kind: String, call: String, name: String, time: SimTime)

  final val Schedule = "schedule"
  final val Invocation = "invocation"
  final val NewObject = "new_object"
  final val FutureRead = "future_read"
  final val AwaitFuture = "await_future"
  final val Suspend = "suspend"
  final val FutureWrite = "future_write"

  /** What a decision ran, as [[Step.method]] names it. */
  private[runtime] def methodOf(p: Process): String = {
    val t = p.target
    val m = if (p.label eq null) "(asynchronous call)" else p.label
    if (t eq null) m else t.getClass.getSimpleName + "." + m
  }

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
private[runtime] final class CogSchedule(val id: String, val replay: Array[String], val replayMethods: Array[String],
    val trace: ScheduleTrace) {
  var children = 0
  var sends = 0L
  /** Recording: the calls this COG ran a slice of, in order, with what they ran and when. */
  val recorded: java.util.ArrayList[String] = if (replay eq null) new java.util.ArrayList[String] else null
  val recordedMethods: java.util.ArrayList[String] = if (replay eq null) new java.util.ArrayList[String] else null
  val recordedTimes: java.util.ArrayList[SimTime] = if (replay eq null) new java.util.ArrayList[SimTime] else null
  /** Replay: the next entry of `replay`, and whether the COG waits for it to arrive. */
  var next = 0
  var waiting = false
  /** A checked replay: this COG diverged from its recording and runs nothing more. */
  var diverged = false

  def expected: String = if ((replay ne null) && next < replay.length) replay(next) else null

  // Replay: the calls that ended on this COG. How many slices a process takes depends on whether
  // each future it awaits was already resolved when it got there, which the threads' timing
  // decides; a call that ends in fewer slices than recorded would leave the COG waiting for ever
  // for a resumption that cannot come, so the recording's remaining entries for an ended call are
  // passed over. COG-confined: written when a slice ends, read when the COG picks.
  private[this] var endedCalls: java.util.HashSet[String] = _

  /** Replay: the call named `name` ended here. */
  def callEnded(name: String): Unit =
    if (name ne null) {
      if (endedCalls eq null) endedCalls = new java.util.HashSet[String]
      endedCalls.add(name)
    }

  /** Replay: the next entry, past those naming calls that ended here already. */
  def expectedLive: String = {
    while ((endedCalls ne null) && next < replay.length && endedCalls.contains(replay(next))) next += 1
    expected
  }

  /** A replay that checks each decision's method (see ScheduleTrace). */
  def checked: Boolean = replayMethods ne null

  // Recording: the COG's main task appends, and `stepsSoFar` may read from another thread while the
  // run goes on (the Model API's /trace): both under this object's monitor, which no other code
  // takes, so it is uncontended but for such a read. Only recorded runs pay for it.

  /** Recording: `p` runs a slice at `now`. */
  def record(p: Process, now: SimTime): Unit = synchronized {
    recorded.add(p.scheduleName)
    val m = ScheduleTrace.methodOf(p)
    recordedMethods.add(m)
    recordedTimes.add(now)
    recordedEvents.add(ScheduleTrace.Event(ScheduleTrace.Schedule, p.scheduleName, m, now))
  }

  /** Recording: everything this COG did, slices included (ScheduleTrace.events). */
  private[this] val recordedEvents: java.util.ArrayList[ScheduleTrace.Event] =
    if (replay eq null) new java.util.ArrayList[ScheduleTrace.Event] else null
  private[this] var objects = 0L

  /** Whether this COG records what it does (a recording, not a replay). */
  def recording: Boolean = replay eq null

  /** Recording: something a process of this COG did (an [[ScheduleTrace.Event]] other than a slice). */
  def note(kind: String, call: String, name: String, now: SimTime): Unit = synchronized {
    recordedEvents.add(ScheduleTrace.Event(kind, call, name, now))
  }

  /** Recording: a process of this COG created an object of class `cls` (its `objects`-th). */
  def noteNewObject(cls: String, now: SimTime): Unit = synchronized {
    objects += 1
    recordedEvents.add(ScheduleTrace.Event(ScheduleTrace.NewObject, s"$id@$objects", cls, now))
  }

  /** Recording: a copy of this COG's events so far, from any thread. */
  def eventsSoFar: List[ScheduleTrace.Event] = synchronized {
    val b = List.newBuilder[ScheduleTrace.Event]
    recordedEvents.forEach(e => b += e)
    b.result()
  }

  /** Recording: a copy of this COG's steps so far, from any thread. */
  def stepsSoFar: List[ScheduleTrace.Step] = synchronized {
    val b = List.newBuilder[ScheduleTrace.Step]
    var i = 0
    while (i < recorded.size) { b += ScheduleTrace.Step(recorded.get(i), recordedMethods.get(i), recordedTimes.get(i)); i += 1 }
    b.result()
  }
}

private[runtime] object CogSchedule {
  val Nothing = new Array[String](0)
}
