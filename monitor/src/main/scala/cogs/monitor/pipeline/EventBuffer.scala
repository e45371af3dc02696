package cogs.monitor.pipeline

import java.util.concurrent.atomic.{AtomicLong, AtomicReferenceArray}

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
 * store); a producer reads `head` (an acquiring read) before claiming, so it sees the cleared slot
 * and the previous occupant is never overwritten unread.
 *
 * Why the slot store is a volatile `set` and not `lazySet`: the wake-up argument is a Dekker pair
 * (producer: store event, then read the consumer's status; consumer: write its status, then read
 * the slot). Release/acquire would allow both reads to see the old values and the wake-up to be lost.
 */
final class EventBuffer[E <: AnyRef](requestedCapacity: Int) {
  require(requestedCapacity >= 1 && requestedCapacity <= (1 << 30), s"buffer capacity must be in 1..2^30, got $requestedCapacity")

  val capacity: Int = EventBuffer.slotsFor(requestedCapacity)
  private[this] val mask = capacity - 1L
  private[this] val slots = new AtomicReferenceArray[AnyRef](capacity)
  private[this] val tail = new AtomicLong
  // Written by the consumer alone, with release semantics (lazySet): a producer that reads a stale
  // head only thinks the buffer fuller than it is. Release also publishes the cleared slot, which
  // the producer's acquiring read of head then sees. head takes no part in the wake-up argument.
  private[this] val head = new AtomicLong

  /** Add `e` at the end; false when full (then nothing was added). Any thread. */
  def offer(e: E): Boolean = offerCounting(e) > 0

  /**
   * As [[offer]], giving the number of events waiting after this one was added (at least 1,
   * counted from the `head` read for the capacity check, so possibly more than are left), or 0
   * when full. Lets an emitter decide whether to wake the consumer without reading both counters
   * again: they are written by other threads, and each read of them can be a cache miss.
   */
  private[pipeline] def offerCounting(e: E): Long = {
    if (e eq null) throw new NullPointerException("null event")
    while (true) {
      val t = tail.get
      val waiting = t - head.get
      if (waiting >= capacity) return 0L
      if (tail.compareAndSet(t, t + 1)) {
        slots.set((t & mask).toInt, e)
        return waiting + 1
      }
    }
    0L // unreachable
  }

  /** The oldest event, or null if none is ready. Consumer thread only. */
  def poll(): E = {
    val h = head.get
    val i = (h & mask).toInt
    val e = slots.get(i)
    if (e eq null) return null.asInstanceOf[E]
    slots.lazySet(i, null) // published by the release store of head below
    head.lazySet(h + 1)
    e.asInstanceOf[E]
  }

  /** True if the next event is stored and ready for [[poll]]. Consumer thread only. */
  def ready: Boolean = slots.get((head.get & mask).toInt) ne null

  /** Events claimed and not yet taken, including ones still being stored. Approximate from other threads. */
  def size: Long = math.max(0L, tail.get - head.get)

  /** True if no producer has claimed a slot that the consumer has not taken. */
  def isEmpty: Boolean = tail.get == head.get
}

private[pipeline] object EventBuffer {
  /** The power of two at or above `n` (at least 2; `n` at most 2^30, so no overflow). */
  def slotsFor(n: Int): Int = {
    val m = math.max(2, n)
    if (Integer.bitCount(m) == 1) m else Integer.highestOneBit(m) << 1
  }
}
