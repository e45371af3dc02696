package cogs.trace

import cogs.runtime._
import cogs.trace.TraceEvent._
import java.util.concurrent.ConcurrentLinkedQueue
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.jdk.CollectionConverters._

object TracingTest {
  /** Records every event in arrival order; observes the given classes (all when empty). */
  final class Recorder(classes: Set[String] = Set.empty, methods: Set[String] = Set.empty, stamps: Boolean = true) extends Tracing with Tracer {
    override def timestamps: Boolean = stamps
    val events = new ConcurrentLinkedQueue[TraceEvent]()
    @volatile var closed = false
    def observes(cls: String): Boolean = classes.isEmpty || classes(cls)
    def tracerFor(obj: ObjRef, creator: ObjRef, creatorTracer: Tracer): Tracer = this
    override def observesMethod(cls: String, method: String): Boolean = methods.isEmpty || methods(s"$cls.$method")
    def event(e: TraceEvent): Unit = events.add(e)
    override def close(): Unit = closed = true
    def all: List[TraceEvent] = events.asScala.toList
    def of(cls: String): List[TraceEvent] = all.filter(_.obj.cls == cls)
  }

  trait Server extends Active {
    def work(x: Int): Proc[Int]
    def slow(x: Int): Proc[Int]
    def boom(): Proc[Int]
    def open(): Proc[Unit]
    def gated(): Proc[Unit]
  }

  final class ServerImpl extends ActiveObject with Server {
    private var isOpen = false
    def work(x: Int): Proc[Int] = Proc.delay { Cogs.emit("worked", x); x * 2 }
    def slow(x: Int): Proc[Int] = {
      val f = this.send("work")(_.work(x))
      Proc.await(f).map(_ + 1)
    }
    def boom(): Proc[Int] = Proc.delay(throw new IllegalStateException("boom"))
    def open(): Proc[Unit] = Proc.delay { isOpen = true }
    def gated(): Proc[Unit] = Proc.awaitUntil(isOpen)
  }

  trait Client extends Active { def go(s: Server): Proc[Int] }
  final class ClientImpl extends ActiveObject with Client {
    def go(s: Server): Proc[Int] = {
      val f = Cogs.sendWithArgs(s, "work", List(21), (x: Server) => x.work(21))
      f.get
    }
  }

  /** Per object, the sequence numbers must be 1, 2, 3, ... in the order the events arrived. */
  def assertSound(events: Iterable[TraceEvent]): Unit =
    events.groupBy(_.obj).foreach { case (o, es) =>
      assertEquals((1L to es.size.toLong).toList, es.map(_.seq).toList, s"sequence numbers of $o")
    }
}

class TracingTest {
  import TracingTest._

  @Test def eventsCarryTimesUnlessTheTracingAsksForNone(): Unit = {
    def trace(stamps: Boolean): List[TraceEvent] = {
      val rec = new Recorder(stamps = stamps)
      val rt = CogRuntime.withTracing(rec)
      try rt.run { val s: Server = Cogs.spawn(new ServerImpl); s.send("slow")(_.slow(1)).await }
      finally rt.close()
      rec.all
    }
    val timed = trace(stamps = true)
    val untimed = trace(stamps = false)
    assertTrue(timed.nonEmpty && timed.forall(_.nanos != 0L), timed.mkString("\n"))
    assertTrue(untimed.forall(_.nanos == 0L), untimed.mkString("\n"))
    // Everything but the time is the same: kinds, methods and numbering.
    def shape(es: List[TraceEvent]) = es.map(e => (e.getClass.getSimpleName, e.obj.cls, e.seq)).sortBy(_.toString)
    assertEquals(shape(timed), shape(untimed))
  }

  @Test def aProcessEmitsStartedSuspendedResumedCompletedAndItsFutureResolved(): Unit = {
    val rec = new Recorder
    val rt = CogRuntime.withTracing(rec)
    try {
      val v = rt.run {
        val s: Server = Cogs.spawn(new ServerImpl)
        s.send("slow")(_.slow(1)).await
      }
      assertEquals(3, v)
      val server = rec.of("ServerImpl")
      val kinds = server.map(_.getClass.getSimpleName)
      // slow starts, calls work on itself and suspends on it; work runs (with a user event) and
      // completes; slow resumes and completes.
      assertEquals(List("Started", "CallSent", "Suspended", "Started", "User", "Completed", "FutureResolved",
        "Resumed", "Completed", "FutureResolved"), kinds)
      val started = server.collect { case s: Started => s }
      assertEquals(List("slow", "work"), started.map(_.method))
      val susp = server.collect { case s: Suspended => s }.head
      assertEquals(s"${started(1).fut}?", susp.guard)
      val done = server.collect { case c: Completed => c }
      assertEquals(List(2, 3), done.map(_.value))
      assertTrue(done.forall(!_.failed))
      val user = server.collect { case u: User => u }.head
      assertEquals(("worked", List(1)), (user.name, user.payload.toList))
      // the main block created the server and called it
      val main = rec.all.filter(e => e.obj.cls == "main")
      assertTrue(main.exists { case c: Created => c.child.cls == "ServerImpl" && c.newCog; case _ => false }, main.toString)
      assertTrue(main.exists { case c: CallSent => c.method == "slow" && (c.callee eq server.head.obj); case _ => false })
      assertSound(rec.all)
    } finally rt.close()
    assertTrue(rec.closed, "the runtime closes its tracing")
  }

  @Test def argumentsGetsFailuresAndConditionGuardsAreTraced(): Unit = {
    val rec = new Recorder
    val rt = CogRuntime.withTracing(rec)
    try {
      rt.run {
        val s: Server = Cogs.spawn(new ServerImpl)
        val c: Client = Cogs.spawn(new ClientImpl)
        val g = s.send("gated")(_.gated())
        val b = s.send("boom")(_.boom())
        for {
          _ <- c.send("go")(_.go(s)).await
          _ <- s.send("open")(_.open()).await
          _ <- g.await
          r <- b.await.map(_ => "no failure").recover { case e: IllegalStateException => e.getMessage }
        } yield r
      }
      val all = rec.all
      val call = all.collect { case c: CallSent if c.obj.cls == "ClientImpl" => c }.head
      assertEquals(List(21), call.args.toList)
      val get = all.collect { case g: Get => g }.head
      assertEquals(call.fut, get.fut)
      assertEquals("ClientImpl", get.obj.cls)
      assertTrue(all.exists { case s: Suspended => s.method == "gated" && s.guard == "a condition"; case _ => false },
        all.collect { case s: Suspended => s }.toString)
      assertTrue(all.exists { case s: Suspended => s.method == "go" && s.guard == s"get ${call.fut}"; case _ => false })
      val failed = all.collect { case c: Completed if c.method == "boom" => c }.head
      assertTrue(failed.failed)
      assertEquals("boom", failed.failure.getMessage)
      assertTrue(all.exists { case r: FutureResolved => r.fut == failed.fut && r.failure != null; case _ => false })
      assertSound(all)
    } finally rt.close()
  }

  @Test def aOneWayCallsEventsCarryNoFuture(): Unit = {
    val rec = new Recorder
    val rt = CogRuntime.withTracing(rec)
    try {
      rt.run {
        val s: Server = Cogs.spawn(new ServerImpl)
        Cogs.tellWithArgs(s, "work", List(4), (x: Server) => x.work(4))
        Cogs.tell(s, "slow", (x: Server) => x.slow(1))
        s.send("open")(_.open()).await
      }
      val all = rec.all
      val sent = all.collect { case c: CallSent if c.method == "work" && c.obj.cls == "main" => c }
      assertEquals(1, sent.size, all.toString)
      assertEquals(null, sent.head.fut)
      assertEquals(List(4), sent.head.args.toList)
      val work = all.filter { case e: Started => e.method == "work"; case e: Completed => e.method == "work"; case _ => false }
      // Two processes of work: the one-way call and the (normal) call slow makes.
      assertEquals(4, work.size, work.toString)
      val oneWay = all.collect { case e: Started if e.method == "slow" => e }.head
      assertEquals(null, oneWay.fut)
      val slowEvents = all.collect {
        case e: Suspended if e.method == "slow" => e.fut
        case e: Resumed if e.method == "slow"   => e.fut
        case e: Completed if e.method == "slow" => e.fut
      }
      assertEquals(List(null, null, null), slowEvents)
      // A one-way call resolves no future: FutureResolved only for the calls with one.
      val resolved = all.collect { case r: FutureResolved => r.fut }
      assertFalse(resolved.contains(null))
      assertEquals(all.collect { case c: Completed if c.fut != null => c.fut }.toSet, resolved.toSet)
      assertSound(all)
    } finally rt.close()
  }

  @Test def onlyObservedClassesAndMethodsEmit(): Unit = {
    val rec = new Recorder(classes = Set("ServerImpl"), methods = Set("ServerImpl.work"))
    val rt = CogRuntime.withTracing(rec)
    try {
      rt.run {
        val s: Server = Cogs.spawn(new ServerImpl)
        s.send("slow")(_.slow(5)).await
      }
      val all = rec.all
      assertTrue(all.forall(_.obj.cls == "ServerImpl"), all.toString)
      // slow is not observed: no process events of it; its call to work is still a CallSent
      assertEquals(List("CallSent", "Started", "User", "Completed", "FutureResolved"), all.map(_.getClass.getSimpleName))
      assertSound(all)
    } finally rt.close()
  }

  /** Each object gets its own tracer, and records what `tracerFor` was told about the creator. */
  final class PerObject extends Tracing {
    val asked = new ConcurrentLinkedQueue[(ObjRef, ObjRef, Tracer)]()
    val tracers = new java.util.concurrent.ConcurrentHashMap[ObjRef, Tracer]()
    def observes(cls: String): Boolean = cls != ObjRef.OutsideClass
    def tracerFor(obj: ObjRef, creator: ObjRef, creatorTracer: Tracer): Tracer = {
      asked.add((obj, creator, creatorTracer))
      val t: Tracer = _ => ()
      tracers.put(obj, t)
      t
    }
  }

  trait Maker extends Active { def make(): Proc[Unit] }
  final class MakerImpl extends ActiveObject with Maker {
    def make(): Proc[Unit] = Proc.delay { Cogs.spawn(new ServerImpl); () }
  }

  @Test def tracerForIsGivenTheCreatorAndTheTracerChosenForIt(): Unit = {
    val t = new PerObject
    val rt = CogRuntime.withTracing(t)
    try {
      val m: Maker = rt.spawn(new MakerImpl)
      m.send("make")(_.make()).join()
      val asked = t.asked.asScala.toList
      assertEquals(List("MakerImpl", "ServerImpl"), asked.map(_._1.cls))
      val (maker, c0, t0) = asked.head
      assertNull(c0) // created outside every process, which is not traced here
      assertNull(t0)
      val (_, creator, creatorTracer) = asked(1)
      assertSame(maker, creator)
      assertSame(t.tracers.get(maker), creatorTracer)
    } finally rt.close()
  }

  @Test def callsFromOutsideAreAttributedToOutside(): Unit = {
    val rec = new Recorder
    val rt = CogRuntime.withTracing(rec)
    try {
      val s: Server = rt.spawn(new ServerImpl)
      assertEquals(8, s.send("work")(_.work(4)).join())
      rt.awaitQuiescence()
      assertTrue(rt.emit("done"))
      val out = rec.all.filter(_.obj.cls == ObjRef.OutsideClass)
      assertEquals(List("Created", "CallSent", "User"), out.map(_.getClass.getSimpleName))
      assertSound(rec.all)
    } finally rt.close()
  }

  @Test def withoutTracingNothingIsTracedAndEmitIsANoOp(): Unit = {
    val rt = CogRuntime()
    try {
      val emitted = rt.run {
        val s: Server = Cogs.spawn(new ServerImpl)
        s.send("work")(_.work(1)).await.map(_ => Cogs.emit("x"))
      }
      assertFalse(emitted)
    } finally rt.close()
  }
}
