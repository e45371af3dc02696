package cogs.examples

import cogs.runtime.CogRuntime
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

/** Every example's core with small parameters: the checks it makes itself, and its figures. No timing. */
class ExamplesTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  private def assertOk(o: Outcome): Unit = assertTrue(o.ok, o.problems.mkString("; "))

  @Test def listing5(): Unit = {
    val r = Listing5.run(rt, 2000)
    assertOk(r)
    assertEquals(2000, r.counter)
    assertEquals(2000L, r.sumOfReturns)
  }

  @Test def listing5WithOneCall(): Unit = {
    val r = Listing5.run(rt, 1)
    assertOk(r)
    assertEquals(1, r.counter)
  }

  /** Two JVMs: this one is node A, TwoNodes starts node B. Bounded: a lost node fails its calls. */
  @Test @org.junit.jupiter.api.Timeout(value = 180, unit = java.util.concurrent.TimeUnit.SECONDS)
  def twoNodes(): Unit = {
    val r = TwoNodes.run(rt, 2000)
    assertOk(r)
    assertEquals(2000L, r.balance)
    assertEquals(0, r.outOfOrder)
    assertTrue(r.lostError.contains(r.nodeB), r.lostError)
  }

  @Test def purchaseFixedCompletes(): Unit = {
    val r = PurchaseSession.run(rt, buggy = false)
    assertOk(r)
    assertTrue(r.session.complete, r.session.render)
    assertEquals(Some(42), r.quote.flatMap(_.toOption).map(_.intValue))
  }

  @Test def purchaseBuggyIsCaughtByTheMonitor(): Unit = {
    val r = PurchaseSession.run(rt, buggy = true)
    assertOk(r) // its checks: the violation was seen, the request refused, B and S unfinished
    val v = r.session.violations.head
    assertEquals(("B", "sent", "S!request(String)", List("A?authenticate(String)")), (v.role, v.side, v.received, v.expected))
  }

  @Test def pingPong(): Unit = {
    val r = PingPong.run(rt, 20000)
    assertOk(r)
    assertEquals(20000L, r.returned)
    assertEquals(20000L, r.hits)
  }

  @Test def boundedBuffer(): Unit = {
    val r = BoundedBuffer.run(rt, producers = 3, consumers = 2, perProducer = 1000, capacity = 4)
    assertOk(r)
    assertEquals(3000L, r.consumed)
    assertEquals(3000L * 2999 / 2, r.consumedSum)
    assertEquals(0L, r.duplicates)
    assertEquals(0L, r.missing)
    assertTrue(r.fullest <= 4 && r.fullest >= 1, s"buffer held at most ${r.fullest}")
  }

  @Test def boundedBufferOfOneWithMoreConsumersThanProducers(): Unit = {
    // 7 items among 3 consumers: quotas 3, 2, 2; a buffer of one forces every put and take to wait.
    val r = BoundedBuffer.run(rt, producers = 1, consumers = 3, perProducer = 7, capacity = 1)
    assertOk(r)
    assertEquals(7L, r.consumed)
    assertEquals(1, r.fullest)
  }

  @Test def bank(): Unit = {
    val r = Bank.simulate(cogs.javadsl.CogRuntime.of(rt), 7, 500, 10)
    assertTrue(r.ok(), r.problems().toString)
    assertEquals(3500L, r.transfersMade())
    assertEquals(r.totalBefore(), r.totalAfter())
    assertEquals(3L * 2 * 10, r.totalBefore()) // accounts 0, 3 and 6 open with two transfers' worth
    assertTrue(r.waitedWithdrawals() > 0, "some withdrawal had to wait for funds")
  }

  @Test def bankWithTwoAccounts(): Unit = {
    val r = Bank.simulate(cogs.javadsl.CogRuntime.of(rt), 2, 100, 1)
    assertTrue(r.ok(), r.problems().toString)
    assertEquals(200L, r.transfersMade())
  }
}
