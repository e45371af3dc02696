package cogs.distributed

import cogs.runtime._
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}

/**
 * Stress of the hand-offs between Pekko's threads and the COGs: a reply resolves a promise on an
 * actor thread and wakes a parked process (Promise, FutCore); the window's backlog is refilled by
 * the actor thread while COG workers send (Node.dispatch/answered, under the peer's lock); a
 * remote call's result goes from the COG back to the network (Endpoint's onComplete). A lost
 * wake-up or reply would leave a future pending: the run would then hang until the class's
 * timeout. A quiescence seen too early would make `run` throw a DeadlockException.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HandOffStressTest {

  @Test def manyProcessesChainAwaitedRemoteCalls(): Unit = {
    // Window 4: almost every call passes through the backlog and is sent by the endpoint's thread.
    val nodes = TestNodes.start(2, "cogs.distributed.max-in-flight = 4")
    try {
      val Vector(a, b) = nodes
      val s = a.create(b.address, "store").join(30, TimeUnit.SECONDS)
      val clients = (0 until 8).map(_ => a.runtime.spawn(new Client(s)))
      val perClient = 1500
      val futs = clients.map(c => Cogs.send(c, "chain", (x: Client) => x.chain(perClient)))
      futs.foreach(f => assertEquals(perClient, f.join(240, TimeUnit.SECONDS)))
      assertEquals(8 * perClient, s.send[Int]("total").join(30, TimeUnit.SECONDS))
    } finally TestNodes.closeAll(nodes)
  }

  @Test def runNeverMistakesAPendingReplyForADeadlock(): Unit = {
    val nodes = TestNodes.start(2)
    try {
      val Vector(a, b) = nodes
      val s = a.create(b.address, "store").join(30, TimeUnit.SECONDS)
      // Each round: the main block's only process parks on a reply; the runtime is idle but for
      // the promise. 300 rounds of the race between "reply arrives" and "runtime looks quiescent".
      for (i <- 1 to 300) {
        val r = a.runtime.run(Proc.await(s.send[Int]("add", 1)))
        assertEquals(i, r)
      }
    } finally TestNodes.closeAll(nodes)
  }
}
