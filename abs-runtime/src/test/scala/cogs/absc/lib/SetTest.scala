package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class SetTest {

  @Test def constructionCollapsesDuplicatesAndSorts(): Unit = {
    eqv(intSet(1, 2, 3), set[AbsInt](1, 2, 3, 3, 3))
    eqv(intSet(1, 2, 3), intSet(3, 2, 1))
    eqv(intSet(3, 2, 1).hashCode, intSet(1, 2, 3).hashCode)
    eqv(intSet(1, 2), setFromList(ints(2, 1, 2)))
    eqv(EmptySet, set())
    eqv(list("a", "b", "c"), elements(set("c", "a", "b")))
  }

  @Test def membershipAndSize(): Unit = {
    assertTrue(contains(intSet(1, 2, 3), i(2)))
    assertFalse(contains(intSet(1, 2, 3), i(4)))
    assertTrue(contains(set[AbsRat](i(2)), i(4) / i(2)))
    assertTrue(emptySet(set()))
    assertFalse(emptySet(intSet(1)))
    eqv(i(3), size(intSet(1, 2, 3)))
    eqv(i(0), size(set()))
  }

  @Test def elementsInOrder(): Unit = {
    eqv(ints(1, 2, 3), elements(intSet(1, 2, 3)))
    eqv(ints(1, 2, 3), elements(intSet(3, 1, 2)))
    eqv(Nil, elements(set()))
  }

  @Test def setAlgebra(): Unit = {
    eqv(intSet(1, 2, 3, 4, 5), union(intSet(1, 2, 3), intSet(4, 3, 5)))
    eqv(intSet(1), union(intSet(1), set()))
    eqv(intSet(3), intersection(intSet(1, 2, 3), intSet(4, 3, 5)))
    eqv(EmptySet, intersection(intSet(1), intSet(2)))
    eqv(intSet(1, 2), difference(intSet(1, 2, 3), intSet(4, 3, 5)))
    eqv(intSet(1, 2, 3), difference(intSet(1, 2, 3), set()))
    assertTrue(isSubset(intSet(1), intSet(1, 2, 3)))
    assertFalse(isSubset(intSet(1, 2, 3), intSet(1, 2, 4)))
    assertTrue(isSubset(set(), intSet(1)))
    val s1 = intSet(1, 2, 3)
    val res = union(s1, intSet(1, 2, 4))
    assertTrue(size(res) == i(4) && contains(res, i(4)) && contains(res, i(3)) && isSubset(s1, res))
  }

  @Test def insertAndRemove(): Unit = {
    eqv(intSet(1, 2, 3), insertElement(intSet(2, 3), i(1)))
    val s = intSet(1, 2)
    assertSame(s, insertElement(s, i(2)))
    eqv(intSet(2, 3), remove(intSet(1, 2, 3), i(1)))
    assertFalse(contains(remove(intSet(1, 2, 3), i(3)), i(3)))
    eqv(intSet(1, 2, 3), remove(intSet(1, 2, 3), i(9)))
  }

  @Test def takeAndIteration(): Unit = {
    eqv(i(1), take(intSet(3, 1, 2)))
    eqv(i(1), take(intSet(1)))
    fails[PatternMatchFailException](take(set()))
    eqv(Just(i(1)), takeMaybe(intSet(1)))
    eqv(Nothing, takeMaybe(set()))
    eqv(Pair(intSet(2, 3), i(1)), next(intSet(3, 1, 2)))
    fails[PatternMatchFailException](next(set()))
    var s = intSet(5, 3, 9)
    var seen = List.empty[AbsInt]
    while (hasNext(s)) {
      val Pair(rest, e) = next(s)
      seen = e :: seen
      s = rest
    }
    eqv(ints(9, 5, 3), seen)
    assertFalse(hasNext(set()))
  }

  @Test def patterns(): Unit = {
    assertTrue(set() match { case EmptySet => true; case _ => false })
    assertTrue(intSet(1, 2) match {
      case Insert(e, rest) => e == i(1) && rest == intSet(2)
      case _               => false
    })
    eqv(intSet(0, 1), Insert(i(0), intSet(1)))
  }

  @Test def setsOfDataAndLargeSets(): Unit = {
    eqv(list(Just(i(1)), Nothing), elements(set[Maybe[AbsInt]](Nothing, Just(i(1)), Nothing)))
    eqv(list(ints(1, 2), ints(1), Nil), elements(set(Nil, ints(1), ints(1, 2))))
    var s: AbsSet[AbsInt] = set()
    for (k <- 100000 to 1 by -1) s = insertElement(s, i(k.toLong))
    eqv(i(100000), size(s))
    eqv(i(1), take(s))
    eqv(range(i(1), i(100000)), elements(s))
  }
}
