package cogs.monitor

import scala.annotation.switch
import scala.collection.mutable.ArrayBuffer
import scala.language.implicitConversions

/**
 * What a transition leads to: a state (any [[Monitor#State]]), one of the verdicts `ok`, `error`,
 * `error(message)`, the no-change `stay`, or several of these at once (`s1 & s2`, a tuple or a
 * collection of them: all of them hold from then on).
 *
 * The implicit conversions let a transition's right-hand side be a `Boolean` (`true` is `ok`,
 * `false` is `error`), a `Unit` block (`ok`: the transition only did side effects), a tuple or an
 * `Iterable` of targets (all of them).
 */
sealed abstract class Target {
  /** Both `this` and `that`. */
  final def &(that: Target): Target = new Target.Both(this, that)
}

object Target {
  private[monitor] object Ok extends Target { override def toString = "ok" }
  private[monitor] object Stay extends Target { override def toString = "stay" }
  /** What a transition function gives for an event it does not match; never seen by users. */
  private[monitor] object NoMatch extends Target
  private[monitor] final class Fail(val message: String) extends Target { override def toString = "error" }
  private[monitor] val Error: Fail = new Fail(null)
  private[monitor] final class Both(val left: Target, val right: Target) extends Target
  private[monitor] final class Many(val targets: Iterable[Target]) extends Target

  implicit def fromBoolean(holds: Boolean): Target = if (holds) Ok else Error
  implicit def fromUnit(done: Unit): Target = Ok
  implicit def fromIterable(all: Iterable[Target]): Target = new Many(all)
  implicit def fromPair(p: (Target, Target)): Target = new Both(p._1, p._2)
  implicit def fromTriple(t: (Target, Target, Target)): Target = new Both(t._1, new Both(t._2, t._3))

  // One shared fallback for `applyOrElse`, so that trying a transition on an event allocates nothing.
  private[monitor] val noMatch: Any => Target = _ => NoMatch
}

/**
 * A runtime-verification monitor over events of type `E`, written as data-parameterised state
 * machines and temporal operators in the style of Daut and TraceContract.
 *
 * A property is a subclass whose constructor body creates the initial states:
 * {{{
 * class Answered extends Monitor[Ev]("Answered") {
 *   always {
 *     case Call(id) => hot { case Reply(`id`) => ok }   // every call is eventually answered
 *   }
 * }
 * val m = new Answered
 * trace.foreach(m.verify); m.end()
 * m.violations.foreach(v => println(v.render))
 * }}}
 *
 * '''States.''' At any moment the monitor holds a set of active states, all of which must be
 * satisfied (a conjunction). A state is either anonymous (made by the operators below) or an
 * instance of a case class extending [[State]] (or [[Fact]]) whose body gives its transitions,
 * so it carries data and prints with it:
 * {{{
 * case class Locked(thread: Int, lock: Int) extends State {
 *   hot { case Release(`thread`, `lock`) => ok; case Acquire(_, `lock`) => error("taken twice") }
 * }
 * }}}
 * Every state created while the monitor is being built (before its first event) is an initial
 * state; make states meant for later inside transitions or `def`s, not in `val`s. States are
 * compared with `equals`: two case-class states with the same data are one state.
 *
 * '''Transitions.''' A state's transitions are a partial function from events to a [[Target]]:
 * another state, `ok` (this obligation is met), `error` / `error(message)` (a violation), `stay`
 * (no change) or several at once. On each event every active state that matches it fires, all
 * "at the same time": states created by an event do not see that event, and facts queried during
 * an event are those active before it.
 *
 * '''Operators''' (anonymous states; the same names inside a case-class state's body give that
 * state its transitions):
 *  - `watch {ts}`: waits for the first event `ts` matches, then is replaced by its targets; never an obligation.
 *  - `always {ts}`: on every event `ts` matches, adds its targets and stays active forever.
 *  - `hot {ts}`: as `watch`, but an obligation: still active at `end()` is a violation.
 *  - `next {ts}`: the very next event must match `ts`, else a violation; still waiting at `end()` is a violation (strong next).
 *  - `wnext {ts}`: as `next`, but an end of trace before any further event is fine (weak next).
 *  - `until {stop} watch {ts}`: while `stop` has not matched, events matching `ts` fire (adding
 *    their targets, the state stays); the first event matching `stop` replaces the state by
 *    `stop`'s targets. `stop` must match before the end: still active at `end()` is a violation.
 *  - `wuntil {stop} watch {ts}`: as `until`, but `stop` need never match (weak until, Daut's `unless`).
 *  - `ok`, `error`, `error(message)`, `stay`: the verdict targets above.
 * "Violation at `end()`" means: a state that is hot (`hot`, `next`, `until`) and still active.
 *
 * '''Facts and rules.''' The active states double as a fact base. Inside transitions, [[exists]],
 * [[holds]] (also implicitly: a state used as a `Boolean`), [[when]]`{...} otherwise {...}`,
 * [[facts]] and [[retract]] query and change it; [[Fact]] is a state with no transitions of its
 * own (a record that something happened). [[check]] and [[invariant]] report conditions.
 *
 * '''Indexing.''' Override [[keyOf]] (or, to avoid allocating an `Option` per event,
 * [[indexKey]]) to map events to keys. The monitor then keeps one slice of states per key, in a
 * hash map: an event with key `k` reaches only the states of slice `k` (created, on first use, as
 * a copy of the states the monitor started with), so the cost of an event does not grow with the
 * number of keys. An event without a key reaches every slice. Facts queried during an event are
 * those of the slice being updated. A slice that comes back to being equal to the initial states
 * is dropped, so memory follows the number of keys with open obligations, not all keys ever seen.
 * Properties should be written so that they mean the same with or without indexing (guard on the
 * key in the patterns); indexing then only makes them fast. [[relevant]] skips events altogether.
 *
 * '''Sub-monitors.''' [[monitor]]`(m1, m2, ...)` makes monitors children of this one: each event is
 * verified by this monitor and then forwarded to each child, `end()` ends them, and counts and
 * violations include theirs.
 *
 * '''Reports.''' Each violation is a [[Violation]]: the monitor's name, the state (its
 * `toString`), the event number (1-based, in this monitor's trace) and the events that led to it
 * (each state remembers the events that created and moved its chain of ancestors, at most about
 * `2 * traceLimit` of them, see [[withTraceLimit]]). [[violations]], [[errorCount]],
 * [[eventCount]], [[summary]] and [[report]] give the results; [[onViolation]] is told of each
 * violation as it is found.
 *
 * '''Not thread-safe''', by design: a monitor is confined to one thread or actor at a time (the
 * pipeline's monitor actors give it that), which is what lets it update its states in place
 * without locks or copies.
 *
 * @param monitorName the monitor's name in reports; `null` (or the no-argument constructor) uses the class name
 */
abstract class Monitor[E](monitorName: String) {
  outer =>

  import Monitor._

  def this() = this(null)

  /** This monitor's name, as reports show it. */
  final val name: String = if (monitorName ne null) monitorName else Monitor.nameOf(getClass)

  /** The transitions out of a state. */
  type Transitions = PartialFunction[E, Target]

  // ---------------------------------------------------------------------------------------------
  // Fields

  private[this] var traceLimit: Int = DefaultTraceLimit
  private[this] var violationLimit: Int = DefaultViolationLimit

  /** The initial states; also the states of events without a key, and of every key never seen. */
  private[this] val main = new StateSet(4)
  private[this] val slices = new java.util.HashMap[Any, StateSet]()
  private[this] var building = true
  private[this] var pendingInitial: List[State] = Nil

  private var kids: Array[Monitor[E]] = new Array[Monitor[E]](0)
  private var parent: Monitor[E] = null

  private[this] var invariants: List[(String, () => Boolean)] = Nil

  private[this] var seen: Long = 0L
  private[this] var number: Long = 0L
  private[this] var ownErrors: Int = 0
  private[this] val kept = new ArrayBuffer[Violation]
  private var listeners: List[Violation => Unit] = Nil
  private[this] var ended = false
  private[this] var busy = false

  // Scratch of one pass of one event over one slice, reused across events so a pass allocates
  // nothing of its own. `marks(i)`: the state at position i leaves the slice.
  private[this] var marks = new Array[Boolean](8)
  private[this] var passSize = 0
  private[this] var removed = 0
  private[this] var adds = new Array[AnyRef](8)
  private[this] var addCount = 0
  private[this] var retracts: List[AnyRef] = Nil
  private[this] var scope: StateSet = null
  private[this] var curEvent: Any = null
  private[this] var curState: State = null
  private[this] var chainOf: State = null
  private[this] var chain: Step = null

  // ---------------------------------------------------------------------------------------------
  // States

  /**
   * A state of this monitor. Extend it with a case class to make a data-carrying state, and give
   * it transitions in its body with one of `watch`, `always`, `hot`, `next`, `wnext`, `until`,
   * `wuntil`; without any, it is a fact (see [[Fact]]). Inside its transitions the same names
   * make new anonymous states (the body already gave this one its transitions).
   */
  abstract class State extends Target {
    private[monitor] var kind: Int = KFact
    private[monitor] var ts: Transitions = null
    private[monitor] var body: Transitions = null
    private[monitor] var initial: Boolean = false
    private[monitor] var steps: Step = null

    outer.born(this)

    /** Whether this state is an obligation: still active at `end()` is a violation. */
    final def isHot: Boolean = kind == KHot || kind == KNext || kind == KUntil

    /** The monitor this state belongs to. */
    final def monitorName: String = outer.name

    protected final def watch(ts: Transitions): State = if (kind != KFact) outer.watch(ts) else define(KWatch, ts, null)
    protected final def always(ts: Transitions): State = if (kind != KFact) outer.always(ts) else define(KAlways, ts, null)
    protected final def hot(ts: Transitions): State = if (kind != KFact) outer.hot(ts) else define(KHot, ts, null)
    protected final def next(ts: Transitions): State = if (kind != KFact) outer.next(ts) else define(KNext, ts, null)
    protected final def wnext(ts: Transitions): State = if (kind != KFact) outer.wnext(ts) else define(KWNext, ts, null)
    protected final def until(stop: Transitions): Until = if (kind != KFact) outer.until(stop) else new Until(this, stop, KUntil)
    protected final def wuntil(stop: Transitions): Until = if (kind != KFact) outer.wuntil(stop) else new Until(this, stop, KWUntil)

    private[monitor] final def define(k: Int, t1: Transitions, t2: Transitions): State = {
      kind = k
      ts = t1
      body = t2
      this
    }
  }

  /** A state with no transitions: a fact recorded in the monitor's memory until retracted. */
  abstract class Fact extends State

  /** A state made by one of the operators; it prints as the operator's name and its [[label]]. */
  final class Anonymous private[Monitor] (k: Int, t1: Transitions, t2: Transitions) extends State {
    define(k, t1, t2)
    private[this] var text: String = null

    /** Shows `values` with this state in reports, e.g. `hot {...} label (id)` prints as `hot(42)`. */
    def label(values: Any*): this.type = {
      text = values.mkString("(", ",", ")")
      this
    }

    override def toString: String = if (text eq null) KindNames(kind) else KindNames(kind) + text
  }

  /** The first half of `until {stop} watch {ts}`. */
  final class Until private[Monitor] (owner: State, stop: Transitions, k: Int) {
    def watch(ts: Transitions): State = if (owner eq null) new Anonymous(k, stop, ts) else owner.define(k, stop, ts)
  }

  /** The first half of `when {rule} otherwise {target}`. */
  final class When private[Monitor] (rule: PartialFunction[State, Target]) {
    /**
     * The targets of `rule` for every active fact it matches (all of them), or `alternative` if
     * it matches none.
     */
    def otherwise(alternative: => Target): Target = {
      var result: Target = null
      def visit(set: StateSet): Unit = {
        var i = 0
        while (i < set.size) {
          val r = rule.applyOrElse(set.elems(i).asInstanceOf[State], Target.noMatch)
          if (r ne Target.NoMatch) result = if (result eq null) r else result & r
          i += 1
        }
      }
      if (scope ne null) visit(scope) else forEachSet(visit)
      if (result eq null) alternative else result
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The DSL

  /** A state that waits for the first event `ts` matches and is then replaced by its targets. */
  protected final def watch(ts: Transitions): Anonymous = new Anonymous(KWatch, ts, null)

  /** A state that, on every event `ts` matches, adds its targets and stays. */
  protected final def always(ts: Transitions): Anonymous = new Anonymous(KAlways, ts, null)

  /** As [[watch]], but an obligation: it must be left before the end of the trace. */
  protected final def hot(ts: Transitions): Anonymous = new Anonymous(KHot, ts, null)

  /** The next event must match `ts` (else a violation), and there must be a next event. */
  protected final def next(ts: Transitions): Anonymous = new Anonymous(KNext, ts, null)

  /** If there is a next event, it must match `ts` (else a violation); the trace may end first. */
  protected final def wnext(ts: Transitions): Anonymous = new Anonymous(KWNext, ts, null)

  /**
   * `until {stop} watch {ts}`: `ts` fires (the state staying) until `stop` matches, which must
   * happen before the end of the trace.
   */
  protected final def until(stop: Transitions): Until = new Until(null, stop, KUntil)

  /** `wuntil {stop} watch {ts}`: as [[until]], but `stop` need never match. */
  protected final def wuntil(stop: Transitions): Until = new Until(null, stop, KWUntil)

  /** The obligation is met: the state leaves without a successor. */
  protected final def ok: Target = Target.Ok

  /** No change: the state stays as it is (a transition that only observes). */
  protected final def stay: Target = Target.Stay

  /** A violation; the state leaves. */
  protected final def error: Target = Target.Error

  /** A violation with an explanation for the report; the state leaves. */
  protected final def error(message: String): Target = new Target.Fail(message)

  /** Adds `s` to the initial states (those every new key starts with). */
  protected final def initial(s: State): Unit = {
    s.initial = true
    if (building) pendingInitial = s :: pendingInitial else main.add(s)
  }

  /** Makes `children` sub-monitors of this one: they see every event after this one, and end with it. */
  protected final def monitor(children: Monitor[E]*): Unit = {
    children.foreach { c =>
      require(c ne this, s"monitor $name cannot be its own sub-monitor")
      require(c.parent eq null, s"monitor ${c.name} is already a sub-monitor of ${if (c.parent eq null) "" else c.parent.name}")
      c.parent = this
    }
    kids = kids ++ children
  }

  // ---------------------------------------------------------------------------------------------
  // Facts and rules

  /**
   * Whether some active state satisfies `pred` (is matched by it and it gives true). During an
   * event, the states of the slice being updated, as they were before the event; otherwise all.
   */
  protected final def exists(pred: PartialFunction[State, Boolean]): Boolean = {
    def in(set: StateSet): Boolean = {
      var i = 0
      while (i < set.size) {
        if (pred.applyOrElse(set.elems(i).asInstanceOf[State], FalseFn)) return true
        i += 1
      }
      false
    }
    if (scope ne null) in(scope)
    else in(main) || {
      val it = slices.values.iterator
      var found = false
      while (!found && it.hasNext) found = in(it.next())
      found
    }
  }

  /** Whether a state equal to `s` is active (in the same scope as [[exists]]). */
  protected final def holds(s: State): Boolean =
    if (scope ne null) scope.contains(s)
    else main.contains(s) || slices.values.stream.anyMatch(_.contains(s))

  /** A state used as a `Boolean` means [[holds]]: `case Release(t, l) if !Locked(t, l) => error`. */
  protected implicit final def stateHolds(s: State): Boolean = holds(s)

  /** `when {case Fact(x) => target} otherwise {target}`: a rule over the active facts, see [[When.otherwise]]. */
  protected final def when(rule: PartialFunction[State, Target]): When = new When(rule)

  /**
   * The active states (in the same scope as [[exists]]), for queries `exists` cannot express.
   * Outside an event, each state once (the initial states belong to every slice).
   */
  protected final def facts: Seq[State] =
    if (scope ne null) {
      val out = new ArrayBuffer[State](scope.size)
      var i = 0
      while (i < scope.size) { out += scope.elems(i).asInstanceOf[State]; i += 1 }
      out.toSeq
    } else activeStates

  /**
   * Removes the active state equal to `s`: during an event, from the slice being updated once the
   * event's transitions have all fired (before their new states are added); otherwise from every slice.
   */
  protected final def retract(s: State): Unit =
    if (scope ne null) retracts = s :: retracts
    else {
      main.remove(s)
      slices.values.forEach(set => { set.remove(s); () })
    }

  /** Reports a violation (kind `CheckFailed`, in the current state) when `cond` is false. */
  protected final def check(cond: Boolean, message: => String): Unit = if (!cond) reportError(message)

  /** Reports a violation (kind `CheckFailed`) in the current state, without changing any state. */
  protected final def reportError(message: String): Unit =
    if (curState ne null) record(Violation.CheckFailed, String.valueOf(curState), message, currentChain(), busy)
    else record(Violation.CheckFailed, "-", message, if (busy) Step.extend(null, number, curEvent, "-", traceLimit) else null, busy)

  /** `cond` must hold after every (relevant) event; it is evaluated over all active states. */
  protected final def invariant(name: String)(cond: => Boolean): Unit =
    invariants = invariants :+ ((name, () => cond))

  // ---------------------------------------------------------------------------------------------
  // Hooks

  /** The key of `event` for indexing (see the class comment), or `None` for an event that concerns every key. */
  protected def keyOf(event: E): Option[Any] = None

  /**
   * The key of `event`, or `null` for none. Defaults to [[keyOf]]; override this one instead to
   * save allocating an `Option` per event.
   */
  protected def indexKey(event: E): Any = keyOf(event) match {
    case Some(k) => k
    case None    => null
  }

  /** Whether the monitor looks at `event` at all; others are only counted. */
  protected def relevant(event: E): Boolean = true

  /** How reports show an event. */
  protected def show(event: E): String = String.valueOf(event)

  // ---------------------------------------------------------------------------------------------
  // Running

  /** Verifies the next event of the trace (numbered one after the previous one). */
  final def verify(event: E): Unit = verify(event, number + 1)

  /**
   * Verifies `event`, numbering it `eventNumber` in reports (for callers that number events
   * themselves, e.g. after filtering a trace). Then forwards it to the sub-monitors.
   */
  final def verify(event: E, eventNumber: Long): Unit = {
    if (busy) throw new IllegalStateException(s"monitor $name: verify called from inside one of its own transitions")
    if (building) start()
    seen += 1
    number = eventNumber
    if (relevant(event)) {
      busy = true
      curEvent = event
      try {
        val key = indexKey(event)
        if (key.asInstanceOf[AnyRef] eq null) broadcast(event) else keyed(key, event)
        if (invariants ne Nil) checkInvariants()
      } finally {
        busy = false
        curEvent = null
        curState = null
        chainOf = null
        chain = null
        scope = null
        if (removed > 0 || addCount > 0 || (retracts ne Nil)) clearScratch()
      }
    }
    var i = 0
    while (i < kids.length) {
      kids(i).verify(event, eventNumber)
      i += 1
    }
  }

  /** Verifies every event of `trace`, then ends it. */
  final def verifyTrace(trace: IterableOnce[E]): this.type = {
    trace.iterator.foreach(e => verify(e))
    end()
    this
  }

  /**
   * Ends the trace: every hot state still active (`hot`, `next`, `until` not yet left) is reported
   * as a violation; then the sub-monitors end. Further calls do nothing.
   */
  final def end(): Unit = {
    if (busy) throw new IllegalStateException(s"monitor $name: end called from inside one of its own transitions")
    if (!ended) {
      ended = true
      if (building) start()
      val open = new ArrayBuffer[State]
      val reported = new java.util.IdentityHashMap[State, Unit]
      forEachSet { set =>
        var i = 0
        while (i < set.size) {
          val s = set.elems(i).asInstanceOf[State]
          if (s.isHot && !reported.containsKey(s)) { reported.put(s, ()); open += s }
          i += 1
        }
      }
      // Slices sit in a hash map; order the reports by when each obligation arose, so that they
      // read in trace order and are the same from run to run.
      open.sortBy(s => (firstNumber(s.steps), String.valueOf(s))).foreach { s =>
        record(Violation.HotAtEnd, String.valueOf(s), null, s.steps, withEvent = false)
      }
    }
    kids.foreach(_.end())
  }

  // ---------------------------------------------------------------------------------------------
  // Settings and results

  /**
   * How many events of its history each state keeps for reports (the first, then the newest;
   * memory per state chain is at most about twice this). 0 keeps none: reports then show only the
   * event at fault. Applies to the sub-monitors too. Default 20.
   */
  final def withTraceLimit(limit: Int): this.type = {
    traceLimit = math.max(0, limit)
    kids.foreach(_.withTraceLimit(limit))
    this
  }

  /**
   * How many violations to keep for [[violations]]; later ones are counted (and given to
   * [[onViolation]] listeners) but not stored. Applies to the sub-monitors too. Default 10,000.
   */
  final def withViolationLimit(limit: Int): this.type = {
    violationLimit = math.max(0, limit)
    kids.foreach(_.withViolationLimit(limit))
    this
  }

  /** Calls `listener` with each violation found by this monitor or any of its sub-monitors, as it is found. */
  final def onViolation(listener: Violation => Unit): this.type = {
    listeners = listeners :+ listener
    this
  }

  /** Events this monitor has been given. */
  final def eventCount: Long = seen

  /** Number of the last event verified (equal to [[eventCount]] unless numbers were given). */
  final def lastEventNumber: Long = number

  /** Violations found by this monitor itself. */
  final def ownErrorCount: Int = ownErrors

  /** Violations found by this monitor and its sub-monitors. */
  final def errorCount: Int = {
    var n = ownErrors
    kids.foreach(k => n += k.errorCount)
    n
  }

  /** Whether no violation has been found (so far, or at all after `end()`). */
  final def passed: Boolean = errorCount == 0

  /** Whether `end()` has been called. */
  final def isEnded: Boolean = ended

  /**
   * The violations kept, of this monitor and its sub-monitors, ordered by event number (those found
   * at the end of the trace after those found on its last event).
   */
  final def violations: Seq[Violation] =
    (kept.toVector ++ kids.iterator.flatMap(_.violations)).sortBy(v => (v.eventNumber, v.atEnd))

  /** The violations kept of this monitor only, in the order found. */
  final def ownViolations: Seq[Violation] = kept.toVector

  /** The sub-monitors. */
  final def subMonitors: Seq[Monitor[E]] = kids.toSeq

  /** The active states, each once (for debugging and tests; walks all slices). */
  final def activeStates: Seq[State] = {
    if (building) start()
    val seenStates = new java.util.IdentityHashMap[State, Unit]
    val out = new ArrayBuffer[State]
    forEachSet { set =>
      var i = 0
      while (i < set.size) {
        val s = set.elems(i).asInstanceOf[State]
        if (!seenStates.containsKey(s)) { seenStates.put(s, ()); out += s }
        i += 1
      }
    }
    out.toSeq
  }

  /** Number of keys with a slice of their own (keys with open obligations or finished protocols). */
  final def sliceCount: Int = slices.size

  /** One line per monitor: name, events, errors; sub-monitors indented. */
  final def summary: String = {
    val b = new StringBuilder
    def line(m: Monitor[E], depth: Int): Unit = {
      if (b.nonEmpty) b.append('\n')
      val errs = m.errorCount
      b.append("  " * depth).append(m.name).append(": ").append(m.eventCount).append(" events, ")
        .append(errs).append(if (errs == 1) " error" else " errors")
      if (m.kids.nonEmpty && m.ownErrorCount != errs) b.append(" (").append(m.ownErrorCount).append(" own)")
      m.kids.foreach(line(_, depth + 1))
    }
    line(this, 0)
    b.toString
  }

  /** The [[summary]] followed by every kept violation, rendered. */
  final def report: String = (summary +: violations.map(_.render)).mkString("\n\n")

  override def toString: String = s"Monitor($name)"

  // ---------------------------------------------------------------------------------------------
  // Internals

  private def born(s: State): Unit = if (building) pendingInitial = s :: pendingInitial

  private def start(): Unit = {
    building = false
    pendingInitial.reverse.foreach { s => s.initial = true; main.add(s) }
    pendingInitial = Nil
  }

  private def forEachSet(f: StateSet => Unit): Unit = {
    f(main)
    slices.values.forEach(set => f(set))
  }

  private def keyed(key: Any, event: E): Unit = {
    val set = slices.get(key)
    if (set eq null) {
      // A key without a slice behaves as a copy of the initial states: try the event on those in
      // place, and copy only if it changes something (most events of an untracked key don't).
      if (main.size > 0 && pass(main, event)) {
        val copy = main.copy()
        commit(copy)
        if (!copy.sameAs(main)) slices.put(key, if (copy.size == 0) StateSet.Empty else copy)
      }
    } else if (set.size > 0 && pass(set, event)) {
      commit(set)
      if (set.sameAs(main)) slices.remove(key)
      else if (set.size == 0) slices.put(key, StateSet.Empty)
    }
  }

  private def broadcast(event: E): Unit = {
    if (main.size > 0 && pass(main, event)) commit(main)
    if (!slices.isEmpty) {
      val it = slices.entrySet.iterator
      while (it.hasNext) {
        val en = it.next()
        val set = en.getValue
        if (set.size > 0 && pass(set, event)) {
          commit(set)
          if (set.sameAs(main)) it.remove()
          else if (set.size == 0) en.setValue(StateSet.Empty)
        }
      }
    }
  }

  /**
   * Fires the transitions of every state of `set` on `event`, recording what leaves and what comes
   * in without changing `set` (so facts read during the pass are the states before the event).
   * Whether anything is to change.
   */
  private def pass(set: StateSet, event: E): Boolean = {
    val n = set.size
    if (marks.length < n) marks = new Array[Boolean](math.max(n, marks.length * 2))
    passSize = n
    scope = set
    val elems = set.elems
    var i = 0
    while (i < n) {
      val s = elems(i).asInstanceOf[State]
      curState = s
      chainOf = null
      (s.kind: @switch) match {
        case KFact =>
        case KWatch | KHot =>
          val r = s.ts.applyOrElse(event, Target.noMatch)
          if (r ne Target.NoMatch) fire(s, i, r, leaves = true)
        case KAlways =>
          val r = s.ts.applyOrElse(event, Target.noMatch)
          if (r ne Target.NoMatch) fire(s, i, r, leaves = false)
        case KNext | KWNext =>
          val r = s.ts.applyOrElse(event, Target.noMatch)
          if (r ne Target.NoMatch) fire(s, i, r, leaves = true)
          else {
            mark(i)
            record(Violation.NextMismatch, String.valueOf(s), null, currentChain(), withEvent = true)
          }
        case KUntil | KWUntil =>
          val r = s.ts.applyOrElse(event, Target.noMatch)
          if (r ne Target.NoMatch) fire(s, i, r, leaves = true)
          else {
            val r2 = s.body.applyOrElse(event, Target.noMatch)
            if (r2 ne Target.NoMatch) fire(s, i, r2, leaves = false)
          }
      }
      i += 1
    }
    curState = null
    chainOf = null
    chain = null
    scope = null
    removed > 0 || addCount > 0 || (retracts ne Nil)
  }

  private def fire(s: State, i: Int, r: Target, leaves: Boolean): Unit = {
    val c = currentChain()
    val stays = place(r, s, c)
    if (leaves && !stays) mark(i)
    else if (!s.initial && (c ne null)) s.steps = c
  }

  /** Applies target `t` of a transition out of `source`; whether `t` asks `source` to stay. */
  private def place(t: Target, source: State, c: Step): Boolean = t match {
    case Target.Ok      => false
    case Target.Stay    => true
    case Target.NoMatch => false
    case f: Target.Fail =>
      record(Violation.ErrorReached, String.valueOf(source), f.message, c, withEvent = true)
      false
    case b: Target.Both =>
      val l = place(b.left, source, c)
      val r = place(b.right, source, c)
      l || r
    case m: Target.Many =>
      var stays = false
      val it = m.targets.iterator
      while (it.hasNext) if (place(it.next(), source, c)) stays = true
      stays
    case _ =>
      val s2 = t.asInstanceOf[State]
      if (s2 eq source) true
      else {
        if (!s2.initial) s2.steps = c
        if (addCount == adds.length) adds = java.util.Arrays.copyOf(adds, addCount * 2)
        adds(addCount) = s2
        addCount += 1
        false
      }
  }

  private def mark(i: Int): Unit = {
    if (!marks(i)) removed += 1
    marks(i) = true
  }

  /** The history of the state firing now, extended with the current event; computed once per firing. */
  private def currentChain(): Step = {
    if (chainOf ne curState) {
      chain = Step.extend(curState.steps, number, curEvent, curState, traceLimit)
      chainOf = curState
    }
    chain
  }

  private def commit(set: StateSet): Unit = {
    if (removed > 0) {
      set.compact(marks, passSize)
      removed = 0
    }
    if (retracts ne Nil) {
      retracts.reverse.foreach(set.remove)
      retracts = Nil
    }
    var i = 0
    while (i < addCount) {
      set.add(adds(i))
      adds(i) = null
      i += 1
    }
    addCount = 0
  }

  private def clearScratch(): Unit = {
    java.util.Arrays.fill(marks, false)
    java.util.Arrays.fill(adds, null)
    removed = 0
    addCount = 0
    retracts = Nil
  }

  private def checkInvariants(): Unit = {
    var l = invariants
    while (l ne Nil) {
      val (label, cond) = l.head
      if (!cond()) record(Violation.InvariantFailed, label, null, Step.extend(null, number, curEvent, label, traceLimit), withEvent = true)
      l = l.tail
    }
  }

  private def record(kind: Violation.Kind, state: String, message: String, c: Step, withEvent: Boolean): Unit = {
    ownErrors += 1
    var anyListener = false
    var m: Monitor[E] = this
    while (m ne null) { if (m.listeners ne Nil) anyListener = true; m = m.parent }
    // Building a report costs strings; skip it when nobody will read it (a property that fails on
    // every one of millions of events must not also build millions of reports).
    if (kept.size < violationLimit || anyListener) {
      val v = Violation(
        monitor = name,
        kind = kind,
        state = state,
        eventNumber = number,
        event = if (withEvent) Some(curEvent) else None,
        eventText = if (withEvent) show(curEvent.asInstanceOf[E]) else "",
        message = Option(message),
        trace = traceOf(c))
      if (kept.size < violationLimit) kept += v
      m = this
      while (m ne null) { m.listeners.foreach(_(v)); m = m.parent }
    }
  }

  private def traceOf(last: Step): Vector[Violation.Step] = {
    val nodes = Step.keep(last, traceLimit)
    var prevTotal = 0L
    nodes.iterator.map { s =>
      val v = Violation.Step(s.number, s.event, show(s.event.asInstanceOf[E]), String.valueOf(s.state), s.total - prevTotal - 1)
      prevTotal = s.total
      v
    }.toVector
  }
}

object Monitor {
  /** Default of [[Monitor.withTraceLimit]]. */
  final val DefaultTraceLimit = 20

  /** Default of [[Monitor.withViolationLimit]]. */
  final val DefaultViolationLimit = 10000

  /** A monitor with no states of its own whose sub-monitors are `children`: a named group of properties. */
  def combine[E](name: String, children: Monitor[E]*): Monitor[E] = new Monitor[E](name) {
    monitor(children: _*)
  }

  private[monitor] final val KFact = 0
  private[monitor] final val KWatch = 1
  private[monitor] final val KAlways = 2
  private[monitor] final val KHot = 3
  private[monitor] final val KNext = 4
  private[monitor] final val KWNext = 5
  private[monitor] final val KUntil = 6
  private[monitor] final val KWUntil = 7
  private[monitor] val KindNames = Array("fact", "watch", "always", "hot", "next", "wnext", "until", "wuntil")

  private val FalseFn: Any => Boolean = _ => false

  private def firstNumber(s: Step): Long = {
    if (s eq null) return Long.MaxValue
    var x = s
    while (x.prev ne null) x = x.prev
    x.number
  }

  private def nameOf(c: Class[_]): String = {
    val simple = c.getSimpleName
    if (simple.nonEmpty) simple.stripSuffix("$")
    else c.getName.substring(c.getName.lastIndexOf('.') + 1)
  }
}
