package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

/** The seed paper's Listing 1/5: recursive_m(5, id) sent N times to one object, every future collected. */
object Listing5Test {
  trait A extends Active {
    def recursive_m(i: Int, id: Int): Proc[Int]
    def compute(): Proc[Int]
  }

  final class AImpl extends ActiveObject with A {
    var result = 0
    var maxDepthSeen = 0

    def recursive_m(i: Int, id: Int): Proc[Int] =
      if (i > 0) Proc.defer(recursive_m(i - 1, id)).as(1) // synchronous self-call, may suspend
      else {
        val f = this.send("compute")(_.compute())
        Proc.await(f).as(1)
      }

    def compute(): Proc[Int] = Proc.delay { result += 1; result }
  }
}

class Listing5Test {
  import Listing5Test._
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  @ParameterizedTest
  @ValueSource(ints = Array(500, 2500, 100000))
  def everyCallCompletesAndTheCounterIsExact(n: Int): Unit = {
    val a = rt.spawn(new AImpl)
    val results = rt.run {
      var futures: List[Fut[Int]] = Nil
      var i = 0
      while (i < n) { val id = i; futures = a.send("recursive_m")(_.recursive_m(5, id)) :: futures; i += 1 }
      Proc.foreach(futures)(f => f.get.map(r => assertEquals(1, r))).as(futures.size)
    }
    assertEquals(n, results)
    assertEquals(n, a.result, "compute ran once per call")
    assertTrue(rt.deadlockReport().isEmpty, rt.deadlockReport().mkString("\n"))
  }
}
