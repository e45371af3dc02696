package cogs

/**
 * Active objects with cooperative scheduling (ABS semantics).
 *
 * {{{
 * import cogs.runtime._
 *
 * trait Counter extends Active { def inc(): Proc[Int] }
 * final class CounterImpl extends ActiveObject with Counter {
 *   private var n = 0
 *   def inc(): Proc[Int] = Proc.delay { n += 1; n }
 * }
 *
 * val rt = CogRuntime()
 * val c: Counter = rt.spawn(new CounterImpl)
 * val f: Fut[Int] = c ! (_.inc())
 * f.join()
 * }}}
 */
package object runtime {

  /** `target ! (_.m(args))`: the asynchronous call of ABS. */
  implicit final class ActiveOps[T <: Active](private val target: T) extends AnyVal {
    /**
     * Asynchronous call; returns the future at once. The call runs on the callee's COG, so
     * evaluate its arguments before: `val v = field; o ! (_.m(v))`, not `o ! (_.m(field))` (which
     * would read the caller's field later, from the callee's thread) nor a captured `var`.
     */
    def ![A](call: T => Proc[A]): Fut[A] = Cogs.send(target, null, call)

    /** Asynchronous call with the method's name, which failure messages and reports show. */
    def send[A](method: String)(call: T => Proc[A]): Fut[A] = Cogs.send(target, method, call)

    /**
     * One-way asynchronous call (see [[Cogs.tell]]): for a call whose future nobody would read.
     * Cheaper than `send`: no future is allocated. Same rule for arguments as `!`.
     */
    def tell(method: String)(call: T => Proc[Any]): Unit = Cogs.tell(target, method, call)

    /** Synchronous call (see [[Proc.sync]]). */
    def sync[A](call: T => Proc[A]): Proc[A] = Proc.sync(target)(call)
  }
}
