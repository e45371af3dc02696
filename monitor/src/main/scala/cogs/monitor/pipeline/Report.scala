package cogs.monitor.pipeline

/**
 * What one monitor did, over all chains.
 *
 * @param dispatch how it was dispatched, in words (`pool of 16 by future (round-robin)`)
 */
final case class MonitorReport(
    name: String,
    dispatch: String,
    events: Long,
    unkeyed: Long,
    instances: Long,
    completed: Long,
    failed: Long,
    verdicts: Vector[Verdict]
) {
  def ok: Boolean = verdicts.isEmpty
}

/**
 * The outcome of a monitored run: verdicts per monitor, what did not reach the monitors, whether
 * the trace they saw was sound, and the pipeline's statistics.
 *
 * `exitStatus` is 0 when no monitor found a violation, and 3 when one did (the status `absc`
 * reserves for this). A monitor that threw counts as a violation: its verdict is unknown, and a
 * run that cannot be certified must not pass. Lost events do not change the status by themselves
 * (`sound` says whether there were any), since under the `drop` policy losing events is the
 * configured behaviour; the summary says plainly that the verdicts cover an incomplete trace.
 */
final case class Report(
    mode: Mode,
    chains: Int,
    delivered: Long,
    monitors: Vector[MonitorReport],
    losses: Losses,
    order: OrderReport,
    statistics: Statistics
) {
  def verdicts: Vector[Verdict] = monitors.flatMap(_.verdicts)
  def violations: Int = monitors.iterator.map(_.verdicts.size).sum
  def ok: Boolean = violations == 0
  /** Nothing lost and every emitter's events complete and in order. */
  def sound: Boolean = losses.total == 0 && order.sound
  def exitStatus: Int = if (ok) Report.ExitOk else Report.ExitViolated

  /** The human summary; at most `maxViolations` verdicts per monitor are shown in full. */
  def summary(maxViolations: Int = 20): String = summary(maxViolations, exitStatus)

  /**
   * The summary, its verdict line giving `status` as the run's exit status: absc's, when
   * something outside the pipeline (its session protocols) also decides whether the run passed,
   * so that no line of the report says 0 for a run that exits with 3.
   */
  private[cogs] def summary(maxViolations: Int, status: Int): String = {
    val sb = new StringBuilder
    def line(s: String): Unit = sb.append(s).append('\n')
    line(s"cogs monitor: $mode, ${plural(chains, "chain")}, ${plural(delivered, "event")} delivered")
    if (monitors.isEmpty) line("  no monitors configured")
    monitors.foreach { m =>
      val keys = if (m.instances > 1 || m.completed > 0) s", ${plural(m.instances, "instance")}" else ""
      val done = if (m.completed > 0) s" (${m.completed} ended by completion events)" else ""
      val unkeyed = if (m.unkeyed > 0) s", ${plural(m.unkeyed, "event")} without a key" else ""
      val verdict = if (m.ok) "ok" else plural(m.verdicts.size.toLong, "violation")
      line(s"  ${m.name} (${m.dispatch}): ${plural(m.events, "event")}$keys$done$unkeyed: $verdict")
      m.verdicts.take(maxViolations).foreach { v =>
        val at = if (v.finding.eventNumber > 0) s" at its event ${v.finding.eventNumber}" else " at the end of the trace"
        val where = (if (chains > 1) s"${v.chain} " else "") + v.instance
        line(s"    [$where]$at: ${v.finding.message}")
        v.finding.trace.foreach(t => line(s"        $t"))
      }
      if (m.verdicts.size > maxViolations) line(s"    ... and ${m.verdicts.size - maxViolations} more (all are in the JSON report)")
    }
    if (losses.total == 0) line("losses: none")
    else {
      val parts = List(
        losses.dropped -> "dropped (buffer full, overload = drop)",
        losses.timedOut -> "lost after the longest backpressure wait",
        losses.late -> "emitted after finish",
        losses.reentrant -> "emitted by a monitor while it ran inline").collect { case (n, what) if n > 0 => s"$n $what" }
      line(s"losses: ${parts.mkString(", ")}: the verdicts cover an incomplete trace")
    }
    if (order.sound) line("trace order: every object's events complete and in order")
    else {
      line(s"trace order: ${plural(order.missing, "event")} missing, ${order.disordered} out of order")
      order.examples.foreach(e => line(s"    $e"))
    }
    if (!statistics.isEmpty) {
      line("statistics:")
      statistics.summaryLines.foreach(l => line(s"  $l"))
    }
    line(
      if (ok && status == Report.ExitOk) "verdict: no violation (exit status 0)"
      else if (ok) s"verdict: no property violation, but the run fails for a reason reported outside the monitors (exit status $status)"
      else s"verdict: ${plural(violations.toLong, "violation")} (exit status ${math.max(status, exitStatus)})")
    sb.toString
  }

  /** The report for tools: one JSON object per line. */
  def jsonLines: Vector[String] = jsonLinesWithStatus(exitStatus)

  /** The JSON lines, the `result` line's `exit-status` being `status` (as in `summary(maxViolations, status)`) unless the pipeline's own is higher. */
  private[cogs] def jsonLinesWithStatus(status: Int): Vector[String] = {
    val out = Vector.newBuilder[String]
    monitors.foreach { m =>
      m.verdicts.foreach { v =>
        out += Json.obj("type" -> "verdict", "monitor" -> v.monitor, "chain" -> v.chain, "instance" -> v.instance,
          "message" -> v.finding.message, "event" -> v.finding.eventNumber, "trace" -> v.finding.trace)
      }
      out += Json.obj("type" -> "monitor", "monitor" -> m.name, "dispatch" -> m.dispatch, "events" -> m.events,
        "unkeyed" -> m.unkeyed, "instances" -> m.instances, "completed" -> m.completed, "failed" -> m.failed,
        "violations" -> m.verdicts.size)
    }
    out += Json.obj("type" -> "losses", "dropped" -> losses.dropped, "timed-out" -> losses.timedOut,
      "late" -> losses.late, "reentrant" -> losses.reentrant)
    out += Json.obj("type" -> "order", "missing" -> order.missing, "disordered" -> order.disordered, "examples" -> order.examples)
    out ++= statistics.jsonLines
    out += Json.obj("type" -> "result", "mode" -> mode.configName, "chains" -> chains, "events" -> delivered,
      "violations" -> violations, "sound" -> sound, "exit-status" -> math.max(status, exitStatus))
    out.result()
  }

  private def plural(n: Long, what: String): String = f"$n%,d $what${if (n == 1) "" else "s"}"
}

object Report {
  final val ExitOk = 0
  /** The exit status `absc` reserves for a violated property. */
  final val ExitViolated = 3

  /** Gathers the sinks' results into one report, monitors in configuration order. */
  def of(mode: Mode, monitors: Seq[MonitorConfig], sinks: Seq[SinkResult], extraLate: Long, statistics: Statistics): Report = {
    val routes = sinks.flatMap(_.routes)
    val byName = routes.groupBy(_.monitor)
    val known = monitors.map(_.name).toSet
    val reports = monitors.map { m =>
      val rs = byName.getOrElse(m.name, Nil)
      MonitorReport(m.name, m.dispatcher.describe, rs.map(_.events).sum, rs.map(_.unkeyed).sum, rs.map(_.instances).sum,
        rs.map(_.completed).sum, rs.map(_.failed).sum, rs.iterator.flatMap(_.verdicts).toVector)
    }.toVector
    // The pipeline's own failures (a dispatcher that did not finish in time) are reported as a monitor.
    val extra = byName.keys.filterNot(known).toVector.sorted.map { n =>
      val rs = byName(n)
      MonitorReport(n, "-", 0, 0, 0, 0, rs.map(_.failed).sum, rs.iterator.flatMap(_.verdicts).toVector)
    }
    val losses = sinks.foldLeft(Losses(late = extraLate))(_ merge _.losses)
    val order = sinks.foldLeft(OrderReport.empty)(_ merge _.order)
    Report(mode, sinks.size, sinks.map(_.delivered).sum, reports ++ extra, losses, order, statistics)
  }
}
