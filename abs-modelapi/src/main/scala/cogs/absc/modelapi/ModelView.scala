package cogs.absc.modelapi

import cogs.absc.lib.{AbsInt, AbsRat}

/**
 * What the Model API shows of a running model besides its HTTP-named objects: the simulated
 * clock and the deployment components. The server reads it on every request, from its own
 * threads, so an implementation must be safe to call concurrently with the model (a snapshot is
 * enough: the API promises no atomicity across requests).
 */
trait ModelView {
  /** The value of the simulated clock (ABS `timeValue(now())`). */
  def now(): AbsRat

  /** Every deployment component created so far, in creation order. */
  def deploymentComponents(): Seq[DcView]

  /**
   * `/clock/advance?by=N`: raise the clock limit by `by`; the new limit, or why not (the model was
   * started without a limit).
   */
  def advanceClock(by: AbsRat): Either[String, AbsRat] =
    Left("the model was started without a clock limit (-l), so there is no limit to advance")

  /**
   * `o`'s fields read with `read` if `o`'s COG is blocked in `get`, with that `get`; None if it is
   * not (see `CogRuntime.inspectBlocked`).
   */
  def inspectBlocked(o: AnyRef)(read: => List[(String, Any)]): Option[(cogs.runtime.BlockedGet, List[(String, Any)])] = None
}

object ModelView {
  /**
   * The view of a running model: the runtime's simulated clock and its deployment components with
   * their closed time units (each component's state is read under its own lock, one at a time).
   */
  def of(rt: cogs.runtime.CogRuntime): ModelView = new ModelView {
    def now(): AbsRat = cogs.absc.lib.AbsTime.fromSim(rt.now)
    def deploymentComponents(): Seq[DcView] = rt.deploymentComponents.map { dc =>
      val history = cogs.runtime.Resource.all.map { r =>
        r.name -> dc.history(r).map { case (total, used) =>
          ResourceUse(total.map(cogs.absc.lib.AbsTime.fromSim), cogs.absc.lib.AbsTime.fromSim(used))
        }.toIndexedSeq
      }.toMap
      DcView(dc.name, cogs.absc.lib.AbsTime.fromSim(dc.creationTime), history,
        dc.shutdownTime.map(cogs.absc.lib.AbsTime.fromSim))
    }
    override def advanceClock(by: AbsRat): Either[String, AbsRat] =
      rt.extendClockLimit(cogs.absc.lib.AbsTime.toSim(by)) match {
        case Some(limit) => Right(cogs.absc.lib.AbsTime.fromSim(limit))
        case None => super.advanceClock(by)
      }
    override def inspectBlocked(o: AnyRef)(read: => List[(String, Any)]): Option[(cogs.runtime.BlockedGet, List[(String, Any)])] =
      o match {
        case a: cogs.runtime.Active => rt.inspectBlocked(a)(read)
        case _ => None
      }
  }

  /** The view of a model without a runtime: time 0, no deployment components (for tests of the server). */
  val Untimed: ModelView = new ModelView {
    def now(): AbsRat = AbsInt(0)
    def deploymentComponents(): Seq[DcView] = Nil
  }
}

/**
 * A deployment component as the Model API shows it: its name, when it was created, and for each
 * kind of resource (`"Speed"`, `"Bandwidth"`, ...) one entry per whole time unit since its
 * creation: entry `i` is the time unit starting at `creationTime + i`. `shutdownTime`: when the
 * model shut it down (ABS `shutdown()`), None while it is up.
 */
final case class DcView(name: String, creationTime: AbsRat, history: Map[String, IndexedSeq[ResourceUse]],
    shutdownTime: Option[AbsRat] = None)

/** One time unit of one resource: what was available (`None`: unlimited) and what was used. */
final case class ResourceUse(total: Option[AbsRat], used: AbsRat)
