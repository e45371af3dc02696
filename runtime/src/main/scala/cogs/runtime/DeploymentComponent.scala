package cogs.runtime

import scala.collection.mutable.ArrayBuffer

/** The kinds of resource a [[DeploymentComponent]] has (Timed ABS's `Resourcetype`). */
sealed abstract class Resource(val name: String) { override def toString: String = name }

object Resource {
  /** Processing per time unit, consumed by `[Cost: c]` (Proc `cost`). */
  case object Speed extends Resource("Speed")
  /** Data per time unit, consumed by calls with `[DataSize: s]` between components. */
  case object Bandwidth extends Resource("Bandwidth")
  /** A number of cores: a description for cost models, not consumed by the runtime. */
  case object Cores extends Resource("Cores")
  /** Memory: a description, not consumed by the runtime. */
  case object Memory extends Resource("Memory")

  val all: List[Resource] = List(Speed, Bandwidth, Cores, Memory)
  def byName(n: String): Option[Resource] = all.find(_.name == n)
}

/**
 * A deployment component: the place where COGs run, with resources that processes consume over
 * simulated time. A resource left unspecified is unlimited. Speed and Bandwidth are amounts per
 * time unit: a process that needs more than what is left in the current unit takes what is left,
 * blocks its COG until the next unit (when the resources refill), and goes on taking there,
 * so a cost larger than a unit's capacity is paid over several units.
 *
 * Objects are placed on a component with `rt.spawnOn(dc)(new C)` (ABS `[DC: dc] new C()`); an
 * object created inside a process lands on its creator's component; a runtime's objects without
 * one run on no component (unlimited, nothing recorded).
 *
 * The load history records, per resource and whole time unit since creation, the capacity and
 * what was consumed. Refills are lazy: the first use in a new unit closes the units in between.
 * Several COGs may consume at once: the state is guarded by the component's monitor.
 */
final class DeploymentComponent private[runtime] (val runtime: CogRuntime, val name: String, initial: Map[Resource, SimTime]) {

  /**
   * What the caller associates with this component (absc: the ABS `DeploymentComponent` object);
   * [[CogRuntime.deploymentComponents]] finds it back.
   */
  @volatile var attachment: AnyRef = _

  /** The simulated time at which the component was created. */
  val creationTime: SimTime = runtime.now

  private[this] val capacity = scala.collection.mutable.Map[Resource, SimTime]() ++= initial
  // The whole time unit the `used` amounts belong to.
  private[this] var unit: Long = creationTime.floor.toLongExact
  private[this] val used = scala.collection.mutable.Map[Resource, SimTime]()
  // Closed units: per resource, (capacity or null for unlimited, used).
  private[this] val history = scala.collection.mutable.Map[Resource, ArrayBuffer[(SimTime, SimTime)]]()
  @volatile private[this] var down = false

  /** Capacity per time unit of `r`; None if unlimited. */
  def total(r: Resource): Option[SimTime] = synchronized(capacity.get(r))

  /** Consumed so far in the current time unit. */
  def usedNow(r: Resource): SimTime = synchronized { roll(); used.getOrElse(r, SimTime.Zero) }

  /**
   * Change the capacity of `r` by `delta` from the next time unit on (may be negative; never
   * below zero). Returns the change made; an unlimited resource stays unlimited (and the change is
   * `delta`, as nothing limits it).
   */
  def adjust(r: Resource, delta: SimTime): SimTime = synchronized {
    roll()
    capacity.get(r) match {
      case None => delta
      case Some(c) =>
        val before = nextCapacity.getOrElse(r, c)
        val after = (before + delta).max(SimTime.Zero)
        nextCapacity(r) = after
        after - before
    }
  }
  // Capacities from the next time unit on (adjust).
  private[this] val nextCapacity = scala.collection.mutable.Map[Resource, SimTime]()

  /** Set the capacity of `r` (None: unlimited). */
  def setTotal(r: Resource, amount: Option[SimTime]): Unit = synchronized {
    amount match { case Some(a) => capacity(r) = a; case None => capacity -= r }
  }

  /** Closed time units, oldest first: (capacity, consumed); capacity None for unlimited. */
  def history(r: Resource): Seq[(Option[SimTime], SimTime)] = synchronized {
    roll()
    history.get(r).map(_.toSeq.map { case (c, u) => (Option(c), u) }).getOrElse(Seq.fill((unit - creationUnit).toInt)((capacity.get(r), SimTime.Zero)))
  }

  private def creationUnit: Long = creationTime.floor.toLongExact

  /**
   * Average load of `r` in percent over the last `periods` closed time units (ABS `load`):
   * consumed over capacity; 0 for an unlimited resource or before any unit closed.
   */
  def load(r: Resource, periods: Int): SimTime = synchronized {
    roll()
    val h = history.getOrElse(r, ArrayBuffer.empty)
    val closed = (unit - creationUnit).toInt
    val n = math.min(math.max(periods, 0), closed)
    if (n == 0) SimTime.Zero
    else {
      // Units that nobody used were not recorded: their load is zero.
      val recorded = h.takeRight(n).filter(_._1 ne null)
      val sum = recorded.foldLeft(SimTime.Zero) { case (acc, (c, u)) => if (c.signum == 0) acc else acc + u * SimTime.of(100) * inverse(c) }
      sum * inverse(SimTime.of(n.toLong))
    }
  }

  private def inverse(t: SimTime): SimTime = SimTime.of(t.denominator, t.numerator)

  /** True once [[shutdown]] was called. */
  def isShutDown: Boolean = down

  /** When [[shutdown]] was first called (the simulated time); None while the component is up. */
  def shutdownTime: Option[SimTime] = Option(downAt)
  // Written under the monitor, once; volatile so that a reader (the Model API) needs no lock.
  @volatile private[this] var downAt: SimTime = _

  /** Mark the component as shut down: later costs on it fail. */
  def shutdown(): Unit = synchronized {
    if (downAt eq null) downAt = runtime.now
    down = true
  }

  /**
   * Consume `amount` of `r` on behalf of the running process (ABS `[Cost: amount]` for Speed):
   * blocks the COG, over as many time units as it takes; unlimited resources cost nothing.
   */
  def consume(r: Resource, amount: SimTime): Proc[Unit] = Proc.defer {
    if (amount.signum <= 0) Proc.unit
    else {
      val left = take(r, amount)
      if (left.signum <= 0) Proc.unit
      else Proc.get(runtime.clock.nextTimeUnit()).flatMap(_ => consume(r, left))
    }
  }

  /** Take up to `amount` of `r` in the current unit; returns what is still owed. */
  private def take(r: Resource, amount: SimTime): SimTime = synchronized {
    if (down) throw new IllegalStateException(s"deployment component $name is shut down")
    roll()
    capacity.get(r) match {
      case None => SimTime.Zero
      case Some(cap) =>
        val u = used.getOrElse(r, SimTime.Zero)
        val got = amount.min((cap - u).max(SimTime.Zero))
        used(r) = u + got
        amount - got
    }
  }

  // Close the units between the last use and now: each resource's use of the old unit goes to
  // its history, units in between were idle.
  private def roll(): Unit = {
    val current = runtime.now.floor.toLongExact
    if (current > unit) {
      for (r <- Resource.all) {
        val h = history.getOrElseUpdate(r, ArrayBuffer.fill((unit - creationUnit).toInt)((capacity.get(r).orNull, SimTime.Zero)))
        h += ((capacity.get(r).orNull, used.getOrElse(r, SimTime.Zero)))
        var k = unit + 1
        while (k < current) { h += ((capacity.get(r).orNull, SimTime.Zero)); k += 1 }
      }
      used.clear()
      capacity ++= nextCapacity
      nextCapacity.clear()
      unit = current
    }
  }

  override def toString: String = s"DeploymentComponent($name)"
}
