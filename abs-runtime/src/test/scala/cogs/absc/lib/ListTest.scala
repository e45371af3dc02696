package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class ListTest {

  @Test def constructors(): Unit = {
    eqv(ints(1, 2, 3), list[AbsInt](1, 2, 3))
    eqv(ints(1, 2), Cons(i(1), Cons(i(2), Nil)))
    eqv(Nil, list())
    val described = ints(1, 2, 3) match {
      case Cons(a, Cons(b, rest)) => s"$a $b ${absToString(rest)}"
      case _                      => "?"
    }
    eqv("1 2 list[3]", described)
    eqv(ints(1, 2), list(i(1), i(4) / i(4) + i(1))) // 2/1 is the Int 2
  }

  @Test def headTailAndTheirFailures(): Unit = {
    eqv(i(1), head(ints(1, 2, 3)))
    eqv(ints(2, 3), tail(ints(1, 2, 3)))
    val e = fails[PatternMatchFailException](head(Nil))
    eqv("head(Nil)", e.detail)
    assertTrue(e == PatternMatchFailException)
    fails[PatternMatchFailException](tail(Nil))
  }

  @Test def lengthIsEmptyNth(): Unit = {
    eqv(i(3), length(ints(1, 2, 3)))
    eqv(i(0), length(Nil))
    assertFalse(isEmpty(ints(1, 2, 3)))
    assertTrue(isEmpty(list()))
    eqv(i(3), nth(ints(1, 2, 3), i(2)))
    eqv(i(1), nth(ints(1, 2, 3), i(0)))
    fails[PatternMatchFailException](nth(ints(1, 2, 3), i(3)))
    fails[PatternMatchFailException](nth(ints(1, 2, 3), i(-1)))
    fails[PatternMatchFailException](nth(Nil, big("100000000000000000000")))
  }

  @Test def withoutConcatenateAppendReverseCopy(): Unit = {
    eqv(ints(1, 2, 5), without(ints(1, 2, 3, 3, 5), i(3)))
    eqv(ints(1, 2), without(ints(1, 2), i(7)))
    eqv(ints(1, 2, 3, 4, 5), concatenate(ints(1, 2, 3), ints(4, 5)))
    eqv(ints(4), concatenate(Nil, ints(4)))
    eqv(ints(1, 2, 3), appendright(ints(1, 2), i(3)))
    eqv(ints(3, 2, 1), reverse(ints(1, 2, 3)))
    eqv(Nil, reverse(Nil))
    eqv(ints(-1, -1, -1, -1), copy(i(-1), i(4)))
    eqv(Nil, copy("a", i(0)))
    fails[PatternMatchFailException](copy(i(1), i(-1)))
  }

  @Test def range_(): Unit = {
    eqv(ints(2, 3, 4, 5), range(i(2), i(5)))
    eqv(ints(-1, 0, 1), range(i(-1), i(1)))
    eqv(ints(1), range(i(1), i(1)))
    eqv(Nil, range(i(1), i(-1)))
    eqv(list(big("9223372036854775807"), big("9223372036854775808")), range(i(Long.MaxValue), big("9223372036854775808")))
  }

  @Test def higherOrder(): Unit = {
    eqv(ints(2, 3, 4), map((x: AbsInt) => x + 1)(ints(1, 2, 3)))
    eqv(list("1", "2"), map((x: AbsInt) => absToString(x))(ints(1, 2)))
    eqv(ints(1, 2, 3), filter((x: AbsInt) => x < 4)(ints(1, 2, 3, 4, 5)))
    eqv(ints(2), filter((x: AbsInt) => x % 2 == i(0))(ints(1, 2, 3)))
    eqv("123", foldl((x: AbsInt, res: String) => res + absToString(x))(ints(1, 2, 3), ""))
    eqv("321", foldr((x: AbsInt, res: String) => res + absToString(x))(ints(1, 2, 3), ""))
    eqv(i(6), foldl((e: AbsInt, acc: AbsInt) => e + acc)(ints(1, 2, 3), i(0)))
    eqv(i(6), foldr((e: AbsInt, acc: AbsInt) => e + acc)(ints(1, 2, 3), i(0)))
    eqv(ints(1, 2, 3), foldr[AbsInt, List[AbsInt]]((e, acc) => Cons(e, acc))(ints(1, 2, 3), Nil))
    eqv(ints(3, 2, 1), foldl[AbsInt, List[AbsInt]]((e, acc) => Cons(e, acc))(ints(1, 2, 3), Nil))
  }

  @Test def longListsStayOffTheStack(): Unit = {
    val n = 300000L
    val l = range(i(1), i(n))
    eqv(i(n), length(l))
    eqv(i(n * (n + 1) / 2), foldr((e: AbsInt, acc: AbsInt) => e + acc)(l, i(0)))
    eqv(i(n), nth(l, i(n - 1)))
    assertTrue(l == range(i(1), i(n)))
    assertTrue(lt(l, range(i(2), i(n))))
    eqv(range(i(1), i(n)).hashCode, l.hashCode)
  }

  @Test def structuralEquality(): Unit = {
    assertTrue(ints(1, 2) == ints(1, 2))
    assertTrue(list(q("1/2")) == list(i(2) / i(4)))
    assertFalse(ints(1, 2) == ints(2, 1))
    assertTrue(list(Just(ints(1))) == list(Just(ints(1))))
    assertEquals(list(Pair("a", 1.5)).hashCode, list(Pair("a", 1.5)).hashCode)
  }
}
