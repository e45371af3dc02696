package cogs.async

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.async.ProcAsync.{async, await}
import cogs.runtime._

class ProcAsyncTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  trait Calc extends Active {
    def add(a: Int, b: Int): Proc[Int]
    def twice(a: Int): Proc[Int]
  }
  final class CalcImpl extends ActiveObject with Calc {
    def add(a: Int, b: Int): Proc[Int] = Proc.done(a + b)
    def twice(a: Int): Proc[Int] = async {
      val x = await(this.send("add")(_.add(a, a)))
      x + 0
    }
  }

  @Test def resultOfAnAsyncBlockWithAnAwait(): Unit = {
    val c = rt.spawn(new CalcImpl)
    assertEquals(42, c.send("twice")(_.twice(21)).join())
  }
}
