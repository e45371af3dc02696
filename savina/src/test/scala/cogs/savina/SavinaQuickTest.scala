package cogs.savina

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, DynamicTest, Test, TestFactory, TestInstance}
import scala.jdk.CollectionConverters._

/**
 * The quick parameters of every implemented benchmark, on both runtimes, in this JVM: each run
 * must give the independently computed answer (`Benchmark.run` throws `VerificationFailed`
 * otherwise). Two iterations each, so that a second run on the same runtime works too. No
 * timing is asserted: times are the harness's business.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SavinaQuickTest {
  // A Pekko run that hangs fails after this many seconds instead of the harness's default.
  System.setProperty("savina.timeout", "60")
  private val env = new Runtimes(2)

  @AfterAll def close(): Unit = env.close()

  @TestFactory
  def everyBenchmarkGivesTheRightAnswerOnEveryRuntime(): java.util.List[DynamicTest] =
    (for (b <- Suite.implemented; rt <- Runtimes.names) yield DynamicTest.dynamicTest(
      s"${b.name} on $rt (${b.describe(quick = true)})",
      () => {
        for (_ <- 1 to 2) {
          val r = b.run(rt, quick = true, env)
          assertEquals(b.name, r.benchmark)
          assertEquals(rt, r.runtime)
          assertTrue(r.nanos > 0)
        }
      }
    )).asJava

  @Test def theSuiteListsThirtyBenchmarksAndEveryImplementedOneIsInIt(): Unit = {
    assertEquals(30, Suite.savina.size)
    assertEquals(30, Suite.savina.map(_._1).distinct.size)
    Suite.implemented.foreach(b => assertTrue(Suite.savina.exists(_._1 == b.name), b.name))
    assertEquals(30, Suite.implemented.size + Suite.missing.size)
  }

  @Test def aWrongAnswerThrowsWithAClearMessage(): Unit = {
    val wrong = new SavinaBenchmark[Int, Int] {
      val name = "wrong"
      val title = "always off by one"
      val defaults = 3
      val quick = 1
      def expected(p: Int): Int = p
      def runCogs(rt: cogs.runtime.CogRuntime, p: Int): Int = p + 1
      def runPekko(system: org.apache.pekko.actor.ActorSystem, p: Int): Int = p + 1
    }
    val e = assertThrows(classOf[VerificationFailed], () => wrong.run("cogs", quick = true, env))
    assertTrue(e.getMessage.contains("wrong on cogs (quick) gave a wrong answer: expected 1, got 2"), e.getMessage)
  }
}
