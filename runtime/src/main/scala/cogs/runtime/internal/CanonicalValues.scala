package cogs.runtime.internal

/**
 * The canonical instances of one class of values, as a library keeps them (absc's `AbsInt` caches
 * -1024 to 1024): a call that ends with one of them resolves its future with an outcome shared by
 * all such calls instead of allocating one (as the runtime does for `()`, the two Booleans and the
 * JVM's cached Integers). Only the canonical instance itself maps to its shared outcome (an `eq`
 * test in [[indexOf]]), so a value read from a future keeps its identity.
 *
 * For libraries that code generators target, not for users. One class at a time: a later
 * [[CanonicalValues.register]] replaces the earlier one (two class loaders each loading the
 * library, say); values of a class not registered get an outcome of their own, as before.
 */
abstract class CanonicalValues {
  /** The class of the values; [[indexOf]] is asked only about instances of exactly this class. */
  def valueClass: Class[_]
  /** How many canonical instances there are. */
  def count: Int
  /** The canonical instance number `i`, for `0 <= i < count`. */
  def value(i: Int): AnyRef
  /** The number of `v` if it is one of the canonical instances itself (by identity), else -1. */
  def indexOf(v: AnyRef): Int
}

object CanonicalValues {
  /** Share the outcomes of `values`' instances from now on (see [[CanonicalValues]]). */
  def register(values: CanonicalValues): Unit = cogs.runtime.Fut.registerCanonical(values)
}
