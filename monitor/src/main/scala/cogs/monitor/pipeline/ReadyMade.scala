package cogs.monitor.pipeline

import cogs.monitor.{Monitor, Properties, Violation}
import cogs.trace.TraceEvent
import com.typesafe.config.Config
import scala.jdk.CollectionConverters._

/**
 * The bridge between the property DSL and the pipeline: a [[Monitor]] as a [[Checker]], and the
 * ready-made [[Properties]] registered by name in [[PropertyRegistry.default]], with their
 * parameters read from the monitor's configuration entry. None of them reads an event's time, so
 * they are registered as untimed (a pipeline of only these asks the runtime for no clock reads):
 *
 * {{{
 * { property = call-answered, class = Server, method = request }
 * { property = call-order, class = File, methods = [open, write, close], repeat = false }
 * { property = max-running, class = Pool, method = handle, limit = 4 }
 * { property = resolved-once }
 * { property = no-call-after-termination, class = Session, user-event = closed }   # or method = close
 * }}}
 */
object ReadyMade {

  /** `m` as a pipeline checker: its violations become findings with the DSL's rendered trace. */
  final class MonitorChecker(val monitor: Monitor[TraceEvent]) extends Checker[TraceEvent] {
    def name: String = monitor.name
    def verify(e: TraceEvent): Unit = monitor.verify(e)
    def end(): Unit = monitor.end()
    def violations: Seq[Finding] = monitor.violations.map(finding)
  }

  def finding(v: Violation): Finding = {
    val what = s"${v.kind.description} in state ${v.state}${v.message.fold("")(m => s": $m")}"
    val steps = v.trace.flatMap { s =>
      val elided = if (s.elidedBefore > 0) Vector(s"... ${s.elidedBefore} events elided ...") else Vector.empty
      elided :+ s"${s.eventNumber}: ${s.text}   [in ${s.state}]"
    }
    Finding(v.monitor, what, if (v.atEnd) 0L else v.eventNumber, steps)
  }

  /** Registers the ready-made properties and the adapter for DSL monitors named by class. */
  def register(r: PropertyRegistry): PropertyRegistry = {
    def str(c: Config, k: String): String =
      if (c.hasPath(k)) c.getString(k) else throw new MonitorConfigException(s"missing parameter '$k'")
    def opt(c: Config, k: String): Option[String] = if (c.hasPath(k)) Some(c.getString(k)) else None
    def wrap(m: Monitor[TraceEvent]): Checker[TraceEvent] = new MonitorChecker(m)
    // call-answered runs as OpenCallsChecker: the DSL property's findings, with the DSL itself fed
    // only the calls still open at the end.
    r.registerUntimed("call-answered", (n, c) =>
      new OpenCallsChecker(Properties.callAnswered(str(c, "class"), str(c, "method"), n).asInstanceOf[Properties.CallAnswered]))
    r.registerUntimed("call-order", (n, c) => wrap(Properties.callOrder(str(c, "class"),
      if (c.hasPath("methods")) c.getStringList("methods").asScala.toList else throw new MonitorConfigException("missing parameter 'methods'"),
      repeat = c.hasPath("repeat") && c.getBoolean("repeat"), name = n)))
    r.registerUntimed("max-running", (n, c) => wrap(Properties.maxRunning(str(c, "class"), str(c, "method"),
      if (c.hasPath("limit")) c.getInt("limit") else throw new MonitorConfigException("missing parameter 'limit'"), n)))
    r.registerUntimed("resolved-once", (n, _) => wrap(Properties.resolvedOnce(n)))
    r.registerUntimed("no-call-after-termination", (n, c) => {
      val (u, m) = (opt(c, "user-event"), opt(c, "method"))
      if (u.isEmpty && m.isEmpty) throw new MonitorConfigException("give 'user-event' or 'method' (what terminates the object)")
      wrap(Properties.noCallAfterTermination(str(c, "class"), u, m, n))
    })
    r.adapter(classOf[Monitor[_]])(m => new MonitorChecker(m.asInstanceOf[Monitor[TraceEvent]]))
  }
}
