package cogs.absc.lib

import cogs.runtime.{Active, Cogs, Fut, Proc, SimTime}

/**
 * Timed ABS on the runtime's simulated clock (`cogs.runtime.SimClock`): what absc emits for
 * `now()`, `deadline()`, `duration(..)`, `await duration(..)`, `[Cost: c]` and
 * `[Deadline: d] o!m(..)`. ABS times and durations are `Rat`s; the clock's are `SimTime`s, both
 * exact rationals.
 */
object AbsTime {

  def toSim(r: AbsRat): SimTime = SimTime.of(r.numerator.big, r.denominator.big)

  def fromSim(t: SimTime): AbsRat = AbsRat(AbsInt(t.numerator), AbsInt(t.denominator))

  /** ABS `now()`. */
  def now(): Time = Time(fromSim(Cogs.now))

  /** ABS `deadline()`: the time left until the running process's deadline, `InfDuration` if none. */
  def deadline(): Duration = Cogs.deadline match {
    case Some(d) => Duration.Duration(fromSim(d))
    case None    => InfDuration
  }

  /** The standard library's `lowlevelDeadline()`: the deadline's value, -1 if there is none. */
  def lowlevelDeadline(): AbsRat = Cogs.deadline.map(fromSim).getOrElse(AbsInt(-1))

  /** ABS `duration(min, max);`: blocks the COG. */
  def duration(min: AbsRat, max: AbsRat): Proc[Unit] = Proc.duration(toSim(min), toSim(max))

  /** ABS `await duration(min, max)` alone: the process waits in the clock (no future). */
  def awaitDuration(min: AbsRat, max: AbsRat): Proc[Unit] = min match {
    // Integer durations (nearly every model's): the runtime's shared node, no SimTime built.
    case a: AbsInt if a.isLong => max match {
      case b: AbsInt if b.isLong => Proc.awaitDuration(a.toLong, b.toLong)
      case _                     => Proc.awaitDuration(toSim(min), toSim(max))
    }
    case _ => Proc.awaitDuration(toSim(min), toSim(max))
  }

  /** ABS `await duration(min, max)` inside a guard (`g & duration(..)`): a future the clock resolves. */
  def timer(min: AbsRat, max: AbsRat): Fut[Unit] = Cogs.timer(toSim(min), toSim(max))

  /** ABS `[Cost: c] s`: consumes Speed of this COG's deployment component before `s`. */
  def cost(c: AbsRat): Proc[Unit] = Cogs.cost(toSim(c))

  /**
   * ABS `[DataSize: s] o!m(..)`: Bandwidth of `o`'s component, before the call is sent; of its
   * stand-in on another node when the run places `o`'s component there (RemotePlacement.transfer).
   */
  def transfer(target: Active, size: AbsRat): Proc[Unit] = {
    val remote = if (target eq null) null else cogs.absc.run.RemotePlacement.current
    val there = if (remote eq null) null else remote.transfer(target, toSim(size))
    if (there ne null) there else Cogs.transfer(target, toSim(size))
  }

  /**
   * ABS `[Deadline: d] o!m(..)` at `at`, the method's name from the message ([[AbsCall]]): the
   * target is checked after `d` and the message, which absc writes only where `d` cannot fail nor
   * print (else it checks first, `sendWithDeadline(nullCheck(o, "m", at), args, d)(msg)`). `args`:
   * the arguments for the trace (Nil unless a monitor observes the call).
   */
  def sendWithDeadline[T <: Active, A](o: T, at: String, args: Seq[Any], d: Duration)(msg: T => Proc[A]): Fut[A] =
    deadlined(AbsCall.target(o, msg, at), AbsCall.methodOf(msg), args, d, msg)

  /** [[sendWithDeadline]] on a target known not to be null. */
  def sendWithDeadline[T <: Active, A](o: T, args: Seq[Any], d: Duration)(msg: T => Proc[A]): Fut[A] =
    deadlined(o, AbsCall.methodOf(msg), args, d, msg)

  private def deadlined[T <: Active, A](target: T, method: String, args: Seq[Any], d: Duration, call: T => Proc[A]): Fut[A] =
    d match {
      case Duration.Duration(v) => Cogs.sendWithDeadline(target, method, args, toSim(v), call)
      case _                    => Cogs.sendWithArgs(target, method, args, call)
    }
}
