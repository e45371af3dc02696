package cogs.absc.lib

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import cogs.runtime.{Active, Fut, Scheduled}
import scala.jdk.CollectionConverters._

/** ABS.Scheduler's processes and the policy that runs a scheduler function. */
class AbsProcessTest {

  private def scheduled(m: String): Scheduled = new Scheduled {
    def method: String = m
    def target: Active = null
    def destiny: Fut[Any] = null
  }

  @Test def thePolicyPassesTheQueueInOrderAndReturnsTheChosenProcess(): Unit = {
    val offered = List(scheduled("a"), scheduled("b"), scheduled("c"))
    var seen: List[String] = Nil
    val byName = AbsProcess.policy { q =>
      seen = q.map(AbsProcess.method)
      q.find(p => AbsProcess.method(p) == "b").get
    }
    assertSame(offered(1), byName.choose(offered.asJava))
    assertEquals(List("a", "b", "c"), seen)
    assertSame(offered.head, AbsProcess.policy(AbsProcess.defaultscheduler).choose(offered.asJava))
  }

  @Test def processesAreEqualWhenTheyStandForTheSameProcess(): Unit = {
    val s = scheduled("m")
    val t = scheduled("m")
    var seen: List[AbsProcess] = Nil
    val p = AbsProcess.policy { q => seen = seen ++ q; q.head }
    p.choose(List(s).asJava)
    p.choose(List(s, t).asJava)
    val List(s1, s2, t1) = seen
    assertNotSame(s1, s2)
    assertEquals(s1, s2) // two wrappers of one process
    assertEquals(s1.hashCode, s2.hashCode)
    assertNotEquals(s2, t1) // same method, another process
  }

  @Test def withoutAClockTheTimesAreZero(): Unit = {
    var p: AbsProcess = null
    AbsProcess.policy { q => p = q.head; q.head }.choose(List(scheduled(null)).asJava)
    assertEquals("", AbsProcess.method(p))
    assertEquals(Time(AbsInt(0)), AbsProcess.arrival(p))
    assertEquals(InfDuration, AbsProcess.proc_deadline(p))
    assertEquals(Duration.Duration(AbsInt(0)), AbsProcess.cost(p))
    assertFalse(AbsProcess.crit(p))
    assertEquals(AbsInt(0), AbsProcess.value(p))
  }

  @Test def theRandomSchedulerPicksAProcessOfTheQueue(): Unit = {
    val offered = (1 to 5).map(i => scheduled(s"m$i")).toList
    val policy = AbsProcess.policy(AbsProcess.randomscheduler)
    val chosen = (1 to 200).map(_ => policy.choose(offered.asJava))
    assertTrue(chosen.forall(c => offered.exists(_ eq c)))
    assertTrue(chosen.toSet.size > 1, "200 random choices among 5 all fell on one process")
  }
}
