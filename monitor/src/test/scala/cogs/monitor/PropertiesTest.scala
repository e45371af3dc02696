package cogs.monitor

import cogs.trace.{FutRef, TraceEvent}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import Traces._

/** The ready-made properties on hand-built runtime traces: one passing and one violating trace each. */
class PropertiesTest {
  private val client = obj("Client", 1)
  private val server = obj("Server", 2)
  private val server2 = obj("Server", 3)
  private val acct = obj("Account", 4)
  private val acct2 = obj("Account", 5)
  private val f1 = fut(1)
  private val f2 = fut(2)
  private val f3 = fut(3)
  private val f4 = fut(4)
  private val f5 = fut(5)

  private def only(m: Monitor[TraceEvent]): Violation = {
    assertEquals(1, m.errorCount, m.report)
    m.violations.head
  }

  // ---- a call is eventually answered

  @Test def callAnsweredPassesWhenEveryCallIsAnswered(): Unit = {
    val m = run(Properties.callAnswered("Server", "request"),
      call(client, server, "request", f1, 5),
      call(client, server, "status", f3), // another method: not this property's business
      start(server, "request", f1),
      call(client, server2, "request", f2, 6),
      suspend(server, "request", f1, "f?"),
      resume(server, "request", f1),
      complete(server, "request", f1, 10),
      resolve(server, f1, 10),
      failed(server2, "request", f2, new RuntimeException("boom"))) // a failure answers too
    assertTrue(m.passed, m.report)
    assertEquals(0, m.sliceCount)
  }

  @Test def callAnsweredReportsTheCallLeftUnanswered(): Unit = {
    val m = run(Properties.callAnswered("Server", "request"),
      call(client, server, "request", f1, 5),
      call(client, server2, "request", f2, 6),
      start(server, "request", f1),
      complete(server, "request", f1, 10),
      resolve(server, f1, 10),
      start(server2, "request", f2))
    val v = only(m)
    assertEquals("CallAnswered(Server.request)", v.monitor)
    assertEquals(Violation.HotAtEnd, v.kind)
    // the call was sent and started, and not answered: the report says how far it got
    assertEquals("Running(Server#3,request,fut#2)", v.state)
    assertEquals(6L, v.eventNumber)
    assertEquals(Vector(2L, 6L), v.traceNumbers)
    assertEquals("Client#1 calls Server#3.request(6) -> fut#2", v.trace.head.text)
  }

  @Test def callAnsweredShowsTheGuardACallWaitsOnAndCoversUntracedCallers(): Unit = {
    val m = run(Properties.callAnswered("Server", "request"),
      start(server, "request", f1), // its caller is not traced: the obligation starts here
      TraceEvent.Suspended(server, 2, 0L, "request", f1, "condition 'ready'"))
    val v = only(m)
    assertEquals("Waiting(Server#2,request,fut#1,condition 'ready')", v.state)
    assertEquals(Vector(1L, 2L), v.traceNumbers)
  }

  // ---- calls happen in a given order

  private def accountOrder = Properties.callOrder("Account", Seq("open", "deposit", "close"))

  @Test def callOrderPassesWhenEachObjectFollowsTheOrder(): Unit = {
    val m = run(accountOrder,
      call(client, acct, "open", f1),
      call(client, acct2, "open", f2),
      call(client, acct, "deposit", f3, 100),
      call(client, acct, "balance", f4), // not in the order: ignored
      call(client, acct2, "deposit", f5, 5),
      call(client, acct, "close", f1),
      call(client, acct, "deposit", f2, 1), // after the order is complete, calls are free
      call(client, acct2, "close", f3))
    assertTrue(m.passed, m.report)
  }

  @Test def callOrderReportsACallOutOfOrder(): Unit = {
    val m = run(accountOrder,
      call(client, acct, "open", f1),
      call(client, acct, "close", f2), // deposit expected
      call(client, acct, "deposit", f3, 100),
      call(client, acct, "close", f4),
      call(client, acct2, "deposit", f5, 1)) // open expected
    assertEquals(2, m.errorCount)
    val Seq(first, second) = m.violations
    assertEquals("CallOrder(Account: open < deposit < close)", first.monitor)
    assertEquals(Violation.ErrorReached, first.kind)
    assertEquals("Expecting(Account#4,deposit,1)", first.state)
    assertEquals(2L, first.eventNumber)
    assertEquals(Some("close called out of order on Account#4: expected deposit"), first.message)
    assertEquals(Vector(1L, 2L), first.traceNumbers)
    assertTrue(first.trace.head.text.contains("Account#4.open()"), first.render)
    assertEquals(("always(open < deposit < close)", 5L), (second.state, second.eventNumber))
    assertEquals(Some("deposit called out of order on Account#5: expected open"), second.message)
  }

  @Test def callOrderCanRepeatAndBeKeyedByArguments(): Unit = {
    // Per session id (the first argument): login, then logout, again and again.
    val m = run(Properties.callOrder("Server", Seq("login", "logout"), key = _.args.head, repeat = true),
      call(client, server, "login", f1, "s1"),
      call(client, server2, "login", f2, "s2"),
      call(client, server, "logout", f3, "s1"),
      call(client, server, "login", f4, "s1"),
      call(client, server2, "login", f5, "s2"))
    val v = only(m)
    assertEquals("Expecting(s2,logout,1)", v.state)
    assertEquals(5L, v.eventNumber)
    assertEquals(Vector(2L, 5L), v.traceNumbers)
  }

  // ---- at most N processes of a method at once

  @Test def maxRunningPassesWithinTheLimit(): Unit = {
    val m = run(Properties.maxRunning("Server", "request", 2),
      start(server, "request", f1),
      start(server, "request", f2),
      suspend(server, "request", f1, "f?"),
      start(server, "status", f5), // another method
      complete(server, "request", f2),
      start(server, "request", f3),
      start(server2, "request", f4), // another object has its own count
      resume(server, "request", f1),
      complete(server, "request", f1),
      complete(server, "request", f3),
      complete(server2, "request", f4))
    assertTrue(m.passed, m.report)
    assertEquals(0, m.sliceCount)
  }

  @Test def maxRunningCountsSuspendedProcesses(): Unit = {
    val m = run(Properties.maxRunning("Server", "request", 2),
      start(server, "request", f1),
      suspend(server, "request", f1, "f?"),
      start(server, "request", f2),
      start(server, "request", f3), // third at once: f1 is suspended, but still running
      complete(server, "request", f2),
      start(server, "request", f4)) // f1, f3, f4: three again
    assertEquals(2, m.errorCount, m.report)
    val v = m.violations.head
    assertEquals("MaxRunning(Server.request <= 2)", v.monitor)
    assertEquals("Running(Server#2,2)", v.state)
    assertEquals(4L, v.eventNumber)
    assertEquals(Some("3 processes of request running at once on Server#2 (at most 2)"), v.message)
    assertEquals(Vector(1L, 3L, 4L), v.traceNumbers)
    assertEquals(("Running(Server#2,2)", 6L), (m.violations(1).state, m.violations(1).eventNumber))
  }

  // ---- a future is resolved at most once

  @Test def resolvedOncePasses(): Unit = {
    val m = run(Properties.resolvedOnce(), resolve(server, f1, 1), complete(server, "request", f2), resolve(server, f2, 2), get(client, f1))
    assertTrue(m.passed, m.report)
  }

  @Test def resolvedOnceReportsASecondResolution(): Unit = {
    val m = run(Properties.resolvedOnce(), resolve(server, f1, 1), resolve(server, f2, 2), resolve(server2, f1, 3))
    val v = only(m)
    assertEquals("ResolvedOnce", v.monitor)
    assertEquals("Resolved(fut#1,Server#2)", v.state)
    assertEquals(3L, v.eventNumber)
    assertEquals(Some("fut#1 resolved again, by Server#3"), v.message)
    assertEquals(Vector(1L, 3L), v.traceNumbers)
    assertEquals(Seq("Server#2 resolves fut#1 = 1", "Server#3 resolves fut#1 = 3"), v.trace.map(_.text))
  }

  // ---- no call after termination

  @Test def noCallAfterTerminationPasses(): Unit = {
    val m = run(Properties.noCallAfterTermination("Account", userEvent = Some("closed")),
      call(client, acct, "deposit", f1, 5),
      user(acct, "audited"), // another user event
      start(acct, "deposit", f1),
      complete(acct, "deposit", f1),
      user(acct, "closed"),
      call(client, acct2, "deposit", f2, 1), // another account is still open
      start(acct2, "deposit", f2))
    assertTrue(m.passed, m.report)
  }

  @Test def noCallAfterTerminationByUserEvent(): Unit = {
    val m = run(Properties.noCallAfterTermination("Account", userEvent = Some("closed")),
      call(client, acct, "deposit", f1, 5),
      user(acct, "closed", 42),
      call(client, acct, "deposit", f2, 7))
    val v = only(m)
    assertEquals("NoCallAfterTermination(Account)", v.monitor)
    assertEquals(Violation.ErrorReached, v.kind)
    assertEquals("Terminated(Account#4,closed)", v.state)
    assertEquals(3L, v.eventNumber)
    assertEquals(Some("deposit called on Account#4 after it terminated (closed)"), v.message)
    assertEquals(Vector(2L, 3L), v.traceNumbers)
    assertEquals(Seq("Account#4 emits closed(42)", "Client#1 calls Account#4.deposit(7) -> fut#2"), v.trace.map(_.text))
  }

  @Test def noCallAfterTerminationByMethod(): Unit = {
    val m = run(Properties.noCallAfterTermination("Account", method = Some("close")),
      call(client, acct, "close", f1),
      call(client, acct, "deposit", f2, 1), // sent before the close completed: fine
      start(acct, "close", f1),
      complete(acct, "close", f1),
      start(acct, "deposit", f2), // started after: a violation
      call(client, acct, "deposit", f3, 2)) // and another
    assertEquals(2, m.errorCount, m.report)
    assertEquals(Seq(5L, 6L), m.violations.map(_.eventNumber))
    assertEquals(Some("deposit started on Account#4 after it terminated (close)"), m.violations.head.message)
    assertEquals("Terminated(Account#4,close)", m.violations.head.state)
    assertEquals(Vector(4L, 5L, 6L), m.violations(1).traceNumbers)
  }

  @Test def noCallAfterTerminationNeedsAWayToTerminate(): Unit = {
    assertThrows(classOf[IllegalArgumentException], () => { Properties.noCallAfterTermination("Account"); () })
  }

  // ---- together, and at scale

  @Test def propertiesCombineIntoOneMonitor(): Unit = {
    val all = Properties.all("bank",
      Properties.callOrder("Account", Seq("open", "close")),
      Properties.callAnswered("Account", "open"),
      Properties.noCallAfterTermination("Account", method = Some("close")))
    run(all,
      call(client, acct, "open", f1),
      complete(acct, "open", f1),
      call(client, acct, "close", f2),
      complete(acct, "close", f2),
      call(client, acct, "open", f3))
    assertEquals(
      Seq(("NoCallAfterTermination(Account)", 5L), ("CallAnswered(Account.open)", 5L)),
      all.violations.map(v => (v.monitor, v.eventNumber)))
  }

  @Test def twoHundredThousandEventsOverThousandsOfKeys(): Unit = {
    // The shape of the MESA experiment: 200,000 events, 3,215 keys, many obligations open at once.
    val keys = 3215
    val calls = 50000
    val servers = Array.tabulate(keys)(i => obj("Server", 100L + i))
    val futs = Array.tabulate[FutRef](calls)(i => fut(1000L + i))
    val answered = Properties.callAnswered("Server", "request")
    val running = Properties.maxRunning("Server", "request", 2)
    val all = Properties.all("all", answered, running, Properties.resolvedOnce())
    for (i <- 0 until calls + keys) {
      if (i < calls) {
        all.verify(call(client, servers(i % keys), "request", futs(i), i))
        all.verify(start(servers(i % keys), "request", futs(i)))
      }
      val j = i - keys // answered one round later: up to 3,215 calls open at once
      if (j >= 0 && j < calls - 1) { // the very last call is never answered
        all.verify(complete(servers(j % keys), "request", futs(j), j))
        all.verify(resolve(servers(j % keys), futs(j), j))
      }
    }
    assertEquals(4L * calls - 2, all.eventCount)
    assertEquals(1, answered.sliceCount) // only the open obligation keeps memory
    assertEquals(1, running.sliceCount)
    all.end()
    assertEquals(Seq(s"Running(Server#${100 + (calls - 1) % keys},request,fut#${1000 + calls - 1})"), all.violations.map(_.state))
  }
}
