package cogs.runtime

import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/** Point 8: knowing when the program is done, and being told of a deadlock. */
class QuiescenceTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  trait Node extends Active {
    def setPeer(p: Node): Proc[Unit]
    def askPeer(): Proc[Int]
    def answer(): Proc[Int]
  }

  final class NodeImpl(name: String) extends ActiveObject with Node {
    private var peer: Node = _
    def setPeer(p: Node) = Proc.delay { peer = p }
    // A synchronous call to the peer's COG: blocks this COG until the peer answers.
    def askPeer() = Proc.sync(peer, "askPeer")(_.askPeer())
    def answer() = Proc.done(1)
    override def toString = name
  }

  @Test def runReturnsWhenEverythingIsDone(): Unit = {
    val cells = (1 to 100).map(i => rt.spawn(new CellImpl(i)))
    val total = rt.run {
      val fs = cells.map(c => c.send("get")(_.get()))
      Proc.foreach(fs)(f => Proc.await(f).void) >> Proc.delay(fs.map(_.poll.get.get).sum)
    }
    assertEquals(5050, total)
    assertTrue(rt.isQuiescent)
    assertTrue(rt.awaitQuiescence(1, TimeUnit.SECONDS))
  }

  @Test def aCycleOfSynchronousCallsIsReportedAsDeadlock(): Unit = {
    val a = rt.spawn(new NodeImpl("A"))
    val b = rt.spawn(new NodeImpl("B"))
    a.send("setPeer")(_.setPeer(b)).join(); b.send("setPeer")(_.setPeer(a)).join()
    val e = assertThrows(classOf[DeadlockException], () => rt.run(a.send("askPeer")(_.askPeer()).get): Unit)
    val msg = e.getMessage
    assertTrue(msg.contains("A.askPeer") && msg.contains("B.askPeer"), msg)
    assertTrue(msg.contains("blocks its COG in get"), msg)
    assertTrue(msg.contains("main"), msg)
    assertTrue(e.waiting.size >= 3, msg)
  }

  @Test def aConditionThatCanNeverHoldIsReported(): Unit = {
    val cell = rt.spawn(new CellImpl(0))
    val e = assertThrows(classOf[DeadlockException], () => rt.run(Proc.await(cell.send("awaitAtLeast")(_.awaitAtLeast(10)))): Unit)
    assertTrue(e.getMessage.contains("awaitAtLeast awaits condition 'value >= v'"), e.getMessage)
  }

  @Test def leftoverServersDoNotFailAFinishedMainBlock(): Unit = {
    val cell = rt.spawn(new CellImpl(0))
    val r = rt.run(Proc.delay { cell ! (_.awaitAtLeast(10)); 42 })
    assertEquals(42, r)
    val report = rt.deadlockReport()
    assertEquals(1, report.size, report.mkString("\n"))
  }
}
