package cogs.monitor.pipeline

import cogs.monitor.Properties
import cogs.trace.{FutRef, ObjRef, TraceEvent}
import cogs.trace.TraceEvent._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * The pipeline's `call-answered` ([[OpenCallsChecker]]) finds exactly what the DSL property finds
 * when fed the whole trace: same messages, event numbers and rendered histories, in the same order.
 */
class OpenCallsCheckerTest {

  private def dsl(): ReadyMade.MonitorChecker = new ReadyMade.MonitorChecker(Properties.callAnswered("Server", "request", "answered"))
  private def fast(): OpenCallsChecker =
    new OpenCallsChecker(Properties.callAnswered("Server", "request", "answered").asInstanceOf[Properties.CallAnswered])

  private def findings(c: Checker[TraceEvent], trace: Seq[TraceEvent]): Seq[Finding] = {
    trace.foreach(c.verify)
    val before = c.violations
    c.end()
    assertEquals(Nil, before.toList, "call-answered finds nothing before the end")
    c.violations
  }

  /**
   * A random trace over a few objects of three classes, a few methods and a small pool of futures
   * (so futures are reused after their calls were answered, and events arrive for futures never
   * called), with one-way calls (no future), suspensions, gets, creations and user events; long
   * enough that some histories exceed the DSL's trace limit and are elided.
   */
  private def randomTrace(seed: Long, length: Int, futures: Int = 6): Vector[TraceEvent] = {
    val rnd = new scala.util.Random(seed)
    val objs = Vector(new ObjRef("Server", 1), new ObjRef("Server", 2), new ObjRef("Client", 3), new ObjRef("Other", 4))
    val futs = Vector.tabulate(futures)(i => new FutRef(i + 1L))
    val methods = Vector("request", "request", "other")
    var seq = 0L
    def o() = objs(rnd.nextInt(objs.size))
    def f() = if (rnd.nextInt(8) == 0) null else futs(rnd.nextInt(futs.size))
    def m() = methods(rnd.nextInt(methods.size))
    Vector.fill(length) {
      seq += 1
      rnd.nextInt(12) match {
        case 0 | 1 => CallSent(o(), seq, 0L, if (rnd.nextInt(10) == 0) null else o(), m(), Nil, f())
        case 2 | 3 => Started(o(), seq, 0L, m(), f())
        case 4     => Suspended(o(), seq, 0L, m(), f(), "fut#1?")
        case 5 | 6 => Resumed(o(), seq, 0L, m(), f())
        case 7     => Completed(o(), seq, 0L, m(), f(), 1, null)
        case 8     => FutureResolved(o(), seq, 0L, f(), null, new RuntimeException("no"))
        case 9     => Get(o(), seq, 0L, f())
        case 10    => Created(o(), seq, 0L, o(), newCog = true)
        case _     => User(o(), seq, 0L, "closed", Nil)
      }
    }
  }

  @Test def sameFindingsAsTheDslOnRandomTraces(): Unit = {
    var withFindings, without = 0
    for (seed <- 1L to 400L) {
      val trace = randomTrace(seed, 1 + (seed % 7).toInt * 40)
      val expected = findings(dsl(), trace)
      val actual = findings(fast(), trace)
      assertEquals(expected, actual, s"seed $seed")
      if (expected.isEmpty) without += 1 else withFindings += 1
    }
    // The comparison means something only if both outcomes occur.
    assertTrue(withFindings > 50 && without > 50, s"$withFindings traces with findings, $without without")
  }

  /**
   * The same with hundreds of futures open at once: the checker's table grows several times and
   * closes calls in the middle of long probe runs (sequential numbers, so neighbouring homes), and
   * recycled records carry nothing of their last call into the next.
   */
  @Test def sameFindingsWithManyOpenCalls(): Unit = {
    for (seed <- 1L to 12L) {
      val trace = randomTrace(seed, 4000, futures = 1500)
      val fast0 = fast()
      trace.foreach(fast0.verify)
      assertTrue(fast0.openCalls > 200, s"seed $seed: only ${fast0.openCalls} calls open, the table never grew")
      fast0.end()
      assertEquals(findings(dsl(), trace), fast0.violations, s"seed $seed")
    }
  }

  @Test def aLongOpenCallKeepsItsElidedHistory(): Unit = {
    val (client, server) = (new ObjRef("Client", 1), new ObjRef("Server", 2))
    val (f, g) = (new FutRef(1), new FutRef(2))
    val trace = Vector.newBuilder[TraceEvent]
    trace += CallSent(client, 1, 0L, server, "request", Nil, f)
    trace += CallSent(client, 2, 0L, server, "request", Nil, g)
    trace += Started(server, 1, 0L, "request", f)
    for (i <- 0 until 60) {
      trace += Suspended(server, 2 + 2 * i, 0L, "request", f, "fut#9?")
      trace += Resumed(server, 3 + 2 * i, 0L, "request", f)
    }
    trace += Completed(server, 200, 0L, "request", g, 1, null)
    val t = trace.result()
    val expected = findings(dsl(), t)
    assertEquals(1, expected.size)
    assertTrue(expected.head.trace.exists(_.contains("elided")), expected.head.trace.mkString("\n"))
    assertEquals(expected, findings(fast(), t))
  }

  @Test def theRegisteredPropertyIsTheFastOne(): Unit = {
    val make = PropertyRegistry.default.get("call-answered").get
    val c = make("answered", com.typesafe.config.ConfigFactory.parseString("class = Server, method = request"))
    assertTrue(c.isInstanceOf[OpenCallsChecker], c.getClass.getName)
    assertEquals("answered", c.name)
  }
}
