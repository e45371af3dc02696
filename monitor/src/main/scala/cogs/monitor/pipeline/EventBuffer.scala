package cogs.monitor.pipeline

import java.util.concurrent.atomic.{AtomicLongArray, AtomicReferenceArray}

/**
 * A bounded multi-producer single-consumer FIFO of events: the trace buffer between the threads
 * of the observed program and one dispatcher actor.
 *
 * A ring of `capacity` slots (rounded up to a power of two) and two counters: `tail`, the next
 * index to claim, shared by producers (a CAS); `head`, the next index to read, written only by the
 * consumer. A producer claims index `t` only while `t - head < capacity`, then stores its event
 * into slot `t mod capacity`. The consumer reads the slot at `head`; null there means either empty
 * or "claimed but not yet stored" (a producer between its CAS and its store): the consumer then
 * stops rather than spins, because a producer that stores afterwards also wakes the consumer (see
 * [[Chain]] for that half of the protocol). FIFO holds per producer: one thread's claims are in
 * program order, and the consumer never skips a slot.
 *
 * Why slot reuse is safe: the consumer clears a slot before it publishes the new `head` (a release
 * store); a producer reads `head`, or the producers' copy of it (below), with acquire before
 * claiming, so it sees the cleared slot and the previous occupant is never overwritten unread.
 *
 * Why the slot store is a volatile `set` when a wake-up may follow: the wake-up argument is a
 * Dekker pair (producer: store event, then read the consumer's status; consumer: write its status,
 * then read the slot). Release/acquire would allow both reads to see the old values and the wake-up
 * to be lost. A producer that will not read the consumer's status after its store (a lazily woken
 * chain below its wake-up count, see `quietBelow`) takes no part in that pair, so its store is a
 * release store: it still publishes the event and its fields to the consumer's acquiring read, and
 * it becomes visible without a fence. (On x86 the volatile store is a locked instruction that waits
 * for the slot's cache line, which the other producers and the consumer keep taking away: in
 * monitored ping-pong, two program workers and a dispatcher write neighbouring slots.)
 *
 * == Cache lines ==
 * With two counters as plain `AtomicLong`s, their cache lines moved between cores at every event
 * (in monitored ping-pong: two program workers, one dispatcher): the consumer wrote `head` at each
 * poll and each producer read it at each offer, and `tail` and `head` were adjacent objects, very
 * likely on one line, so the consumer's writes also took away the line that producers CAS. (This
 * is by construction; no profile here could weigh it: the machine has no hardware counters.) So:
 *  - the counters live in one `long[]` (an `AtomicLongArray`), `tail` and `head` 16 longs (128
 *    bytes) apart with padding around both, so each is on a line of its own whatever the array's
 *    alignment (a line is 64 bytes; HotSpot cannot reorder array elements, as it can fields);
 *  - producers keep `seenHead`, a copy of `head` next to `tail`, and read the consumer's `head` only
 *    when the copy makes the buffer look `refreshAt` events full (the capacity, or the emitter's
 *    wake-up threshold): while the consumer keeps up, once per `refreshAt` events.
 *
 * Why the copy is safe. `head` only grows, so any copy is at most the real value: the buffer can
 * only look fuller than it is (a claim is refused only after a fresh read confirms it is full) and
 * the count [[offerCounting]] returns can only be too high. Slot reuse keeps its happens-before
 * chain: the consumer clears a slot, then release-stores `head`; a producer that refreshes reads
 * `head` with acquire and stores the copy with release; a producer that uses the copy reads it with
 * acquire. So a producer that claims index `t` because `t - seenHead < capacity` has seen the clear
 * of slot `t mod capacity` (cleared before `head` passed `t - capacity`), and its store cannot be
 * overwritten by that clear. Producers may store an older copy over a newer one (racing
 * refreshes): that only makes the copy staler, never larger than `head`.
 * `ChainStressTest.tinyBufferUnderManyProducersLosesNothing` drives wrap-arounds of a 4-slot
 * buffer from 4 producers through this path and checks every event arrives once, in order.
 */
final class EventBuffer[E <: AnyRef](requestedCapacity: Int) {
  require(requestedCapacity >= 1 && requestedCapacity <= (1 << 30), s"buffer capacity must be in 1..2^30, got $requestedCapacity")
  import EventBuffer.{Tail, SeenHead, Head, CounterSlots}

  val capacity: Int = EventBuffer.slotsFor(requestedCapacity)
  private[this] val mask = capacity - 1L
  private[this] val slots = new AtomicReferenceArray[AnyRef](capacity)
  // tail: the next index to claim, shared by producers (a CAS). head: written by the consumer
  // alone, with release semantics (lazySet); a producer that sees a stale head only thinks the
  // buffer fuller than it is, and release also publishes the cleared slot, which the producer's
  // acquiring read of head then sees. head takes no part in the wake-up argument.
  private[this] val counters = new AtomicLongArray(CounterSlots)

  /** Add `e` at the end; false when full (then nothing was added). Any thread. */
  def offer(e: E): Boolean = offerCounting(e, capacity.toLong, 0L) > 0

  /**
   * As [[offer]], giving the number of events waiting after this one was added (at least 1,
   * counted from a copy of `head`, so possibly more than are left), or 0 when full. Lets an
   * emitter decide whether to wake the consumer without reading the consumer's counter: the real
   * `head` is read only when the copy makes at least `refreshAt` events look waiting, so a count
   * below `refreshAt` may be too high but one of `refreshAt` or more was checked against a fresh
   * `head` (still possibly too high, never too low).
   *
   * `quietBelow`: the caller reads the consumer's status after this offer (to wake it) only when
   * the count returned is at least `quietBelow`; below it the slot is written with a release store
   * instead of a volatile one (see the class comment). 0 or 1: always volatile.
   */
  private[pipeline] def offerCounting(e: E, refreshAt: Long, quietBelow: Long): Long = {
    if (e eq null) throw new NullPointerException("null event")
    val limit = math.min(math.max(refreshAt, 1L), capacity.toLong)
    while (true) {
      val t = counters.get(Tail)
      // Eager emitters (limit 1) read head itself: a copy they would refresh every time costs a
      // store more than the read it saves.
      var h = if (limit == 1L) counters.get(Head) else counters.getAcquire(SeenHead)
      // `t - h + 1`: the events this one would make look waiting. At `limit` or more, the count
      // must come from a fresh head (the promise above); a full answer too, since limit <= capacity.
      if (limit > 1L && t - h + 1 >= limit) {
        h = counters.get(Head)
        counters.setRelease(SeenHead, h)
      }
      val waiting = t - h
      if (waiting >= capacity) return 0L
      if (counters.compareAndSet(Tail, t, t + 1)) {
        if (waiting + 1 >= quietBelow) slots.set((t & mask).toInt, e)
        else slots.setRelease((t & mask).toInt, e)
        return waiting + 1
      }
    }
    0L // unreachable
  }

  /** The oldest event, or null if none is ready. Consumer thread only. */
  def poll(): E = {
    val h = counters.get(Head)
    val i = (h & mask).toInt
    val e = slots.get(i)
    if (e eq null) return null.asInstanceOf[E]
    slots.lazySet(i, null) // published by the release store of head below
    counters.lazySet(Head, h + 1)
    e.asInstanceOf[E]
  }

  /** True if the next event is stored and ready for [[poll]]. Consumer thread only. */
  def ready: Boolean = slots.get((counters.get(Head) & mask).toInt) ne null

  /** Events claimed and not yet taken, including ones still being stored. Approximate from other threads. */
  def size: Long = math.max(0L, counters.get(Tail) - counters.get(Head))

  /** True if no producer has claimed a slot that the consumer has not taken. */
  def isEmpty: Boolean = counters.get(Tail) == counters.get(Head)
}

private[pipeline] object EventBuffer {
  // Indices in the counters' long[]: 8 longs (64 bytes) of padding before tail, then tail and
  // the producers' copy of head side by side (objects are only 8-byte aligned, so the two may
  // straddle two lines; both lines then hold nothing else but padding), head 16 longs after tail,
  // 7 longs of padding after head.
  final val Tail = 8
  final val SeenHead = 9
  final val Head = 24
  final val CounterSlots = 32

  /** The power of two at or above `n` (at least 2; `n` at most 2^30, so no overflow). */
  def slotsFor(n: Int): Int = {
    val m = math.max(2, n)
    if (Integer.bitCount(m) == 1) m else Integer.highestOneBit(m) << 1
  }
}
