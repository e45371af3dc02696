package cogs.absc.lib

import org.junit.jupiter.api.Test

import LibTestSupport._

/** Generated code may use the ABS type names; covariance lets Int values flow where Rat is expected. */
class TypesTest {

  @Test def absTypeNamesAndSubtyping(): Unit = {
    import Types._
    def half(x: Rat): Rat = x / AbsInt(2)
    val n: Int = AbsInt(3)
    eqv(q("3/2"), half(n))
    val ints: List[Int] = list[Int](1, 2)
    val rats: List[Rat] = ints
    eqv(q("3/2"), half(rats.foldLeft(AbsInt.Zero: Rat)(_ + _)))
    val s: Set[Rat] = intSet(1, 2)
    eqv(list[Rat](q("1/2"), i(1), i(2)), elements(insertElement(s, q("1/2"))))
    val m: Map[String, Rat] = map(Pair("a", i(1)))
    eqv(map[String, Rat](Pair("a", i(1)), Pair("b", q("1/3"))), put(m, "b", q("1/3")))
    val f: Float = 2.5
    val b: Bool = f > 1.0
    eqv(true, b)
    val e: Exception = Oops
    eqv(Oops, e)
  }
}
