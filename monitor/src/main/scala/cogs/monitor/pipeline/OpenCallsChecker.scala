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
  import OpenCallsChecker.{InitialSlots, MaxFree}

  // The events of one open call, oldest first, with their numbers in this checker's trace. The
  // first two are fields (a call mostly has two before its answer: `CallSent` and `Started`), the
  // rest, from a suspension on, in arrays made only then. Records are recycled through `free`:
  // only this checker ever sees one (the replay at the end copies their contents out), so one
  // that was released can be refilled without anybody holding it.
  private[this] final class Open {
    var fut: FutRef = _
    var e0, e1: TraceEvent = _
    var n0, n1: Long = 0L
    var moreEvents: Array[TraceEvent] = null
    var moreNumbers: Array[Long] = null
    var size = 0
    var nextFree: Open = null

    def add(e: TraceEvent, n: Long): Unit = {
      size match {
        case 0 => e0 = e; n0 = n
        case 1 => e1 = e; n1 = n
        case _ =>
          val k = size - 2
          if (moreEvents eq null) { moreEvents = new Array[TraceEvent](4); moreNumbers = new Array[Long](4) }
          else if (k == moreEvents.length) {
            moreEvents = java.util.Arrays.copyOf(moreEvents, k * 2)
            moreNumbers = java.util.Arrays.copyOf(moreNumbers, k * 2)
          }
          moreEvents(k) = e
          moreNumbers(k) = n
      }
      size += 1
    }

    def event(i: Int): TraceEvent = if (i == 0) e0 else if (i == 1) e1 else moreEvents(i - 2)
    def number(i: Int): Long = if (i == 0) n0 else if (i == 1) n1 else moreNumbers(i - 2)

    /** Forget the call's events (so they can be collected) before the record is reused. */
    def clear(): Unit = {
      fut = null; e0 = null; e1 = null
      if (moreEvents ne null) { moreEvents = null; moreNumbers = null }
      size = 0
    }
  }

  // Open calls by future: open addressing with linear probing, at most half full, compared by
  // identity (as `FutRef` is), deleted by shifting the following run back (no tombstones), so a
  // lookup never walks over slots of calls long answered. This replaces a `java.util.HashMap`,
  // whose node, with the record and its two arrays, was about 120 bytes allocated per call in
  // monitored ping-pong (a third of what monitoring allocated per round, besides the events).
  private[this] var table = new Array[Open](InitialSlots)
  private[this] var live = 0
  private[this] var free: Open = null
  private[this] var freeCount = 0
  private[this] var number = 0L
  private[this] var ended = false
  private[this] var found: Seq[Finding] = Nil

  def name: String = property.name

  private def home(f: FutRef, mask: Int): Int = Route.mix(f.hashCode) & mask

  /** The slot of `f`'s record, or, if it has none, `-1 - s` for the empty slot `s` where it would go. */
  private def find(f: FutRef): Int = {
    val mask = table.length - 1
    var i = home(f, mask)
    while (true) {
      val o = table(i)
      if (o eq null) return -1 - i
      if (o.fut eq f) return i
      i = (i + 1) & mask
    }
    -1 // unreachable: the table is never full
  }

  private def open(slot: Int, f: FutRef, e: TraceEvent, n: Long): Unit = {
    val o =
      if (free eq null) new Open
      else { val r = free; free = r.nextFree; r.nextFree = null; freeCount -= 1; r }
    o.fut = f
    o.add(e, n)
    table(slot) = o
    live += 1
    if (live * 2 > table.length) grow()
  }

  /** Knuth's deletion for linear probing: records after the hole that may not live past it move into it. */
  private def close(slot: Int): Unit = {
    val o = table(slot)
    val mask = table.length - 1
    var hole = slot
    var j = slot
    table(hole) = null
    var done = false
    while (!done) {
      j = (j + 1) & mask
      val r = table(j)
      if (r eq null) done = true
      else {
        val h = home(r.fut, mask)
        // r may stay at j if its home lies cyclically in (hole, j]; otherwise a lookup from its
        // home would stop at the hole before reaching j, so it moves there.
        val stays = if (hole <= j) hole < h && h <= j else hole < h || h <= j
        if (!stays) { table(hole) = r; table(j) = null; hole = j }
      }
    }
    live -= 1
    o.clear()
    if (freeCount < MaxFree) { o.nextFree = free; free = o; freeCount += 1 }
  }

  private def grow(): Unit = {
    val old = table
    table = new Array[Open](old.length * 2)
    val mask = table.length - 1
    var i = 0
    while (i < old.length) {
      val o = old(i)
      if (o ne null) {
        var j = home(o.fut, mask)
        while (table(j) ne null) j = (j + 1) & mask
        table(j) = o
      }
      i += 1
    }
  }

  def verify(e: TraceEvent): Unit = {
    number += 1
    if (property.concerns(e)) {
      val f = property.futureOf(e)
      if (f ne null) {
        val s = find(f)
        if (s >= 0) {
          if (e.isInstanceOf[Completed] || e.isInstanceOf[FutureResolved]) close(s)
          else table(s).add(e, number)
        } else if (e.isInstanceOf[CallSent] || e.isInstanceOf[Started]) open(-1 - s, f, e, number)
      }
    }
  }

  /** Calls open now (for tests). */
  private[pipeline] def openCalls: Int = live

  def end(): Unit =
    if (!ended) {
      ended = true
      val rest = new scala.collection.mutable.ArrayBuffer[(Long, TraceEvent)]
      table.foreach { o =>
        if (o ne null) {
          var i = 0
          while (i < o.size) { rest += ((o.number(i), o.event(i))); i += 1 }
        }
      }
      table = new Array[Open](InitialSlots)
      live = 0
      free = null
      freeCount = 0
      rest.sortInPlaceBy(_._1).foreach { case (n, e) => property.verify(e, n) }
      property.end()
      found = property.violations.map(ReadyMade.finding)
    }

  /** Before `end()`, none: `call-answered` finds violations only at the end of the trace. */
  def violations: Seq[Finding] = found
}

private[pipeline] object OpenCallsChecker {
  final val InitialSlots = 64
  // Records kept for reuse: enough for the calls a program keeps open at once in the common case;
  // beyond it, records of a burst of open calls are left to the collector.
  final val MaxFree = 1024
}
