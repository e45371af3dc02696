package cogs.absc.lib

import cogs.runtime.{Active, Cogs, Fut, Proc}
import cogs.runtime.internal.FrameCall

/**
 * A call as data, as a message constructor of generated code makes it (`Iface.m(x)`): the
 * callee's entry in frame form ([[FrameCall]], which the slice loop runs as it is) that also knows
 * the ABS name of its method. The name is written once, in the constructor, so a call site need
 * not repeat it: `send(o, "f.abs:3:5")(Iface.m(x))` takes from the message the label the runtime
 * gives the process (traces, monitor events, reports) and the name in the text of a call on null.
 */
abstract class AbsMessage extends FrameCall {
  // Set once, by AbsCall.message, before the message is handed to anything: it reaches another
  // COG only through the runtime's queues, which publish it with everything written before.
  private[lib] var method: String = _
}

object AbsCall {
  /**
   * The message of a call of the ABS method `method`: what the companion's constructor
   * `def m(x: T): I => Proc[R] = AbsCall.message("m") { (p$, o$) => o$.asInstanceOf[I].m$entry(p$, x) }` returns.
   * The cast is free: an [[AbsMessage]] is a `FrameCall`, an `Active => Proc[Any]`.
   */
  def message[T <: Active, R](method: String)(call: AbsMessage): T => Proc[R] = {
    call.method = method
    call.asInstanceOf[T => Proc[R]]
  }

  /**
   * ABS `o!m(..)` at `at` that a monitor observes: [[cogs.runtime.Cogs.sendWithArgs]], which gives
   * `args` to the trace event, with the method's name from the message. The `instrument` pass
   * evaluates the arguments into names before the target, so checking the target last changes
   * nothing anyone can see.
   */
  def sendWithArgs[T <: Active, A](o: T, at: String, args: Seq[Any])(msg: T => Proc[A]): Fut[A] = {
    Cogs.sendWithArgs(target(o, msg, at), methodOf(msg), args, msg)
  }

  /** [[sendWithArgs]] on `this`. */
  def sendWithArgs[T <: Active, A](o: T, args: Seq[Any])(msg: T => Proc[A]): Fut[A] =
    Cogs.sendWithArgs(o, methodOf(msg), args, msg)

  /**
   * `o`, the target of the call `msg` at `at`, or ABS's [[NullPointerException]] naming the call
   * (`call of 'm' on null at f.abs:3:5`; the text is built only then).
   */
  def target[T <: AnyRef](o: T, msg: AnyRef, at: String): T =
    if (o == null) throw NullPointerException("call of '" + methodOf(msg) + "' on null at " + at) else o

  /** The ABS method name of a message made by [[message]]; null for any other function (no label). */
  def methodOf(call: AnyRef): String = call match {
    case m: AbsMessage => m.method
    case _ => null
  }
}
