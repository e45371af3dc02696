package cogs.async

import scala.annotation.compileTimeOnly
import scala.language.experimental.macros
import scala.reflect.macros.blackbox

import cogs.runtime.{Fut, Proc}

/**
 * Direct-style processes: `async { ...; val v = await(f); ... }` is a `Proc[A]` whose body scalac's
 * async phase (`-Xasync`, needed in the consumer's scalac arguments) turns into one state-machine
 * class per `async` block, in place of the chain of `flatMap` closures that absc emits.
 *
 * An experiment for issue 13, target 5 (see this module's README): the body runs when the process
 * reaches the `Proc`, and every `await` of a pending future is the runtime's own `await f?` (the
 * COG runs other processes meanwhile). Limits are the async phase's: no `await` inside a
 * `try`, a closure, a by-name argument or a nested method; a synchronous call that may suspend
 * (`Proc.sync`) cannot be awaited from here.
 */
object ProcAsync {

  /** A process running `body`, in which `await(f)` suspends the process until `f` is resolved. */
  def async[A](body: A): Proc[A] = macro ProcAsyncMacro.impl[A]

  /**
   * ABS `await f?; f.get`: the value of `f`, suspending the process (not the thread) while `f`
   * is pending. A failed `f` fails the `async` block with the same exception. (Expands to
   * `await(f.await)`: the async phase knows one await method, the one below.)
   */
  def await[A](f: Fut[A]): A = macro ProcAsyncMacro.awaitFut[A]

  /**
   * Run `p` as part of this process and give its value: a synchronous call that may suspend
   * (`await(Proc.sync(this)(_.m(x)))`), or any other `Proc`. Its failure fails the block.
   */
  @compileTimeOnly("`await` must be enclosed in `async`")
  def await[A](p: Proc[A]): A = throw new IllegalStateException("await outside async")
}

private[async] object ProcAsyncMacro {
  def impl[A: c.WeakTypeTag](c: blackbox.Context)(body: c.Tree): c.Tree = {
    import c.universe._
    val procType = typeOf[Proc[Any]].typeConstructor
    val awaitSym = typeOf[ProcAsync.type].decl(TermName("await")).alternatives
      .find(_.asMethod.paramLists.head.head.typeSignature.typeConstructor =:= procType)
      .getOrElse(c.abort(c.enclosingPosition, "cogs.async: ProcAsync.await(Proc) not found"))
    val machine = TypeName("ProcStateMachine$async")
    val apply = q"override def apply(tr$$async: _root_.scala.util.Try[_root_.scala.AnyRef]) = $body"
    val marked = c.internal.markForAsyncTransform(c.internal.enclosingOwner, apply, awaitSym, Map.empty)
    // A fresh machine per run of the Proc: a Proc value is a description and may be run again.
    q"""
      final class $machine extends _root_.cogs.async.ProcStateMachine { $marked }
      _root_.cogs.runtime.Proc.defer(new $machine().start()).asInstanceOf[_root_.cogs.runtime.Proc[${weakTypeOf[A]}]]
    """
  }

  def awaitFut[A: c.WeakTypeTag](c: blackbox.Context)(f: c.Tree): c.Tree = {
    import c.universe._
    q"_root_.cogs.async.ProcAsync.await[${weakTypeOf[A]}]($f.await)"
  }
}
