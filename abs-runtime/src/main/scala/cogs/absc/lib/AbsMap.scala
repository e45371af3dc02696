package cogs.absc.lib

import scala.collection.immutable.{HashMap, TreeMap}
import scala.collection.mutable.ListBuffer
import scala.util.hashing.MurmurHash3

/**
 * ABS `Map<K, V>`, with exactly the semantics abslang.abs gives it, made fast.
 *
 * In ABS a map is an association list (`EmptyMap | InsertAssoc(Pair<K, V>, Map<K, V>)`), and the
 * reference backends show it: `map[Pair(2,"b"), Pair(1,"a")]` prints in that order and is not
 * `==` to `map[Pair(1,"a"), Pair(2,"b")]`; `put` replaces the first entry of its key in place or
 * appends a new entry at the end; `insert` puts an entry in front, hiding (not removing) an entry
 * with the same key; `removeKey` removes the first entry of a key, so a hidden one reappears;
 * `map[..]` keeps duplicate keys (lookup sees the first); `values`, `entries` and
 * `lookupReverse` walk every entry, hidden ones included.
 *
 * Representation: the entries in list order in a `TreeMap` keyed by a sequence number (front
 * insertions take numbers below the lowest, appends above the highest, `put` reuses the
 * number), and a hash index from each key to its first entry (number and value). Lookups are a
 * hash probe; `put`, `insert` and `removeKey` are O(log n). Only when a key has hidden entries
 * does `removeKey` scan for the next one.
 */
final class AbsMap[+K, +V] private (
    private val order: TreeMap[Long, Pair[Any, Any]],
    private val index: HashMap[Any, AbsMap.Slot],
    private val hidden: scala.Int, // entries hidden behind an earlier entry with the same key
    private val lo: Long,
    private val hi: Long
) extends Serializable {
  import AbsMap.Slot

  /** Number of entries, hidden ones included (the length of the association list). */
  def entryCount: scala.Int = order.size

  def isEmpty: Boolean = order.isEmpty

  /** ABS `lookup`: `Just` the value of the first entry for `k`, or `Nothing`. */
  def get(k: Any): Maybe[V] = index.getOrElse(k, null) match {
    case null => Nothing
    case s    => Just(s.value.asInstanceOf[V])
  }

  /** The value of the first entry for `k`, or `default`. */
  def getOrElse[W >: V](k: Any, default: W): W = index.getOrElse(k, null) match {
    case null => default
    case s    => s.value.asInstanceOf[W]
  }

  def containsKey(k: Any): Boolean = index.contains(k)

  /** ABS `put`: replace the first entry for `k` in place, or append one. */
  def put[K1 >: K, V1 >: V](k: K1, v: V1): AbsMap[K1, V1] = index.getOrElse(k, null) match {
    case null =>
      val s = hi + 1
      new AbsMap[K1, V1](order.updated(s, Pair(k, v)), index.updated(k, new Slot(s, v)), hidden, if (order.isEmpty) s else lo, s)
    case slot =>
      new AbsMap[K1, V1](order.updated(slot.seq, Pair(k, v)), index.updated(k, new Slot(slot.seq, v)), hidden, lo, hi)
  }

  /** ABS `insert`: a new first entry, hiding an existing entry for the same key. */
  def insertFirst[K1 >: K, V1 >: V](p: Pair[K1, V1]): AbsMap[K1, V1] = {
    val s = lo - 1
    val h = if (index.contains(p.fst)) hidden + 1 else hidden
    new AbsMap[K1, V1](order.updated(s, p), index.updated(p.fst, new Slot(s, p.snd)), h, s, if (order.isEmpty) s else hi)
  }

  /** ABS `removeKey`: remove the first entry for `k` (a hidden entry for `k` becomes visible). */
  def removeKey(k: Any): AbsMap[K, V] = index.getOrElse(k, null) match {
    case null => this
    case slot =>
      val o = order.removed(slot.seq)
      var idx = index.removed(k)
      var h = hidden
      if (hidden > 0) {
        val it = o.iteratorFrom(slot.seq + 1)
        var found = false
        while (!found && it.hasNext) {
          val (s, p) = it.next()
          if (p.fst == k) { idx = idx.updated(k, new Slot(s, p.snd)); h -= 1; found = true }
        }
      }
      if (o.isEmpty) AbsMap.empty
      else new AbsMap[K, V](o, idx, h, o.firstKey, o.lastKey)
  }

  /** Entries in list order, hidden ones included. */
  def entriesIterator: Iterator[Pair[K, V]] = order.valuesIterator.asInstanceOf[Iterator[Pair[K, V]]]

  /** ABS `entries`. */
  def entries: List[Pair[K, V]] = entriesIterator.toList

  /** ABS `values`: the values of all entries in list order. */
  def values: List[V] = {
    val b = new ListBuffer[V]
    order.valuesIterator.foreach(p => b += p.snd.asInstanceOf[V])
    b.toList
  }

  /** ABS `keys`: the set of keys. */
  def keys: AbsSet[K] = AbsSet.fromIterable(index.keys).asInstanceOf[AbsSet[K]]

  /** ABS `lookupReverse`: the key of the first entry (in list order) whose value is `v`. */
  def keyOf(v: Any): Maybe[K] = {
    val it = order.valuesIterator
    while (it.hasNext) {
      val p = it.next()
      if (p.snd == v) return Just(p.fst.asInstanceOf[K])
    }
    Nothing
  }

  override def equals(that: Any): Boolean = that match {
    case m: AbsMap[_, _] =>
      (m eq this) || (m.order.size == order.size && order.valuesIterator.sameElements(m.order.valuesIterator))
    case _ => false
  }

  override def hashCode: scala.Int = MurmurHash3.orderedHash(order.valuesIterator, AbsMap.HashSeed)

  /** ABS `toString`: `map[Pair(1,"a"),Pair(2,"b")]`, `EmptyMap` when empty. */
  override def toString: String = Show.show(this)
}

object AbsMap {
  private final val HashSeed = 0x3a9

  private[lib] final class Slot(val seq: Long, val value: Any) extends Serializable

  /** ABS `map[]` / `EmptyMap`. */
  val empty: AbsMap[scala.Nothing, scala.Nothing] =
    new AbsMap[scala.Nothing, scala.Nothing](TreeMap.empty[Long, Pair[Any, Any]], HashMap.empty[Any, Slot], 0, 1L, 0L)

  /** ABS `map[Pair(k, v), ..]`: entries in this order, duplicate keys kept. */
  def apply[K, V](entries: Pair[K, V]*): AbsMap[K, V] = fromIterable(entries)

  /** ABS `map(l)` for a list of pairs. */
  def fromIterable[K, V](entries: Iterable[Pair[K, V]]): AbsMap[K, V] = {
    if (entries.isEmpty) return empty
    val ob = TreeMap.newBuilder[Long, Pair[Any, Any]]
    var idx = HashMap.empty[Any, Slot]
    var hidden = 0
    var s = 0L
    val it = entries.iterator
    while (it.hasNext) {
      val p = it.next()
      ob += ((s, p))
      if (idx.contains(p.fst)) hidden += 1 else idx = idx.updated(p.fst, new Slot(s, p.snd))
      s += 1
    }
    new AbsMap[K, V](ob.result(), idx, hidden, 0L, s - 1)
  }

  /** Pattern `EmptyMap` (abslang exports the constructor; models should not use it). */
  object EmptyMap {
    def unapply(m: AbsMap[_, _]): Boolean = m.isEmpty
  }

  /** Pattern `InsertAssoc(entry, rest)`: the first entry and the rest of the list. */
  object InsertAssoc {
    def unapply[K, V](m: AbsMap[K, V]): Option[(Pair[K, V], AbsMap[K, V])] =
      if (m.isEmpty) None
      else {
        val first = m.order.head._2.asInstanceOf[Pair[K, V]]
        Some((first, fromIterable(m.entriesIterator.drop(1).toList)))
      }
  }
}
