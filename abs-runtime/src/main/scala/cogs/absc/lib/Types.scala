package cogs.absc.lib

/**
 * The ABS names of the types, for generated code that wants to read like the model:
 * `import cogs.absc.lib.Types._` and write `def f(n: Int): Rat`. (They shadow Scala's `Int`,
 * `Float`, `List`, `Set`, `Map` in that file; write `scala.Int` for a JVM int there.)
 * `Fut<T>` is `cogs.runtime.Fut[T]` and is not aliased here.
 */
object Types {
  type Int = AbsInt
  type Rat = AbsRat
  type Float = Double
  type Bool = Boolean
  type String = java.lang.String
  type Unit = scala.Unit
  type List[+A] = scala.collection.immutable.List[A]
  type Set[+A] = AbsSet[A]
  type Map[+K, +V] = AbsMap[K, V]
  type Exception = AbsException
}
