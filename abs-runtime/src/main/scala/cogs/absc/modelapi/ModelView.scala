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
}

object ModelView {
  /**
   * The view of a model without the simulated clock: time 0, no deployment components. Until the
   * runtime has Timed ABS and deployment components, every model is shown through it.
   */
  val Untimed: ModelView = new ModelView {
    def now(): AbsRat = AbsInt(0)
    def deploymentComponents(): Seq[DcView] = Nil
  }
}

/**
 * A deployment component as the Model API shows it: its name, when it was created, and for each
 * kind of resource (`"Speed"`, `"Bandwidth"`, ...) one entry per whole time unit since its
 * creation: entry `i` is the time unit starting at `creationTime + i`.
 */
final case class DcView(name: String, creationTime: AbsRat, history: Map[String, IndexedSeq[ResourceUse]])

/** One time unit of one resource: what was available (`None`: unlimited) and what was used. */
final case class ResourceUse(total: Option[AbsRat], used: AbsRat)
