package cogs.absc.lib

import scala.runtime.BoxedUnit

/**
 * The ABS total order on values, behind `<`, `<=`, `>`, `>=` on every type, `min`/`max`, and the
 * order of sets (manual, "Semantics of comparison operators"):
 *
 *  - numbers as usual (`Int` and `Rat` together, exactly; `Float` as `Double`s);
 *  - strings lexicographically by Unicode code point (what the Erlang backend's byte-wise UTF-8
 *    comparison gives; it differs from `String.compareTo` only for characters outside the BMP);
 *  - data values first by constructor name, then by arguments left to right, so `False < True`,
 *    `Cons(..) < Nil` (a longer list is smaller than its prefix), `Just(..) < Nothing`,
 *    `Left(..) < Right(..)`; sets as `EmptySet | Insert(smallest, rest)` and maps as their
 *    association list (`EmptyMap < InsertAssoc`), i.e. a proper prefix is smaller;
 *  - objects and futures by identity, in an order that is stable for the life of the objects
 *    (`System.identityHashCode`, ties broken by [[Identity]]); `null` below every reference.
 *
 * Only values of one ABS type are ever compared (the type checker sees to it).
 */
object Ord extends Ordering[Any] {

  def compare(a: Any, b: Any): scala.Int = a match {
    case x: AbsRat            => x.compare(b.asInstanceOf[AbsRat])
    case x: String            => compareStrings(x, b.asInstanceOf[String])
    case x: AbsData           => compareData(x, b)
    case x: List[_]           => compareLists(x, b.asInstanceOf[List[_]])
    case x: java.lang.Boolean => java.lang.Boolean.compare(x.booleanValue, b.asInstanceOf[java.lang.Boolean].booleanValue)
    case x: java.lang.Double  => compareDoubles(x.doubleValue, b.asInstanceOf[java.lang.Double].doubleValue)
    case x: AbsSet[_]         => compareIterators(x.iterator, b.asInstanceOf[AbsSet[_]].iterator)
    case x: AbsMap[_, _]      => compareIterators(x.entriesIterator, b.asInstanceOf[AbsMap[_, _]].entriesIterator)
    case _: BoxedUnit         => 0
    case null                 => if (b == null) 0 else -1
    case x: java.lang.Number  => compareOtherNumbers(x, b) // not an ABS representation; tolerated
    case x                    => compareRefs(x.asInstanceOf[AnyRef], b.asInstanceOf[AnyRef])
  }

  override def lt(a: Any, b: Any): Boolean = compare(a, b) < 0
  override def lteq(a: Any, b: Any): Boolean = compare(a, b) <= 0
  override def gt(a: Any, b: Any): Boolean = compare(a, b) > 0
  override def gteq(a: Any, b: Any): Boolean = compare(a, b) >= 0

  /** Lexicographic by code point. */
  def compareStrings(a: String, b: String): scala.Int = {
    val n = java.lang.Math.min(a.length, b.length)
    var i = 0
    while (i < n) {
      val c1 = a.charAt(i)
      val c2 = b.charAt(i)
      if (c1 != c2) {
        // UTF-16 order and code point order differ only between surrogates (D800-DFFF) and
        // E000-FFFF: move the surrogates above the rest of the BMP.
        if (c1 >= 0xd800 && c2 >= 0xd800) return fixup(c1) - fixup(c2)
        return c1 - c2
      }
      i += 1
    }
    a.length - b.length
  }

  private def fixup(c: Char): scala.Int =
    if (c >= 0xe000) c - 0x800 else if (c >= 0xd800) c + 0x2000 else c.toInt

  def compareDoubles(x: Double, y: Double): scala.Int =
    if (x < y) -1 else if (x > y) 1 else if (x == y) 0 else java.lang.Double.compare(x, y)

  def compareData(a: AbsData, bAny: Any): scala.Int = {
    val b = bAny.asInstanceOf[AbsData]
    if (a eq b) return 0
    if (a.getClass ne b.getClass) {
      val c = a.absConstructor.compareTo(b.absConstructor)
      if (c != 0) return c
    }
    val n = a.productArity
    var i = 0
    while (i < n) {
      val c = compare(a.productElement(i), b.productElement(i))
      if (c != 0) return c
      i += 1
    }
    0
  }

  /** `Cons < Nil`: at the first difference the elements decide; a list that ends first is larger. */
  def compareLists(a0: List[_], b0: List[_]): scala.Int = {
    var a = a0
    var b = b0
    while (true) {
      if (a eq b) return 0
      if (a.isEmpty) return if (b.isEmpty) 0 else 1
      if (b.isEmpty) return -1
      val c = compare(a.head, b.head)
      if (c != 0) return c
      a = a.tail
      b = b.tail
    }
    0
  }

  /** Sorted sets and association lists: a sequence that ends first is smaller. */
  def compareIterators(a: Iterator[_], b: Iterator[_]): scala.Int = {
    while (a.hasNext && b.hasNext) {
      val c = compare(a.next(), b.next())
      if (c != 0) return c
    }
    if (a.hasNext) 1 else if (b.hasNext) -1 else 0
  }

  def compareRefs(a: AnyRef, b: AnyRef): scala.Int = {
    if (a eq b) return 0
    if (b == null) return 1
    val ha = System.identityHashCode(a)
    val hb = System.identityHashCode(b)
    if (ha != hb) java.lang.Integer.compare(ha, hb)
    else java.lang.Long.compare(Identity.id(a), Identity.id(b))
  }

  private def compareOtherNumbers(x: java.lang.Number, b: Any): scala.Int = b match {
    case y: java.lang.Number =>
      (x, y) match {
        case (_: java.lang.Double | _: java.lang.Float, _) | (_, _: java.lang.Double | _: java.lang.Float) =>
          compareDoubles(x.doubleValue, y.doubleValue)
        case _ => java.lang.Long.compare(x.longValue, y.longValue)
      }
    case _ => compareRefs(x, b.asInstanceOf[AnyRef])
  }
}

/**
 * Small numbers naming objects and futures, assigned on first request and stable for the
 * object's life (weakly held). Used to print them and to order objects whose identity hash codes
 * collide. Numbered per run (the current run's [[Identity.Table]], in its `cogs.absc.run.RunContext`):
 * each model of `absc test` numbers its objects from 1, as a fresh JVM does.
 */
object Identity {
  private def table: Table = cogs.absc.run.RunContext.current.identities

  /** Forget every identity: `absc explore` numbers each schedule's objects from 1, as a fresh JVM does. */
  private[absc] def reset(): Unit = table.reset()

  /** How many numbers were given out since the last reset (`absc explore` tells from it whether a step named an object). */
  private[absc] def assigned: Long = table.assigned

  def id(o: AnyRef): Long = table.id(o)

  /** The numbers of one run. */
  final class Table {
    private val ids = new java.util.WeakHashMap[AnyRef, java.lang.Long]()
    private var next = 0L

    private[absc] def reset(): Unit = ids.synchronized { ids.clear(); next = 0L }

    private[absc] def assigned: Long = ids.synchronized(next)

    def id(o: AnyRef): Long = ids.synchronized {
      val known = ids.get(o)
      if (known != null) known.longValue
      else {
        next += 1
        ids.put(o, java.lang.Long.valueOf(next))
        next
      }
    }
  }
}
