package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class MapTest {

  private val m12 = map(Pair(i(1), "One"), Pair(i(2), "Two"))
  private val m123 = map(Pair(i(1), i(100)), Pair(i(2), i(200)), Pair(i(3), i(300)))

  @Test def manualExamples(): Unit = {
    assertFalse(emptyMap(map(Pair(i(1), i(2)))))
    assertTrue(emptyMap(map()))
    eqv(map(Pair(i(2), "Two")), removeKey(m12, i(1)))
    eqv(list("One", "Two"), values(m12))
    eqv(intSet(1, 2), keys(m12))
    eqv(list(Pair(i(1), "One"), Pair(i(2), "Two")), entries(m12))
    eqv(Just("One"), lookup(m12, i(1)))
    eqv(Nothing, lookup(m12, i(3)))
    eqv("(not found)", lookupDefault(m12, i(3), "(not found)"))
    eqv("One", lookupUnsafe(m12, i(1)))
    eqv(Just(i(1)), lookupReverse(m12, "One"))
    eqv(i(-1), lookupReverseDefault(m12, "Three", i(-1)))
    shows("map[Pair(1,\"OneTwo\"),Pair(1,\"One\"),Pair(2,\"Two\")]", insert(m12, Pair(i(1), "OneTwo")))
    eqv(map(Pair(i(1), "OneTwo"), Pair(i(2), "Two")), put(m12, i(1), "OneTwo"))
  }

  @Test def referenceBackendTests(): Unit = {
    eqv(Just(i(300)), lookup(m123, i(3)))
    eqv(Nothing, lookup(m123, i(5)))
    eqv(Just(i(3)), lookupReverse(m123, i(300)))
    eqv(Nothing, lookupReverse(m123, i(500)))
    eqv(i(300), lookupDefault(m123, i(3), i(-1)))
    eqv(i(-1), lookupDefault(m123, i(5), i(-1)))
    eqv(i(3), lookupReverseDefault(m123, i(300), i(-1)))
    eqv(map(Pair(i(1), i(100)), Pair(i(2), i(-1)), Pair(i(3), i(300))), put(m123, i(2), i(-1)))
    eqv(map(Pair(i(1), i(100)), Pair(i(2), i(200)), Pair(i(3), i(300)), Pair(i(4), i(400))), put(m123, i(4), i(400)))
    eqv(intSet(1, 2, 3), keys(m123))
    eqv(ints(100, 200, 300), values(m123))
    val m: AbsMap[AbsInt, AbsRat] = put(map(), i(0), i(10)) // Map<Int, Rat>, put an Int
    eqv(i(10), lookupUnsafe(m, i(0)))
    fails[PatternMatchFailException](lookupUnsafe(m123, i(9)))
  }

  @Test def anAssociationListNotADictionary(): Unit = {
    assertNotEquals(map(Pair(i(1), "a"), Pair(i(2), "b")), map(Pair(i(2), "b"), Pair(i(1), "a")))
    eqv(map(Pair(i(1), "a"), Pair(i(2), "b")), put(put(map(), i(1), "a"), i(2), "b"))
    eqv(map(Pair(i(1), "a"), Pair(i(2), "b")).hashCode, put(put(map(), i(1), "a"), i(2), "b").hashCode)
    shows("map[Pair(2,\"b\"),Pair(1,\"a\")]", put(put(map(), i(2), "b"), i(1), "a"))
  }

  @Test def hiddenEntries(): Unit = {
    val inserted = insert(m12, Pair(i(1), "OneTwo"))
    eqv(Just("OneTwo"), lookup(inserted, i(1)))
    eqv(list("OneTwo", "One", "Two"), values(inserted))
    eqv(intSet(1, 2), keys(inserted))
    eqv(m12, removeKey(inserted, i(1))) // the hidden entry reappears
    eqv(Just("One"), lookup(removeKey(inserted, i(1)), i(1)))

    val dup = map(Pair(i(1), "a"), Pair(i(1), "b"))
    eqv(Just("a"), lookup(dup, i(1)))
    eqv(list("a", "b"), values(dup))
    eqv(Just(i(1)), lookupReverse(dup, "b"))
    eqv(map(Pair(i(1), "b")), removeKey(dup, i(1)))
    eqv(Just("b"), lookup(removeKey(dup, i(1)), i(1)))
    eqv(EmptyMap, removeKey(removeKey(dup, i(1)), i(1)))
    eqv(map(Pair(i(1), "c"), Pair(i(1), "b")), put(dup, i(1), "c"))
    shows("map[Pair(1,\"a\"),Pair(1,\"b\")]", dup)
  }

  @Test def removeAndRebuild(): Unit = {
    eqv(m12, removeKey(m12, i(7)))
    eqv(EmptyMap, removeKey(removeKey(m12, i(1)), i(2)))
    eqv(map(Pair(i(2), "Two"), Pair(i(1), "x")), put(removeKey(m12, i(1)), i(1), "x"))
    eqv(map(Pair(i(0), "z"), Pair(i(1), "One"), Pair(i(2), "Two")), insert(m12, Pair(i(0), "z")))
    eqv(map(Pair(i(5), "v")), insert(map(), Pair(i(5), "v")))
    eqv(m12, mapFromList(list(Pair(i(1), "One"), Pair(i(2), "Two"))))
  }

  @Test def patterns(): Unit = {
    assertTrue(map() match { case EmptyMap => true; case _ => false })
    assertTrue(m12 match {
      case InsertAssoc(Pair(k, v), rest) => k == i(1) && v == "One" && rest == map(Pair(i(2), "Two"))
      case _                             => false
    })
    eqv(insert(m12, Pair(i(3), "Three")), InsertAssoc(Pair(i(3), "Three"), m12))
  }

  @Test def keysOfAnyTypeAndManyEntries(): Unit = {
    val byList = map(Pair(ints(1, 2), "a"), Pair(Nil, "b"))
    eqv(Just("b"), lookup(byList, Nil))
    eqv(Just("a"), lookup(byList, ints(1, 2)))
    val byRat = map[AbsRat, String](Pair(q("1/2"), "half"))
    eqv(Just("half"), lookup(byRat, i(2) / i(4)))
    val byDouble = map(Pair(0.0, "zero"))
    eqv(Just("zero"), lookup(byDouble, -0.0))

    var m: AbsMap[AbsInt, AbsInt] = map()
    for (k <- 1 to 20000) m = put(m, i(k.toLong), i(k.toLong * k))
    eqv(Just(i(100000000)), lookup(m, i(10000)))
    eqv(i(20000), length(entries(m)))
    eqv(i(1), fst(head(entries(m))))
    for (k <- 1 to 20000 by 2) m = removeKey(m, i(k.toLong))
    eqv(i(10000), length(values(m)))
    eqv(Nothing, lookup(m, i(9999)))
    eqv(Just(i(4)), lookup(m, i(2)))
  }
}
