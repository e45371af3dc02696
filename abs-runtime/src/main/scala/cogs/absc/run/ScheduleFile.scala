package cogs.absc.run

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import scala.jdk.CollectionConverters._
import com.fasterxml.jackson.core.JsonFactory
import com.fasterxml.jackson.core.util.{DefaultIndenter, DefaultPrettyPrinter}
import cogs.runtime.{CogRuntime, ScheduleTrace}

/**
 * `absc run --record FILE` / `--replay FILE` (the same options of a standalone program): the scheduling decisions of a run (see
 * [[cogs.runtime.ScheduleTrace]]) and the seed of its random numbers, as JSON:
 *
 * {{{
 * { "format": "cogs-schedule-1", "model": "9f2c...", "seed": 42, "cogs": { "x1": ["x#2", ...], "x1.1": ["x1#1", ...] },
 *   "methods": { "x1": ["MainBlock.main", ...], "x1.1": ["Account.deposit", ...] } }
 * }}}
 *
 * `methods` names what each decision ran (the call's target class and method), so that a replay
 * is checked step by step (see `ScheduleTrace`): a COG whose recorded call runs another method or
 * target, or a run that goes on past the end of the recording, stops with an error that says
 * where, and exit status 2, not with a result the recorded run did not give. A recording without
 * `methods` (an older one) is replayed as before, unchecked.
 *
 * `--record-format erlang` writes the recording in the Erlang
 * backend's trace format instead ([[ErlangTrace]]), for the tools written for that backend, and
 * `--replay` takes such a file too, checked by method name. That format has no place for a seed
 * or a fingerprint: a recording in it draws its random numbers from [[ErlangSeed]] (or
 * `cogs.absc.seed`), which its replay uses as well, and its replay cannot tell another model from
 * the recorded one but by the methods its steps ran.
 *
 * `model` is a fingerprint of the compiled model (SHA-256 of its class files, see
 * [[fingerprint]]): a replay of another model, even one with a single literal changed, would
 * follow decisions made for a different program and could print what no run of it can print, so
 * it is refused (exit status 2) instead. A recording without `model` (written by hand, or by an
 * older absc) is replayed unchecked. A file that is not JSON is reported with its line and column.
 *
 * Jackson, the project's one JSON library, writes and reads it.
 * A recording seeds `random` (with `cogs.absc.seed` if given), so that each COG draws its own
 * stream of numbers, the same in the replay.
 */
private[absc] object ScheduleFile {
  final val Format = "cogs-schedule-1"

  /** The seed of `random` in a recording in the Erlang backend's format, which cannot carry one. */
  final val ErlangSeed = 0L

  /** What the run does with its schedule: nothing, record into a file, or replay one. */
  sealed trait Mode
  case object Off extends Mode
  final case class Record(file: Path, trace: ScheduleTrace, seed: Long, model: Option[String] = None, erlang: Boolean = false) extends Mode
  /** `trace`: once installed, the replayed trace (it tells whether the run diverged). */
  final case class Replay(file: Path, trace: Option[ScheduleTrace] = None) extends Mode
  /**
   * A schedule written by `absc explore`: besides each COG's order it has `steps`, the global
   * order of the run's slices (`COG/call` each), which a replay follows exactly on a
   * [[cogs.runtime.ControlledRun]] (on one thread). A per-COG replay cannot always: whether a
   * process's `await` finds its future already resolved, and so whether its slice ends there,
   * depends on how the COGs' threads interleave.
   */
  final case class StepReplay(file: Path, steps: Vector[String], seed: Long, cogs: Map[String, Seq[String]], model: Option[String] = None) extends Mode

  /** A schedule file that cannot be used: the user's input, reported as such. */
  final class BadSchedule(message: String) extends Exception(message)

  /** The schedule file of a run with options `o` (its record, replay, record format and seed). */
  def fromOptions(o: RunOptions): Mode = {
    // Checked as each command line checks them; again here for options built by other code.
    OptionChecks.schedule(o.record, o.replay, o.recordFormat.map(_.trim)).foreach(problem => throw new BadSchedule(problem))
    (o.record, o.replay) match {
      case (Some(r), _) =>
        val erlang = o.recordFormat.exists(_.trim == "erlang")
        val seed = o.seed.getOrElse(if (erlang) ErlangSeed else new java.util.SplittableRandom().nextLong())
        Record(r, ScheduleTrace.record(), seed, erlang = erlang)
      case (None, Some(p)) =>
        val file = p
        val recorded = read(file, o.seed)
        if (recorded.steps.isEmpty) Replay(file) else StepReplay(file, recorded.steps.get, recorded.seed, recorded.cogs, recorded.model)
      case (None, None) => Off
    }
  }


  /**
   * Before the run: the runtime records or replays, `random` is seeded per COG. `anchor`: a class
   * of the compiled model, whose class files make its fingerprint. `controlled`: the run is a
   * [[cogs.runtime.ControlledRun]] that follows a StepReplay's steps itself. The mode to finish with.
   */
  def install(mode: Mode, rt: CogRuntime, anchor: Class[_], controlled: Boolean = false): Mode = mode match {
    case Off => Off
    case r @ Record(_, trace, seed, _, _) =>
      rt.useSchedule(trace)
      RunContext.of(rt).random.setSeedPerCog(seed)
      r.copy(model = fingerprint(anchor))
    case Replay(file, _) =>
      val recorded = read(file, RunContext.of(rt).options.seed)
      checkModel(file, recorded.model, anchor)
      val trace = recorded.methods match {
        case Some(ms) => ScheduleTrace.replay(recorded.cogs, ms)
        case None => ScheduleTrace.replay(recorded.cogs)
      }
      rt.useSchedule(trace)
      RunContext.of(rt).random.setSeedPerCog(recorded.seed)
      Replay(file, Some(trace))
    case StepReplay(file, _, seed, trace, model) =>
      checkModel(file, model, anchor)
      // On a runtime that is not controlled (a monitored run): each COG's order, as in a Replay.
      if (!controlled) rt.useSchedule(ScheduleTrace.replay(trace))
      RunContext.of(rt).random.setSeedPerCog(seed)
      mode
  }

  private def checkModel(file: Path, recorded: Option[String], anchor: Class[_]): Unit =
    (recorded, fingerprint(anchor)) match {
      case (Some(r), Some(here)) if r != here =>
        throw new BadSchedule(s"cannot replay $file: it was recorded from another model (fingerprint ${r.take(12)} " +
          s"there, ${here.take(12)} here); a replay follows the decisions of the program that made them, so record this one again")
      case _ => ()
    }

  /**
   * The SHA-256 of the compiled model: of every file below the directory that holds `anchor`'s
   * class (with its relative path; absc run compiles a model into a directory of its own), or of
   * the jar it is in. None if the classes are not in a file this can read.
   */
  private[absc] def fingerprint(anchor: Class[_]): Option[String] =
    try {
      val src = Option(anchor.getProtectionDomain).flatMap(d => Option(d.getCodeSource)).flatMap(c => Option(c.getLocation))
      src.map(u => Paths.get(u.toURI)).filter(Files.exists(_)).map { root =>
        val md = java.security.MessageDigest.getInstance("SHA-256")
        if (Files.isDirectory(root)) {
          val files = Files.walk(root)
          try files.iterator.asScala.filter(Files.isRegularFile(_)).map(f => root.relativize(f).toString.replace('\\', '/')).toList.sorted
            .foreach { rel => md.update(rel.getBytes(UTF_8)); md.update(0.toByte); md.update(Files.readAllBytes(root.resolve(rel))) }
          finally files.close()
        } else md.update(Files.readAllBytes(root))
        md.digest().map(b => f"${b & 0xff}%02x").mkString
      }
    } catch { case _: Exception => None } // no fingerprint: the replay is unchecked, as for an old recording

  /**
   * A checked replay that diverged from its recording (see `ScheduleTrace`): the error to report
   * instead of the run's result.
   */
  def divergence(mode: Mode): Option[String] = mode match {
    case Replay(file, Some(trace)) => trace.divergence.map(d => s"the replay of $file diverged from the recording: $d " +
      "(the replay stopped there: what the model printed before is not the recorded run's output)")
    case _ => None
  }

  /** After the run (also one that failed: its schedule is the one worth replaying). */
  def finish(mode: Mode): Unit = mode match {
    // The seed was the run's own (RunContext.random): nothing to undo.
    case Record(file, trace, seed, model, erlang) =>
      if (erlang) ErlangTrace.write(file, trace.events)
      else {
        val steps = trace.steps
        write(file, steps.map { case (k, v) => k -> v.map(_.call) }, seed, model = model,
          methods = Some(steps.map { case (k, v) => k -> v.map(_.method) }))
      }
    case Replay(_, _) | StepReplay(_, _, _, _, _) => ()
    case Off => ()
  }

  /**
   * A schedule file: `decisions` as `ScheduleTrace.decisions` gives them, the seed of `random`,
   * the global order of steps of an explorer's witness, and the model's fingerprint.
   */
  def write(file: Path, decisions: Map[String, List[String]], seed: Long, steps: Option[Seq[String]] = None,
            model: Option[String] = None, methods: Option[Map[String, List[String]]] = None): Unit = {
    // The layout the file always had (it was rendered by Typesafe Config before): keys in sorted
    // order, four spaces of indentation, `"key" : value`, one list element a line.
    val indent = new DefaultIndenter("    ", "\n")
    val printer = new DefaultPrettyPrinter().withObjectIndenter(indent).withArrayIndenter(indent)
    val out = new java.io.StringWriter
    val g = new JsonFactory().createGenerator(out).setPrettyPrinter(printer)
    def strings(xs: Seq[String]): Unit = { g.writeStartArray(); xs.foreach(g.writeString); g.writeEndArray() }
    def perCog(m: Map[String, List[String]]): Unit = {
      g.writeStartObject()
      m.toSeq.sortBy(_._1).foreach { case (k, v) => g.writeFieldName(k); strings(v) }
      g.writeEndObject()
    }
    try {
      g.writeStartObject()
      g.writeFieldName("cogs"); perCog(decisions)
      g.writeStringField("format", Format)
      methods.foreach { ms => g.writeFieldName("methods"); perCog(ms) }
      model.foreach(g.writeStringField("model", _))
      g.writeNumberField("seed", seed)
      steps.foreach { s => g.writeFieldName("steps"); strings(s) }
      g.writeEndObject()
    } finally g.close()
    Option(file.toAbsolutePath.getParent).foreach(Files.createDirectories(_))
    Files.write(file, (out.toString + "\n").getBytes(UTF_8))
  }

  /**
   * The recording in `file`, read with Jackson (its errors give the line and column): each COG's
   * decisions, the seed, the model's fingerprint, an explorer witness's steps, what each decision ran.
   * `runSeed`: the run's own seed (an Erlang trace has none).
   */
  private def read(file: Path, runSeed: Option[Long]): Recorded = {
    if (!Files.isRegularFile(file)) throw new BadSchedule(s"cannot replay $file: no such file")
    def damaged(what: String) = new BadSchedule(s"cannot replay $file: the trace is damaged: $what")
    val root =
      try new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile)
      catch {
        case e: com.fasterxml.jackson.core.JsonProcessingException =>
          val at = Option(e.getLocation).map(l => s"line ${l.getLineNr}, column ${l.getColumnNr}: ").getOrElse("")
          throw damaged(s"$at${e.getOriginalMessage.linesIterator.next()}")
      }
    if ((root ne null) && ErlangTrace.isErlangFormat(root)) {
      val (cogs, methods) = ErlangTrace.read(root, damaged)
      return Recorded(cogs, runSeed.getOrElse(ErlangSeed), None, None, Some(methods))
    }
    if ((root eq null) || !root.isObject)
      throw damaged("it is neither a JSON object (absc's own format) nor a list of COGs (the Erlang backend's trace format)")
    val format = Option(root.get("format")).filter(_.isTextual).map(_.textValue).getOrElse("(none)")
    if (format != Format) throw new BadSchedule(s"cannot replay $file: not a schedule recorded by absc --record (format $format)")
    val seed = Option(root.get("seed")).filter(_.canConvertToLong).map(_.longValue)
      .getOrElse(throw damaged("'seed' is missing or not a whole number"))
    val cogsNode = Option(root.get("cogs")).filter(_.isObject).getOrElse(throw damaged("'cogs' is missing or not an object"))
    def strings(v: com.fasterxml.jackson.databind.JsonNode) = v.isArray && v.elements().asScala.forall(_.isTextual)
    val cogs = cogsNode.fields().asScala.map { e =>
      if (!strings(e.getValue)) throw damaged(s"the decisions of COG '${e.getKey}' are not a list of call names")
      e.getKey -> e.getValue.elements().asScala.map(_.textValue).toSeq
    }.toMap
    val model = Option(root.get("model")).filter(_.isTextual).map(_.textValue)
    val steps = Option(root.get("steps")).map { v =>
      if (!strings(v)) throw damaged("'steps' is not a list of steps")
      v.elements().asScala.map(_.textValue).toVector
    }
    val methods = Option(root.get("methods")).map { v =>
      if (!v.isObject) throw damaged("'methods' is not an object")
      v.fields().asScala.map { e =>
        if (!strings(e.getValue)) throw damaged(s"the methods of COG '${e.getKey}' are not a list of names")
        if (!cogs.contains(e.getKey)) throw damaged(s"'methods' names COG '${e.getKey}', which 'cogs' does not")
        e.getKey -> e.getValue.elements().asScala.map(_.textValue).toSeq
      }.toMap
    }
    Recorded(cogs, seed, model, steps, methods)
  }

  private final case class Recorded(cogs: Map[String, Seq[String]], seed: Long, model: Option[String],
      steps: Option[Vector[String]], methods: Option[Map[String, Seq[String]]])
}
