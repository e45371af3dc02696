package cogs.runtime

import cogs.runtime.internal.{Frame, FrameCall}

import java.util.function.{Function => JFunction, IntFunction, Supplier}
import scala.util.control.ControlThrowable

/**
 * A description of (the rest of) a process: plain data that the COG interprets.
 *
 * Every scheduling point of ABS is a node: [[Proc.await]] (`await f?`, `await b`, `await g1 & g2`),
 * [[Proc.suspend]], [[Fut.get]] and [[Proc.sync]] (a synchronous call, which may suspend
 * inside the callee). Whatever comes after a scheduling point is a function stored in a
 * `flatMap` node: that is the continuation, kept on the heap, never on a thread's stack.
 *
 * The interpreter is a trampoline with an explicit continuation stack, so
 *  - a chain of synchronous calls that suspends at its bottom suspends as a whole and resumes in
 *    order (the stack is data in the process),
 *  - synchronous recursion a million calls deep does not overflow the JVM stack, provided each
 *    call is delayed ([[Proc.defer]]) rather than evaluated while building the caller,
 *  - a loop with an `await` in its body ([[Proc.loopWhile]], or `flatMap` in tail position)
 *    runs in constant stack and heap.
 *
 * Build processes with the constructors of the companion (`Proc.done(x)`, `Proc.await(f)`,
 * `p.flatMap(..)`, for-comprehensions). Java code uses `cogs.javadsl.Proc`, whose values are the
 * same objects (every node below also implements it), so crossing between the two is a cast.
 *
 * When code runs: the body of a method runs when its process starts (for an asynchronous call,
 * on the callee's COG); the `Proc` it returns is the rest, run step by step. Side effects written
 * directly in the body (sends, field updates) happen at once; those inside `delay`, `map`,
 * `flatMap` happen when the process reaches them.
 */
sealed abstract class Proc[+A] {
  private[runtime] def tag: Int

  /** Sequential composition: run this, then `f` of its result. */
  final def flatMap[B](f: A => Proc[B]): Proc[B] = new Proc.Bind(this, f)

  final def map[B](f: A => B): Proc[B] = new Proc.Map(this, f)

  /** Run this, drop its result, then run `next`. */
  final def >>[B](next: => Proc[B]): Proc[B] = new Proc.Bind[A, B](this, _ => next)

  /** Same as `>>`, but `next` is already built. */
  final def andThen[B](next: Proc[B]): Proc[B] = new Proc.Bind[A, B](this, _ => next)

  /** Replace the result. */
  final def as[B](b: B): Proc[B] = new Proc.Map[A, B](this, _ => b)

  final def void: Proc[Unit] = as(())

  /** try/catch: exceptions matched by `pf` are handled by the process it returns. */
  final def recoverWith[B >: A](pf: PartialFunction[Throwable, Proc[B]]): Proc[B] =
    new Proc.Handle[B](this, e => if (pf.isDefinedAt(e)) pf(e) else new Proc.Raise(e))

  final def recover[B >: A](pf: PartialFunction[Throwable, B]): Proc[B] =
    recoverWith(pf.andThen(b => new Proc.Pure(b)))

  /** try/finally: `finalizer` runs whether this completes or fails (and then the failure goes on). */
  final def guarantee(finalizer: => Proc[Unit]): Proc[A] = new Proc.Ensure(this, () => finalizer)
}

object Proc {
  private[runtime] final val PURE = 0
  private[runtime] final val DELAY = 1
  private[runtime] final val DEFER = 2
  private[runtime] final val BIND = 3
  private[runtime] final val MAP = 4
  private[runtime] final val RAISE = 5
  private[runtime] final val AWAIT = 6
  private[runtime] final val AWAIT_FUT = 7
  private[runtime] final val SUSPEND = 8
  private[runtime] final val GET = 9
  private[runtime] final val SYNC = 10
  private[runtime] final val HANDLE = 11
  private[runtime] final val ENSURE = 12
  private[runtime] final val JMAP = 13
  private[runtime] final val CALL = 14
  private[runtime] final val AWAIT_TIME = 15
  private[runtime] final val BLOCK_TIME = 16

  /**
   * Every node of a process is also a `cogs.javadsl.Proc`, so a process built in Java and one
   * built in Scala are the same object (a cast, no wrapper). The Java methods live only here:
   * Scala code sees the static type `Proc`, which does not have them. Invariant in `A` because
   * the Java interface is.
   */
  private[runtime] sealed abstract class Node[A] extends Proc[A] with cogs.javadsl.Proc[A] {
    final def flatMap[B](f: JFunction[_ >: A, _ <: cogs.javadsl.Proc[B]]): cogs.javadsl.Proc[B] =
      new Bind[A, B](this, a => JavaSupport.proc(f.apply(a)))
    // Its own node, not a Map around a Scala wrapper of `f`: one allocation per `map` instead of two.
    final def map[B](f: JFunction[_ >: A, _ <: B]): cogs.javadsl.Proc[B] = new JMap[A, B](this, f)
    final def andThen[B](next: cogs.javadsl.Proc[B]): cogs.javadsl.Proc[B] = {
      val n = JavaSupport.proc(next)
      new Bind[A, B](this, _ => n)
    }
    final def recoverWith(handler: JFunction[_ >: Throwable, _ <: cogs.javadsl.Proc[A]]): cogs.javadsl.Proc[A] =
      new Handle[A](this, e => JavaSupport.proc(handler.apply(e)))
    final def recover(handler: JFunction[_ >: Throwable, _ <: A]): cogs.javadsl.Proc[A] =
      new Handle[A](this, e => new Pure[A](handler.apply(e)))
    final def guarantee(finalizer: Supplier[_ <: cogs.javadsl.Proc[_]]): cogs.javadsl.Proc[A] =
      new Ensure[A](this, () => JavaSupport.procAny(finalizer.get()).asInstanceOf[Proc[Unit]])
  }

  private[runtime] final class Pure[A](val value: A) extends Node[A] { def tag = PURE }
  private[runtime] final class Delay[A](val thunk: () => A) extends Node[A] { def tag = DELAY }
  private[runtime] final class Defer[A](val thunk: () => Proc[A]) extends Node[A] { def tag = DEFER }
  private[runtime] final class Bind[A, B](val source: Proc[A], val f: A => Proc[B]) extends Node[B] { def tag = BIND }
  private[runtime] final class Map[A, B](val source: Proc[A], val f: A => B) extends Node[B] { def tag = MAP }
  /** `map` from the Java DSL: the same step as [[Map]], with the Java function kept as it is. */
  private[runtime] final class JMap[A, B](val source: Proc[A], val f: JFunction[_ >: A, _ <: B]) extends Node[B] { def tag = JMAP }
  private[runtime] final class Raise(val error: Throwable) extends Node[Nothing] { def tag = RAISE }
  private[runtime] final class Await(val guard: Guard) extends Node[Unit] { def tag = AWAIT }
  private[runtime] final class AwaitFut[A](val fut: Fut[_ <: A]) extends Node[A] { def tag = AWAIT_FUT }
  private[runtime] object Suspend extends Node[Unit] { def tag = SUSPEND }
  private[runtime] class Get[A](val fut: Fut[_ <: A]) extends Node[A] {
    def tag = GET
    /** Where the `get` is in the program (`f.abs:12:5`), for deadlock reports; null if not known. */
    def at: String = null
  }
  /** A [[Get]] that knows its place: a subclass, so that a plain `get` stays 16 bytes. */
  private[runtime] final class GetAt[A](fut: Fut[_ <: A], override val at: String) extends Get[A](fut)
  /**
   * A synchronous call. `call` is the Scala function of the call, or null when it came from the
   * Java DSL: then `jcall` is the Java function, kept as it is (no wrapper allocated per call).
   */
  private[runtime] final class Sync[T <: Active, A](
      val target: T,
      val label: String,
      val call: T => Proc[A],
      val jcall: JFunction[_ >: T, _ <: cogs.javadsl.Proc[A]]
  ) extends Node[A] {
    def this(target: T, label: String, call: T => Proc[A]) = this(target, label, call, null)
    def tag = SYNC
    /** Run the call on `t` (this COG's object): the callee's process. */
    def callOn(t: T): Proc[A] = if (call ne null) call(t) else JavaSupport.proc(jcall.apply(t))
    /** The call as a Scala function, for sending it to another COG. */
    def asFunction: T => Proc[A] = if (call ne null) call else t => JavaSupport.proc(jcall.apply(t))
  }
  private[runtime] final class Handle[A](val source: Proc[A], val handler: Throwable => Proc[A]) extends Node[A] { def tag = HANDLE }
  private[runtime] final class Ensure[A](val source: Proc[A], val finalizer: () => Proc[Unit]) extends Node[A] { def tag = ENSURE }

  /** A call of a method in frame form ([[FrameCall]]) on `target`, run by the slice loop. */
  private[runtime] final class CallFrames(val target: Active, val call: FrameCall) extends Node[Any] { def tag = CALL }

  /**
   * `await duration(min, max)`: one node, and no future. The process waits in the clock itself
   * (SimClock.sleep, through its side object); while it waits, the node is also its guard
   * (`Process.guard`), which the COG recognises (Cog.checkGuard, Cog.parkTime) and reports. The
   * node is immutable: what belongs to one wait is in the process, so a node may be shared.
   * Whole durations that fit in a long (nearly all) are kept as longs, and the `SimTime`s they were
   * given in are not kept alive by a waiting process (`exact` null); others are kept as they are.
   */
  private[runtime] final class AwaitTime private (val minUnits: Long, val maxUnits: Long, exactMin: SimTime, exactMax: SimTime)
      extends Node[Unit] with Guard {
    def tag = AWAIT_TIME
    def whole: Boolean = exactMin eq null
    def min: SimTime = if (exactMin eq null) SimTime.of(minUnits) else exactMin
    def max: SimTime = if (exactMax eq null) SimTime.of(maxUnits) else exactMax
    def positive: Boolean = if (exactMin eq null) minUnits > 0 else exactMin.signum > 0
    // As a guard, only the COG looks at it, through the process (checkGuard never calls `enabled`).
    private[runtime] def enabled: Boolean = throw new IllegalStateException("a time wait is checked through its process")
    private[runtime] def hasCondition = false
    private[runtime] def hasFutures = false
    private[runtime] def isSimple = false
    private[runtime] def firstPending: Fut[_] = null
    private[runtime] def pendingFutures(acc: List[Fut[_]]): List[Fut[_]] = acc
    override def toString: String = s"duration($min, $max)"
  }
  private[runtime] object AwaitTime {
    private def fits(t: SimTime): Boolean = t.isWhole && t.numerator.bitLength <= 63
    def apply(min: SimTime, max: SimTime): AwaitTime =
      if (fits(min) && fits(max)) whole(min.numerator.longValue, max.numerator.longValue)
      else new AwaitTime(0L, 0L, min, max)

    // The nodes of the whole durations used last, shared: a model waits the same few durations
    // again and again, and a waiting process keeps its node (its guard) alive, so a node per
    // wait was 40 of its bytes. Racy on purpose: a node's fields are final, so a thread that
    // reads another's node from a slot sees it whole (JLS 17.5); a lost write costs a node.
    private[this] val shared = new Array[AwaitTime](64)

    /** The node of `await duration(min, max)` in whole units. */
    def whole(min: Long, max: Long): AwaitTime = {
      val i = java.lang.Long.hashCode(min * 31 + max) & (shared.length - 1)
      val n = shared(i)
      if ((n ne null) && n.minUnits == min && n.maxUnits == max) n
      else { val m = new AwaitTime(min, max, null, null); shared(i) = m; m }
    }
  }
  /** `duration(min, max)`: one node; it blocks the COG on a time future of the clock (rare: no batch path). */
  private[runtime] final class BlockTime(val min: SimTime, val max: SimTime) extends Node[Unit] { def tag = BLOCK_TIME }

  private[runtime] val UnitPure: Proc[Unit] = new Pure(())

  /**
   * A synchronous call, from `Proc` code, of a method in frame form (for code generators; see
   * [[Frame]]): `Proc.sync(o)(t => Proc.frames(t, call))` on an object of this COG runs it as part
   * of this process; if it suspends, its frames and the caller's nodes suspend together.
   */
  private[runtime] def frames[A](target: Active, call: FrameCall): Proc[A] = new CallFrames(target, call).asInstanceOf[Proc[A]]

  /** A finished process with result `a` (ABS `return a`). */
  def done[A](a: A): Proc[A] = new Pure(a)

  /** The finished process with no result. */
  val unit: Proc[Unit] = UnitPure

  /** Run `a` when the process reaches this point (not when the `Proc` is built). */
  def delay[A](a: => A): Proc[A] = new Delay(() => a)

  /**
   * Build the process when it is reached. Wrap the body of a method that calls itself
   * synchronously in `defer`, so that deep recursion runs on the process's heap stack.
   */
  def defer[A](p: => Proc[A]): Proc[A] = new Defer(() => p)

  /** A failed process (ABS `throw e`). */
  def raise[A](e: Throwable): Proc[A] = new Raise(e)

  /** ABS `await g`: suspend until the guard holds; the COG may run other processes meanwhile. */
  def await(g: Guard): Proc[Unit] = new Await(g)

  /** ABS `await b` for a condition over the object's state. */
  def awaitUntil(cond: => Boolean): Proc[Unit] = new Await(Guard.cond(cond))

  /** ABS `await f?` and then the value of `f` (its failure is raised in this process). */
  def await[A](f: Fut[A]): Proc[A] = new AwaitFut(f)

  /**
   * ABS `await f?` alone: wait until `f` is resolved, with a value or a failure, and do not read
   * it (a failure is not raised). The same as `await(f: Guard)`, under a name that does not depend
   * on the static type of its argument.
   */
  def awaitResolved(f: Fut[_]): Proc[Unit] = new Await(f)

  /**
   * Timed ABS `await duration(min, max)`: suspend this process (the COG may run others) until the
   * simulated clock has advanced by at least `min`; the clock advances by at most `max` before
   * the process may run again (see [[CogRuntime.now]]).
   */
  def awaitDuration(min: SimTime, max: SimTime): Proc[Unit] =
    AwaitTime(java.util.Objects.requireNonNull(min, "min"), java.util.Objects.requireNonNull(max, "max"))

  /** `awaitDuration(d, d)`. */
  def awaitDuration(d: SimTime): Proc[Unit] = awaitDuration(d, d)

  /** [[awaitDuration]] in whole time units (no `SimTime` to build: what absc calls for `Int` durations). */
  def awaitDuration(minUnits: Long, maxUnits: Long): Proc[Unit] = AwaitTime.whole(minUnits, maxUnits)

  /**
   * Timed ABS `duration(min, max)`: block this process's COG (nothing else of it runs, no thread
   * is held) for that much simulated time. Time passes only when nothing else can run.
   */
  def duration(min: SimTime, max: SimTime): Proc[Unit] =
    new BlockTime(java.util.Objects.requireNonNull(min, "min"), java.util.Objects.requireNonNull(max, "max"))

  /** `duration(d, d)`. */
  def duration(d: SimTime): Proc[Unit] = duration(d, d)

  /** ABS `suspend`: let the COG run other enabled processes, then continue. */
  val suspend: Proc[Unit] = Suspend

  /** ABS `f.get`: blocks this process's COG (not a thread) until `f` is resolved. */
  def get[A](f: Fut[A]): Proc[A] = new Get(f)

  /**
   * ABS synchronous call `o.m(..)`: in the caller's COG the callee runs at once, as part of this
   * process (if it suspends, the whole stack suspends); in another COG it is `(o ! m).get`.
   */
  def sync[T <: Active, A](target: T)(call: T => Proc[A]): Proc[A] = new Sync(target, null, call)

  /** `sync` with the method's name, for reports. */
  def sync[T <: Active, A](target: T, method: String)(call: T => Proc[A]): Proc[A] = new Sync(target, method, call)

  /**
   * The value of a process that finishes without reaching a scheduling point, computed now on
   * this thread: `Proc.now(this.m(x))` is a synchronous call of a method known not to suspend.
   * A failure is thrown; a process that would suspend is an error of the caller.
   */
  def now[A](p: Proc[A]): A = p.tag match {
    case PURE  => p.asInstanceOf[Pure[A]].value
    case DELAY => p.asInstanceOf[Delay[A]].thunk()
    case RAISE => throw p.asInstanceOf[Raise].error
    case DEFER => now(p.asInstanceOf[Defer[A]].thunk())
    case MAP   => val m = p.asInstanceOf[Map[Any, A]]; m.f(now(m.source))
    case JMAP  => val m = p.asInstanceOf[JMap[Any, A]]; m.f.apply(now(m.source))
    case BIND  => val b = p.asInstanceOf[Bind[Any, A]]; now(b.f(now(b.source)))
    case HANDLE =>
      val h = p.asInstanceOf[Handle[A]]
      // Here a ControlThrowable is legitimate (its method is still on the stack): not caught.
      try now(h.source) catch { case e: Throwable if !Cog.isFatal(e) && !e.isInstanceOf[ControlThrowable] => now(h.handler(e)) }
    case ENSURE =>
      val en = p.asInstanceOf[Ensure[A]]
      try now(en.source) finally now(en.finalizer())
    case CALL  => nowFrames(p.asInstanceOf[CallFrames])
    case _     => throw new IllegalStateException("Proc.now: this process reaches a scheduling point")
  }

  /**
   * A method in frame form run to its value on the JVM stack, in the running process (its frame
   * code needs one, for nested calls and, were it to suspend, for the scheduling point). One that
   * reaches a scheduling point is refused as any other `Proc` is here; what it linked on the
   * process on the way out is undone first, so the process goes on as it was.
   */
  private def nowFrames[A](c: CallFrames): A = {
    val cog = Cog.current()
    val p = if (cog eq null) null else cog.running
    if (p eq null) throw new IllegalStateException("Proc.now: a method in frame form runs only inside a process")
    val base = p.depth
    val r = try c.call.run(p, c.target) catch { case e: Throwable => p.dropTo(base); throw e }
    if (r.asInstanceOf[AnyRef] eq Frame.Suspended) {
      p.dropTo(base)
      p.current = null
      throw new IllegalStateException("Proc.now: this process reaches a scheduling point")
    }
    r.asInstanceOf[A]
  }

  /** ABS `destiny`: the future that the running process will resolve. */
  val destiny: Proc[Fut[Any]] = new Delay(() => {
    val c = Cog.current()
    if ((c eq null) || (c.running eq null)) throw new IllegalStateException("destiny is only defined inside a process")
    c.running.destiny
  })

  // The loops bind the body's result as Any, not Unit: a Unit-typed lambda would cast it to
  // BoxedUnit, and the Java DSL hands in bodies with any value (their values are dropped).

  /** `while (cond) body` with any scheduling points in `body`, in constant memory. */
  def loopWhile(cond: => Boolean)(body: => Proc[Unit]): Proc[Unit] = {
    // A body that reaches no scheduling point runs all iterations in one slice: Cogs.stopPoint
    // lets a stopped runtime end it.
    lazy val loop: Proc[Unit] = new Defer(() => { Cogs.stopPoint(); if (cond) new Bind[Any, Unit](body, _ => loop) else UnitPure })
    loop
  }

  /** Run `body(i)` for i in 0 until n, in order, in constant memory. */
  def repeat(n: Int)(body: Int => Proc[Unit]): Proc[Unit] =
    repeatInts(n, (i: Int) => body(i))

  // The loop of `repeat` (and of the Java DSL's, which hands in its IntFunction as is, so that
  // the index is not boxed). An iteration costs one Bind besides what the body allocates; the step
  // of the loop before (a Defer, a Bind and two closures per iteration) cost about 100 bytes.
  private[runtime] def repeatInts(n: Int, body: IntFunction[_ <: Proc[Any]]): Proc[Unit] =
    if (n <= 0) UnitPure
    // The counter is made when the loop starts, not here: a Proc is a description that may run
    // any number of times, in any number of processes, and each run needs its own count.
    else new Defer(() => new Repeat(n, body).next())

  /**
   * The running state of one `repeat`: the next index, and itself as the Bind's continuation. Only
   * the interpreter of the one process that runs this loop touches it, so the plain counter needs no
   * hand-off (a process moves between threads only through its COG, with release/acquire order).
   */
  private final class Repeat(n: Int, body: IntFunction[_ <: Proc[Any]]) extends (Any => Proc[Unit]) {
    private[this] var i = 0
    def next(): Proc[Unit] =
      if (i >= n) UnitPure
      else { val k = i; i = k + 1; new Bind[Any, Unit](body.apply(k), this) }
    def apply(previous: Any): Proc[Unit] = next()
  }

  /** Run `body(x)` for each element, in order (ABS `foreach`). */
  def foreach[X](xs: Iterable[X])(body: X => Proc[Unit]): Proc[Unit] = {
    val it = xs.iterator
    lazy val loop: Proc[Unit] = new Defer(() => if (it.hasNext) new Bind[Any, Unit](body(it.next()), _ => loop) else UnitPure)
    loop
  }

  /** Await every future in order and give their values (a failure is raised at the first failed one). */
  def awaitAll[A](futs: Iterable[Fut[A]]): Proc[List[A]] = {
    val it = futs.iterator
    val acc = List.newBuilder[A]
    lazy val loop: Proc[List[A]] =
      new Defer(() => if (it.hasNext) new Bind[A, List[A]](new AwaitFut(it.next()), a => { acc += a; loop }) else new Pure(acc.result()))
    loop
  }

  private[runtime] def safely[A](thunk: () => Proc[A]): Proc[A] =
    try thunk()
    catch { case e: Throwable => Cog.raised(e) }
}
