package cogs.absc.lib

/**
 * Base of every value of an ABS algebraic data type: the standard library's (`Pair`, `Maybe`,
 * `Either`, `Triple`, `Time`, `Duration`), exceptions ([[AbsException]]), and the ones a model
 * declares. The emitter turns `data T = C1(A a, B b) | C2;` into
 *
 * {{{
 * sealed trait T extends AbsData
 * final case class C1(a: A, b: B) extends T
 * case object C2 extends T
 * }}}
 *
 * which gives, with nothing generated beyond the case classes:
 *
 *  - structural equality and hashing (the case classes' own `equals`/`hashCode`; every value
 *    representation in this package has an `equals` that is ABS equality),
 *  - the ABS ordering ([[Ord]]): by constructor name, then arguments left to right,
 *  - the ABS `toString` ([[Show]]): `C1(1,"x")`, `C2`.
 *
 * The constructor name is `productPrefix`, i.e. the Scala class name. A constructor whose Scala
 * name must differ from its ABS name (a clash with its own type's name, a Scala keyword, a name
 * mangled for modules) overrides [[absConstructor]] (and `productPrefix`) with the ABS name.
 */
trait AbsData extends Product with Serializable {

  /** The ABS constructor name: what `toString` prints and the ordering compares first. */
  def absConstructor: String = productPrefix

  /** ABS `toString` of this value (strings inside it quoted). */
  override def toString: String = Show.show(this)
}

// ---------------------------------------------------------------------------------------------
// Data types of ABS.StdLib (constructor order and names as in abslang.abs)
// ---------------------------------------------------------------------------------------------

/** ABS `Pair<A, B> = Pair(A fst, B snd)`. */
final case class Pair[+A, +B](fst: A, snd: B) extends AbsData

/** ABS `Triple<A, B, C> = Triple(A fstT, B sndT, C trdT)`. */
final case class Triple[+A, +B, +C](fstT: A, sndT: B, trdT: C) extends AbsData

/** ABS `Maybe<A> = Nothing | Just(A fromJust)`. */
sealed trait Maybe[+A] extends AbsData

/** ABS `Nothing` (the term; the type `Nothing` is still Scala's bottom type). */
case object Nothing extends Maybe[scala.Nothing]

/** ABS `Just(a)`. */
final case class Just[+A](fromJust: A) extends Maybe[A]

/** ABS `Either<A, B> = Left(A left) | Right(B right)`. */
sealed trait Either[+A, +B] extends AbsData

final case class Left[+A](left: A) extends Either[A, scala.Nothing]

final case class Right[+B](right: B) extends Either[scala.Nothing, B]

/** ABS `Time = Time(Rat timeValue)` (Timed ABS; the pure functions on it are provided). */
final case class Time(timeValue: AbsRat) extends AbsData

/**
 * ABS `Duration = Duration(Rat durationValue) | InfDuration`. The constructor `Duration` has the
 * name of its type, so (the general rule for such clashes) its class lives in the type's
 * companion: `Duration.Duration(5)`, `case Duration.Duration(v) =>`.
 */
sealed trait Duration extends AbsData

object Duration {
  final case class Duration(durationValue: AbsRat) extends cogs.absc.lib.Duration
}

case object InfDuration extends Duration
