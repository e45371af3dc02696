package cogs.absc.lib

import scala.collection.immutable.TreeSet
import scala.util.hashing.MurmurHash3

/**
 * ABS `Set<A>`: an immutable set kept sorted by the ABS ordering ([[Ord]]), a red-black tree.
 *
 * abslang.abs defines sets as sorted lists (`EmptySet | Insert(A, Set<A>)`), so everything the
 * reference backends observe follows from the sorted order, and this class keeps it:
 * `elements`, iteration and `toString` go in ascending order, `take`/`next` return the smallest
 * element, and two sets compare (`<`) as their sorted element sequences with the empty set
 * first (`EmptySet` < `Insert`). Equal sets are `==` whatever order they were built in.
 * Membership, insertion and removal cost O(log n) instead of the reference's O(n); union,
 * intersection and difference use the tree's bulk operations.
 */
final class AbsSet[+A] private[lib] (private[lib] val tree: TreeSet[Any]) extends Serializable {

  def size: scala.Int = tree.size
  def isEmpty: Boolean = tree.isEmpty
  def nonEmpty: Boolean = tree.nonEmpty

  def contains(e: Any): Boolean = tree.contains(e)

  /** The set with `e` added (this set if it is already there). */
  def incl[B >: A](e: B): AbsSet[B] = {
    val t = tree.incl(e)
    if (t eq tree) this else new AbsSet[B](t)
  }

  /** The set without `e` (this set if it is not there). */
  def excl(e: Any): AbsSet[A] = {
    val t = tree.excl(e)
    if (t eq tree) this else new AbsSet[A](t)
  }

  /** Smallest element; throws [[PatternMatchFailException]] on the empty set. */
  def min: A =
    if (tree.isEmpty) throw PatternMatchFailException("take(EmptySet): the set is empty")
    else tree.head.asInstanceOf[A]

  def union[B >: A](that: AbsSet[B]): AbsSet[B] =
    if (that.tree.isEmpty) this else if (tree.isEmpty) that else new AbsSet[B](tree.concat(that.tree))

  def intersect(that: AbsSet[Any]): AbsSet[A] =
    if (tree.isEmpty) this else new AbsSet[A](tree.intersect(that.tree))

  def diff(that: AbsSet[Any]): AbsSet[A] =
    if (that.tree.isEmpty || tree.isEmpty) this else new AbsSet[A](tree.diff(that.tree))

  def subsetOf(that: AbsSet[Any]): Boolean = tree.subsetOf(that.tree)

  /** Elements in ascending ABS order. */
  def iterator: Iterator[A] = tree.iterator.asInstanceOf[Iterator[A]]

  /** Elements in ascending ABS order (ABS `elements`). */
  def toList: List[A] = tree.toList.asInstanceOf[List[A]]

  def foreach[U](f: A => U): Unit = tree.foreach(e => f(e.asInstanceOf[A]))

  override def equals(that: Any): Boolean = that match {
    case s: AbsSet[_] => (s eq this) || (s.tree.size == tree.size && tree.iterator.sameElements(s.tree.iterator))
    case _            => false
  }

  override def hashCode: scala.Int = MurmurHash3.orderedHash(tree, AbsSet.HashSeed)

  /** ABS `toString`: `set[1,2,3]`, `EmptySet` when empty. */
  override def toString: String = Show.show(this)
}

object AbsSet {
  private final val HashSeed = 0x5e7

  private val emptyTree: TreeSet[Any] = TreeSet.empty[Any](Ord)

  /** ABS `set[]` / `EmptySet`. */
  val empty: AbsSet[scala.Nothing] = new AbsSet[scala.Nothing](emptyTree)

  /** ABS `set[a, b, ..]`: duplicates collapse. */
  def apply[A](elems: A*): AbsSet[A] = fromIterable(elems)

  def fromIterable[A](elems: Iterable[A]): AbsSet[A] =
    if (elems.isEmpty) empty else new AbsSet[A](emptyTree ++ elems)

  /** Pattern `EmptySet` (abslang exports the constructor; models should not use it). */
  object EmptySet {
    def unapply(s: AbsSet[_]): Boolean = s.isEmpty
  }

  /** Pattern `Insert(e, rest)`: the smallest element and the rest (abslang's representation). */
  object Insert {
    def unapply[A](s: AbsSet[A]): Option[(A, AbsSet[A])] =
      if (s.isEmpty) None else Some((s.tree.head.asInstanceOf[A], new AbsSet[A](s.tree.tail)))
  }
}
