package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import LibTestSupport._

class StringsAndOutTest {

  @Test def substr_(): Unit = {
    eqv("Hello", substr("Hello world", i(0), i(5)))
    eqv("oob", substr("foobar", i(1), i(3)))
    eqv("bcd", substr("abcde", i(1), i(3)))
    eqv("", substr("abc", i(3), i(0)))
    eqv("\uD83D\uDE00", substr("a\uD83D\uDE00b", i(1), i(1))) // code points, not UTF-16 units
    fails[PatternMatchFailException](substr("abc", i(2), i(5)))
    fails[PatternMatchFailException](substr("abc", i(-1), i(1)))
    fails[PatternMatchFailException](substr("abc", i(4), i(0)))
  }

  @Test def strlen_(): Unit = {
    eqv(i(5), strlen("Hello"))
    eqv(i(6), strlen("foobar"))
    eqv(i(0), strlen(""))
    eqv(i(1), strlen(" "))
    eqv(i(3), strlen("a\uD83D\uDE00b"))
  }

  @Test def concatenationAndTemplatePieces(): Unit = {
    eqv("xx", "x" + "x")
    eqv("Hello Abs, 5 items at 5/2", "Hello " + "Abs" + ", " + absToString(i(5)) + " items at " + absToString(i(5) / i(2)))
    eqv("list[1,2]", absToString(ints(1, 2)))
  }

  @Test def printAndPrintln(): Unit = {
    val out = Out.capture {
      println("Hello")
      print("a")
      print("b")
      println("")
      println("h\u00e9llo \uD83D\uDE00")
    }
    eqv("Hello\nab\nh\u00e9llo \uD83D\uDE00\n", out)
  }

  @Test def largeOutputSurvivesTheBuffer(): Unit = {
    val line = "x" * 1000 + "\u00e9"
    val out = Out.capture { for (_ <- 1 to 200) println(line) }
    eqv(200 * (line.length + 1), out.length)
    assertTrue(out.split("\n").forall(_ == line))
    val huge = "y" * 100000 + "\u00e9"
    eqv(huge + "\n", Out.capture(println(huge)))
  }

  @Test def concurrentLinesDoNotInterleave(): Unit = {
    val out = Out.capture {
      val threads = (1 to 4).map { t =>
        new Thread(() => for (k <- 1 to 500) println(s"thread $t line $k " + "z" * 50))
      }
      threads.foreach(_.start())
      threads.foreach(_.join())
    }
    val lines = out.split("\n")
    eqv(2000, lines.length)
    assertTrue(lines.forall(_.matches("thread \\d line \\d+ z{50}")))
    for (t <- 1 to 4) {
      val mine = lines.filter(_.startsWith(s"thread $t ")).map(_.split(' ')(3).toInt).toList
      eqv((1 to 500).toList, mine) // each thread's lines in its order
    }
  }

  @Test def clock(): Unit = {
    ModelClock.start()
    val t = ms_since_model_start()
    assertTrue(t >= i(0) && t < i(60000))
  }
}
