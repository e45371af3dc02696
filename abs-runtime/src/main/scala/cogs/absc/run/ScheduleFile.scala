package cogs.absc.run

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import scala.jdk.CollectionConverters._
import com.typesafe.config.{ConfigRenderOptions, ConfigValueFactory}
import cogs.absc.lib.AbsRandom
import cogs.runtime.{CogRuntime, ScheduleTrace}

/**
 * `absc run --record FILE` / `--replay FILE` (system properties `cogs.absc.record` and
 * `cogs.absc.replay` for a standalone program): the scheduling decisions of a run (see
 * [[cogs.runtime.ScheduleTrace]]) and the seed of its random numbers, as JSON:
 *
 * {{{
 * { "format": "cogs-schedule-1", "model": "9f2c...", "seed": 42, "cogs": { "x1": ["x#2", ...], "x1.1": ["x1#1", ...] } }
 * }}}
 *
 * `model` is a fingerprint of the compiled model (SHA-256 of its class files, see
 * [[fingerprint]]): a replay of another model, even one with a single literal changed, would
 * follow decisions made for a different program and could print what no run of it can print, so
 * it is refused (exit status 2) instead. A recording without `model` (written by hand, or by an
 * older absc) is replayed unchecked. A file that is not JSON is reported with its line and column.
 *
 * Typesafe Config, already a dependency of the runtime, reads and writes it (JSON is HOCON).
 * A recording seeds `random` (with `cogs.absc.seed` if given), so that each COG draws its own
 * stream of numbers, the same in the replay.
 */
private[run] object ScheduleFile {
  final val Format = "cogs-schedule-1"

  /** What the run does with its schedule: nothing, record into a file, or replay one. */
  sealed trait Mode
  case object Off extends Mode
  final case class Record(file: Path, trace: ScheduleTrace, seed: Long, model: Option[String] = None) extends Mode
  final case class Replay(file: Path) extends Mode

  /** A schedule file that cannot be used: the user's input, reported as such. */
  final class BadSchedule(message: String) extends Exception(message)

  def fromSystemProperties(): Mode =
    (Option(System.getProperty("cogs.absc.record")).filter(_.nonEmpty), Option(System.getProperty("cogs.absc.replay")).filter(_.nonEmpty)) match {
      case (Some(_), Some(_)) => throw new BadSchedule("--record and --replay exclude each other")
      case (Some(r), None) =>
        val seed = Option(System.getProperty("cogs.absc.seed")).map(_.trim.toLong).getOrElse(new java.util.SplittableRandom().nextLong())
        Record(Paths.get(r), ScheduleTrace.record(), seed)
      case (None, Some(p)) => Replay(Paths.get(p))
      case (None, None) => Off
    }

  /**
   * Before the run: the runtime records or replays, `random` is seeded per COG. `anchor`: a class
   * of the compiled model, whose class files make its fingerprint. The mode to finish with.
   */
  def install(mode: Mode, rt: CogRuntime, anchor: Class[_]): Mode = mode match {
    case Off => Off
    case r @ Record(_, trace, seed, _) =>
      rt.useSchedule(trace)
      AbsRandom.setSeedPerCog(seed)
      r.copy(model = fingerprint(anchor))
    case Replay(file) =>
      val (trace, seed, model) = read(file)
      (model, fingerprint(anchor)) match {
        case (Some(recorded), Some(here)) if recorded != here =>
          throw new BadSchedule(s"cannot replay $file: it was recorded from another model (fingerprint ${recorded.take(12)} " +
            s"there, ${here.take(12)} here); a replay follows the decisions of the program that made them, so record this one again")
        case _ => ()
      }
      rt.useSchedule(trace)
      AbsRandom.setSeedPerCog(seed)
      mode
  }

  /**
   * The SHA-256 of the compiled model: of every file below the directory that holds `anchor`'s
   * class (with its relative path; absc run compiles a model into a directory of its own), or of
   * the jar it is in. None if the classes are not in a file this can read.
   */
  private[run] def fingerprint(anchor: Class[_]): Option[String] =
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

  /** After the run (also one that failed: its schedule is the one worth replaying). */
  def finish(mode: Mode): Unit = mode match {
    case Record(file, trace, seed, model) =>
      AbsRandom.unseed()
      val cogs = trace.decisions.map { case (k, v) => k -> v.asJava }.asJava
      val root = ConfigValueFactory.fromMap((Map[String, AnyRef](
        "format" -> Format, "seed" -> java.lang.Long.valueOf(seed), "cogs" -> cogs) ++ model.map("model" -> _)).asJava)
      val text = root.render(ConfigRenderOptions.concise().setJson(true).setFormatted(true))
      Option(file.toAbsolutePath.getParent).foreach(Files.createDirectories(_))
      Files.write(file, (text + "\n").getBytes(UTF_8))
    case Replay(_) => AbsRandom.unseed()
    case Off => ()
  }

  /**
   * The recording in `file`, read with Jackson (not the configuration parser that writes it: its
   * errors speak of configuration lists and keys, not of the trace a user handed in).
   */
  private def read(file: Path): (ScheduleTrace, Long, Option[String]) = {
    if (!Files.isRegularFile(file)) throw new BadSchedule(s"cannot replay $file: no such file")
    def damaged(what: String) = new BadSchedule(s"cannot replay $file: the trace is damaged: $what")
    val root =
      try new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile)
      catch {
        case e: com.fasterxml.jackson.core.JsonProcessingException =>
          val at = Option(e.getLocation).map(l => s"line ${l.getLineNr}, column ${l.getColumnNr}: ").getOrElse("")
          throw damaged(s"$at${e.getOriginalMessage.linesIterator.next()}")
      }
    if ((root eq null) || !root.isObject) throw damaged("it is not a JSON object (a trace written by absc run --record is)")
    val format = Option(root.get("format")).filter(_.isTextual).map(_.textValue).getOrElse("(none)")
    if (format != Format) throw new BadSchedule(s"cannot replay $file: not a schedule recorded by absc --record (format $format)")
    val seed = Option(root.get("seed")).filter(_.canConvertToLong).map(_.longValue)
      .getOrElse(throw damaged("'seed' is missing or not a whole number"))
    val cogsNode = Option(root.get("cogs")).filter(_.isObject).getOrElse(throw damaged("'cogs' is missing or not an object"))
    val cogs = cogsNode.fields().asScala.map { e =>
      val v = e.getValue
      if (!v.isArray || !v.elements().asScala.forall(_.isTextual))
        throw damaged(s"the decisions of COG '${e.getKey}' are not a list of call names")
      e.getKey -> v.elements().asScala.map(_.textValue).toSeq
    }.toMap
    val model = Option(root.get("model")).filter(_.isTextual).map(_.textValue)
    (ScheduleTrace.replay(cogs), seed, model)
  }
}
