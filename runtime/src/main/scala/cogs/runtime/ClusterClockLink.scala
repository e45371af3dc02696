package cogs.runtime

import java.util.concurrent.atomic.AtomicInteger

/**
 * The runtime's side of a clock shared by several runtimes (Timed ABS on several nodes, issue 30;
 * the design is in docs/distributed.md, "One simulated clock for the cluster"). Internal to Cogs:
 * the distributed module makes one per node with [[CogRuntime.linkClusterClock]], before the
 * simulation starts; the runtime knows nothing of the network.
 *
 * While linked, the runtime's simulated clock never advances by itself: the cluster decides when
 * every node is passive and no message is in flight, and to which time, and calls [[advanceTo]]
 * on every node. The link holds one count of the runtime's `active` (the "hold") from
 * [[CogRuntime.linkClusterClock]] until [[end]], so this runtime is never quiescent (its `run` and
 * `awaitQuiescence` wait, a `join` reports no deadlock) while another node may still send it work
 * or the cluster may still advance the time.
 *
 * ==Passive, and who is told==
 * The node is passive when `active` is exactly the hold: no COG is scheduled or running. A COG
 * whose batch ends goes through [[idle]] (SimClock.idle hands it here): it takes its own count
 * off with a CAS, and if that left only the hold, it calls `onPassive` on its own thread, after
 * the CAS. Whoever waits for passivity (a probe of the cluster clock) publishes its wait before
 * it reads `active` ([[isPassive]]); the COG writes `active` before it reads the wait (inside
 * `onPassive`). Both are sequentially consistent accesses, so at least one of the two sees the
 * other: the probe is answered, by the prober or by the COG (the distributed module claims it
 * with a CAS so that only one answers).
 */
private[cogs] final class ClusterClockLink private[runtime] (rt: CogRuntime, clock: SimClock, active: AtomicInteger, onPassive: Runnable) {
  @volatile private[this] var ended = false

  /** No COG scheduled or running: `active` is only the hold. From any thread; a snapshot. */
  def isPassive: Boolean = !ended && active.get() == 1

  /** The simulated time of this node. */
  def now: SimTime = clock.now

  /** Where this node's clock would go next (see SimClock.nextTarget); null if nothing waits for time. */
  def nextTarget: SimTime = clock.nextTarget

  /**
   * Advance to `at` (decided by the cluster, at most this node's [[nextTarget]]), waking the
   * waiters it reaches; each woken COG is counted active before this returns. Called while the
   * node is passive: the hold then plays the part of the local clock's token (SimClock's class
   * comment), so nobody sees `active` at zero and no COG can be half-woken when the next probe
   * looks. The number of waiters woken.
   */
  def advanceTo(at: SimTime): Int = clock.advanceTo(at)

  /**
   * The cluster's coordinator stopped at this runtime's clock limit (the next advance would pass
   * it): [[CogRuntime.clockLimitReached]] says so, as after a local clock stopped there. Called
   * before [[end]], so `run` returning after the end sees it.
   */
  def limitReached(): Unit = clock.limitReached = true

  /**
   * The cluster clock is over (nothing waits for time anywhere and nothing is in flight, or the
   * cluster lost a node): the hold is given back, so the runtime becomes quiescent once its COGs
   * are idle, as an untimed one does. Processes still waiting for time then wait for good (the
   * deadlock report names them). Idempotent.
   */
  def end(): Unit = synchronized {
    if (!ended) {
      ended = true
      rt.cogIdle() // gives back the hold, through idle below
    }
  }

  /** SimClock.idle while linked: take one count off; tell `onPassive` when only the hold is left. */
  private[runtime] def idle(active: AtomicInteger): Boolean = {
    while (true) {
      val a = active.get()
      if (active.compareAndSet(a, a - 1)) {
        // `ended` is read after the CAS: a COG that left the hold alone before `end` was set
        // tells onPassive (harmless: an answer to a probe nobody waits for any more is dropped).
        if (a == 2 && !ended) onPassive.run()
        return a == 1
      }
    }
    false
  }
}
