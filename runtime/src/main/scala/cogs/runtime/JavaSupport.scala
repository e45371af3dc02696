package cogs.runtime

import cogs.javadsl
import java.util.function.{BooleanSupplier, IntFunction, Supplier, Function => JFunction}
import scala.jdk.CollectionConverters._

/**
 * What the Java DSL (`cogs.javadsl`, written in Java because its `Proc` and `Guard` are
 * interfaces with static factories) calls in the runtime: Scala code outside this package cannot
 * use it, Java code can (Scala's qualified access is not in the bytecode). It builds the same
 * nodes as the Scala constructors, from `java.util.function` types, without a by-name wrapper:
 * a Java process costs what the Scala one does.
 */
private[runtime] object JavaSupport {

  /** Every `javadsl.Proc` the runtime made is a `Proc` (see `Proc.Node`): a cast, checked for a clear error. */
  def proc[A](p: javadsl.Proc[A]): Proc[A] = p match {
    case q: Proc[A @unchecked] => q
    case null => throw new NullPointerException("a process is null (a method returned null instead of a Proc)")
    case other =>
      throw new IllegalArgumentException(
        s"${other.getClass.getName} implements cogs.javadsl.Proc itself: only processes built with Proc's factories can run")
  }

  /** [[proc]] of a process whose value is not read. */
  def procAny(p: javadsl.Proc[_]): Proc[Any] = proc(p.asInstanceOf[javadsl.Proc[Any]])

  /** Every `Proc` is a `Proc.Node`, which implements the Java interface. */
  def toJava[A](p: Proc[A]): javadsl.Proc[A] = p.asInstanceOf[javadsl.Proc[A]]

  def fut[A](f: javadsl.Fut[A]): Fut[A] = f match {
    case g: Fut[A @unchecked] => g
    case null => throw new NullPointerException("a future is null")
    case other => throw new IllegalArgumentException(s"${other.getClass.getName} is not a future of the runtime")
  }

  def guard(g: javadsl.Guard): Guard = g match {
    case h: Guard => h
    case null => throw new NullPointerException("a guard is null")
    case other => throw new IllegalArgumentException(s"${other.getClass.getName} is not a guard of the runtime (use Guard's factories)")
  }

  // ------------------------------------------------------------------ Proc
  def done[A](a: A): javadsl.Proc[A] = new Proc.Pure(a)
  def unit: javadsl.Proc[_] = toJava(Proc.UnitPure)
  def delay[A](a: Supplier[_ <: A]): javadsl.Proc[A] = new Proc.Delay[A](() => a.get())
  def defer[A](p: Supplier[_ <: javadsl.Proc[A]]): javadsl.Proc[A] = new Proc.Defer[A](() => proc(p.get()))
  def raise[A](e: Throwable): javadsl.Proc[A] = toJava(new Proc.Raise(e))
  def awaitGuard(g: javadsl.Guard): javadsl.Proc[_] = new Proc.Await(guard(g))
  def awaitFut[A](f: javadsl.Fut[A]): javadsl.Proc[A] = new Proc.AwaitFut[A](fut(f))
  def awaitResolved(f: javadsl.Fut[_]): javadsl.Proc[_] = new Proc.Await(fut(f))
  def suspend: javadsl.Proc[_] = Proc.Suspend
  def awaitDuration(min: SimTime, max: SimTime): javadsl.Proc[_] = toJava(Proc.awaitDuration(min, max))
  def awaitDuration(minUnits: Long, maxUnits: Long): javadsl.Proc[_] = toJava(Proc.awaitDuration(minUnits, maxUnits))
  def duration(min: SimTime, max: SimTime): javadsl.Proc[_] = toJava(Proc.duration(min, max))
  def cost(amount: SimTime): javadsl.Proc[_] = toJava(Cogs.cost(amount))
  def now: SimTime = Cogs.now
  def spawnOn[T <: ActiveObject](dc: DeploymentComponent, make: Supplier[T]): T = Cogs.spawnOn(dc)(make.get())
  def spawnOnIn[T <: ActiveObject](rt: CogRuntime, dc: DeploymentComponent, make: Supplier[T]): T = rt.spawnOn(dc)(make.get())
  def get[A](f: javadsl.Fut[A]): javadsl.Proc[A] = new Proc.Get[A](fut(f))

  def sync[T <: Active, A](target: T, method: String, call: JFunction[_ >: T, _ <: javadsl.Proc[A]]): javadsl.Proc[A] =
    new Proc.Sync[T, A](target, method, null, call)

  def loopWhile(cond: BooleanSupplier, body: Supplier[_ <: javadsl.Proc[_]]): javadsl.Proc[_] = {
    lazy val loop: Proc[Unit] =
      new Proc.Defer(() => if (cond.getAsBoolean) new Proc.Bind[Any, Unit](procAny(body.get()), _ => loop) else Proc.UnitPure)
    toJava(loop)
  }

  def repeat(n: Int, body: IntFunction[_ <: javadsl.Proc[_]]): javadsl.Proc[_] =
    // Erasure: the body's value is dropped by `repeat`'s Bind, so any process can stand for a Proc[Unit].
    toJava(Proc.repeatInts(n, (i: Int) => procAny(body.apply(i))))

  def foreach[X](xs: java.lang.Iterable[X], body: JFunction[_ >: X, _ <: javadsl.Proc[_]]): javadsl.Proc[_] =
    toJava(Proc.foreach(xs.asScala)(x => procAny(body.apply(x)).asInstanceOf[Proc[Unit]]))

  def awaitAll[A](futs: java.util.List[_ <: javadsl.Fut[A]]): javadsl.Proc[java.util.List[A]] =
    toJava(Proc.awaitAll(futs.asScala.map(f => fut[A](f))).map(_.asJava))

  // ------------------------------------------------------------------ Guard
  def cond(name: String, b: BooleanSupplier): javadsl.Guard = new Guard.Cond(() => b.getAsBoolean, name)
  def and(a: javadsl.Guard, b: javadsl.Guard): javadsl.Guard = guard(a) & guard(b)
  def or(a: javadsl.Guard, b: javadsl.Guard): javadsl.Guard = guard(a) | guard(b)
  def future(f: javadsl.Fut[_]): javadsl.Guard = fut(f)

  // ------------------------------------------------------------------ Cogs and CogRuntime
  def send[T <: Active, A](target: T, method: String, call: JFunction[_ >: T, _ <: javadsl.Proc[A]]): javadsl.Fut[A] =
    Cogs.send(target, method, (t: T) => proc(call.apply(t)))

  def tell[T <: Active](target: T, method: String, call: JFunction[_ >: T, _ <: javadsl.Proc[_]]): Unit =
    Cogs.tell(target, method, (t: T) => procAny(call.apply(t)))

  def spawn[T <: ActiveObject](make: Supplier[T]): T = Cogs.spawn(make.get())
  def spawnLocal[T <: ActiveObject](make: Supplier[T]): T = Cogs.spawnLocal(make.get())
  def spawnIn[T <: ActiveObject](rt: CogRuntime, make: Supplier[T]): T = rt.spawn(make.get())
  def spawnScheduledIn[T <: ActiveObject](rt: CogRuntime, policy: java.util.function.Function[T, SchedulingPolicy], make: Supplier[T]): T =
    rt.spawnScheduled((t: T) => policy.apply(t))(make.get())
  def run[A](rt: CogRuntime, main: Supplier[_ <: javadsl.Proc[A]]): A = rt.run(proc(main.get()))
  def destiny: javadsl.Fut[Any] = Cogs.destiny
  def emit(name: String, payload: Array[AnyRef]): Boolean = Cogs.emit(name, payload.toSeq: _*)
  def emitOutside(rt: CogRuntime, name: String, payload: Array[AnyRef]): Boolean = rt.emit(name, payload.toSeq: _*)
}
