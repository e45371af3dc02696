package cogs.monitor

/**
 * A verdict against a property: one violation found by one monitor.
 *
 * @param monitor     the name of the monitor that found it
 * @param kind        what went wrong (an `error` reached, a `next` not matched, a hot state left at the end, ...)
 * @param state       the state in which it happened, as its `toString` shows it (for case-class
 *                    states, with their data); for an invariant, the invariant's name
 * @param eventNumber the 1-based number of the event in the monitor's trace that caused it; for
 *                    violations found by `end()`, the number of the last event seen (0 if none)
 * @param event       the event that caused it; `None` for violations found by `end()`
 * @param eventText   that event as the monitor shows events (empty at the end)
 * @param message     the property's own explanation, if it gave one (`error("...")`, `check`)
 * @param trace       the events that led here: those that created and moved the chain of states
 *                    ending in `state`, oldest first, ending with `event` when there is one. Bounded
 *                    by the monitor's trace limit: the first event is kept, then the newest; see
 *                    [[Violation.Step.elidedBefore]]
 */
final case class Violation(
    monitor: String,
    kind: Violation.Kind,
    state: String,
    eventNumber: Long,
    event: Option[Any],
    eventText: String,
    message: Option[String],
    trace: Vector[Violation.Step]) {

  /** Whether this was found at the end of the trace (an obligation left open) rather than on an event. */
  def atEnd: Boolean = kind == Violation.HotAtEnd

  /** The event numbers of the trace, oldest first (handy in tests and tools). */
  def traceNumbers: Vector[Long] = trace.map(_.eventNumber)

  /** A report for people, several lines, no trailing newline. */
  def render: String = {
    val b = new java.lang.StringBuilder
    b.append("[").append(monitor).append("] ").append(kind.description)
    if (atEnd) b.append(" (end of trace, after event ").append(eventNumber).append(')')
    else b.append(" at event ").append(eventNumber)
    b.append("\n  state:   ").append(state)
    if (event.isDefined) b.append("\n  event:   ").append(eventNumber).append(": ").append(eventText)
    message.foreach(m => b.append("\n  message: ").append(m))
    if (trace.nonEmpty) {
      val elided = trace.iterator.map(_.elidedBefore).sum
      b.append("\n  trace (").append(trace.size).append(if (trace.size == 1) " event" else " events")
      if (elided > 0) b.append(", ").append(elided).append(" elided")
      b.append("):")
      val width = trace.iterator.map(_.eventNumber.toString.length).max
      trace.foreach { s =>
        if (s.elidedBefore > 0)
          b.append("\n    ... ").append(s.elidedBefore).append(if (s.elidedBefore == 1) " event" else " events").append(" elided ...")
        val n = s.eventNumber.toString
        b.append("\n    ").append(" " * (width - n.length)).append(n).append("  ").append(s.text)
        b.append("   [in ").append(s.state).append(']')
      }
    }
    b.toString
  }

  override def toString: String = s"Violation($monitor, $kind, $state, event $eventNumber${message.fold("")(m => s", $m")})"
}

object Violation {

  /** One event of a violation's trace: its number, the event, how it shows, and the state it moved. */
  final case class Step(eventNumber: Long, event: Any, text: String, state: String, elidedBefore: Long)

  /** What went wrong. */
  sealed abstract class Kind(val description: String) extends Product with Serializable

  /** A transition led to `error` (or `error(message)`). */
  case object ErrorReached extends Kind("error")

  /** A `next`/`wnext` state saw an event its transitions did not match. */
  case object NextMismatch extends Kind("next event did not match")

  /** A hot state (`hot`, `next`, `until`) was still active when the trace ended. */
  case object HotAtEnd extends Kind("hot state still active")

  /** The property called `check(false, ...)` or `reportError(...)`. */
  case object CheckFailed extends Kind("check failed")

  /** An `invariant` was false after an event. */
  case object InvariantFailed extends Kind("invariant failed")
}
