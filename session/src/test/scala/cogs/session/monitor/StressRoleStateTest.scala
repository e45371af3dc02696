package cogs.session.monitor

import java.util.concurrent.{CountDownLatch, ThreadLocalRandom}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.runtime.CogRuntime
import cogs.session.Expected

/**
 * The CAS loop that advances a role's state (Session.step), hammered by several threads at once
 * as one role. Role A's machine is the cycle 0 -a-> 1 -b-> 0, and each thread tries a or b at
 * random. With a correct step, the accepted steps form one run of the machine: accepted a's and
 * b's alternate, so #a - #b is 0 or 1 and the final state is that difference. A step checked
 * against a stale state (read, then a plain write) lets two threads both take `a` from state 0,
 * which breaks the count; a lost CAS retry loses a step, which breaks it too.
 */
class StressRoleStateTest {

  @Test def concurrentStepsOfOneRoleFormOneRun(): Unit = {
    val st = new SessionType(
      Expected.module("global protocol Cycle(role A, role B) { rec L { a() from A to B; b() from A to B; continue L; } }").protocol("Cycle"),
      Policy.Reject)
    val a = st.message("A", "B", "a").id
    val b = st.message("A", "B", "b").id
    val rt = CogRuntime()
    try {
      val p = rt.spawn(new cogs.runtime.ActiveObject {})
      for (round <- 0 until 20) {
        val s = st.start(Map("A" -> p, "B" -> p))
        val threads = 4
        val perThread = 20000
        val as, bs = new java.util.concurrent.atomic.AtomicLong
        val start = new CountDownLatch(1)
        val ts = (0 until threads).map { _ =>
          val t = new Thread(() => {
            start.await()
            var i = 0
            var myA, myB = 0L
            val rnd = ThreadLocalRandom.current()
            while (i < perThread) {
              if (rnd.nextBoolean()) { if (s.step(0, a) >= 0) myA += 1 }
              else if (s.step(0, b) >= 0) myB += 1
              i += 1
            }
            as.addAndGet(myA); bs.addAndGet(myB)
          })
          t.start(); t
        }
        start.countDown()
        ts.foreach(_.join())
        val diff = as.get - bs.get
        assertTrue(diff == 0 || diff == 1, s"round $round: ${as.get} a's and ${bs.get} b's accepted")
        assertEquals(diff.toInt, s.stateOf("A"), s"round $round")
        assertTrue(as.get > 0 && bs.get > 0)
      }
    } finally rt.close()
  }
}
