package cogs.monitor.pipeline

/**
 * Checks, where the events arrive, that each emitter's events are complete and in order: the
 * soundness of the trace (RIARC, definition 1) made observable. Every event carries its emitter and
 * a sequence number counting that emitter's events from 1; a gap means events were lost (a `drop`
 * policy, or a backpressure wait that timed out), a repeated or smaller number means reordering
 * or duplication, which would be a bug of the pipeline.
 *
 * Used by one thread at a time (a dispatcher, or the inline lock). Costs a hash lookup per event
 * and an entry per emitter; `check-sequence = false` turns it off.
 */
final class OrderCheck[E](emitter: E => AnyRef, seq: E => Long) {
  private[this] final class Last(var seq: Long)
  private[this] val last = new java.util.IdentityHashMap[AnyRef, Last]
  private[this] var missing = 0L
  private[this] var disordered = 0L
  private[this] val examples = Vector.newBuilder[String]
  private[this] var exampleCount = 0

  def check(e: E): Unit = {
    val who = emitter(e)
    if (who eq null) return
    val s = seq(e)
    val l = last.get(who)
    val prev = if (l eq null) 0L else l.seq
    if (s == prev + 1) {
      if (l eq null) last.put(who, new Last(s)) else l.seq = s
    } else if (s > prev + 1) {
      missing += s - prev - 1
      note(s"$who: events ${prev + 1}..${s - 1} missing before $s")
      if (l eq null) last.put(who, new Last(s)) else l.seq = s
    } else {
      disordered += 1
      note(s"$who: event $s arrived after $prev")
    }
  }

  private def note(s: String): Unit = if (exampleCount < 10) { examples += s; exampleCount += 1 }

  def report: OrderReport = OrderReport(missing, disordered, examples.result())
}

/** What the sequence check found: numbers skipped (lost events), events out of order, and the first few cases. */
final case class OrderReport(missing: Long, disordered: Long, examples: Vector[String]) {
  def sound: Boolean = missing == 0 && disordered == 0
  def merge(o: OrderReport): OrderReport = OrderReport(missing + o.missing, disordered + o.disordered, (examples ++ o.examples).take(10))
}

object OrderReport {
  val empty: OrderReport = OrderReport(0, 0, Vector.empty)
}
