package cogs.runtime

import java.util.concurrent.ConcurrentLinkedQueue
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import scala.jdk.CollectionConverters._

/** One-way calls (`tell`): no future, same inbox, same failure accounting, lazy `destiny`. */
class OneWayCallTest {
  private val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 2")
  @AfterEach def close(): Unit = rt.close()

  trait Recv extends Active {
    def add(x: Int): Proc[Unit]
    def boom(x: Int): Proc[Unit]
    def seen(): Proc[List[Int]]
    def myDestiny(): Proc[Fut[Any]]
    def publishDestiny(sink: Sink): Proc[Int]
    def stuck(): Proc[Unit]
    def hasFuture(): Proc[Boolean]
  }

  trait Sink extends Active {
    def put(f: Fut[Any]): Proc[Unit]
    def awaitIt(): Proc[Any]
  }

  final class RecvImpl extends ActiveObject with Recv {
    private var xs = List.empty[Int]
    def add(x: Int) = Proc.delay { xs = x :: xs }
    def boom(x: Int) = Proc.delay(throw new IllegalArgumentException(s"boom $x"))
    def seen() = Proc.delay(xs.reverse)
    def myDestiny() = Proc.destiny
    def publishDestiny(sink: Sink) = Proc.destiny.flatMap { d => sink.tell("put")(_.put(d)); Proc.done(42) }
    def stuck() = Proc.awaitUntil(false)
    def hasFuture() = Proc.delay(Cog.current().running.fut ne null)
    override def toString = "Recv"
  }

  final class SinkImpl extends ActiveObject with Sink {
    private var f: Fut[Any] = _
    def put(x: Fut[Any]) = Proc.delay { f = x }
    def awaitIt() = Proc.awaitUntil(f ne null).flatMap(_ => Proc.await(f))
  }

  @Test def aOneWayCallRunsAndHasNoFuture(): Unit = {
    val r = rt.spawn(new RecvImpl)
    r.tell("add")(_.add(1))
    Cogs.tell(r, "add", (x: Recv) => x.add(2))
    rt.awaitQuiescence()
    assertEquals(List(1, 2), r.send("seen")(_.seen()).join())
    // The process of a one-way call has no future; a normal call's has one.
    val probe = new ConcurrentLinkedQueue[Boolean]()
    rt.run {
      val x: Recv = Cogs.spawn(new RecvImpl)
      x.tell("hasFuture")(y => y.hasFuture().map(b => { probe.add(b); () }))
      Proc.await(x.send("hasFuture")(_.hasFuture())).map(b => probe.add(b))
    }
    assertEquals(List(false, true), probe.asScala.toList)
  }

  @Test def callsOfOneSenderStartInOrderAcrossBothKinds(): Unit = {
    val r = rt.spawn(new RecvImpl)
    val n = 20000
    val got = rt.run {
      var i = 0
      while (i < n) {
        val v = i
        if (i % 3 == 0) r.send("add")(_.add(v)) else r.tell("add")(_.add(v))
        i += 1
      }
      r.send("seen")(_.seen()).await
    }
    assertEquals((0 until n).toList, got)
    // ... and from a thread outside the runtime.
    val r2 = rt.spawn(new RecvImpl)
    (0 until n).foreach(i => if (i % 2 == 0) r2.tell("add")(_.add(i)) else r2.send("add")(_.add(i)))
    assertEquals((0 until n).toList, r2.send("seen")(_.seen()).join())
  }

  @Test def aFailedOneWayCallIsCountedAndNamed(): Unit = {
    val r = rt.spawn(new RecvImpl)
    r.tell("boom")(_.boom(7))
    rt.awaitQuiescence()
    assertEquals(1L, rt.failedProcesses)
    val msg = rt.firstFailure.get
    assertTrue(msg.contains("Recv.boom") && msg.contains("boom 7"), msg)
    (1 to 1000).foreach(i => r.tell("boom")(_.boom(i)))
    rt.awaitQuiescence()
    assertEquals(1001L, rt.failedProcesses)
    // The COG goes on serving calls.
    r.tell("add")(_.add(5))
    assertEquals(List(5), r.send("seen")(_.seen()).join())
  }

  @Test def destinyOfAOneWayCallIsCreatedOnDemandAndResolved(): Unit = {
    val r = rt.spawn(new RecvImpl)
    val s = rt.spawn(new SinkImpl)
    r.tell("publishDestiny")(_.publishDestiny(s))
    // Someone else awaits the future the one-way process created for itself: it resolves with 42.
    assertEquals(42, s.send("awaitIt")(_.awaitIt()).join())
    // Outside a process there is no destiny, as before.
    assertThrows(classOf[IllegalStateException], () => Cogs.destiny: Unit)
  }

  @Test def aStuckOneWayCallIsNamedInTheDeadlockReport(): Unit = {
    val r = rt.spawn(new RecvImpl)
    r.tell("stuck")(_.stuck())
    rt.awaitQuiescence()
    val report = rt.deadlockReport()
    assertTrue(report.exists(_.contains("Recv.stuck")), report.mkString("\n"))
  }

  @Test def aOneWayCallOnNullThrowsAtOnce(): Unit = {
    val none: Recv = null
    val e = assertThrows(classOf[NullPointerException], () => none.tell("add")(_.add(1)))
    assertTrue(e.getMessage.contains("add"), e.getMessage)
  }
}
