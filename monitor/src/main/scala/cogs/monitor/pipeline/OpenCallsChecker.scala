package cogs.monitor.pipeline

import cogs.monitor.Properties
import cogs.trace.{FutRef, TraceEvent}
import cogs.trace.TraceEvent.{CallSent, Completed, FutureResolved, Started}

/**
 * The ready-made `call-answered` as the pipeline runs it: the same findings as the DSL property
 * ([[Properties.CallAnswered]]) fed every event, for a fraction of the work per event.
 *
 * Why: a profile of monitored ping-pong put about as much CPU into the DSL property (a state
 * object and a history step per call, moved at `Started`, a slice copied, put and removed per
 * future) as into the program itself. Most calls are answered within a few events, and an
 * answered call leaves no trace in the DSL monitor's state. So this keeps, per open future, only
 * the events the DSL would see for it (with their numbers), drops them when the call is answered,
 * and at `end()` replays what is left into the DSL property, which then reports exactly what it
 * would have reported had it seen the whole trace.
 *
 * Why the replay gives the same findings (each step depends on the property as written in
 * `Properties`; `OpenCallsCheckerTest` compares both on random traces):
 *  - The DSL indexes by future (`indexKey`) and skips what `relevant` rejects; this uses the same
 *    two methods. Its slice for a future depends only on that future's events: events with no
 *    future reach every slice but match no transition (every pattern needs `fut ne null` or
 *    `eq` a state's non-null future), and the initial states (one `always`) never change.
 *  - A slice is created only by a relevant `CallSent` or `Started` with a future (the `always`
 *    fires); other events of a future without a slice match nothing. So a future opens here on
 *    exactly those two.
 *  - Every state in a future's slice carries that future and leaves on its `Completed` or
 *    `FutureResolved` (`ok`), and the `always` does not match those: the slice is then equal to
 *    the initial states, and the DSL drops it. Nothing of the call remains, so dropping its events
 *    here loses nothing; a later event of the same future starts afresh in both.
 *  - Before an answer nothing leaves a slice and no transition reports an error, so the only
 *    findings are hot states at the end. The replay feeds each remaining event under its original
 *    number (`verify(e, n)`), in trace order, so histories, numbers and the order of the reports
 *    are the DSL's own.
 */
private[pipeline] final class OpenCallsChecker(property: Properties.CallAnswered) extends Checker[TraceEvent] {
  // The events of one open call, oldest first, with their numbers in this checker's trace.
  private[this] final class Open(e: TraceEvent, n: Long) {
    var events = new Array[TraceEvent](2)
    var numbers = new Array[Long](2)
    var size = 1
    events(0) = e
    numbers(0) = n

    def add(e: TraceEvent, n: Long): Unit = {
      if (size == events.length) {
        events = java.util.Arrays.copyOf(events, size * 2)
        numbers = java.util.Arrays.copyOf(numbers, size * 2)
      }
      events(size) = e
      numbers(size) = n
      size += 1
    }
  }

  private[this] val open = new java.util.HashMap[FutRef, Open]
  private[this] var number = 0L
  private[this] var ended = false
  private[this] var found: Seq[Finding] = Nil

  def name: String = property.name

  def verify(e: TraceEvent): Unit = {
    number += 1
    if (property.concerns(e)) {
      val f = property.futureOf(e)
      if (f ne null) {
        val o = open.get(f)
        if (o ne null) {
          if (e.isInstanceOf[Completed] || e.isInstanceOf[FutureResolved]) open.remove(f)
          else o.add(e, number)
        } else if (e.isInstanceOf[CallSent] || e.isInstanceOf[Started]) open.put(f, new Open(e, number))
      }
    }
  }

  def end(): Unit =
    if (!ended) {
      ended = true
      val rest = new scala.collection.mutable.ArrayBuffer[(Long, TraceEvent)]
      open.values.forEach { o =>
        var i = 0
        while (i < o.size) { rest += ((o.numbers(i), o.events(i))); i += 1 }
      }
      open.clear()
      rest.sortInPlaceBy(_._1).foreach { case (n, e) => property.verify(e, n) }
      property.end()
      found = property.violations.map(ReadyMade.finding)
    }

  /** Before `end()`, none: `call-answered` finds violations only at the end of the trace. */
  def violations: Seq[Finding] = found
}
