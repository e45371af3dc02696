package cogs.absc.lib

import scala.reflect.ClassTag

import org.junit.jupiter.api.Assertions._

/** Shorthands shared by the tests of the standard library. */
object LibTestSupport {

  /** An ABS Int. */
  def i(x: Long): AbsInt = AbsInt(x)

  /** An ABS Int from its decimal digits. */
  def big(s: String): AbsInt = AbsInt(s)

  /** An ABS Rat from `"n/d"` or `"n"`. */
  def q(s: String): AbsRat = AbsRat.parse(s)

  /** An ABS `list[..]` of Ints. */
  def ints(xs: Long*): List[AbsInt] = xs.map(AbsInt(_)).toList

  /** An ABS `set[..]` of Ints. */
  def intSet(xs: Long*): AbsSet[AbsInt] = AbsSet.fromIterable(xs.map(AbsInt(_)))

  def eqv(expected: Any, actual: Any): Unit = assertEquals(expected, actual)

  def shows(expected: String, v: Any): Unit = assertEquals(expected, Show.show(v))

  /** `body` throws an `E`, which is returned. */
  def fails[E <: Throwable](body: => Any)(implicit ct: ClassTag[E]): E =
    try {
      body
      fail(s"expected ${ct.runtimeClass.getSimpleName}")
    } catch {
      case e: Throwable if ct.runtimeClass.isInstance(e) => e.asInstanceOf[E]
    }
}

/** A user-defined data type as the emitter generates it: `data Shape = Square(Int) | Circle(Int) | Dot;`. */
sealed trait Shape extends AbsData
final case class Square(side: AbsInt) extends Shape
final case class Circle(radius: AbsInt) extends Shape
case object Dot extends Shape

/** `data Person = Person(String name, Int age);` */
final case class Person(name: String, age: AbsInt) extends AbsData

/** `exception MyError(Int code, String why);` and `exception Oops;` */
final case class MyError(code: AbsInt, why: String) extends AbsException
case object Oops extends AbsException

/** A stand-in for an object of a generated class. */
final class Account
