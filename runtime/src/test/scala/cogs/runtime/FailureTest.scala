package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/** Point 7: failures travel through futures; nothing kills a pool thread or the runtime. */
class FailureTest {
  private val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1")
  @AfterEach def close(): Unit = rt.close()

  final class Boom(msg: String) extends RuntimeException(msg)

  trait Calc extends Active {
    def div(a: Int, b: Int): Proc[Int]
    def boom(): Proc[Int]
    def safeDiv(other: Calc, a: Int, b: Int): Proc[Int]
    def withFinally(other: Calc, log: Log): Proc[Int]
  }

  final class CalcImpl extends ActiveObject with Calc {
    def div(a: Int, b: Int) = Proc.delay(a / b)
    def boom() = Proc.raise(new Boom("bang"))
    def safeDiv(other: Calc, a: Int, b: Int) =
      Proc.await(other.send("div")(_.div(a, b))).recover { case _: ArithmeticException => -1 }
    def withFinally(other: Calc, log: Log) =
      Proc.await(other.send("boom")(_.boom())).guarantee(Proc.delay(log.add("finally")))
    override def toString = "Calc"
  }

  @Test def joinRethrowsNamingTheObjectAndMethod(): Unit = {
    val c = rt.spawn(new CalcImpl)
    val e = assertThrows(classOf[CallFailedException], () => c.send("div")(_.div(1, 0)).join(): Unit)
    assertTrue(e.getMessage.contains("Calc.div"), e.getMessage)
    assertTrue(e.getCause.isInstanceOf[ArithmeticException])
  }

  @Test def insideAProcessTheOriginalExceptionIsRaisedAndCanBeCaught(): Unit = {
    val a = rt.spawn(new CalcImpl); val b = rt.spawn(new CalcImpl)
    assertEquals(-1, a.send("safeDiv")(_.safeDiv(b, 1, 0)).join())
    assertEquals(5, a.send("safeDiv")(_.safeDiv(b, 10, 2)).join())
  }

  @Test def finallyRunsAndTheFailurePropagatesToTheCallersFuture(): Unit = {
    val log = new Log
    val a = rt.spawn(new CalcImpl); val b = rt.spawn(new CalcImpl)
    val e = assertThrows(classOf[CallFailedException], () => a.send("withFinally")(_.withFinally(b, log)).join(): Unit)
    assertTrue(e.getCause.isInstanceOf[Boom], e.toString)
    assertEquals(List("finally"), log.all)
  }

  @Test def getOfAFailedFutureFailsTheProcessWithTheSameException(): Unit = {
    val a = rt.spawn(new CalcImpl)
    val e = assertThrows(classOf[CallFailedException], () => rt.run(a.send("boom")(_.boom()).get): Unit)
    assertTrue(e.getCause.isInstanceOf[Boom])
  }

  @Test def thousandsOfFailuresLeaveTheRuntimeWorking(): Unit = {
    val c = rt.spawn(new CalcImpl)
    val fs = (1 to 5000).map(_ => c.send("boom")(_.boom()))
    assertTrue(fs.forall(f => scala.util.Try(f.join()).isFailure))
    assertEquals(4, c.send("div")(_.div(8, 2)).join(), "the single worker thread still serves calls")
    assertEquals(5000L, rt.failedProcesses)
  }

  @Test def aConditionThatThrowsFailsOnlyItsProcess(): Unit = {
    trait T extends Active { def bad(): Proc[Int]; def touch(): Proc[Int] }
    final class TImpl extends ActiveObject with T {
      private var x = 0
      def bad() = Proc.awaitUntil(10 / x > 1).as(1)
      def touch() = Proc.delay { x += 0; 2 }
    }
    val t = rt.spawn(new TImpl)
    val f = t.send("bad")(_.bad())
    assertThrows(classOf[CallFailedException], () => f.join(): Unit)
    assertEquals(2, t.send("touch")(_.touch()).join())
  }

  @Test def aConditionThatThrowsWhenRecheckedIsRaisedWhereTheProcessAwaits(): Unit = {
    trait T extends Active { def waitThenCatch(): Proc[Int]; def arm(): Proc[Unit] }
    final class TImpl extends ActiveObject with T {
      private var armed = false
      def waitThenCatch() =
        Proc.awaitUntil(if (armed) throw new IllegalStateException("bad guard") else false).as(1)
          .recover { case _: IllegalStateException => -1 }
      def arm() = Proc.delay { armed = true }
    }
    val t = rt.spawn(new TImpl)
    val f = t.send("waitThenCatch")(_.waitThenCatch())
    t.send("arm")(_.arm()).join() // the re-check after this slice throws
    assertEquals(-1, f.join(), "the await's handler catches what its guard threw")
    assertEquals(0L, rt.failedProcesses)
  }

  @Test def awaitReadsTheValueAndRaisesAFailureAwaitResolvedDoesNeither(): Unit = {
    val a = rt.spawn(new CalcImpl); val b = rt.spawn(new CalcImpl)
    val failed = b.send("boom")(_.boom())
    assertEquals("resolved", rt.run(Proc.awaitResolved(failed).as("resolved")))
    val e = assertThrows(classOf[CallFailedException], () => rt.run(Proc.await(failed).as("read")): Unit)
    assertTrue(e.getCause.isInstanceOf[Boom])
    assertEquals(4, rt.run(Proc.await(a.send("div")(_.div(8, 2)))))
  }

  @Test def exceptionsInContinuationsAreCaught(): Unit = {
    val cell: Cell = rt.spawn(new CellImpl(1))
    val e = assertThrows(classOf[CallFailedException], () =>
      rt.run(Proc.await(cell.send("get")(_.get())).map(v => v / 0)): Unit)
    assertTrue(e.getMessage.contains("main"), e.getMessage)
    assertTrue(e.getCause.isInstanceOf[ArithmeticException])
  }
}

class FailureOriginTest {
  @Test def aFailurePassedOnThroughAwaitNamesWhereItWasRaised(): Unit = {
    val rt = CogRuntime()
    try {
      trait C extends Active { def div(a: Int, b: Int): Proc[Int]; def relay(o: C): Proc[Int] }
      final class CImpl(name: String) extends ActiveObject with C {
        def div(a: Int, b: Int) = Proc.delay(a / b)
        def relay(o: C) = Proc.await(o.send("div")(_.div(1, 0)))
        override def toString = name
      }
      val a = rt.spawn(new CImpl("A")); val b = rt.spawn(new CImpl("B"))
      val e = assertThrows(classOf[CallFailedException], () => a.send("relay")(_.relay(b)).join(): Unit)
      assertTrue(e.getMessage.startsWith("B.div (via A.relay) failed"), e.getMessage)
    } finally rt.close()
  }
}
