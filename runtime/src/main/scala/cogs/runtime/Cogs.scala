package cogs.runtime

import java.util.function.{Function => JFunction, Supplier}

/**
 * The operations of the ABS object layer as static methods: the Java API, also usable from Scala
 * (where `import cogs.runtime._` adds the `!` syntax).
 *
 * {{{
 * Fut<Integer> f = Cogs.send(counter, "inc", c -> c.inc());
 * }}}
 */
object Cogs {

  /** ABS `o!m(..)`: queue a call of `method` at `target`'s COG and return its future at once. */
  def send[T <: Active, A](target: T, method: String, call: JFunction[_ >: T, Proc[A]]): Fut[A] =
    sendS(target, method, (t: T) => call.apply(t))

  /** Scala form of [[send]]. */
  def sendS[T <: Active, A](target: T, method: String, call: T => Proc[A]): Fut[A] = {
    if (target == null) throw new NullPointerException(s"asynchronous call $method on null")
    target.cog.runtime.send(target, method, call)
  }

  /** ABS `new C(..)` inside a process: the object gets a new COG in the caller's runtime. */
  def spawn[T <: ActiveObject](make: => T): T = here("spawn").runtime.spawn(make)

  /** ABS `new local C(..)`: the object joins the caller's COG. */
  def spawnLocal[T <: ActiveObject](make: => T): T = {
    val cog = here("spawnLocal")
    cog.runtime.place(cog)(make)
  }

  /** Java: `spawn`. */
  def spawnWith[T <: ActiveObject](make: Supplier[T]): T = spawn(make.get())

  /** Java: `spawnLocal`. */
  def spawnLocalWith[T <: ActiveObject](make: Supplier[T]): T = spawnLocal(make.get())

  /** ABS `destiny`: the future of the running process (only inside a process). */
  def destiny: Fut[Any] = {
    val c = Cog.current()
    if ((c eq null) || (c.running eq null)) throw new IllegalStateException("destiny is only defined inside a process")
    c.running.fut
  }

  /** True when called from inside a process (on a COG's main task). */
  def insideProcess: Boolean = Cog.current() != null

  private def here(op: String): Cog = {
    val c = Cog.current()
    if (c eq null)
      throw new IllegalStateException(s"Cogs.$op is for code inside a process; from outside use runtime.spawn(new ...)")
    c
  }
}
