package cogs.monitor.pipeline

import cogs.runtime._
import com.typesafe.config.ConfigFactory
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import TestSupport._

trait E2EServer extends Active {
  def request(n: Int): Proc[Int]
  def hang(): Proc[Unit]
}
final class E2EServerImpl extends ActiveObject with E2EServer {
  def request(n: Int): Proc[Int] = Proc.done(n * 2)
  def hang(): Proc[Unit] = Proc.awaitUntil(false) // never answered
}

trait E2EHelper extends Active { def help(n: Int): Proc[Int] }
final class E2EHelperImpl extends ActiveObject with E2EHelper {
  def help(n: Int): Proc[Int] = Proc.done(n + 1)
}

trait E2EWorker extends Active { def work(n: Int): Proc[Int] }
final class E2EWorkerImpl extends ActiveObject with E2EWorker {
  def work(n: Int): Proc[Int] = {
    val h: E2EHelper = Cogs.spawn(new E2EHelperImpl)
    Proc.await(h.send("help")(_.help(n)))
  }
}

/** A real traced runtime feeding the pipeline. */
class EndToEndTest {

  private val registry = new PropertyRegistry().register("call-answered", answeredFactory)

  @Test def centralisedPerFutureFindsTheUnansweredCall(): Unit = {
    val p = Pipeline.fromConfig(ConfigFactory.parseString(
      """cogs.monitor {
        |  output.summary = false
        |  dispatcher { kind = per-key, key = future, complete-on = ["FutureResolved"] }
        |  monitors = [{ property = "call-answered", method = "hang" }]
        |}""".stripMargin), registry)
    val rt = CogRuntime.withTracing(p.tracing, ConfigFactory.parseString("cogs.executor.parallelism = 2"))
    try {
      val total = rt.run {
        val s: E2EServer = Cogs.spawn(new E2EServerImpl)
        s.send("hang")(_.hang())
        Proc.awaitAll((1 to 10).map(i => s.send("request")(_.request(i)))).map(_.sum)
      }
      assertEquals(110, total)
    } finally rt.close() // closes the tracing, which finishes the pipeline
    val r = p.result.getOrElse(fail("closing the runtime finished the pipeline"))
    assertSame(r, p.finish())
    assertEquals(1, r.violations, r.summary())
    assertTrue(r.verdicts.head.finding.message.startsWith("call hang with fut#"), r.summary())
    assertTrue(r.sound, r.summary())
    assertTrue(r.delivered > 30, r.summary()) // calls, starts, completions, resolutions, creations
    val m = r.monitors.head
    assertTrue(m.completed >= 10, "each answered request's instance ended on its resolution: " + r.summary())
    assertEquals(m.completed + 1, m.instances, "all but the hanging call's")
  }

  @Test def decentralisedChainsFollowTheWorkers(): Unit = {
    val p = Pipeline.fromConfig(ConfigFactory.parseString(
      """cogs.monitor {
        |  mode = outline-decentralised
        |  output.summary = false
        |  decentralised.own-tracer = ["E2EWorkerImpl"]
        |  dispatcher { kind = indexed, key = future }
        |  monitors = [{ property = "call-answered", method = "help" }]
        |}""".stripMargin), registry)
    val rt = CogRuntime.withTracing(p.tracing, ConfigFactory.parseString("cogs.executor.parallelism = 2"))
    try {
      val total = rt.run {
        val ws = (1 to 3).map(_ => Cogs.spawn(new E2EWorkerImpl): E2EWorker)
        Proc.awaitAll(ws.zipWithIndex.map { case (w, i) => w.send("work")(_.work(i)) }).map(_.sum)
      }
      assertEquals(6, total)
    } finally rt.close()
    val r = p.finish()
    val workers = p.sinkNames.filter(_.startsWith("E2EWorkerImpl#"))
    assertEquals(3, workers.size, p.sinkNames.toString)
    assertEquals(4, r.chains)
    // each helper's call and its resolution are in its worker's chain: every call answered there
    assertEquals(0, r.violations, r.summary())
    assertTrue(r.sound, r.summary())
    assertEquals(Losses(), r.losses)
  }
}
