package cogs.runtime

/**
 * A run of a program in which every scheduling decision that ABS leaves open is taken by the
 * caller, one at a time, on the caller's thread: which COG acts next and which of its enabled
 * processes runs a slice (up to its next scheduling point). For systematic exploration of a
 * model's schedules (`absc explore`); an ordinary run never makes one.
 *
 * {{{
 * val run = new ControlledRun
 * val result = run.start(mainBlock)
 * var steps = run.enabled()
 * while (!steps.isEmpty) { run.step(steps.get(pick(steps))); steps = run.enabled() }
 * // quiescent: result resolved, failed, or pending (deadlock); run.decisions replays the schedule
 * run.close()
 * }}}
 *
 * How it works: the runtime's COGs are scheduled as in any run (a message to an idle COG
 * schedules it), but a scheduled COG goes into this object's list instead of the executor's queue,
 * and nothing runs until [[step]] runs one slice of one process on the calling thread (the
 * runtime's throughput is 1). [[enabled]] asks each scheduled COG which processes it could run
 * (the same check of guards as its own pick; a COG with none goes idle there, and when no COG is
 * left the simulated clock advances as in any run, so a timed model offers the processes ready at
 * one instant). Calls reach their COG's queue when they are sent, and a COG may pick any enabled
 * process of its queue, so choosing the process covers every order in which calls could arrive.
 * A COG with a user-defined scheduler (`[Scheduler: ..]`) offers only its policy's pick.
 *
 * The run records its decisions as a [[ScheduleTrace]] does ([[decisions]]), in the format a
 * replay takes, so the schedule of any controlled run can be replayed by an ordinary runtime.
 *
 * [[step]] reports what the step touched besides its own COG ([[ControlledRun.Footprint]]): the
 * calls it sent and to which COGs, the futures it read (with `await` or `get`, resolved or not,
 * and the futures of the guard it resumed after), and whether its process ended (resolving its
 * future). A partial-order reduction builds its dependency relation from these.
 *
 * Not thread-safe: one thread drives it, and no thread outside the runtime may send to its objects.
 * The runtime's costs outside controlled runs: a null check where a COG is scheduled from a
 * thread that is not a worker, one in the pick and one where a call is named in a recorded or
 * replayed run, and one of a field of the COG where a slice reaches an `await` or a `get` (a read
 * of a future that is already resolved leaves no other trace: see `docs/explore.md`).
 */
final class ControlledRun {
  private[this] val pending = new java.util.ArrayList[Cog]
  private[this] val trace = ScheduleTrace.record()

  /** The run's runtime: create the program's objects in it only through [[start]]. */
  val runtime: CogRuntime = {
    val rt = CogRuntime.controlled()
    rt.control = this
    rt.useSchedule(trace)
    rt
  }

  /** Called by the runtime: `cog` has work (it was idle and got a message, or it ran and has more). */
  private[runtime] def scheduled(cog: Cog): Unit = pending.add(cog)

  // What the step running now touched; null between steps (start's call to the main block is no step's).
  private[this] var sentTo: Set[String] = _
  private[this] var created: Map[String, String] = _
  private[this] var read: Set[String] = _
  private[this] var ordered = false
  private[this] var inStep = false

  /** Called by the runtime: the running step sent call `p` to `cog` (named already). */
  private[runtime] def sent(cog: Cog, p: Process): Unit =
    if (inStep) {
      sentTo += cog.schedule.id
      created += p.scheduleName -> cog.schedule.id
      if (ControlledRun.orderSensitive(cog)) ordered = true
    }

  /**
   * Called by the runtime: the running step reads `f` (`await f?`, `get`, or `f` in a guard). Only
   * the futures of calls have a name in the schedule; the others are a timer's (resolved when the
   * clock advances, never by a step) or resolved from the start.
   */
  private[runtime] def read(f: Fut[_]): Unit =
    if (inStep) f match {
      case p: Process => read += p.scheduleName
      case _          =>
    }

  /** [[read]] for every future a guard mentions, resolved or not (a disjunction may hold through either). */
  private[runtime] def readGuard(g: Guard): Unit = g match {
    case f: Fut[_]      => read(f)
    case a: Guard.And   => readGuard(a.left); readGuard(a.right)
    case o: Guard.Or    => readGuard(o.left); readGuard(o.right)
    case _              => // a condition: state of the COG itself
  }

  /**
   * Start `main` as the program's main block (a process in a COG of its own), as `CogRuntime.run`
   * does; nothing runs until [[step]]. Its future tells how the main block ended.
   */
  def start[A](main: => Proc[A]): Fut[A] = {
    val block = runtime.spawn(new CogRuntime.MainBlock)
    runtime.send[CogRuntime.MainBlock, A](block, "main", _ => main)
  }

  /**
   * The steps that may be taken next, by COG (in the order the COGs were scheduled) and, within
   * a COG, in the order its processes became ready. Empty when the run is quiescent: nothing can
   * run any more (the clock, if any, cannot advance either). Valid until the next [[step]].
   */
  def enabled(): java.util.List[ControlledRun.Step] = {
    val out = new java.util.ArrayList[ControlledRun.Step]
    val offered = new java.util.ArrayList[Process]
    var i = 0
    while (i < pending.size) {
      val cog = pending.get(i)
      offered.clear()
      cog.offer(offered)
      if (offered.isEmpty) {
        // Nothing to run: the COG goes idle now (the last one to do so may advance the clock,
        // which schedules the COGs it wakes: they are appended and looked at in this loop).
        pending.remove(i)
        cog.runChosen(null)
      } else {
        var j = 0
        while (j < offered.size) { out.add(new ControlledRun.Step(cog, offered.get(j))); j += 1 }
        i += 1
      }
    }
    out
  }

  /**
   * Run one slice of `s`'s process on its COG, on this thread, and report what it touched.
   * `s` must come from the last [[enabled]].
   */
  def step(s: ControlledRun.Step): ControlledRun.Footprint = {
    if (!pending.remove(s.cog)) throw new IllegalArgumentException(s"$s is not enabled")
    sentTo = Set.empty
    created = Map.empty
    read = Set.empty
    ordered = ControlledRun.orderSensitive(s.cog)
    // A process resuming after `await g` does not evaluate g again in its slice: offer did.
    inStep = true
    if (s.guard ne null) readGuard(s.guard)
    try s.cog.runChosen(s.process)
    finally inStep = false
    val fp = new ControlledRun.Footprint(s.cogName, s.callName, sentTo, created, read, s.process.hasEnded, ordered)
    sentTo = null; created = null; read = null
    fp
  }

  /** The decisions so far, in the format of `ScheduleTrace.decisions` (COG name to its calls in order). */
  def decisions: Map[String, List[String]] = trace.decisions

  /** True if the run's clock stopped at its limit with processes still waiting for time. */
  def clockLimitReached: Boolean = runtime.clockLimitReached

  /** The processes that still wait (see `CogRuntime.deadlockReport`); meaningful once quiescent. */
  def waiting: List[String] = runtime.deadlockReport()

  /** Drop the run (its processes are abandoned). */
  def close(): Unit = runtime.close()
}

object ControlledRun {
  /**
   * One slice of one process on its COG, as offered by [[ControlledRun.enabled]]: the choice an
   * explorer makes. Its descriptions are for reports; `key` names the step stably across runs
   * that took the same decisions before it (the COG's and the call's names of the schedule).
   */
  final class Step private[runtime] (private[runtime] val cog: Cog, private[runtime] val process: Process) {
    /** The COG's name in the schedule (`x1.2`). */
    val cogName: String = cog.schedule.id

    /** The call's name in the schedule (`x1#3`). */
    val callName: String = process.scheduleName

    /** `COG/call`: unique among the steps offered at one point. */
    def key: String = s"$cogName/$callName"

    /** The object and method (`C#2.m`, `main.main`). */
    val describe: String = process.describe

    /** False for a call not yet started; true for a process resuming after a scheduling point. */
    val resumes: Boolean = process.started

    // The guard the process resumes after (checked by offer), or null.
    private[runtime] val guard: Guard = process.guard

    /** What the resuming process waited for (its guard), or null. */
    val waitedFor: String = {
      val b = cog.blockerOrNull
      if (b eq process) s"get ${Cog.describeGuard(process.waitsFor)}"
      else if (process.guard ne null) TraceHooks.guardText(cog.runtime, process.guard)
      else null
    }

    override def toString: String = s"$key $describe"
  }

  /**
   * What one step touched, besides running on its COG (`cog`, the COG's name in the schedule):
   * the names of the calls it sent with the COG each went to (`created`), the COGs (`sentTo`), the
   * names of the calls whose futures it read (`read`: `await f?`, `get`, a future in the guard
   * it resumed after, whether the future was resolved or not), and whether its process ended in
   * it (`ended`: the future of `call` is resolved by this step). `orderSensitive`: the step ran
   * on, or sent to, a COG whose picks depend on the order in which processes arrived (a
   * user-defined scheduler, `[Scheduler: ..]`) or whose processes share the resources of a
   * deployment component: no reduction can treat it as independent of other steps.
   */
  final class Footprint private[runtime] (
      val cog: String,
      val call: String,
      val sentTo: Set[String],
      val created: Map[String, String],
      val read: Set[String],
      val ended: Boolean,
      val orderSensitive: Boolean) {
    override def toString: String =
      s"$cog/$call sent ${created.keys.toList.sorted.mkString("[", ",", "]")} to ${sentTo.toList.sorted.mkString("[", ",", "]")}, " +
        s"read ${read.toList.sorted.mkString("[", ",", "]")}${if (ended) ", ended" else ""}${if (orderSensitive) ", order-sensitive" else ""}"
  }

  private def orderSensitive(c: Cog): Boolean = (c.policyPick ne null) || (c.dc ne null)
}
