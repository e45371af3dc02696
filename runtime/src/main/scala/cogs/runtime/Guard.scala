package cogs.runtime

/**
 * What an `await` waits for: a future (`f?`), a condition over the object's state (`b`), or a
 * conjunction (`g1 & g2`) or disjunction of guards.
 *
 * The runtime never polls a future: a process waiting for futures only is parked on them and
 * woken when they resolve. A guard with a condition is re-checked only when its COG's state may
 * have changed, that is after another process of the COG ran (conditions may read only the state
 * of the COG's objects and the process's own locals), or when one of its futures resolved.
 */
trait Guard extends cogs.javadsl.Guard {
  /** Evaluate now. Runs on the COG's thread. */
  private[runtime] def enabled: Boolean
  /** Contains a condition, so it must be re-checked when the COG's state changes. */
  private[runtime] def hasCondition: Boolean
  /** Mentions at least one future. */
  private[runtime] def hasFutures: Boolean
  /** Only futures and conjunctions of them: parking on one pending future at a time suffices. */
  private[runtime] def isSimple: Boolean
  /** For a simple guard: a pending future that keeps it disabled, or null. */
  private[runtime] def firstPending: Fut[_]
  private[runtime] def pendingFutures(acc: List[Fut[_]]): List[Fut[_]]

  /** Both guards (ABS `g1 & g2`). */
  def &(other: Guard): Guard = new Guard.And(this, other)
  /** Either guard. */
  def |(other: Guard): Guard = new Guard.Or(this, other)
}

object Guard {
  /** A condition over the object's state, e.g. `Guard.cond(count > 0)`. */
  def cond(b: => Boolean): Guard = new Cond(() => b, null)

  /** A condition with a name that deadlock reports and traces show. */
  def cond(name: String)(b: => Boolean): Guard = new Cond(() => b, name)

  /** The future guard `f?`. */
  def future(f: Fut[_]): Guard = f

  /**
   * Timed ABS's guard `duration(min, max)`, inside a process: holds once the simulated clock has
   * advanced by `min` from now (made at once; combine it with `&` and `|`).
   */
  def duration(min: SimTime, max: SimTime): Guard = Cogs.clockHere("Guard.duration").waitFor(min, max)

  private[runtime] final class Cond(val test: () => Boolean, val name: String) extends Guard {
    private[runtime] def enabled: Boolean = test()
    private[runtime] def hasCondition = true
    private[runtime] def hasFutures = false
    private[runtime] def isSimple = false
    private[runtime] def firstPending: Fut[_] = null
    private[runtime] def pendingFutures(acc: List[Fut[_]]): List[Fut[_]] = acc
    override def toString: String = if (name eq null) "a condition" else s"condition '$name'"
  }

  private[runtime] final class And(val left: Guard, val right: Guard) extends Guard {
    private[runtime] def enabled: Boolean = left.enabled && right.enabled
    private[runtime] val hasCondition: Boolean = left.hasCondition || right.hasCondition
    private[runtime] val hasFutures: Boolean = left.hasFutures || right.hasFutures
    private[runtime] val isSimple: Boolean = left.isSimple && right.isSimple
    private[runtime] def firstPending: Fut[_] = {
      val l = left.firstPending
      if (l ne null) l else right.firstPending
    }
    private[runtime] def pendingFutures(acc: List[Fut[_]]): List[Fut[_]] = left.pendingFutures(right.pendingFutures(acc))
    override def toString: String = s"($left & $right)"
  }

  private[runtime] final class Or(val left: Guard, val right: Guard) extends Guard {
    private[runtime] def enabled: Boolean = left.enabled || right.enabled
    private[runtime] val hasCondition: Boolean = left.hasCondition || right.hasCondition
    private[runtime] val hasFutures: Boolean = left.hasFutures || right.hasFutures
    // Waiting for either of two futures needs a registration on both: not simple.
    private[runtime] def isSimple = false
    private[runtime] def firstPending: Fut[_] = null
    private[runtime] def pendingFutures(acc: List[Fut[_]]): List[Fut[_]] = left.pendingFutures(right.pendingFutures(acc))
    override def toString: String = s"($left | $right)"
  }
}
