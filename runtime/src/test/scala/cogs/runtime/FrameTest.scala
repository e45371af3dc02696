package cogs.runtime

import cogs.runtime.internal.{Frame, FrameCall, Process}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}
import TestObjects._

/**
 * Methods in frame form (docs/runtime-design.md, section 3 and "Step 4, as built"), written by
 * hand the way a code generator would: each takes the process, returns its value or
 * Frame.Suspended, and allocates its frame only when it suspends.
 */
object FrameTest {
  private def suspended(r: Any): Boolean = r.asInstanceOf[AnyRef] eq Frame.Suspended

  /** A call of `f` on `self` as data, for sends and pending calls. */
  final class Call(f: (Process, Active) => Any) extends FrameCall {
    def run(p: Process, self: Active): Any = f(p, self)
  }

  // ---------------------------------------------------------------- Listing 5
  final class A extends ActiveObject {
    var result = 0
    var deepest = 0 // frames under the bottom one when it resumed (the callers' frames)

    def recursive_m(p: Process, i: Int, id: Int): Any = {
      if (i > 0) {
        val r =
          if (p.enter()) try recursive_m(p, i - 1, id) finally p.exit()
          else p.pendingCall(this, new Call((q, s) => s.asInstanceOf[A].recursive_m(q, i - 1, id)))
        if (suspended(r)) return p.suspendedIn(new A.Level(this))
      } else {
        val f = Cogs.send(this, "compute", A.Compute)
        if (!f.isResolved) { p.awaitFut(f); return p.suspendedIn(new A.Bottom(this)) }
      }
      1
    }

    def compute(p: Process): Any = { result += 1; result }
  }
  object A {
    val Compute: FrameCall = new Call((p, s) => s.asInstanceOf[A].compute(p))
    final class Level(self: A) extends Frame { def resume(p: Process, in: Any): Any = 1 }
    final class Bottom(self: A) extends Frame {
      def resume(p: Process, in: Any): Any = {
        self.deepest = math.max(self.deepest, p.depth)
        assert(in.asInstanceOf[Int] >= 1)
        1
      }
    }
  }

  // ---------------------------------------------------------------- loops and recursion
  final class Looper extends ActiveObject {
    var depthAt1M, depthAtEnd, maxDepth = -1
    def spin(p: Process, from: Int, n: Int): Any = {
      var i = from
      while (i < n) {
        i += 1
        val d = p.depth
        if (d > maxDepth) maxDepth = d
        if (i == 1000000) depthAt1M = d
        if (i == n - 1) depthAtEnd = d
        // An await in the body: suspend and await a condition, alternately.
        if ((i & 1) == 0) p.yieldNow() else p.awaitGuard(Guard.cond(i >= 0))
        return p.suspendedIn(new Looper.Body(this, i, n))
      }
      i
    }

    def depth(p: Process, n: Int): Any =
      if (n == 0) 0L
      else {
        val r =
          if (p.enter()) try depth(p, n - 1) finally p.exit()
          else p.pendingCall(this, new Call((q, s) => s.asInstanceOf[Looper].depth(q, n - 1)))
        if (suspended(r)) p.suspendedIn(Looper.PlusOne) else r.asInstanceOf[Long] + 1
      }

    def down(p: Process, n: Int, l: Latch): Any =
      if (n == 0) { p.awaitFut(l.send("waitOpen")(_.waitOpen())); p.suspendedIn(Looper.ToLong) }
      else {
        val r =
          if (p.enter()) try down(p, n - 1, l) finally p.exit()
          else p.pendingCall(this, new Call((q, s) => s.asInstanceOf[Looper].down(q, n - 1, l)))
        if (suspended(r)) p.suspendedIn(Looper.PlusOne) else r.asInstanceOf[Long] + 1
      }
  }
  object Looper {
    // The loop's frame: the locals live across the await (i, n); the loop goes on from there.
    final class Body(self: Looper, i: Int, n: Int) extends Frame {
      def resume(p: Process, in: Any): Any = self.spin(p, i, n)
    }
    object PlusOne extends Frame { def resume(p: Process, in: Any): Any = in.asInstanceOf[Long] + 1 }
    object ToLong extends Frame { def resume(p: Process, in: Any): Any = in.asInstanceOf[Int].toLong }
  }

  // ---------------------------------------------------------------- exceptions
  final class Boom(msg: String) extends RuntimeException(msg)

  final class Thrower(log: Log) extends ActiveObject {
    override def toString = "Thrower"

    /** try { inner } catch { case Boom => -1 }, where inner throws after resuming. */
    def safe(p: Process, l: Latch, failFuture: Boolean): Any = {
      val r = try inner(p, l, failFuture) catch { case _: Boom => return -1 }
      if (suspended(r)) p.suspendedIn(new Thrower.Catching(log)) else r
    }

    def inner(p: Process, l: Latch, failFuture: Boolean): Any = {
      val f = if (failFuture) Cogs.send(this, "boom", new Call((_, _) => throw new Boom("in the callee"))) else l.send("waitOpen")(_.waitOpen())
      p.awaitFut(f)
      p.suspendedIn(new Thrower.ThrowAfter(log))
    }

    /** No handler: the process fails, naming the object and method. */
    def unguarded(p: Process, l: Latch): Any = {
      val r = inner(p, l, failFuture = false)
      if (suspended(r)) p.suspendedIn(new Thrower.Plain) else r
    }
  }
  object Thrower {
    final class ThrowAfter(log: Log) extends Frame {
      def resume(p: Process, in: Any): Any = { log.add(s"resumed $in"); throw new Boom("after resuming") }
    }
    final class Catching(log: Log) extends Frame {
      def resume(p: Process, in: Any): Any = in
      override def fail(p: Process, e: Throwable): Any = e match {
        case b: Boom => log.add(s"caught ${b.getMessage}"); -1
        case _       => throw e
      }
    }
    final class Plain extends Frame { def resume(p: Process, in: Any): Any = in }
  }

  // ---------------------------------------------------------------- Proc <-> frames
  trait Helper extends Active { def help(l: Latch): Proc[Int] }
  final class HelperImpl(log: Log) extends ActiveObject with Helper {
    def help(l: Latch) = Proc.delay(log.add("help>")) >> Proc.await(l.send("waitOpen")(_.waitOpen())).map { v => log.add("<help"); v }
  }

  final class Mixed(log: Log) extends ActiveObject {
    private lazy val helper: Helper = Cogs.spawnLocal(new HelperImpl(log))
    lazy val local: Mixed = Cogs.spawnLocal(new Mixed(log))

    /** Frame code calling a Proc method of an object of this COG, which suspends. */
    def viaProc(p: Process, l: Latch): Any = {
      log.add("frame>")
      p.callProc(helper, "help", (h: Helper) => h.help(l))
      p.suspendedIn(new Mixed.AddOne(log, "<frame"))
    }

    /** A frame method that suspends (called from Proc code below). */
    def waitLatch(p: Process, l: Latch): Any = {
      log.add("wait>")
      p.awaitFut(l.send("waitOpen")(_.waitOpen()))
      p.suspendedIn(new Mixed.AddOne(log, "<wait"))
    }

    /** Proc code calling a frame method of an object of this COG synchronously. */
    def procCallsFrames(l: Latch): Proc[Int] = Proc.defer {
      log.add("proc>")
      val m = local
      Proc.sync(m, "waitLatch")((t: Mixed) => Proc.frames[Int](t, new Call((q, s) => s.asInstanceOf[Mixed].waitLatch(q, l))))
        .map { v => log.add("<proc"); v * 10 }
    }

    def ping(p: Process): Any = { log.add("ping"); () }

    /** A synchronous call to objects of other COGs: a frame method and a Proc method. */
    def across(p: Process, other: A, cell: Cell): Any = {
      val r = p.callFrames(other, "compute", A.Compute)
      if (suspended(r)) p.suspendedIn(new Mixed.ThenProc(cell)) else throw new AssertionError("a call to another COG suspends")
    }

    /** `get` blocks the COG: nothing else of it runs until the future is resolved. */
    def blockingGet(p: Process, l: Latch): Any = {
      log.add("get>")
      p.getFut(l.send("waitOpen")(_.waitOpen()))
      p.suspendedIn(new Mixed.AddOne(log, "<get"))
    }

    /** `suspend` lets the others run first. */
    def yielding(p: Process): Any = {
      log.add("y>")
      p.yieldNow()
      p.suspendedIn(new Mixed.Logs(log, "<y"))
    }

    /** `await` of a condition over the state. */
    var value = 0
    def awaitAtLeast(p: Process, v: Int): Any = {
      if (value >= v) return value
      p.awaitGuard(Guard.cond(value >= v))
      p.suspendedIn(new Mixed.ReadValue(this))
    }
    def set(p: Process, v: Int): Any = { value = v; () }
  }
  object Mixed {
    final class AddOne(log: Log, msg: String) extends Frame {
      def resume(p: Process, in: Any): Any = { log.add(msg); in.asInstanceOf[Int] + 1 }
    }
    final class Logs(log: Log, msg: String) extends Frame {
      def resume(p: Process, in: Any): Any = { log.add(msg); 0 }
    }
    final class ReadValue(self: Mixed) extends Frame { def resume(p: Process, in: Any): Any = self.value }
    final class ReadValue2(self: Points) extends Frame { def resume(p: Process, in: Any): Any = self.value }
    final class ThenProc(cell: Cell) extends Frame {
      private var first = -1
      def resume(p: Process, in: Any): Any =
        if (first < 0) {
          first = in.asInstanceOf[Int]
          // The same frame again: its label is the field `first`.
          p.callProc(cell, "awaitAtLeast", (c: Cell) => c.awaitAtLeast(5))
          p.suspendedIn(this)
        } else first * 100 + in.asInstanceOf[Int]
    }
  }

  // ---------------------------------------------------------------- get and await that may go on at once
  // absc's form of `f.get`, `await f?` and `await b` (Process.getValue, awaitResolved, awaitUntil):
  // the method links its frame only when the point returns Suspended.
  final class Points(log: Log) extends ActiveObject {
    override def toString = "Points"
    var value = 0
    var evaluations = 0

    /** `Int v = f.get; return v + 1;` */
    def getPlusOne(p: Process, f: Fut[_]): Any = {
      log.add("get>")
      val r = p.getValue(f, "points.abs:3:5")
      if (suspended(r)) p.suspendedIn(new Mixed.AddOne(log, "<get"))
      else { log.add(s"now $r"); r.asInstanceOf[Int] + 1 }
    }

    /** `await f?; return 0;` */
    def awaitClaim(p: Process, f: Fut[_]): Any = {
      val r = p.awaitResolved(f)
      if (suspended(r)) p.suspendedIn(new Mixed.Logs(log, "resumed"))
      else { log.add(s"now $r"); 0 }
    }

    /** `await this.value >= v; return this.value;` (the condition counts its evaluations) */
    def awaitAtLeast(p: Process, v: Int): Any = {
      val r = p.awaitUntil(Guard.cond { evaluations += 1; value >= v } & Guard.future(Fut.successful(())))
      if (suspended(r)) p.suspendedIn(new Mixed.ReadValue2(this)) else { log.add(s"now $r"); value }
    }

    def set(p: Process, v: Int): Any = { value = v; () }
    def ping(p: Process): Any = { log.add("ping"); () }
  }

  def call(f: (Process, Active) => Any): FrameCall = new Call(f)
}

class FrameTest {
  import FrameTest._
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  @Test def listing5InFrameFormGivesEveryResultAndKeepsOneFramePerLevel(): Unit = {
    val n = 10000
    val a = rt.spawn(new A)
    val total = rt.run {
      val futures = (0 until n).map(id => a.send("recursive_m")(call((p, s) => s.asInstanceOf[A].recursive_m(p, 5, id))))
      Proc.foreach(futures)(f => f.get.map(r => assertEquals(1, r))).as(futures.size)
    }
    assertEquals(n, total)
    assertEquals(n, a.result, "compute ran once per call")
    assertEquals(5, a.deepest, "five callers' frames under the bottom one")
    assertTrue(rt.deadlockReport().isEmpty, rt.deadlockReport().mkString("\n"))
  }

  @Test def aLoopWithAnAwaitInItsBodyKeepsOneFrameAlive(): Unit = {
    val n = 10000000
    val l = rt.spawn(new Looper)
    assertEquals(n, l.send("spin")(call((p, s) => s.asInstanceOf[Looper].spin(p, 0, n))).join())
    // Seen in the body, before the loop's frame is linked: the resumed frame is gone already.
    assertEquals(0, l.depthAt1M)
    assertEquals(0, l.depthAtEnd)
    assertEquals(0, l.maxDepth, "no frame of the loop survives an iteration")
  }

  @Test def aMillionDeepSynchronousRecursionDoesNotOverflow(): Unit = {
    val l = rt.spawn(new Looper)
    assertEquals(1000000L, l.send("depth")(call((p, s) => s.asInstanceOf[Looper].depth(p, 1000000))).join())
  }

  @Test def aMillionDeepRecursionThatSuspendsAtItsBottomResumes(): Unit = {
    val l = rt.spawn(new Looper)
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = l.send("down")(call((p, s) => s.asInstanceOf[Looper].down(p, 1000000, latch)))
    latch ! (_.open(7))
    assertEquals(1000007L, f.join())
  }

  @Test def anExceptionRaisedAfterResumingIsCaughtByTheOuterFrame(): Unit = {
    val log = new Log
    val t = rt.spawn(new Thrower(log))
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = t.send("safe")(call((p, s) => s.asInstanceOf[Thrower].safe(p, latch, failFuture = false)))
    latch ! (_.open(3))
    assertEquals(-1, f.join())
    assertEquals(List("resumed 3", "caught after resuming"), log.all)
  }

  @Test def aFailedFutureIsRaisedAtTheAwaitAndCaughtByTheOuterFrame(): Unit = {
    val log = new Log
    val t = rt.spawn(new Thrower(log))
    assertEquals(-1, t.send("safe")(call((p, s) => s.asInstanceOf[Thrower].safe(p, null, failFuture = true))).join())
    assertEquals(List("caught in the callee"), log.all)
  }

  @Test def anUncaughtExceptionFailsTheProcessNamingObjectAndMethod(): Unit = {
    val t = rt.spawn(new Thrower(new Log))
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = t.send("unguarded")(call((p, s) => s.asInstanceOf[Thrower].unguarded(p, latch)))
    latch ! (_.open(1))
    val e = assertThrows(classOf[CallFailedException], () => f.join(): Unit)
    assertTrue(e.getMessage.contains("Thrower.unguarded"), e.getMessage)
    assertTrue(e.getCause.isInstanceOf[Boom], String.valueOf(e.getCause))
    // The runtime goes on.
    assertEquals(-1, t.send("safe")(call((p, s) => s.asInstanceOf[Thrower].safe(p, null, failFuture = true))).join())
  }

  @Test def frameCodeCallsAProcMethodThatSuspends(): Unit = {
    val log = new Log
    val m = rt.spawn(new Mixed(log))
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = m.send("viaProc")(call((p, s) => s.asInstanceOf[Mixed].viaProc(p, latch)))
    m.send("ping")(call((p, s) => s.asInstanceOf[Mixed].ping(p))).join()
    latch ! (_.open(4))
    assertEquals(5, f.join())
    assertEquals(List("frame>", "help>", "ping", "<help", "<frame"), log.all)
  }

  @Test def procCodeCallsAFrameMethodThatSuspends(): Unit = {
    val log = new Log
    val m = rt.spawn(new Mixed(log))
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = m.send("procCallsFrames")(_.procCallsFrames(latch))
    m.send("ping")(call((p, s) => s.asInstanceOf[Mixed].ping(p))).join()
    latch ! (_.open(2))
    assertEquals(30, f.join())
    assertEquals(List("proc>", "wait>", "ping", "<wait", "<proc"), log.all)
  }

  @Test def aSynchronousCallToAnotherCogIsSendThenGet(): Unit = {
    val m = rt.spawn(new Mixed(new Log))
    val a = rt.spawn(new A)
    val cell: Cell = rt.spawn(new CellImpl)
    val f = m.send("across")(call((p, s) => s.asInstanceOf[Mixed].across(p, a, cell)))
    cell ! (_.set(6))
    assertEquals(106, f.join())
    assertEquals(1, a.result)
  }

  @Test def getFromFrameCodeBlocksTheCog(): Unit = {
    val log = new Log
    val m = rt.spawn(new Mixed(log))
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = m.send("blockingGet")(call((p, s) => s.asInstanceOf[Mixed].blockingGet(p, latch)))
    val ping = m.send("ping")(call((p, s) => s.asInstanceOf[Mixed].ping(p)))
    rt.awaitQuiescence()
    assertEquals(List("get>"), log.all, "nothing else of the COG runs while it is blocked in get")
    latch ! (_.open(1))
    ping.join()
    assertEquals(2, f.join())
    assertEquals(List("get>", "<get", "ping"), log.all)
  }

  @Test def suspendLetsTheOthersRunFirst(): Unit = {
    val log = new Log
    val m = rt.spawn(new Mixed(log))
    val y = rt.run {
      val f = m.send("yielding")(call((p, s) => s.asInstanceOf[Mixed].yielding(p)))
      m.send("ping")(call((p, s) => s.asInstanceOf[Mixed].ping(p)))
      f.get
    }
    assertEquals(0, y)
    assertEquals(List("y>", "ping", "<y"), log.all)
  }

  @Test def anAwaitOnAConditionWaitsForTheState(): Unit = {
    val m = rt.spawn(new Mixed(new Log))
    val f = m.send("awaitAtLeast")(call((p, s) => s.asInstanceOf[Mixed].awaitAtLeast(p, 3)))
    m.send("set")(call((p, s) => s.asInstanceOf[Mixed].set(p, 1))).join()
    assertFalse(f.isResolved, "1 < 3")
    m.send("set")(call((p, s) => s.asInstanceOf[Mixed].set(p, 5))).join()
    assertEquals(5, f.join())
  }

  @Test def frameCodeReturningSuspendedWithoutASchedulingPointFailsClearly(): Unit = {
    val m = rt.spawn(new Mixed(new Log))
    val f = m.send("bad")(call((p, s) => p.suspendedIn(new Mixed.Logs(new Log, "x"))))
    val e = assertThrows(classOf[CallFailedException], () => f.join(): Unit)
    assertTrue(e.getCause.getMessage.contains("without naming a scheduling point"), e.getCause.getMessage)
  }

  // Proc.now of a method in frame form (absc's `Proc.now(this.m(..))` for a synchronous call it
  // knows does not suspend, as in a [Foreign] class): it runs in the running process.
  @Test def procNowRunsAFrameMethodToItsValueAndRefusesOneThatSuspends(): Unit = {
    val m = rt.spawn(new Mixed(new Log))
    val plain = m.send("plain")(_ => Proc.delay(Proc.now(call((p, _) => 40 + 2).on[Int](m))))
    assertEquals(42, plain.join())
    val suspends = m.send("suspends")(_ => Proc.delay {
      val refused =
        try { Proc.now(call((p, _) => { p.yieldNow(); p.suspendedIn(new Mixed.Logs(new Log, "x")) }).on[Int](m)); "ran" }
        catch { case e: IllegalStateException => e.getMessage }
      refused
    }.flatMap(r => Proc.suspend.map(_ => r))) // the process goes on, through a scheduling point, after the refusal
    assertEquals("Proc.now: this process reaches a scheduling point", suspends.join())
    val outside = assertThrows(classOf[IllegalStateException], () => Proc.now(call((_, _) => 1).on[Int](m)): Unit)
    assertTrue(outside.getMessage.contains("only inside a process"), outside.getMessage)
  }

  private def points(m: Points, name: String)(f: (Points, Process) => Any): Fut[Any] =
    m.send(name)(call((p, s) => f(s.asInstanceOf[Points], p)))

  @Test def getValueGoesOnAtOnceWhenResolvedAndBlocksTheCogUntilResolvedOtherwise(): Unit = {
    val log = new Log
    val m = rt.spawn(new Points(log))
    // Resolved: the value at once, no frame.
    assertEquals(8, points(m, "get")(_.getPlusOne(_, Fut.successful(7))).join())
    assertEquals(List("get>", "now 7"), log.all)
    // Pending: the COG blocks (ping waits), and the frame resumes with the value.
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = points(m, "get")(_.getPlusOne(_, latch.send("waitOpen")(_.waitOpen())))
    val ping = points(m, "ping")(_.ping(_))
    rt.awaitQuiescence()
    assertEquals(List("get>", "now 7", "get>"), log.all, "nothing else of the COG runs while it is blocked in get")
    latch ! (_.open(4))
    ping.join()
    assertEquals(5, f.join())
    assertEquals(List("get>", "now 7", "get>", "<get", "ping"), log.all)
  }

  @Test def getValueRaisesAFailureAtOnceOrAtWakeUpAndReportsWhereItBlocks(): Unit = {
    val m = rt.spawn(new Points(new Log))
    val t = rt.spawn(new Thrower(new Log))
    val boom = t.send("boom")(call((_, _) => throw new Boom("in the callee")))
    assertThrows(classOf[CallFailedException], () => boom.join(): Unit)
    // Already failed: raised at once, in the frame code; the failure names where it came from.
    val e = assertThrows(classOf[CallFailedException], () => points(m, "getFailed")(_.getPlusOne(_, boom)).join(): Unit)
    assertTrue(e.getCause.isInstanceOf[Boom], String.valueOf(e.getCause))
    assertTrue(e.origin.contains("Thrower.boom") && e.origin.contains("via Points.getFailed"), e.origin)
    // Failing while the COG is blocked: raised when the process goes on.
    val latch: Latch = rt.spawn(new LatchImpl)
    val later = t.send("boomLater")(call((p, _) => {
      p.awaitFut(latch.send("waitOpen")(_.waitOpen()))
      p.suspendedIn(new Thrower.ThrowAfter(new Log))
    }))
    val g = points(m, "getLater")(_.getPlusOne(_, later))
    rt.awaitQuiescence()
    assertFalse(g.isResolved)
    latch ! (_.open(1))
    val e2 = assertThrows(classOf[CallFailedException], () => g.join(): Unit)
    assertTrue(e2.getCause.isInstanceOf[Boom] && e2.origin.contains("via Points.getLater"), e2.origin)
    // Never resolved: the deadlock report names the get's ABS position.
    val never: Latch = rt.spawn(new LatchImpl)
    points(m, "stuck")(_.getPlusOne(_, never.send("waitOpen")(_.waitOpen())))
    rt.awaitQuiescence()
    val report = rt.deadlockReport().mkString("\n")
    assertTrue(report.contains("Points.stuck") && report.contains("at points.abs:3:5"), report)
  }

  @Test def awaitResolvedGoesOnAtOnceWhenResolvedAndResumesOtherwise(): Unit = {
    val log = new Log
    val m = rt.spawn(new Points(log))
    assertEquals(0, points(m, "claim")(_.awaitClaim(_, Fut.successful(1))).join())
    val latch: Latch = rt.spawn(new LatchImpl)
    val f = points(m, "claim")(_.awaitClaim(_, latch.send("waitOpen")(_.waitOpen())))
    // Suspended, not blocked: the COG runs the others meanwhile.
    points(m, "ping")(_.ping(_)).join()
    assertFalse(f.isResolved)
    latch ! (_.open(1))
    assertEquals(0, f.join())
    assertEquals(List("now ()", "ping", "resumed"), log.all)
  }

  @Test def awaitUntilGoesOnAtOnceWhenItHoldsAndReevaluatesTheConditionAtWakeUp(): Unit = {
    val log = new Log
    val m = rt.spawn(new Points(log))
    points(m, "set")(_.set(_, 5)).join()
    assertEquals(5, points(m, "holds")(_.awaitAtLeast(_, 3)).join())
    assertEquals(List("now ()"), log.all)
    assertEquals(1, m.evaluations, "a guard that holds is evaluated once")
    val f = points(m, "waits")(_.awaitAtLeast(_, 7))
    points(m, "set")(_.set(_, 6)).join()
    rt.awaitQuiescence()
    assertFalse(f.isResolved, "6 < 7")
    val before = m.evaluations
    assertTrue(before >= 3, s"evaluated at the await, before parking and after the state changed: $before")
    points(m, "set")(_.set(_, 9)).join()
    assertEquals(9, f.join())
    assertTrue(m.evaluations > before)
    assertEquals(List("now ()"), log.all)
  }
}
