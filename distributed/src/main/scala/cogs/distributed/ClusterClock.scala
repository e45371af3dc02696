package cogs.distributed

import cogs.runtime.{ClusterClockLink, SimTime}
import java.util.concurrent.atomic.{AtomicLong, AtomicReference}
import org.apache.pekko.actor.{ActorRef, Address}

/**
 * One simulated clock for a cluster (Timed ABS on several nodes, issue 30). The design and the
 * argument are in docs/distributed.md, "One simulated clock for the cluster"; in short:
 *
 *  - every node's runtime is linked ([[ClusterClockLink]]): its clock never advances by itself,
 *    and a hold keeps it from quiescence until the cluster clock ends;
 *  - every counted message (call, one-way call, creation and their answers) is counted sent
 *    (`sent`, before it leaves for the backlog) and received (`received`, after the receiver put
 *    its effect into the runtime and sent what handling it sends), and travels [[Protocol.Stamped]]
 *    with the sender's epoch and time;
 *  - one node coordinates: it sends waves of [[Protocol.Probe]]s; a node answers a probe only
 *    while passive, with its counts and its own next time. Two consecutive complete waves with
 *    the same counts on every node and as many messages received as sent in total show that the
 *    cluster was passive with nothing in flight at the end of the first (Mattern's four-counter
 *    argument); the coordinator then advances every node to the smallest next time
 *    ([[Protocol.Advance]]), or ends the clock when no node has one;
 *  - a node that gets a message stamped with an epoch it has not applied yet applies it first.
 *
 * The node side is used from many threads (COG workers, Artery's); the coordinator's state only
 * from the node's endpoint actor (one message at a time).
 */
private[distributed] final class ClusterClock(node: Node) {
  import ClusterClock._
  import Protocol._

  // ---------------------------------------------------------------- node side

  private[this] val sent = new AtomicLong
  private[this] val received = new AtomicLong
  // The epoch this node applied and its time, one immutable pair so a stamp never mixes two.
  @volatile private[this] var stamp$ : Stamp = Stamp(0L, SimTime.Zero)
  // The probe waiting for this node to be passive (at most one: the coordinator starts a wave
  // only when the last one is complete).
  private[this] val probe = new AtomicReference[Waiting]
  @volatile private[this] var ended$ : String = _
  @volatile private[this] var coordinatorAddress: Address = _

  // Linked last: `tryAnswer` may run on a COG's thread as soon as the link exists.
  private[this] val link: ClusterClockLink = node.runtime.linkClusterClock(() => tryAnswer())

  def epoch: Long = stamp$.epoch
  def ended: Option[String] = Option(ended$)

  /**
   * A counted message on its way out, from the thread that sends it (a process of a running
   * COG, or the endpoint handling a message, which has not yet counted that message received).
   * Counted before it enters the backlog, so from here until the receiver counts it, `sent`
   * exceeds `received` in the cluster's sums. The stamp is read after the count: a process woken
   * by advance e runs after this node wrote e (see [[apply]]), so its messages carry e.
   */
  def stamp(m: Msg): Msg = {
    sent.incrementAndGet()
    val s = stamp$
    Stamped(s.epoch, s.time, m)
  }

  /** A stamped message arrived (endpoint actor): first the advance it was sent after, if this node has not applied it. */
  def catchUp(epoch: Long, time: SimTime): Unit = if (epoch > stamp$.epoch) apply(epoch, time)

  /** The stamped message was handled (its effect is in the runtime, its replies counted sent). */
  def delivered(): Unit = received.incrementAndGet()

  /** The coordinator's advance (endpoint actor); already applied if a stamped message came first. */
  def advance(epoch: Long, time: SimTime): Unit = if (epoch > stamp$.epoch) apply(epoch, time)

  /**
   * Apply advance `epoch`, on the endpoint actor (so never two at once). The node is passive here
   * (docs/distributed.md: the cluster advanced only after every node was passive with nothing in
   * flight, and this node has not run since, having received nothing of the new epoch). The
   * stamp is written BEFORE the clock moves: every process the advance wakes sends with the new
   * epoch, so a receiver that has not heard of the advance applies it before it takes the message.
   */
  private def apply(epoch: Long, time: SimTime): Unit = {
    val s = stamp$
    if (epoch != s.epoch + 1)
      node.system.log.error("cluster clock: node {} at advance {} got advance {} (one was skipped)", node.address, s.epoch, epoch)
    stamp$ = Stamp(epoch, time)
    link.advanceTo(time)
  }

  /** A probe of wave `wave` (endpoint actor): answered now if passive, else by the COG that makes this node passive. */
  def probed(wave: Long, replyTo: ActorRef, from: Address): Unit = {
    coordinatorAddress = from
    // Published before tryAnswer reads `active`: the Dekker pair of ClusterClockLink.
    probe.set(Waiting(wave, replyTo))
    tryAnswer()
  }

  /**
   * Answer the waiting probe if this node is passive; from the endpoint (a probe came) or from
   * the COG that left only the hold counted. The report must describe one instant at which the
   * node was passive with those counts: the counts are read before and after the passivity
   * check, and if they moved the check is repeated. The probe is claimed with a CAS, so exactly
   * one thread answers it. Not passive: the COG that makes the node passive calls this again
   * (ClusterClockLink's comment: it writes `active`, then reads the probe published here).
   */
  private def tryAnswer(): Unit = {
    while (true) {
      val w = probe.get()
      if ((w eq null) || (ended$ ne null)) return
      val s = sent.get()
      val r = received.get()
      if (!link.isPassive) return
      // Waiters change only while a COG runs: read while passive, this is the passive state's.
      val next = link.nextTarget
      val e = stamp$.epoch
      if (sent.get() == s && received.get() == r && probe.compareAndSet(w, null)) {
        w.replyTo.tell(Report(w.wave, e, s, r, next), node.endpoint)
        return
      }
    }
  }

  /** The clock is over on this node: the hold goes back (the runtime can become quiescent). */
  def end(reason: String): Unit = {
    if (ended$ eq null) ended$ = reason
    probe.set(null)
    link.end()
  }

  // ---------------------------------------------------------------- coordinator side (endpoint actor only)

  private[this] var members: Vector[Address] = Vector.empty
  private[this] var coordinating = false
  private[this] var wave = 0L
  private[this] var epochC = 0L
  private[this] val reports = scala.collection.mutable.HashMap.empty[Address, Report]
  // The previous complete wave since the last advance (null: none yet).
  private[this] var previous: Map[Address, Report] = _
  /** Waves run by this node as coordinator, and advances decided (for tests and reports). */
  @volatile var waves: Long = 0L
  @volatile var advances: Long = 0L

  /** Start coordinating the clock over `all` (this node among them). */
  def coordinate(all: Vector[Address]): Unit = {
    // On the endpoint actor: an exception would restart it, so a second start is only logged
    // (Node.coordinateClock checked the arguments before sending this).
    if (coordinating || wave > 0) {
      node.system.log.error("cluster clock: node {} was asked to coordinate the clock again; ignored", node.address)
      return
    }
    members = all.distinct
    coordinating = true
    startWave()
  }

  private def refFor(a: Address): ActorRef = if (a == node.address) node.endpoint else node.endpointOf(a)

  private def startWave(): Unit = {
    wave += 1
    waves = wave
    reports.clear()
    members.foreach(a => refFor(a).tell(Probe(wave), node.endpoint))
  }

  def report(from: Address, r: Report): Unit = {
    if (!coordinating || r.wave != wave || !members.contains(from)) return
    reports(from) = r
    if (reports.size == members.size) waveComplete()
  }

  /**
   * Every node answered this wave, each while passive. Concluded when the previous wave (since
   * the last advance) had exactly the same counts on every node, every node reported the current
   * epoch, and the cluster received as many counted messages as it sent: then at the end of the
   * previous wave every node was passive and nothing was in flight (docs/distributed.md), and
   * nothing has happened since, so the reported next times are the cluster's waiters.
   */
  private def waveComplete(): Unit = {
    val cur = reports.toMap
    val prev = previous
    val sums = cur.values.foldLeft((0L, 0L))((acc, r) => (acc._1 + r.sent, acc._2 + r.received))
    val stable = (prev ne null) && members.forall { a =>
      val p = prev(a); val c = cur(a)
      p.sent == c.sent && p.received == c.received && p.epoch == epochC && c.epoch == epochC
    }
    if (stable && sums._1 == sums._2) {
      val targets = cur.values.iterator.map(_.next).filter(_ ne null).toList
      // The coordinator's own runtime's clock limit (ABS `--clock-limit`, given to the main node)
      // is the cluster's: read at each conclusion, as one JVM's clock reads its limit at each advance.
      val limit = node.runtime.clockLimit
      if (targets.isEmpty) endAll("no process waits for time on any node")
      else if (limit.exists(targets.min > _)) {
        // As one JVM's clock at its limit: no advance, the waiters stay waiting, and the run ends
        // (every node's hold goes back). Only the coordinator's runtime says it reached the limit
        // (ClusterClockLink.limitReached, before the ClockEnd that lets its `run` return).
        link.limitReached()
        endAll(s"the clock limit ${limit.get} is reached (the next advance would go to ${targets.min})")
      } else {
        val t = targets.min
        epochC += 1
        advances = epochC
        // Each Advance goes before the next wave's Probe to the same node (one association, in
        // order): a node answers the next wave only after it applied this advance.
        members.foreach(a => refFor(a).tell(Advance(epochC, t), node.endpoint))
        previous = null
        startWave()
      }
    } else {
      previous = cur
      startWave()
    }
  }

  /** End the clock on every node (this one included). */
  def endAll(reason: String): Unit = if (coordinating) {
    coordinating = false
    members.foreach(a => refFor(a).tell(ClockEnd(reason), node.endpoint))
  }

  /**
   * Node `a` was lost (endpoint actor). Without it no wave completes and no advance is safe: the
   * coordinator ends the clock everywhere, and a node that lost its coordinator ends its own;
   * processes still waiting for time then show in the deadlock report of their node.
   */
  def nodeLost(a: Address, reason: String): Unit = {
    if (coordinating && members.contains(a)) endAll(s"node $a was lost ($reason)")
    if (a == coordinatorAddress) end(s"the clock's coordinator, node $a, was lost ($reason)")
  }
}

private[distributed] object ClusterClock {
  final case class Stamp(epoch: Long, time: SimTime)
  final case class Waiting(wave: Long, replyTo: ActorRef)
  /** Local message to a node's endpoint: coordinate the clock over these nodes. */
  final case class Coordinate(members: Vector[Address])
}
