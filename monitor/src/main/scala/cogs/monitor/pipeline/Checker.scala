package cogs.monitor.pipeline

/**
 * What the pipeline needs of a monitor, and nothing more: feed it events, tell it the trace ended,
 * read what it found. The property DSL's monitors are adapted to this in a few lines; keeping the
 * pipeline on its own small trait lets dispatchers, statistics and reports be written and tested
 * without the DSL.
 *
 * A checker is used by one thread at a time (one actor, or the inline lock), so it needs no
 * synchronisation of its own. `violations` is read after `end()`, and may be read before.
 */
trait Checker[-E] {
  def name: String
  def verify(e: E): Unit
  /** End of trace (or of this key's life, see `dispatcher.complete-on`): check pending obligations. */
  def end(): Unit
  def violations: Seq[Finding]
}

/**
 * A verdict of one checker instance.
 *
 * @param eventNumber the number (from 1) of the event, among those this instance received, at which
 *                    the violation was detected; 0 for one found at the end of the trace
 * @param trace       the events that led to it, rendered, oldest first
 */
final case class Finding(monitor: String, message: String, eventNumber: Long, trace: Seq[String])

object Checker {

  /** Makes a fresh instance; dispatchers call it once per key (indexed, per-key) or per actor (single, pool). */
  type Factory[E] = () => Checker[E]

  /**
   * A checker from a function that returns an error message for a bad event: handy for tests and
   * for one-line invariants. The trace of a finding is the offending event only.
   */
  def invariant[E](name0: String)(bad: E => Option[String]): Checker[E] = new Checker[E] {
    private[this] var n = 0L
    private[this] val found = Vector.newBuilder[Finding]
    def name: String = name0
    def verify(e: E): Unit = {
      n += 1
      bad(e).foreach(msg => found += Finding(name0, msg, n, List(String.valueOf(e))))
    }
    def end(): Unit = ()
    def violations: Seq[Finding] = found.result()
  }
}
