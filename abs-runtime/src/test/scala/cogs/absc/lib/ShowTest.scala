package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class ShowTest {

  @Test def scalars(): Unit = {
    shows("5", i(5))
    shows("-5", i(-5))
    shows("101457092405402533877", big("101457092405402533877"))
    shows("5/2", q("5/2"))
    shows("True", true)
    shows("False", false)
    shows("Unit", ())
    shows("null", null)
    eqv("5", absToString(i(5)))
    eqv("-42", intToString(i(-42)))
  }

  @Test def stringsAreQuotedOnlyInsideData(): Unit = {
    val st = "Hel\"lo"
    shows(st, st) // top level: no quotes, nothing escaped
    shows("list[\"Hel\\\"lo\",\"two\",\"three\"]", list(st, "two", "three"))
    shows("set[\"\",\"Hel\\\"lo\"]", set(st, ""))
    shows("map[Pair(\"Hel\\\"lo\",1),Pair(\"\",2)]", map(Pair(st, i(1)), Pair("", i(2))))
    shows("Person(\"Joe\",15)", Person("Joe", i(15)))
    shows("Just(\"a\\b\")", Just("a\\b")) // a backslash is not escaped
    shows("Just(\"line\nbreak\")", Just("line\nbreak"))
  }

  @Test def collections(): Unit = {
    shows("list[1,2,3]", ints(1, 2, 3))
    shows("list[]", Nil)
    shows("list[list[1],list[]]", list(ints(1), ints()))
    shows("set[1,2,3]", intSet(3, 1, 2, 2))
    shows("EmptySet", set())
    shows("map[Pair(1,\"One\"),Pair(2,\"Two\")]", map(Pair(i(1), "One"), Pair(i(2), "Two")))
    shows("EmptyMap", map())
    shows("list[Pair(1,\"One\"),Pair(2,\"Two\")]", entries(map(Pair(i(1), "One"), Pair(i(2), "Two"))))
    shows("set[list[1,2],list[3]]", set(ints(3), ints(1, 2)))
  }

  @Test def dataValues(): Unit = {
    shows("Nothing", Nothing)
    shows("Just(Just(1))", Just(Just(i(1))))
    shows("Left(1)", Left(i(1)))
    shows("Right(1/2)", Right(q("1/2")))
    shows("Pair(1.5,2)", Pair(1.5, i(2)))
    shows("Triple(1,\"Two\",3.0)", Triple(i(1), "Two", 3.0))
    shows("Dot", Dot)
    shows("Square(3)", Square(i(3)))
    shows("Time(5/2)", Time(q("5/2")))
    shows("Duration(5)", Duration.Duration(i(5)))
    shows("InfDuration", InfDuration)
    shows("Just(list[Just(True),Nothing])", Just(list(Just(true), Nothing)))
    shows("Pair(Unit,null)", Pair((), null))
    eqv("Pair(1,\"a\")", Pair(i(1), "a").toString) // Scala toString is ABS toString
  }

  @Test def exceptions(): Unit = {
    shows("DivisionByZeroException", DivisionByZeroException)
    shows("PatternMatchFailException", PatternMatchFailException("head(Nil)"))
    eqv("PatternMatchFailException: head(Nil)", PatternMatchFailException("head(Nil)").getMessage)
    eqv("DivisionByZeroException", DivisionByZeroException.getMessage)
    shows("MyError(7,\"bad\")", MyError(i(7), "bad"))
    shows("Oops", Oops)
    shows("StackOverflowException", StackOverflowEcxeption)
  }

  @Test def floatsAsTheErlangBackendPrintsThem(): Unit = {
    shows("2.5", 2.5)
    shows("1.0", 1.0)
    shows("0.0", 0.0)
    shows("0.0", -0.0)
    shows("-2.5", -2.5)
    shows("0.1", 0.1)
    shows("0.30000000000000004", 0.1 + 0.2)
    shows("0.3333333333333333", 1.0 / 3)
    shows("0.6666666666666666", 2.0 / 3)
    shows("100.0", 100.0)
    shows("100000.0", 100000.0)
    shows("1.0e+6", 1000000.0)
    shows("1234567.0", 1234567.0)
    shows("12345678.9", 12345678.9)
    shows("123456789012345680.0", 1.2345678901234568e17)
    shows("1.0e+21", 1e21)
    shows("1.5e+300", 1.5e300)
    shows("0.001", 0.001)
    shows("0.00001", 1e-5)
    shows("0.000001", 1e-6)
    shows("1.0e-7", 1e-7)
    shows("1.5e-7", 1.5e-7)
    shows("1.7976931348623157e+308", Double.MaxValue)
    shows("5.0e-324", Double.MinPositiveValue)
    shows("2.2250738585072014e-308", java.lang.Double.MIN_NORMAL)
    shows("9007199254740994.0", 9007199254740992.0 + 2) // 2^53 + 2 needs all its digits
    shows("2.7182818284590455", exp(1.0))
  }

  @Test def floatsReadBack(): Unit = {
    val rnd = new java.util.Random(7)
    for (_ <- 1 to 2000) {
      val d = java.lang.Double.longBitsToDouble(rnd.nextLong())
      if (!d.isNaN && !d.isInfinite) {
        val s = Show.formatDouble(d).replace("e+", "e")
        assertEquals(d, java.lang.Double.parseDouble(s), 0.0, s)
        // never longer than the JDK's (not always shortest) output
        val jdkDigits = java.lang.Double.toString(java.lang.Math.abs(d)).takeWhile(_ != 'E').filter(_.isDigit).dropWhile(_ == '0').reverse.dropWhile(_ == '0').length
        val ourDigits = s.takeWhile(_ != 'e').filter(_.isDigit).dropWhile(_ == '0').reverse.dropWhile(_ == '0').length
        assertTrue(ourDigits <= java.lang.Math.max(jdkDigits, 1), s"$s vs ${java.lang.Double.toString(d)}")
      }
    }
  }

  @Test def objectsPrintByNameAndNumber(): Unit = {
    val a = new Account
    val s = Show.show(a)
    assertTrue(s.matches("Account#\\d+"), s)
    eqv(s, Show.show(a)) // stable
    assertNotEquals(s, Show.show(new Account))
    val named = new Show.Named { def absClassName = "Bank.Account" }
    assertTrue(Show.show(named).startsWith("Bank.Account#"))
    shows("Just(null)", Just(null))
  }

  @Test def longStructuresDoNotOverflowTheStack(): Unit = {
    val l = range(i(1), i(200000))
    val s = Show.show(l)
    assertTrue(s.startsWith("list[1,2,3,") && s.endsWith(",199999,200000]"))
  }
}
