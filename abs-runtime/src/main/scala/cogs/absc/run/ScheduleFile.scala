package cogs.absc.run

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import scala.jdk.CollectionConverters._
import com.typesafe.config.{ConfigFactory, ConfigRenderOptions, ConfigValueFactory}
import cogs.absc.lib.AbsRandom
import cogs.runtime.{CogRuntime, ScheduleTrace}

/**
 * `absc run --record FILE` / `--replay FILE` (system properties `cogs.absc.record` and
 * `cogs.absc.replay` for a standalone program): the scheduling decisions of a run (see
 * [[cogs.runtime.ScheduleTrace]]) and the seed of its random numbers, as JSON:
 *
 * {{{
 * { "format": "cogs-schedule-1", "seed": 42, "cogs": { "x1": ["x#2", ...], "x1.1": ["x1#1", ...] } }
 * }}}
 *
 * Typesafe Config, already a dependency of the runtime, reads and writes it (JSON is HOCON).
 * A recording seeds `random` (with `cogs.absc.seed` if given), so that each COG draws its own
 * stream of numbers, the same in the replay.
 */
private[absc] object ScheduleFile {
  final val Format = "cogs-schedule-1"

  /** What the run does with its schedule: nothing, record into a file, or replay one. */
  sealed trait Mode
  case object Off extends Mode
  final case class Record(file: Path, trace: ScheduleTrace, seed: Long) extends Mode
  final case class Replay(file: Path) extends Mode
  /**
   * A schedule written by `absc explore`: besides each COG's order it has `steps`, the global
   * order of the run's slices (`COG/call` each), which a replay follows exactly on a
   * [[cogs.runtime.ControlledRun]] (on one thread). A per-COG replay cannot always: whether a
   * process's `await` finds its future already resolved, and so whether its slice ends there,
   * depends on how the COGs' threads interleave.
   */
  final case class StepReplay(file: Path, steps: Vector[String], seed: Long, cogs: Map[String, Seq[String]]) extends Mode

  /** A schedule file that cannot be used: the user's input, reported as such. */
  final class BadSchedule(message: String) extends Exception(message)

  def fromSystemProperties(): Mode =
    (Option(System.getProperty("cogs.absc.record")).filter(_.nonEmpty), Option(System.getProperty("cogs.absc.replay")).filter(_.nonEmpty)) match {
      case (Some(_), Some(_)) => throw new BadSchedule("--record and --replay exclude each other")
      case (Some(r), None) =>
        val seed = Option(System.getProperty("cogs.absc.seed")).map(_.trim.toLong).getOrElse(new java.util.SplittableRandom().nextLong())
        Record(Paths.get(r), ScheduleTrace.record(), seed)
      case (None, Some(p)) =>
        val file = Paths.get(p)
        val (trace, seed, steps) = read(file)
        if (steps.isEmpty) Replay(file) else StepReplay(file, steps.get, seed, trace)
      case (None, None) => Off
    }

  /**
   * Before the run: the runtime records or replays, `random` is seeded per COG. `controlled`: the
   * run is a [[cogs.runtime.ControlledRun]] that follows a StepReplay's steps itself.
   */
  def install(mode: Mode, rt: CogRuntime, controlled: Boolean = false): Unit = mode match {
    case Off => ()
    case Record(_, trace, seed) =>
      rt.useSchedule(trace)
      AbsRandom.setSeedPerCog(seed)
    case Replay(file) =>
      val (trace, seed, _) = read(file)
      rt.useSchedule(ScheduleTrace.replay(trace))
      AbsRandom.setSeedPerCog(seed)
    case StepReplay(_, _, seed, trace) =>
      // On a runtime that is not controlled (a monitored run): each COG's order, as in a Replay.
      if (!controlled) rt.useSchedule(ScheduleTrace.replay(trace))
      AbsRandom.setSeedPerCog(seed)
  }

  /** After the run (also one that failed: its schedule is the one worth replaying). */
  def finish(mode: Mode): Unit = mode match {
    case Record(file, trace, seed) =>
      AbsRandom.unseed()
      write(file, trace.decisions, seed)
    case Replay(_) | StepReplay(_, _, _, _) => AbsRandom.unseed()
    case Off => ()
  }

  /** A schedule file: `decisions` as `ScheduleTrace.decisions` gives them, and the seed of `random`. */
  def write(file: Path, decisions: Map[String, List[String]], seed: Long, steps: Option[Seq[String]] = None): Unit = {
    val cogs = decisions.map { case (k, v) => k -> v.asJava }.asJava
    val root = ConfigValueFactory.fromMap((Map[String, AnyRef](
      "format" -> Format, "seed" -> java.lang.Long.valueOf(seed), "cogs" -> cogs) ++ steps.map(s => "steps" -> s.asJava)).asJava)
    val text = root.render(ConfigRenderOptions.concise().setJson(true).setFormatted(true))
    Option(file.toAbsolutePath.getParent).foreach(Files.createDirectories(_))
    Files.write(file, (text + "\n").getBytes(UTF_8))
  }

  private def read(file: Path): (Map[String, Seq[String]], Long, Option[Vector[String]]) = {
    if (!Files.isRegularFile(file)) throw new BadSchedule(s"cannot replay $file: no such file")
    try {
      val c = ConfigFactory.parseFile(file.toFile)
      val format = if (c.hasPath("format")) c.getString("format") else "(none)"
      if (format != Format) throw new BadSchedule(s"cannot replay $file: not a schedule recorded by absc --record (format $format)")
      val cogs = c.getObject("cogs").asScala.map { case (k, v) =>
        k -> v.unwrapped.asInstanceOf[java.util.List[AnyRef]].asScala.map(String.valueOf).toSeq
      }.toMap
      val steps = if (c.hasPath("steps")) Some(c.getStringList("steps").asScala.toVector) else None
      (cogs, c.getLong("seed"), steps)
    } catch {
      case e: BadSchedule => throw e
      case e: Exception => throw new BadSchedule(s"cannot replay $file: ${Option(e.getMessage).getOrElse(e.toString)}")
    }
  }
}
