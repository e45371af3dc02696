package cogs.distributed

import cogs.runtime._
import java.util.concurrent.{ConcurrentLinkedQueue, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}
import scala.jdk.CollectionConverters._

/** A timed object: what it saw, with the simulated time at which it saw it. */
final class Clocked(name: String) extends ActiveObject {
  override def toString = name
  val log = new ConcurrentLinkedQueue[String]()
  private def t: Long = Cogs.now.toLongExact

  def note(what: String): Proc[Unit] = Proc.delay { log.add(s"$what@$t"); () }
  /** Waits `d`, then notes `what` and returns the time. */
  def sleep(d: Int, what: String): Proc[Long] = Proc.awaitDuration(SimTime.of(d.toLong)) >> Proc.delay { log.add(s"$what@$t"); t }
  /** `n` rounds of one time unit each. */
  def ticks(n: Int): Proc[Unit] = Proc.repeat(n)(_ => Proc.awaitDuration(SimTime.One))
  /** Waits `d`, tells `to` a note, then calls `to.sleep(d2)` and notes when the reply came. */
  def poke(d: Int, to: RemoteRef, d2: Int): Proc[Long] =
    Proc.awaitDuration(SimTime.of(d.toLong)) >> Proc.delay(to.tell("note", s"poked-by-$name")) >>
      Proc.await(to.send[Long]("sleep", d2, s"slept-for-$name")).map { v => log.add(s"reply-$v@$t"); t }
}

/**
 * One round of a [[Stepper]]'s script: wait `d`/`den`, then call (or tell) actor `target`; a
 * call's callee waits `e`/`den`. Denominators other than 1 take the clocks' rational paths.
 */
final case class Step(d: Int, target: Int, call: Boolean, e: Int, den: Int) {
  def pause: SimTime = SimTime.of(d.toLong, den.toLong)
  def work: SimTime = SimTime.of(e.toLong, den.toLong)
}

/** How an actor reaches another: directly in its own runtime, or through a reference. Times travel as text. */
trait Link {
  def work(e: Int, den: Int): Fut[String]
  def note(at: String): Unit
}

/**
 * The stress test's actor: runs a script of timed waits and calls; every time it sees must follow
 * from the durations alone (messages take no simulated time), so any advance made while something
 * was still to run, or a message seen at a time other than its sender's, shows as a mismatch.
 */
final class Stepper(val id: Int) extends ActiveObject {
  override def toString = s"Stepper$id"
  @volatile var links: Array[Link] = _
  val times = new ConcurrentLinkedQueue[SimTime]()
  val mismatches = new ConcurrentLinkedQueue[String]()
  private def t: SimTime = Cogs.now

  def work(e: Int, den: Int): Proc[String] = Proc.awaitDuration(SimTime.of(e.toLong, den.toLong)) >> Proc.delay(t.toString)
  def note(at: String): Proc[Unit] = Proc.delay { if (at != t.toString) mismatches.add(s"note sent at $at seen at $t by $id"); () }

  def run(script: Vector[Step]): Proc[Unit] = Proc.foreach(script) { s =>
    Proc.awaitDuration(s.pause) >> {
      val l = links(s.target)
      val t0 = t
      if (s.call) Proc.await(l.work(s.e, s.den)).map { v =>
        val t1 = t
        if (v != t1.toString || t1 != t0 + s.work) mismatches.add(s"$id called ${s.target} at $t0 for ${s.work}: callee ended at $v, reply seen at $t1")
        times.add(t1); ()
      }
      else Proc.delay { l.note(t0.toString); times.add(t0); () }
    }
  }
}

/**
 * The cluster clock (issue 30, point 4): nodes on loopback in this JVM, each with its runtime's
 * clock linked to one clock for the cluster.
 */
class ClusterClockTest {

  /** A reference to `obj` (an object of `on`) for processes of `from`. */
  private def refTo(from: Node, on: Node, obj: ActiveObject): RemoteRef = {
    val r = on.export(obj)
    new RemoteRef(from, r.node, r.objectId, r.className)
  }

  private def awaitEnd(nodes: Seq[Node]): Unit =
    nodes.foreach(n => assertTrue(n.runtime.awaitQuiescence(60, TimeUnit.SECONDS), s"${n.address} did not become quiescent: ${n.clusterClockEnded}"))

  @Test @Timeout(120) def aMessageSentAtThreeIsSeenAtThreeByANodeWaitingUntilFive(): Unit = {
    val nodes = TestNodes.start(2)
    val Vector(a, b) = nodes
    try {
      nodes.foreach(_.useClusterClock())
      val ca = a.runtime.spawn(new Clocked("A"))
      val cb = b.runtime.spawn(new Clocked("B"))
      val aFromB = refTo(b, a, ca)
      // A waits 5. B waits 3, tells A a note, and calls A's sleep(1): A must see the note at 3
      // (its own clock alone would have jumped to 5 at once), the call returns at 4.
      val fa = Cogs.send[Clocked, Long](ca, "sleep", _.sleep(5, "A-woke"))
      val fb = Cogs.send[Clocked, Long](cb, "poke", _.poke(3, aFromB, 1))
      a.coordinateClock(nodes.map(_.address))
      awaitEnd(nodes)
      assertEquals(5L, fa.join(10, TimeUnit.SECONDS))
      assertEquals(4L, fb.join(10, TimeUnit.SECONDS))
      assertEquals(List("poked-by-B@3", "slept-for-B@4", "A-woke@5"), ca.log.asScala.toList)
      assertEquals(List("reply-4@4"), cb.log.asScala.toList)
      assertEquals(SimTime.of(5), a.runtime.now)
      // B's last advance came by the coordinator's Advance message (nothing of epoch 3 reached it).
      assertEquals(SimTime.of(5), b.runtime.now)
      assertEquals(Some("no process waits for time on any node"), a.clusterClockEnded)
      assertEquals(Some("no process waits for time on any node"), b.clusterClockEnded)
      // One advance per distinct time the waiters needed: 3, 4, 5.
      assertEquals(3L, a.clock.advances)
      assertEquals(0, a.pendingCalls + b.pendingCalls)
    } finally TestNodes.closeAll(nodes)
  }

  /**
   * The coordinator's clock limit is the cluster's: with a limit of 4 the exchange of the test
   * above stops after 3 and 4 (the advance to 5 would pass it), on both nodes; the coordinator's
   * runtime says it reached the limit, both runtimes become quiescent, and A's sleeper still waits.
   */
  @Test @Timeout(120) def theCoordinatorsClockLimitStopsEveryNode(): Unit = {
    val nodes = TestNodes.start(2)
    val Vector(a, b) = nodes
    try {
      nodes.foreach(_.useClusterClock())
      a.runtime.limitClock(SimTime.of(4))
      val ca = a.runtime.spawn(new Clocked("A"))
      val cb = b.runtime.spawn(new Clocked("B"))
      val aFromB = refTo(b, a, ca)
      val fa = Cogs.send[Clocked, Long](ca, "sleep", _.sleep(5, "A-woke"))
      val fb = Cogs.send[Clocked, Long](cb, "poke", _.poke(3, aFromB, 1))
      a.coordinateClock(nodes.map(_.address))
      awaitEnd(nodes)
      assertEquals(4L, fb.join(10, TimeUnit.SECONDS))
      assertFalse(fa.isDone, "A's sleep(5) went past the limit 4")
      assertEquals(List("poked-by-B@3", "slept-for-B@4"), ca.log.asScala.toList)
      assertEquals(SimTime.of(4), a.runtime.now)
      assertEquals(SimTime.of(4), b.runtime.now)
      assertEquals(2L, a.clock.advances)
      assertTrue(a.runtime.clockLimitReached)
      val why = "the clock limit 4 is reached (the next advance would go to 5)"
      assertEquals(Some(why), a.clusterClockEnded)
      assertEquals(Some(why), b.clusterClockEnded)
      assertTrue(a.runtime.deadlockReport().mkString("\n").contains("the clock to reach"))
    } finally TestNodes.closeAll(nodes)
  }

  @Test @Timeout(120) def losingANodeEndsTheClockAndTheWaitersShowInTheReport(): Unit = {
    val nodes = TestNodes.start(2)
    val Vector(a, b) = nodes
    try {
      nodes.foreach(_.useClusterClock())
      val ca = a.runtime.spawn(new Clocked("A"))
      val cb = b.runtime.spawn(new Clocked("B"))
      // Both nodes keep the clock busy, one time unit per round, far longer than the test.
      Cogs.send[Clocked, Unit](ca, "ticks", _.ticks(1000000))
      Cogs.send[Clocked, Unit](cb, "ticks", _.ticks(1000000))
      a.coordinateClock(nodes.map(_.address))
      val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
      while (a.runtime.now < SimTime.of(20) && System.nanoTime() < deadline) Thread.sleep(10)
      assertTrue(a.runtime.now >= SimTime.of(20), s"the clock did not run: ${a.runtime.now}")
      b.close()
      // The coordinator ends the clock when B is removed; A's runtime is then quiescent, its
      // process waiting for a time that will not come.
      assertTrue(a.runtime.awaitQuiescence(60, TimeUnit.SECONDS), "A did not become quiescent after B left")
      val why = a.clusterClockEnded.getOrElse("")
      assertTrue(why.contains(s"node ${b.address} was lost"), why)
      val report = a.runtime.deadlockReport().mkString("\n")
      assertTrue(report.contains("the clock to reach"), report)
      assertTrue(a.clock.advances >= 20)
    } finally TestNodes.closeAll(nodes)
  }

  /** The script of `actors` actors of `rounds` rounds each, from `seed`. */
  private def scripts(seed: Long, actors: Int, rounds: Int): Vector[Vector[Step]] = {
    val rnd = new scala.util.Random(seed)
    Vector.fill(actors)(Vector.fill(rounds)(Step(1 + rnd.nextInt(3), rnd.nextInt(actors), rnd.nextInt(3) != 0, rnd.nextInt(3), 1 + rnd.nextInt(3))))
  }

  /** The times each actor should see, from the durations alone. */
  private def expected(s: Vector[Vector[Step]]): Vector[List[SimTime]] =
    s.map(_.scanLeft(SimTime.Zero)((t, st) => t + st.pause + (if (st.call) st.work else SimTime.Zero)).tail.toList)

  private def local(obj: Stepper): Link = new Link {
    def work(e: Int, den: Int): Fut[String] = Cogs.send[Stepper, String](obj, "work", _.work(e, den))
    def note(at: String): Unit = Cogs.tell[Stepper](obj, "note", _.note(at))
  }

  private def remote(ref: RemoteRef): Link = new Link {
    def work(e: Int, den: Int): Fut[String] = ref.send[String]("work", e, den)
    def note(at: String): Unit = ref.tell("note", at)
  }

  /** The same scripts in one runtime with its own clock: the times and the number of advances. */
  private def singleJvm(s: Vector[Vector[Step]]): (Vector[List[SimTime]], Long) = {
    val rt = CogRuntime()
    try {
      val actors = s.indices.map(i => rt.spawn(new Stepper(i))).toVector
      val links: Array[Link] = actors.map(local).toArray
      actors.foreach(_.links = links)
      // Started from one process, so all at time 0: sent one by one from this thread, the first
      // ones would let the clock run before the last were sent (a linked runtime's hold keeps
      // the nodes' clocks at 0 until the coordinator starts, so the cluster's can be sent so).
      val runs = rt.run(Proc.delay(actors.zip(s).map { case (x, sc) => Cogs.send[Stepper, Unit](x, "run", _.run(sc)) }))
      assertTrue(rt.awaitQuiescence(60, TimeUnit.SECONDS))
      runs.foreach(_.join(10, TimeUnit.SECONDS))
      actors.foreach(x => assertEquals(Nil, x.mismatches.asScala.toList))
      (actors.map(_.times.asScala.toList), rt.clockAdvances)
    } finally rt.close()
  }

  /**
   * Three seeds, each on three new nodes (a runtime's clock is linked once): nine actors, three
   * per node, `rounds` rounds each of waits of 1 to 3 halves, thirds or units, then a call (two in
   * three; the callee waits 0 to 2 of the same) or a one-way call to a random actor, on the same
   * node (directly) or another (by reference).
   */
  @Test @Timeout(300) def randomTimedCallsOnThreeNodesSeeTheTimesOfOneJvm(): Unit =
    for (seed <- 30L to 32L) stress(seed, rounds = 50)

  private def stress(seed: Long, rounds: Int): Unit = {
    val nodes = TestNodes.start(3)
    try {
      nodes.foreach(_.useClusterClock())
      val perNode = 3
      val s = scripts(seed, actors = nodes.size * perNode, rounds = rounds)
      val on = s.indices.map(i => nodes(i % nodes.size)).toVector
      val actors = s.indices.map(i => on(i).runtime.spawn(new Stepper(i))).toVector
      // Each actor reaches those of its own node directly, the others by reference.
      actors.indices.foreach { i =>
        actors(i).links = actors.indices.map { j =>
          if (on(j) eq on(i)) local(actors(j)) else remote(refTo(on(i), on(j), actors(j)))
        }.toArray
      }
      val runs = actors.zip(s).map { case (x, sc) => Cogs.send[Stepper, Unit](x, "run", _.run(sc)) }
      nodes.head.coordinateClock(nodes.map(_.address))
      awaitEnd(nodes)
      runs.foreach(_.join(10, TimeUnit.SECONDS))
      val mismatches = actors.flatMap(_.mismatches.asScala)
      assertEquals(Nil, mismatches.toList, s"seed $seed: times that do not follow from the durations")
      val times = actors.map(_.times.asScala.toList)
      val (one, oneAdvances) = singleJvm(s)
      assertEquals(expected(s), one, s"seed $seed: one JVM")
      assertEquals(one, times, s"seed $seed: three nodes against one JVM")
      assertEquals(oneAdvances, nodes.head.clock.advances, s"seed $seed: advances of the cluster against one JVM's clock")
      val end = times.flatten.max
      nodes.foreach(n => assertEquals(end, n.runtime.now, s"time of ${n.address}"))
      assertTrue(nodes.forall(_.pendingCalls == 0))
    } finally TestNodes.closeAll(nodes)
  }
}
