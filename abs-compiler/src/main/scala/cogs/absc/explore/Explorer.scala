package cogs.absc.explore

import java.io.PrintStream
import java.nio.file.Path

import scala.collection.mutable

import cogs.absc.lib.{AbsRandom, Identity, Out}
import cogs.absc.run.{ProgramRunner, ScheduleFile}
import cogs.runtime.{CallFailedException, CogRuntime, ControlledRun, Proc, SimTime}

/**
 * `absc explore`: runs a compiled model's main block again and again, each time on a fresh
 * [[cogs.runtime.ControlledRun]] (the classes are loaded once), with every scheduling decision
 * taken by a [[Strategy]], and sorts the runs' outcomes into classes. See `docs/explore.md`.
 *
 * One run is a sequence of choice points: wherever more than one step is enabled (a slice of
 * some process on some COG), the strategy picks one; where only one is, it runs without a
 * choice. The run ends when nothing is enabled (quiescence) or after `maxSteps` steps.
 */
final class Explorer(main: CogRuntime => Proc[Any], options: Explorer.Options, err: PrintStream) {
  import Explorer._

  /** Set (by Ctrl-C's hook, or a test) to stop after the current schedule. */
  @volatile var stopRequested = false

  private val classes = mutable.LinkedHashMap.empty[String, OutcomeClass]

  def explore(): Result = {
    val strategy = Strategy(options)
    val started = System.nanoTime()
    var lastReport = started
    var schedules = 0L
    var cutShort = 0L
    var stepBound = false
    var stoppedBy: Option[String] = None
    var more = true
    CogRuntime.logSilenced = true
    while (more) {
      if (schedules >= options.maxSchedules) { more = false; stoppedBy = Some(s"the bound on schedules (--max-schedules ${options.maxSchedules})") }
      else if (stopRequested) { more = false; stoppedBy = Some("an interrupt (Ctrl-C or a termination signal)") }
      else {
        val r = runOnce(strategy)
        if (r eq null) cutShort += 1 // redundant (dpor's sleep sets): covered by another schedule
        else {
          schedules += 1
          if (r.outcome.isInstanceOf[StepLimit]) stepBound = true
          val c = classes.getOrElseUpdate(r.outcome.key, new OutcomeClass(r.outcome, r.steps, r.decisions, schedules))
          c.count += 1
        }
        more = strategy.next()
        val now = System.nanoTime()
        if (options.progress && now - lastReport > 1000000000L) {
          lastReport = now
          err.println(f"absc explore: $schedules%,d schedules, ${classes.size}%d distinct outcomes, ${(now - started) / 1e9}%.1f s")
        }
      }
    }
    val seconds = (System.nanoTime() - started) / 1e9
    if (stepBound && stoppedBy.isEmpty) stoppedBy = Some(s"the bound on steps (--max-steps ${options.maxSteps}): some schedules were not run to their end")
    val incomplete = stoppedBy.orElse(strategy.incomplete)
    Result(schedules, classes.values.toList, incomplete, strategy.exhausts && incomplete.isEmpty, seconds, cutShort)
  }

  /** One schedule: a fresh runtime, the main block, steps until quiescence. Null if the strategy cut it short. */
  private def runOnce(strategy: Strategy): RunResult = {
    strategy.startRun()
    val run = new ControlledRun
    val steps = mutable.ArrayBuffer.empty[StepRecord]
    var stepLimit = false
    var abandoned = false
    var fut: cogs.runtime.Fut[Any] = null
    AbsRandom.setSeedPerCog(options.seed)
    Identity.reset()
    val output =
      try Out.capture {
        options.clockLimit.foreach(run.runtime.limitClock)
        fut = run.start(main(run.runtime))
        var enabled = run.enabled()
        while (!enabled.isEmpty && !stepLimit && !abandoned) {
          if (steps.size >= options.maxSteps) stepLimit = true
          else {
            val i = strategy.chooseStep(enabled, run.runtime.clockAdvances)
            if (i < 0) abandoned = true
            else {
              val s = enabled.get(i)
              steps += StepRecord(s.key, s.describe, s.resumes, s.waitedFor, enabled.size)
              val epoch = run.runtime.clockAdvances
              val printed = Out.printCount
              val named = Identity.assigned
              val failed = run.runtime.failedProcesses
              val fp = run.step(s)
              // Printing, numbering objects and failing (the first failure is the one reported)
              // touch state that every COG shares: dpor orders the steps that do.
              strategy.stepped(Touch(fp, Out.printCount != printed, Identity.assigned != named, run.runtime.failedProcesses != failed, epoch))
              enabled = run.enabled()
            }
          }
        }
        strategy.finished(enabled, run.runtime.clockAdvances)
      } finally AbsRandom.unseed()
    if (abandoned) { run.close(); return null }
    val outcome =
      if (stepLimit) StepLimit(options.maxSteps)
      else fut.poll match {
        case Some(scala.util.Failure(e)) =>
          val (origin, cause) = e match {
            case c: CallFailedException if c.getCause ne null => (c.origin, c.getCause)
            case other => ("main.main", other)
          }
          Failed(s"${ProgramRunner.describeOrigin(origin)} failed: ${ProgramRunner.describe(cause)}", output)
        case Some(_) =>
          if (run.clockLimitReached) ClockLimit(output)
          else run.runtime.firstFailure match {
            case Some(f) => Failed(s"a process failed (its future was never read, so 'absc run' ends normally): ${f.replace("(via main.main)", "(via the main block)")}", output)
            case None => Normal(output)
          }
        case None =>
          if (run.clockLimitReached) ClockLimit(output)
          else Deadlock(run.waiting, output)
      }
    val decisions = run.decisions
    run.close()
    // Objects are named by identity hash codes, which differ from run to run: renamed in order of
    // appearance in the steps sorted by their names (stable, so a process's steps keep their
    // order), which is the same for every schedule that only reorders independent steps.
    val names = new StableNames
    steps.sortBy(_.key).foreach { s => names(s.describe); if (s.waitedFor ne null) names(s.waitedFor) }
    val stableSteps = steps.toList.map(s => s.copy(describe = names(s.describe), waitedFor = if (s.waitedFor eq null) null else names(s.waitedFor)))
    val stableOutcome = outcome match {
      // Objects named only here are numbered in an order that does not depend on the report's.
      case Deadlock(waiting, out) => Deadlock(waiting.sortBy(HashCodes.replaceAllIn(_, "#")).map(names(_)).sorted, out)
      case Failed(message, out) => Failed(names(message), out)
      case other => other
    }
    RunResult(stableOutcome, stableSteps, decisions)
  }
}

object Explorer {
  final case class Options(
      strategy: String = "dpor",
      maxSchedules: Long = 100000,
      maxDepth: Int = Int.MaxValue,
      maxSteps: Int = 100000,
      seed: Long = 0L,
      pctDepth: Int = 3,
      clockLimit: Option[SimTime] = None,
      progress: Boolean = true)

  val Strategies = List("dpor", "exhaustive", "random", "pct")

  /** How a schedule ended. `key` tells the classes apart. */
  sealed trait Outcome {
    def key: String
    def failure: Boolean
    def headline: String
  }
  final case class Normal(output: String) extends Outcome {
    def key = s"normal\u0000$output"
    def failure = false
    def headline = "normal end"
  }
  final case class ClockLimit(output: String) extends Outcome {
    def key = s"clock\u0000$output"
    def failure = false
    def headline = "stopped at the clock limit"
  }
  final case class StepLimit(max: Int) extends Outcome {
    def key = "steps"
    def failure = false
    def headline = s"still running after $max steps (not classified; raise --max-steps)"
  }
  final case class Deadlock(waiting: List[String], output: String) extends Outcome {
    def key = s"deadlock\u0000${waiting.mkString("\n")}"
    def failure = true
    def headline = "deadlock: the main block cannot finish"
  }
  final case class Failed(message: String, output: String) extends Outcome {
    def key = s"failed\u0000$message"
    def failure = true
    def headline = message
  }

  /** One step of a schedule, for the explanation of a witness. */
  final case class StepRecord(key: String, describe: String, resumes: Boolean, waitedFor: String, alternatives: Int)

  final case class RunResult(outcome: Outcome, steps: List[StepRecord], decisions: Map[String, List[String]])

  /** The schedules that ended one way: how many, and the first of them (the witness). */
  final class OutcomeClass(val outcome: Outcome, val steps: List[StepRecord], val decisions: Map[String, List[String]], val firstSchedule: Long) {
    var count = 0L
  }

  /** `cutShort`: runs that dpor's sleep sets stopped before their end, as redundant (not counted in `schedules`). */
  final case class Result(schedules: Long, classes: List[OutcomeClass], stoppedBy: Option[String], exhaustive: Boolean, seconds: Double, cutShort: Long = 0L) {
    def failures: List[OutcomeClass] = classes.filter(_.outcome.failure)
  }

  /**
   * The witness's interleaving in ABS terms: one line per step (which call, started or resumed
   * after what), marking the choice points.
   */
  def explain(c: OutcomeClass): List[String] = {
    val b = List.newBuilder[String]
    var n = 0
    c.steps.foreach { s =>
      n += 1
      val what =
        if (!s.resumes) s"${s.describe} starts"
        else if (s.waitedFor ne null) s"${s.describe} resumes after ${s.waitedFor}"
        else s"${s.describe} resumes after suspend"
      val choice = if (s.alternatives > 1) s"  (chosen among ${s.alternatives})" else ""
      b += f"$n%4d. $what [call ${s.key}]$choice"
    }
    b.result()
  }

  /**
   * Write the witness of `c` as a schedule file that `absc run --replay FILE` replays: each COG's
   * order, the global order of the steps, which the replay follows exactly on one thread, and the
   * model's fingerprint, so that a witness is not replayed against an edited model.
   */
  def writeWitness(c: OutcomeClass, file: Path, seed: Long, fingerprint: Option[String]): Unit =
    ScheduleFile.write(file, c.decisions, seed, Some(c.steps.map(_.key)), fingerprint)

  /**
   * The runtime names objects `Class#<identity hash code>`: within one run's report each such
   * name becomes `Class#n`, numbered in order of first appearance, so that equal outcomes of
   * different runs read the same.
   */
  private val HashCodes = "#-?[0-9]+".r

  private final class StableNames {
    private val seen = mutable.HashMap.empty[String, String]
    private val counts = mutable.HashMap.empty[String, Int]
    private val Name = "\\b([A-Za-z_][A-Za-z0-9_]*)#(-?[0-9]+)".r
    def apply(text: String): String = Name.replaceAllIn(text, m => {
      val stable = seen.getOrElseUpdate(m.matched, {
        val n = counts.getOrElse(m.group(1), 0) + 1
        counts(m.group(1)) = n
        s"${m.group(1)}#$n"
      })
      scala.util.matching.Regex.quoteReplacement(stable)
    })
  }

  /** The report on standard error (or wherever `err` is); the witnesses are written to `witnessDir`. */
  def report(r: Result, options: Options, witnessDir: Path, model: String, fingerprint: Option[String], err: PrintStream): Unit = {
    err.println(f"absc explore: ${r.schedules}%,d schedules in ${r.seconds}%.2f s (${if (r.seconds > 0) r.schedules / r.seconds else 0.0}%,.0f/s), strategy ${options.strategy}, ${r.classes.size} distinct outcome(s):")
    var failureNo = 0
    r.classes.foreach { c =>
      err.println(f"  ${c.count}%,8d  ${c.outcome.headline}")
      c.outcome match {
        case Normal(out) if out.nonEmpty => err.println(indent("output: ", out))
        case ClockLimit(out) if out.nonEmpty => err.println(indent("output: ", out))
        case _ =>
      }
      if (c.outcome.failure) {
        failureNo += 1
        val file = witnessDir.resolve(s"witness-$failureNo.json")
        writeWitness(c, file, options.seed, fingerprint)
        c.outcome match {
          case Deadlock(waiting, _) => waiting.foreach(w => err.println(s"            waits: $w"))
          case _ =>
        }
        err.println(s"            witness: schedule ${c.firstSchedule}, replay with: absc run --replay $file $model")
        err.println(s"            the interleaving (${c.steps.size} steps):")
        explain(c).foreach(l => err.println(s"            $l"))
      }
    }
    if (r.cutShort > 0)
      err.println(f"absc explore: ${r.cutShort}%,d more run(s) cut short as redundant (every enabled step was in dpor's sleep set)")
    if (r.exhaustive && options.strategy == "dpor")
      err.println("absc explore: exhaustive: every schedule of the model was covered up to the reordering of independent steps (no bound was reached)")
    else if (r.exhaustive)
      err.println("absc explore: exhaustive: every schedule of the model was explored (no bound was reached)")
    else
      err.println(s"absc explore: not exhaustive: ${r.stoppedBy.getOrElse(s"the strategy ${options.strategy} samples schedules")}")
  }

  private def indent(first: String, text: String): String =
    text.stripLineEnd.linesIterator.zipWithIndex.map { case (l, i) => (if (i == 0) s"            $first" else "                    ") + l }.mkString("\n")
}
