package cogs.bench.monitor

import cogs.monitor.Monitor
import cogs.monitor.pipeline._
import cogs.runtime.CogRuntime
import java.util.concurrent.atomic.LongAdder

/** An event of the MESA-shaped trace: the state of a flight at a time, or the end of its track. */
sealed trait FlightEvent {
  def callSign: String
  def time: Long
}
final case class FlightState(callSign: String, state: Int, time: Long) extends FlightEvent
final case class TrackCompleted(callSign: String, time: Long) extends FlightEvent

/**
 * MESA's property `sfdps-seq-order` (the seed's Figure 2): the events of one flight come in the
 * order of their time tags. Every flight state opens a watch that the flight's next event must
 * satisfy. With `indexed`, the monitor indexes its states by call sign (the seed's `_idx` variant,
 * Figure 3); the transitions compare the call sign anyway, so both variants mean the same.
 */
final class FlightOrder(indexed: Boolean) extends Monitor[FlightEvent]("flight-order") {
  always {
    case FlightState(cs, _, t1) =>
      watch { case e: FlightEvent if e.callSign == cs => e.time > t1 }
  }
  override protected def indexKey(e: FlightEvent): Any = if (indexed) e.callSign else null
}

/**
 * `subs` copies of [[FlightOrder]] as sub-monitors of one monitor (the seed's
 * `sfdpsOrderMultiMonitor`): the property is cheap, so MESA multiplied it to lengthen the service
 * time of its monitor actors (2,000 copies there; fewer here, see [[Mesa.Params]]).
 */
final class FlightOrderMulti(subs: Int, indexed: Boolean) extends Monitor[FlightEvent](s"flight-order x$subs") {
  monitor((1 to subs).map(_ => new FlightOrder(indexed).withViolationLimit(1)): _*)
}

/**
 * A DSL monitor as a pipeline checker that also adds its error count to a total at its end, so a
 * run can be checked: every configuration must find exactly the violations injected into the trace.
 * Only the first finding of an instance is reported (the count is exact).
 */
final class CountingChecker[E](m: Monitor[E], errors: LongAdder) extends Checker[E] {
  def name: String = m.name
  def verify(e: E): Unit = m.verify(e)
  def end(): Unit = { m.end(); errors.add(m.errorCount.toLong) }
  def violations: Seq[Finding] =
    m.violations.take(1).map(v => Finding(v.monitor, s"${v.kind.description} in ${v.state}", v.eventNumber, Nil))
}

/** The generated trace: MESA's 200,000 events over 3,215 call signs, in time order, with `disordered` flights out of order once. */
final case class FlightTrace(events: Array[FlightEvent], keys: Int, disordered: Int)

object FlightTrace {

  /**
   * A seeded stand-in for the seed's SFDPS archive: `keys` flights with 62 or 63 events each (so
   * that there are `events` in all), each flight's states a minute or so apart (filed, departed,
   * en route..., arrived, then TrackCompleted), flights starting at random in a four-hour window,
   * merged by time. In `disordered` flights two consecutive states swap their time tags while
   * keeping their place in the trace, as SWIM delivered some messages out of order: each such
   * flight violates the property exactly once (its later state now carries the earlier time).
   */
  def generate(events: Int, keys: Int, disordered: Int, seed: Long): FlightTrace = {
    require(events >= 3 * keys, s"need at least 3 events per key: $events events over $keys keys")
    val rnd = new java.util.SplittableRandom(seed)
    val counts = Array.tabulate(keys)(k => events / keys + (if (k < events % keys) 1 else 0))
    val window = 4L * 3600 * 1000
    val times = Array.tabulate(keys) { k =>
      var t = rnd.nextLong(window)
      Array.tabulate(counts(k)) { _ => t += 40000 + rnd.nextLong(40000); t }
    }
    val sign = Array.tabulate(keys)(k => f"FL$k%05d")
    val bad = {
      val ks = (0 until keys).toArray
      var i = ks.length - 1
      while (i > 0) { val j = rnd.nextInt(i + 1); val x = ks(i); ks(i) = ks(j); ks(j) = x; i -= 1 }
      ks.take(disordered).toSet
    }
    // (original time, event): the trace is ordered by the original times.
    val all = new Array[(Long, FlightEvent)](events)
    var n = 0
    var k = 0
    while (k < keys) {
      val ts = times(k).clone()
      val c = counts(k)
      if (bad(k)) { val j = 1 + rnd.nextInt(c - 3); val x = ts(j); ts(j) = ts(j + 1); ts(j + 1) = x }
      var i = 0
      while (i < c) {
        val state = if (i == 0) 0 else if (i == 1) 1 else if (i == c - 2) 3 else 2
        all(n) = times(k)(i) -> (if (i == c - 1) TrackCompleted(sign(k), ts(i)) else FlightState(sign(k), state, ts(i)))
        n += 1
        i += 1
      }
      k += 1
    }
    java.util.Arrays.sort(all, (a: (Long, FlightEvent), b: (Long, FlightEvent)) => java.lang.Long.compare(a._1, b._1))
    FlightTrace(all.map(_._2), keys, disordered)
  }
}

/**
 * One MESA-shaped run: the trace is emitted by one thread (MESA's instant-replay actor) into a
 * chain (bounded buffer, backpressure) whose dispatcher routes it to the flight-order monitor,
 * dispatched as one of MESA's four systems:
 *
 * | kind      | MESA system         | instances                                  | monitor |
 * | single    | monitor-indexing    | one, in the dispatcher                     | indexed by call sign |
 * | indexed   | dispatcher-indexing | one per flight, in the dispatcher's map    | unindexed |
 * | per-key   | concurrent          | one monitor actor per flight               | unindexed |
 * | pool      | bounded-concurrent  | `pool` monitor actors, flights round robin | indexed by call sign |
 *
 * A flight's instance (per-key, indexed) is ended at its TrackCompleted, as MESA's concurrent
 * dispatcher terminates the flight's actor. The clock runs from the first event emitted until
 * `finish` returned: every event checked and every monitor ended.
 */
object Mesa {

  final case class Params(events: Int = 200000, keys: Int = 3215, disordered: Int = 100, subs: Int = 40, seed: Long = 20200601L)

  final case class Outcome(delivered: Long, errors: Long, expectedErrors: Long, instances: Long, losses: Long, stats: Statistics) {
    def problem: Option[String] =
      if (losses != 0) Some(s"$losses events lost")
      else if (errors != expectedErrors) Some(s"found $errors violations, expected $expectedErrors")
      else None
  }

  def kindOf(name: String): DispatchKind =
    DispatchKind.all.find(_.configName == name).getOrElse(throw new IllegalArgumentException(s"unknown dispatcher kind '$name'"))

  def run(trace: FlightTrace, kind: DispatchKind, pool: Int, subs: Int, stats: Boolean, rt: CogRuntime): Outcome = {
    val errors = new LongAdder
    val indexedMonitor = kind == DispatchKind.Single || kind == DispatchKind.Pool
    val spec = MonitorSpec[FlightEvent](
      "flight-order",
      () => new CountingChecker[FlightEvent](new FlightOrderMulti(subs, indexedMonitor), errors),
      DispatchSettings[FlightEvent](kind, _.callSign, _.isInstanceOf[TrackCompleted], pool))
    val collector = if (stats) new StatsCollector(0) else null
    val settings = SinkSettings[FlightEvent](
      capacity = 65536,
      stats = if (stats) StatsSettings(dispatcher = true, monitor = true, sampleEvery = 100, maxActorLines = 0) else StatsSettings.off)
    val sink = Chain[FlightEvent]("mesa", List(spec), settings, rt, collector)
    val evs = trace.events
    var i = 0
    while (i < evs.length) { sink.emit(evs(i)); i += 1 }
    val r = sink.finish()
    Outcome(r.delivered, errors.sum, trace.disordered.toLong * subs, r.routes.map(_.instances).sum, r.losses.total,
      if (collector eq null) Statistics.empty else collector.result())
  }
}
