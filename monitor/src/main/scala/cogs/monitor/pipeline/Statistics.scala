package cogs.monitor.pipeline

import java.util.concurrent.atomic.AtomicLong

/**
 * Per-actor statistics of a pipeline actor, in the manner of MESA's ASF: service time of each call
 * (start to end of the method), mailbox wait (send to start) and a sampled mailbox size.
 *
 * Where MESA wraps the receive function and swaps in an instrumented mailbox, a Cogs actor is
 * instrumented by its senders and its own methods: a sender calls [[sending]] (counts the call as
 * pending, stamps its send time, which travels as an argument of the call) and the method brackets
 * its work with [[start]] and [[stop]]. The pending counter is the only shared word; everything else
 * is written by the actor's COG alone, which runs one process at a time (and hands itself between
 * threads with a CAS, which orders the writes), so plain fields suffice.
 *
 * When statistics are off an actor holds null instead of an `ActorStats`: a call costs one null test
 * on each side, and its send time travels as 0.
 *
 * The mailbox size is sampled every `sampleEvery`-th call, at its start, as the number of calls sent
 * and not yet started, this one included. Like MESA's figure it is a sample, not a time average.
 */
final class ActorStats(val role: String, val actor: String, val sampleEvery: Int) {
  require(sampleEvery >= 1, "sample-every must be at least 1")

  private[this] val pending = new AtomicLong

  private[this] var calls, items = 0L
  private[this] var serviceTotal, serviceMax = 0L
  private[this] var waitCount, waitTotal, waitMax = 0L
  private[this] var mailboxSamples, mailboxTotal, mailboxMax = 0L
  private[this] var backlogSamples, backlogTotal, backlogMax = 0L
  private[this] var latencySamples, latencyTotal, latencyMax = 0L

  /** Sender side: the call is about to be sent. Returns its send time, to pass to [[start]]. */
  def sending(): Long = {
    pending.incrementAndGet()
    System.nanoTime()
  }

  /** Actor side, first thing in a call whose sender called [[sending]]. Returns the start time, for [[stop]]. */
  def start(sentAt: Long): Long = {
    val now = System.nanoTime()
    val queued = pending.getAndDecrement()
    calls += 1
    if (sentAt != 0L) {
      val w = now - sentAt
      waitCount += 1; waitTotal += w
      if (w > waitMax) waitMax = w
    }
    if (calls % sampleEvery == 0) {
      mailboxSamples += 1; mailboxTotal += queued
      if (queued > mailboxMax) mailboxMax = queued
    }
    now
  }

  /** Actor side, last thing in the call: `n` is the number of events it handled. */
  def stop(startedAt: Long, n: Int): Unit = {
    val s = System.nanoTime() - startedAt
    serviceTotal += s
    if (s > serviceMax) serviceMax = s
    items += n
  }

  /** Whether this call is one of the sampled ones (so a dispatcher samples its buffer on the same schedule). */
  def sampling: Boolean = calls % sampleEvery == 0

  /** A dispatcher's trace buffer: events waiting in it (sampled). */
  def sampleBacklog(n: Long): Unit = {
    backlogSamples += 1; backlogTotal += n
    if (n > backlogMax) backlogMax = n
  }

  /** Time from an event's emission to its dispatch (sampled). */
  def sampleLatency(nanos: Long): Unit = {
    latencySamples += 1; latencyTotal += nanos
    if (nanos > latencyMax) latencyMax = nanos
  }

  /** Read by the actor's COG, or after the actor's last call (the end call's future orders it). */
  def snapshot(): StatsSnapshot = StatsSnapshot(
    role, actor, calls, items,
    serviceTotal, serviceMax, waitCount, waitTotal, waitMax,
    mailboxSamples, mailboxTotal, mailboxMax,
    backlogSamples, backlogTotal, backlogMax,
    latencySamples, latencyTotal, latencyMax)
}

/** The figures of one actor (or, from [[StatsSnapshot.merge]], of all actors of a role); times in nanoseconds. */
final case class StatsSnapshot(
    role: String,
    actor: String,
    calls: Long,
    items: Long,
    serviceTotal: Long,
    serviceMax: Long,
    waitCount: Long,
    waitTotal: Long,
    waitMax: Long,
    mailboxSamples: Long,
    mailboxTotal: Long,
    mailboxMax: Long,
    backlogSamples: Long,
    backlogTotal: Long,
    backlogMax: Long,
    latencySamples: Long,
    latencyTotal: Long,
    latencyMax: Long,
    actors: Long = 1
) {
  private def mean(total: Long, n: Long): Double = if (n == 0) Double.NaN else total.toDouble / n

  def meanServiceNanos: Double = mean(serviceTotal, calls)
  def meanWaitNanos: Double = mean(waitTotal, waitCount)
  def meanMailbox: Double = mean(mailboxTotal, mailboxSamples)
  def meanBacklog: Double = mean(backlogTotal, backlogSamples)
  def meanLatencyNanos: Double = mean(latencyTotal, latencySamples)

  def merge(o: StatsSnapshot): StatsSnapshot = StatsSnapshot(
    role, "*", calls + o.calls, items + o.items,
    serviceTotal + o.serviceTotal, serviceMax max o.serviceMax,
    waitCount + o.waitCount, waitTotal + o.waitTotal, waitMax max o.waitMax,
    mailboxSamples + o.mailboxSamples, mailboxTotal + o.mailboxTotal, mailboxMax max o.mailboxMax,
    backlogSamples + o.backlogSamples, backlogTotal + o.backlogTotal, backlogMax max o.backlogMax,
    latencySamples + o.latencySamples, latencyTotal + o.latencyTotal, latencyMax max o.latencyMax,
    actors + o.actors)

  private def us(n: Double): Double = n / 1000.0

  /** One line for people. */
  def render: String = {
    def f(d: Double) = if (d.isNaN) "-" else f"$d%.1f"
    val who = if (actor == "*") s"$role ($actors actors)" else s"$role $actor"
    val base = s"$who: $calls calls, $items events; service mean ${f(us(meanServiceNanos))} us, max ${f(us(serviceMax.toDouble))} us; " +
      s"mailbox wait mean ${f(us(meanWaitNanos))} us, max ${f(us(waitMax.toDouble))} us; " +
      s"sampled mailbox mean ${f(meanMailbox)}, max $mailboxMax"
    val backlog = if (backlogSamples == 0) "" else s"; sampled buffer mean ${f(meanBacklog)}, max $backlogMax"
    val latency = if (latencySamples == 0) "" else s"; emission to dispatch mean ${f(us(meanLatencyNanos))} us, max ${f(us(latencyMax.toDouble))} us"
    base + backlog + latency
  }

  /** One JSON line for tools; times in microseconds. */
  def json: String = Json.obj(
    "type" -> "stats", "role" -> role, "actor" -> actor, "actors" -> actors,
    "calls" -> calls, "events" -> items,
    "service-mean-us" -> us(meanServiceNanos), "service-max-us" -> us(serviceMax.toDouble),
    "wait-mean-us" -> us(meanWaitNanos), "wait-max-us" -> us(waitMax.toDouble),
    "mailbox-samples" -> mailboxSamples, "mailbox-mean" -> meanMailbox, "mailbox-max" -> mailboxMax,
    "buffer-samples" -> backlogSamples, "buffer-mean" -> meanBacklog, "buffer-max" -> backlogMax,
    "latency-samples" -> latencySamples, "latency-mean-us" -> us(meanLatencyNanos), "latency-max-us" -> us(latencyMax.toDouble))
}

/**
 * Gathers the snapshots of all pipeline actors at the end: a total per role (always exact) and the
 * per-actor lines, of which it keeps the first `maxActorLines` (per-key dispatch may create an actor
 * per future: millions of lines would help nobody).
 */
final class StatsCollector(maxActorLines: Int) {
  private[this] val perRole = scala.collection.mutable.LinkedHashMap.empty[String, StatsSnapshot]
  private[this] val lines = Vector.newBuilder[StatsSnapshot]
  private[this] var kept = 0
  private[this] var omitted = 0L

  def add(s: StatsSnapshot): Unit = synchronized {
    perRole.updateWith(s.role) {
      case None    => Some(s.copy(actor = "*"))
      case Some(t) => Some(t.merge(s))
    }
    if (kept < maxActorLines) { lines += s; kept += 1 } else omitted += 1
  }

  def result(): Statistics = synchronized { Statistics(perRole.values.toVector, lines.result(), omitted) }
}

/** All statistics of a run: per role, per actor (up to the configured number), and how many actor lines were left out. */
final case class Statistics(roles: Seq[StatsSnapshot], actors: Seq[StatsSnapshot], omittedActors: Long) {
  def isEmpty: Boolean = roles.isEmpty

  def summaryLines: Seq[String] =
    roles.map(_.render) ++ actors.map("  " + _.render) ++
      (if (omittedActors > 0) List(s"  ($omittedActors more actors; see the totals per role)") else Nil)

  def jsonLines: Seq[String] = roles.map(_.json) ++ actors.map(_.json)
}

object Statistics {
  val empty: Statistics = Statistics(Nil, Nil, 0)
}
