package cogs.absc.lib

import cogs.runtime.ActiveObject
import cogs.runtime.internal.{Frame, Process}

/**
 * The base class of every class absc generates from an ABS class: what each of them needs and
 * no generated class has to repeat (issue 27, item 5: smaller generated code).
 *
 *  - Where the `new` that made the object is (`at$`, set by that `new` before the object is
 *    published): reports and `toString` name the object by its ABS class and creation site.
 *  - Object death (ABS semantics): an exception that leaves a method kills the object unless a
 *    branch of the class's `recover` block handles it ([[recoverBlock$]], which a class with such
 *    a block overrides); later calls fail with `ObjectDeadException`. Either way the exception
 *    goes on to the caller's future. `die e` sets `dead$` itself.
 *
 * It adds no field to what the generated classes had before (the creation site and the cause of
 * death), so an idle object is no larger. Names end in `$`, which no ABS identifier can.
 */
abstract class AbsObject extends ActiveObject {
  private[this] var createdAt$ : String = _

  /** The creation site (`f.abs:12:5`); the `new` calls it once, before the object is published. */
  final def at$(site: String): this.type = { createdAt$ = site; this }

  override final def creationSite: String = createdAt$

  /** Why the object died (its methods then throw `ObjectDeadException`), or null while it lives. */
  protected[this] var dead$ : AbsException = null

  /**
   * The class's `recover` block: runs the first branch that matches `e` (an exception as ABS sees
   * it, [[AbsException.lift]]) and says whether one did. Without a block: none.
   */
  protected def recoverBlock$(e: Throwable): Boolean = false

  /** Called with every exception that leaves a method; gives it back for the caller's future. */
  protected[this] final def recover$(e: Throwable): Throwable = {
    if (dead$ == null) {
      val lifted = AbsException.lift(e)
      if (!recoverBlock$(lifted)) dead$ = lifted match {
        case a: AbsException => a
        case _ => ObjectDeadException
      }
    }
    e
  }

  /**
   * An asynchronous call's entry into a method in frame form whose failures kill the object
   * (`m$entry`, which catches what the method throws before it suspends): `r` is what the method
   * returned; if it suspended, the frame linked outermost hands a later failure to `recover$`.
   * One frame serves every call: the object is the process's callee.
   */
  protected[this] final def recovering$(p: Process, r: Any): Any =
    if (r.asInstanceOf[AnyRef] eq Frame.Suspended) p.suspendedIn(AbsObject.Recovering) else r

  private[lib] final def recoverFrom$(e: Throwable): Throwable = recover$(e)

  override def toString: String =
    if (createdAt$ eq null) s"$traceName#${System.identityHashCode(this)}" else traceName + " created at " + createdAt$
}

private object AbsObject {
  /** The outermost frame of a suspended call of a method whose failures go to `recover$`. */
  val Recovering: Frame = new Frame {
    def resume(p: Process, in: Any): Any = in
    override def fail(p: Process, e: Throwable): Any = throw p.target.asInstanceOf[AbsObject].recoverFrom$(e)
  }
}
