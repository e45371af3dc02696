package cogs.async

import java.util.concurrent.{ConcurrentLinkedQueue, TimeUnit}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.async.ProcAsync.{async, await}
import cogs.runtime._

/** `async`/`await` over `Proc`: values, failures, resolved and pending futures, loops, and the COG left free. */
class ProcAsyncTest {
  import ProcAsyncTest._

  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  @Test def aBlockWithSelfCallsGivesItsValue(): Unit = {
    val c = rt.spawn(new CalcImpl)
    // Each await is a call to the same object: it can only resolve if the block freed the COG.
    assertEquals(2 * 21 + 2 * 21 + 1, c.send("twiceTwice")(_.twiceTwice(21)).join())
  }

  @Test def anExceptionInTheBlockFailsTheProcess(): Unit = {
    val c = rt.spawn(new CalcImpl)
    val e = assertThrows(classOf[CallFailedException], () => c.send("boom")(_.boom(3)).join())
    assertTrue(e.getCause.isInstanceOf[ArithmeticException], e.toString)
    assertTrue(e.getMessage.contains("boom"), e.getMessage)
  }

  @Test def aFailedAwaitedFutureFailsTheBlockWithTheSameException(): Unit = {
    val c = rt.spawn(new CalcImpl)
    // Inside a process the original exception arrives, so an ABS catch (recover) matches its type.
    val caught = rt.run {
      c.send("awaitsBoom")(_.awaitsBoom()).await.map(v => s"value $v").recover {
        case e: ArithmeticException => s"caught ${e.getMessage}"
      }
    }
    assertEquals("caught / by zero", caught)
  }

  @Test def awaitingAResolvedFutureIsNotASchedulingPoint(): Unit = {
    val log = new Log
    val w = rt.spawn(new WaiterImpl(log))
    // Both calls are queued before either runs; a block that does not suspend finishes first.
    val a = w.send("readResolved")(_.readResolved(7))
    val b = w.send("note")(_.note("other call"))
    assertEquals(7, a.join()); b.join()
    assertEquals(List("start", "got 7", "other call"), log.all)
  }

  @Test def awaitingAPendingFutureLetsTheCogRunAnotherCall(): Unit = {
    val log = new Log
    val gate = rt.spawn(new GateImpl)
    val w = rt.spawn(new WaiterImpl(log))
    val f = w.send("waitFor")(_.waitFor(gate))
    // Runs on the same object while waitFor is suspended; join would hang if the COG were held.
    w.send("note")(_.note("other call")).join(10, TimeUnit.SECONDS)
    assertFalse(f.isDone)
    gate ! (_.open(5))
    assertEquals(5, f.join())
    assertEquals(List("start", "other call", "got 5"), log.all)
  }

  @Test def aLoopWithAnAwaitInItsBody(): Unit = {
    val c = rt.spawn(new CalcImpl)
    assertEquals((1 to 2000).sum, c.send("sumTo")(_.sumTo(2000)).join())
  }

  @Test def manyBlocksSuspendedAtOnceOnOneObjectAllResume(): Unit = {
    val gate = rt.spawn(new GateImpl)
    val w = rt.spawn(new WaiterImpl(new Log))
    val fs = (1 to 1000).map(_ => w.send("waitFor")(_.waitFor(gate)))
    gate ! (_.open(2))
    assertEquals(2000, fs.map(_.join()).sum)
  }

  @Test def aSynchronousCallChainThatSuspendsAtItsBottom(): Unit = {
    val c = rt.spawn(new CalcImpl)
    // Listing 5's shape: five frames of synchronous self-calls, the last awaits a call queued behind it.
    assertEquals(1, c.send("chain")(_.chain(5)).join())
    assertEquals(List(1, 1, 1), (1 to 3).map(_ => c.send("chain")(_.chain(5))).map(_.join()).toList)
  }

  @Test def theSameProcValueRunTwiceRunsTheBlockAfresh(): Unit = {
    val c = rt.spawn(new CalcImpl)
    assertEquals(List(43, 43), c.send("twiceRun")(_.twiceRun()).join())
  }
}

object ProcAsyncTest {
  final class Log {
    private val q = new ConcurrentLinkedQueue[String]
    def add(s: String): Unit = q.add(s)
    def all: List[String] = q.toArray(new Array[String](0)).toList
  }

  trait Calc extends Active {
    def add(a: Int, b: Int): Proc[Int]
    def twiceTwice(a: Int): Proc[Int]
    def boom(a: Int): Proc[Int]
    def awaitsBoom(): Proc[Int]
    def sumTo(n: Int): Proc[Int]
    def twiceRun(): Proc[List[Int]]
    def chain(i: Int): Proc[Int]
  }

  final class CalcImpl extends ActiveObject with Calc {
    def add(a: Int, b: Int): Proc[Int] = Proc.done(a + b)

    def twiceTwice(a: Int): Proc[Int] = async {
      val x = await(this.send("add")(_.add(a, a)))
      val y = await(this.send("add")(_.add(x, 1)))
      x + y
    }

    def boom(a: Int): Proc[Int] = async {
      val x = await(this.send("add")(_.add(a, -a)))
      a / x
    }

    def awaitsBoom(): Proc[Int] = async {
      val v = await(this.send("boom")(_.boom(1)))
      v + 1
    }

    def sumTo(n: Int): Proc[Int] = async {
      var i = 1
      var sum = 0
      while (i <= n) {
        sum = await(this.send("add")(_.add(sum, i)))
        i += 1
      }
      sum
    }

    def chain(i: Int): Proc[Int] = async {
      if (i > 0) await(Proc.sync(this, "chain")(_.chain(i - 1)))
      else await(this.send("add")(_.add(0, 0)))
      1
    }

    def twiceRun(): Proc[List[Int]] = {
      // A machine reused after it finished would be in its final state and fail the second run.
      val p = async {
        val x = await(this.send("add")(_.add(21, 21)))
        x + 1
      }
      p.flatMap(a => p.map(b => List(a, b)))
    }
  }

  trait Gate extends Active {
    def opened(): Proc[Int]
    def open(v: Int): Proc[Unit]
  }

  final class GateImpl extends ActiveObject with Gate {
    private var value = 0
    def opened(): Proc[Int] = Proc.awaitUntil(value != 0).map(_ => value)
    def open(v: Int): Proc[Unit] = Proc.delay { value = v }
  }

  trait Waiter extends Active {
    def waitFor(g: Gate): Proc[Int]
    def readResolved(v: Int): Proc[Int]
    def note(s: String): Proc[Unit]
  }

  final class WaiterImpl(log: Log) extends ActiveObject with Waiter {
    def waitFor(g: Gate): Proc[Int] = async {
      log.add("start")
      val v = await(g.send("opened")(_.opened()))
      log.add(s"got $v")
      v
    }

    def readResolved(v: Int): Proc[Int] = async {
      log.add("start")
      val x = await(Fut.successful(v))
      log.add(s"got $x")
      x
    }

    def note(s: String): Proc[Unit] = Proc.delay(log.add(s))
  }
}
