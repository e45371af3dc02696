package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class OrdTest {

  @Test def booleansAndUnit(): Unit = {
    assertTrue(lt(false, true))
    assertFalse(lt(true, false))
    assertTrue(le(true, true))
    eqv(0, Ord.compare((), ()))
    eqv(list(false, true), elements(set(true, false)))
  }

  @Test def numbers(): Unit = {
    assertTrue(lt(q("1/2"), i(1)))
    eqv(0, Ord.compare(i(2), i(4) / i(2)))
    assertTrue(gt(big("100000000000000000000"), i(Long.MaxValue)))
    assertTrue(lt(1.5, 2.5))
    assertTrue(ge(-0.0, 0.0))
    eqv(list[AbsRat](q("1/3"), q("1/2"), i(1)), elements(set[AbsRat](q("1/2"), i(1), q("1/3"))))
    eqv(i(1), size(set[AbsRat](i(2), i(4) / i(2))))
  }

  @Test def stringsByCodePoint(): Unit = {
    assertTrue(lt("abc", "abd"))
    assertTrue(lt("ab", "abc"))
    assertTrue(lt("", "a"))
    assertTrue(lt("Z", "a"))
    assertFalse(lt("b", "abc"))
    val smiley = "\uD83D\uDE00" // U+1F600, after U+FFFF as a code point
    assertTrue(lt("\uFFFF", smiley))
    assertTrue("\uFFFF".compareTo(smiley) > 0) // which String.compareTo gets wrong
    assertTrue(lt("\uFFFF": Any, smiley: Any))
  }

  @Test def constructorsCompareByName(): Unit = {
    assertTrue(lt(ints(1), Nil)) // Cons < Nil
    assertTrue(lt(ints(1, 2), ints(1))) // so a list is smaller than its prefix
    assertTrue(lt(ints(1), ints(2)))
    assertTrue(lt(ints(1, 9), ints(2)))
    assertTrue(lt(Just(i(5)), Nothing)) // Just < Nothing
    assertTrue(lt(Left(i(9)), Right(i(0))))
    assertTrue(lt(Pair(i(1), "b"), Pair(i(1), "c")))
    assertTrue(lt(Pair(i(0), "z"), Pair(i(1), "a")))
    assertTrue(lt(Triple(i(1), i(2), i(3)), Triple(i(1), i(2), i(4))))
  }

  @Test def userDataByNameNotDeclarationOrder(): Unit = {
    // declared as Square | Circle | Dot: ordered Circle < Dot < Square
    assertTrue(lt(Circle(i(100)), Dot))
    assertTrue(lt(Dot, Square(i(1))))
    assertTrue(lt(Circle(i(1)), Circle(i(2))))
    eqv(list(Circle(i(1)), Circle(i(2)), Dot, Square(i(0))), elements(set[Shape](Dot, Square(i(0)), Circle(i(2)), Circle(i(1)))))
    assertTrue(lt(MyError(i(1), "x"), Oops))
    assertTrue(lt(DivisionByZeroException, PatternMatchFailException("x")))
  }

  @Test def setsAndMapsLexicographicShorterFirst(): Unit = {
    assertTrue(lt(set(), intSet(1)))
    assertTrue(lt(intSet(1), intSet(1, 2)))
    assertTrue(lt(intSet(1, 5), intSet(2)))
    assertTrue(lt(map(), map(Pair(i(1), i(1)))))
    assertTrue(lt(map(Pair(i(1), i(1))), map(Pair(i(1), i(2)))))
    assertTrue(lt(map(Pair(i(1), i(9))), map(Pair(i(1), i(9)), Pair(i(0), i(0)))))
  }

  @Test def objectsByStableIdentityNullFirst(): Unit = {
    val a = new Account
    val b = new Account
    val c = Ord.compare(a, b)
    assertNotEquals(0, c)
    eqv(-c, Ord.compare(b, a))
    eqv(c, Ord.compare(a, b))
    eqv(0, Ord.compare(a, a))
    assertTrue(lt(null, a))
    assertTrue(gt(a, null))
    eqv(0, Ord.compare(null, null))
    eqv(i(2), size(set(a, b, a)))
  }

  @Test def sortingWithTheOrdering(): Unit = {
    val maybes = List[Maybe[AbsRat]](Nothing, Just(i(2)), Just(q("3/2")), Just(i(1)))
    eqv(List(Just(i(1)), Just(q("3/2")), Just(i(2)), Nothing), maybes.sorted(Ord))
    val lists = List(Nil, ints(1), ints(1, 2), ints(0, 5))
    eqv(List(ints(0, 5), ints(1, 2), ints(1), Nil), lists.sorted(Ord))
  }
}
