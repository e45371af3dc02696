package cogs.runtime

/**
 * A worker's queue of COGs kept near it (step 3 of docs/runtime-design.md, section 4, fix 1):
 * scheduled COGs that the worker would otherwise have forked into its pool queue, where the other
 * worker could steal them at once. Only with `-Dcogs.scheduler.affinity=true` (see
 * [[CogRuntime]]'s `affinity`).
 *
 * Thread-confined: only the worker that owns it touches it, and only inside its `runOn` (so there
 * is no lock-free hand-off here, and nothing to publish). A COG leaves it in one of three ways,
 * all on the owning worker: `poll` (the worker runs it next, as it runs its slot), `expire` (it
 * waited `grace` nanoseconds: it is forked, and any worker may take it from then on), or `drain`
 * (the worker's `runOn` ends: everything left is forked). FIFO, so the oldest entry is at the head
 * and `expire` stops at the first young one.
 */
private[runtime] final class NearQueue {
  private[this] var cogs = new Array[Cog](16)
  private[this] var times = new Array[Long](16)
  private[this] var head = 0 // index of the oldest entry
  private[this] var count = 0

  def isEmpty: Boolean = count == 0
  def size: Int = count

  def add(c: Cog, now: Long): Unit = {
    if (count == cogs.length) grow()
    val i = (head + count) & (cogs.length - 1)
    cogs(i) = c
    times(i) = now
    count += 1
  }

  /** The oldest entry, or null. */
  def poll(): Cog = {
    if (count == 0) return null
    val c = cogs(head)
    cogs(head) = null
    head = (head + 1) & (cogs.length - 1)
    count -= 1
    c
  }

  /** Fork every entry that entered at or before `bound` (a `System.nanoTime`); how many. */
  def expire(bound: Long, rt: CogRuntime): Int = {
    var n = 0
    while (count > 0 && times(head) - bound <= 0) { rt.fork(poll()); n += 1 }
    n
  }

  /** Fork every entry. */
  def drain(rt: CogRuntime): Unit = while (count > 0) rt.fork(poll())

  private def grow(): Unit = {
    val n = cogs.length
    val cs = new Array[Cog](n * 2)
    val ts = new Array[Long](n * 2)
    var k = 0
    while (k < count) {
      val i = (head + k) & (n - 1)
      cs(k) = cogs(i); ts(k) = times(i)
      k += 1
    }
    cogs = cs; times = ts; head = 0
  }
}
