package cogs.runtime

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import TestObjects._

/** User-defined scheduling policies (ABS `[Scheduler: f(queue)]`): what they are offered and what they decide. */
class SchedulingPolicyTest {

  private def withRuntime[A](conf: String)(f: CogRuntime => A): A = {
    val rt = CogRuntime.withOverrides(conf)
    try f(rt) finally rt.close()
  }

  trait Gate extends Active {
    def work(name: String): Proc[Unit]
    def open(): Proc[Unit]
    def log: Log
  }

  /** Every `work` waits for the gate to open and then logs its name. */
  final class GateImpl(val preferred: String) extends ActiveObject with Gate {
    val log = new Log
    private var opened = false
    def work(name: String): Proc[Unit] = Proc.awaitUntil(opened).map(_ => log.add(name))
    def open(): Proc[Unit] = Proc.delay { opened = true }
  }

  /** Prefers processes of the method the object names; otherwise the first offered. */
  private def preferring(o: GateImpl): SchedulingPolicy = new SchedulingPolicy {
    def choose(queue: java.util.List[Scheduled]): Scheduled =
      queue.asScala.find(_.method == o.preferred).getOrElse(queue.get(0))
  }

  @Test def thePolicyDecidesAmongTheProcessesThatMayRun(): Unit = withRuntime("cogs.executor.parallelism = 2") { rt =>
    val g = rt.spawnScheduled(preferring)(new GateImpl("urgent"))
    rt.run {
      Proc.defer {
        for (i <- 1 to 5) g ! (_.work(s"normal$i")) // labelled "work" by the ! syntax
        for (i <- 1 to 3) Cogs.tell(g, "urgent", (x: Gate) => x.work(s"urgent$i"))
        Proc.await(g.send("open")(_.open()))
      }
    }
    rt.awaitQuiescence()
    val log = g.log.all
    assertEquals(8, log.size, log.toString)
    // Once the gate is open, every urgent process is enabled, and the policy prefers them. (The
    // gate wakes them all at once: the order among them is not specified.)
    assertEquals(Set("urgent1", "urgent2", "urgent3"), log.take(3).toSet, log.toString)
    assertEquals((1 to 5).map(i => s"normal$i").toSet, log.drop(3).toSet, log.toString)
  }

  trait Flagged extends Active {
    def waiter(): Proc[Unit]
    def free(i: Int): Proc[Unit]
    def release(): Proc[Unit]
  }

  final class FlaggedImpl extends ActiveObject with Flagged {
    @volatile var flag = false
    @volatile var waiterStarted = false
    @volatile var waiterDone = false
    def waiter(): Proc[Unit] = Proc.defer { waiterStarted = true; Proc.awaitUntil(flag).map(_ => waiterDone = true) }
    def free(i: Int): Proc[Unit] = Proc.suspend.flatMap(_ => Proc.suspend)
    def release(): Proc[Unit] = Proc.delay { flag = true }
  }

  @Test def aProcessWhoseGuardDoesNotHoldIsNeverOffered(): Unit = withRuntime("cogs.executor.parallelism = 2") { rt =>
    val offeredBlocked = new AtomicInteger
    val offeredEnabled = new AtomicInteger
    val policy: FlaggedImpl => SchedulingPolicy = o => new SchedulingPolicy {
      def choose(queue: java.util.List[Scheduled]): Scheduled = {
        if (queue.asScala.exists(_.method == "waiter") && o.waiterStarted) {
          if (o.flag) offeredEnabled.incrementAndGet() else offeredBlocked.incrementAndGet()
        }
        queue.get(queue.size - 1) // last first: the opposite of the default order
      }
    }
    val o = rt.spawnScheduled(policy)(new FlaggedImpl)
    rt.run {
      Proc.defer {
        Cogs.tell(o, "waiter", (x: Flagged) => x.waiter())
        Proc.awaitAll((1 to 5).map(i => o.send("free")(_.free(i)))).flatMap { _ =>
          Proc.await(o.send("release")(_.release()))
        }
      }
    }
    rt.awaitQuiescence()
    assertTrue(o.waiterDone)
    assertEquals(0, offeredBlocked.get, "a process suspended on a false condition was offered")
    assertTrue(offeredEnabled.get > 0, "once its condition holds it is offered")
  }

  trait Rec extends Active { def mark(i: Int): Proc[Unit] }

  @Test def lastInFirstOutOrderFromAPolicy(): Unit = withRuntime("cogs.executor.parallelism = 1") { rt =>
    val order = new ConcurrentLinkedQueue[Int]
    final class RecImpl extends ActiveObject with Rec { def mark(i: Int) = Proc.delay { order.add(i); () } }
    val lifo: RecImpl => SchedulingPolicy = _ => new SchedulingPolicy {
      def choose(queue: java.util.List[Scheduled]): Scheduled = queue.get(queue.size - 1)
    }
    val r = rt.spawnScheduled(lifo)(new RecImpl)
    // Sent from one process of another COG: all ten are in r's inbox before r runs (one worker).
    rt.run { Proc.delay { for (i <- 1 to 10) r ! (_.mark(i)) } }
    rt.awaitQuiescence()
    assertEquals((1 to 10).reverse.toList, order.asScala.toList)
  }

  @Test def aPolicyThatThrowsHaltsTheRuntimeWithAReport(): Unit = withRuntime("cogs.executor.parallelism = 2") { rt =>
    val broken: RecImpl0 => SchedulingPolicy = _ => new SchedulingPolicy {
      def choose(queue: java.util.List[Scheduled]): Scheduled = throw new IllegalArgumentException("no choice")
    }
    val e = assertThrows(classOf[IllegalStateException], () => {
      rt.run { Proc.defer { val r = Cogs.spawnScheduled(broken)(new RecImpl0); Proc.await(r.send("mark")(_.mark(1))) } }
      ()
    })
    assertTrue(e.getMessage.contains("the scheduling policy of COG of"), e.getMessage)
    assertTrue(e.getMessage.contains("no choice"), e.getMessage)
  }

  @Test def aPolicyThatFailsIsDroppedWhenTheRuntimeGoesOn(): Unit =
    withRuntime("cogs.executor.parallelism = 2\ncogs.on-fatal-error = continue") { rt =>
      val foreign: Scheduled = new Scheduled {
        def method = "x"; def target: Active = null; def destiny: Fut[Any] = null
      }
      val wrong: RecImpl0 => SchedulingPolicy = _ => new SchedulingPolicy {
        def choose(queue: java.util.List[Scheduled]): Scheduled = foreign
      }
      val r = rt.spawnScheduled(wrong)(new RecImpl0)
      val fs = (1 to 5).map(i => r.send("mark")(_.mark(i)))
      rt.awaitQuiescence()
      assertTrue(fs.forall(_.isDone), "the COG goes on in the default order")
      assertEquals(15, r.sum)
    }

  @Test def manySendersToAScheduledCogLoseNoProcess(): Unit = withRuntime("cogs.executor.parallelism = 2") { rt =>
    // Random choices while four COGs keep sending: every call runs exactly once.
    val rnd = new java.util.SplittableRandom(42)
    val random: RecImpl0 => SchedulingPolicy = _ => new SchedulingPolicy {
      def choose(queue: java.util.List[Scheduled]): Scheduled = queue.get(rnd.nextInt(queue.size))
    }
    val r = rt.spawnScheduled(random)(new RecImpl0)
    trait Sender extends Active { def go(n: Int): Proc[Unit] }
    final class SenderImpl extends ActiveObject with Sender {
      def go(n: Int) = Proc.delay { var i = 0; while (i < n) { r ! (_.mark(1)); i += 1 } }
    }
    // A policy sees every ready process at each pick (as ABS's scheduler functions see the whole
    // queue): a pick costs the length of the queue, so the calls are kept few enough for a test.
    val n = 2000
    val senders = (1 to 4).map(_ => rt.spawn(new SenderImpl))
    rt.run { Proc.awaitAll(senders.map(s => s.send("go")(_.go(n)))).map(_ => ()) }
    rt.awaitQuiescence()
    assertEquals(4L * n, r.sum.toLong)
  }
}

trait Rec0 extends Active { def mark(i: Int): Proc[Unit] }

final class RecImpl0 extends ActiveObject with Rec0 {
  @volatile var sum = 0
  def mark(i: Int): Proc[Unit] = Proc.delay { sum += i }
}
