package cogs.monitor

/**
 * The active states of one slice of a monitor: a set (by `equals`, so two case-class states with
 * the same data are one fact) that keeps insertion order.
 *
 * Most slices hold one to a handful of states, where a linear scan beats hashing and allocates
 * nothing; an unindexed monitor can hold thousands, where a linear `contains` per added state
 * would make each event quadratic. So membership goes through a hash set only once the set has
 * grown past [[StateSet.HashFrom]] elements; iteration is always over the array, by position,
 * which is what lets [[Monitor]] mark the states that leave by their index without allocating.
 */
private[monitor] final class StateSet(initialCapacity: Int) {
  private[monitor] var elems: Array[AnyRef] = new Array[AnyRef](math.max(initialCapacity, 2))
  private[monitor] var size: Int = 0
  private var lookup: java.util.HashSet[AnyRef] = null

  def contains(x: AnyRef): Boolean =
    if (lookup ne null) lookup.contains(x)
    else {
      var i = 0
      while (i < size) {
        if (elems(i) == x) return true
        i += 1
      }
      false
    }

  /** Adds `x` unless an equal state is present (the one present keeps its trace). */
  def add(x: AnyRef): Boolean =
    if (contains(x)) false
    else {
      if (size == elems.length) elems = java.util.Arrays.copyOf(elems, size * 2)
      elems(size) = x
      size += 1
      if (lookup ne null) lookup.add(x)
      else if (size > StateSet.HashFrom) {
        lookup = new java.util.HashSet[AnyRef](size * 2)
        var i = 0
        while (i < size) { lookup.add(elems(i)); i += 1 }
      }
      true
    }

  /** Removes the states whose positions (below `n`) are marked, keeping the order of the rest; clears the marks. */
  def compact(marks: Array[Boolean], n: Int): Unit = {
    var w = 0
    var i = 0
    while (i < size) {
      if (i < n && marks(i)) {
        marks(i) = false
        if (lookup ne null) lookup.remove(elems(i))
      } else {
        elems(w) = elems(i)
        w += 1
      }
      i += 1
    }
    java.util.Arrays.fill(elems, w, size, null)
    size = w
  }

  /** Removes the state equal to `x`, if any. */
  def remove(x: AnyRef): Boolean = {
    var i = 0
    while (i < size) {
      if (elems(i) == x) {
        System.arraycopy(elems, i + 1, elems, i, size - i - 1)
        size -= 1
        elems(size) = null
        if (lookup ne null) lookup.remove(x)
        return true
      }
      i += 1
    }
    false
  }

  def copy(): StateSet = {
    val c = new StateSet(math.max(size + 2, 4))
    System.arraycopy(elems, 0, c.elems, 0, size)
    c.size = size
    if (lookup ne null) c.lookup = new java.util.HashSet[AnyRef](lookup)
    c
  }

  /** Same elements as `other` (both are sets, so equal sizes and inclusion suffice). */
  def sameAs(other: StateSet): Boolean =
    size == other.size && {
      var i = 0
      while (i < other.size && contains(other.elems(i))) i += 1
      i == other.size
    }
}

private[monitor] object StateSet {
  /** Above this many states, membership is looked up in a hash set. */
  final val HashFrom = 8

  /**
   * The slice of a key whose states have all gone: shared, because many keys end this way (a
   * protocol finished, an error) and each must still be told apart from a key never seen (whose
   * slice starts as a copy of the monitor's initial states). Never mutated: the monitor skips
   * empty slices.
   */
  val Empty: StateSet = new StateSet(2)
}

/**
 * One event in the history of a state: the event (number and object) and the state it moved. A
 * state's history is a persistent list, newest first, so states forked from one parent share it.
 *
 * `length` is the number of nodes in this list and `total` the number of events the history has
 * had; they differ after [[Step.extend]] has dropped old events to keep memory bounded.
 */
private[monitor] final class Step(
    val number: Long,
    val event: Any,
    val state: AnyRef,
    val prev: Step,
    val length: Int,
    val total: Long)

private[monitor] object Step {
  /**
   * `prev` extended with one event, keeping at most `2 * limit` nodes. When a history reaches that,
   * it is rebuilt with its first event (usually the one that started the chain, the most telling
   * one) and the newest `limit - 1`: one copy of `limit` nodes every `limit` events, so the cost
   * per event stays constant. `limit <= 0` keeps no history at all.
   */
  def extend(prev: Step, number: Long, event: Any, state: AnyRef, limit: Int): Step =
    if (limit <= 0) null
    else if (prev eq null) new Step(number, event, state, null, 1, 1L)
    else if (prev.length < 2 * limit) new Step(number, event, state, prev, prev.length + 1, prev.total + 1)
    else {
      val kept = keep(prev, limit - 1) // the nodes that survive from `prev`, oldest first
      var chain: Step = null
      var i = 0
      while (i < kept.length) {
        val s = kept(i)
        chain = new Step(s.number, s.event, s.state, chain, if (chain eq null) 1 else chain.length + 1, s.total)
        i += 1
      }
      new Step(number, event, state, chain, if (chain eq null) 1 else chain.length + 1, prev.total + 1)
    }

  /**
   * At most `n` nodes of `last`'s history, oldest first: the first one and the newest `n - 1`
   * (only the newest when `n == 1`).
   */
  def keep(last: Step, n: Int): Array[Step] = {
    if (n <= 0 || (last eq null)) return new Array[Step](0)
    val all = new Array[Step](last.length)
    var s = last
    var i = all.length - 1
    while (s ne null) { all(i) = s; s = s.prev; i -= 1 }
    if (all.length <= n) all
    else if (n == 1) Array(all(all.length - 1))
    else {
      val out = new Array[Step](n)
      out(0) = all(0)
      System.arraycopy(all, all.length - (n - 1), out, 1, n - 1)
      out
    }
  }
}
