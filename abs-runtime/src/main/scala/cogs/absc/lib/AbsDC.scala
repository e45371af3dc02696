package cogs.absc.lib

import cogs.runtime.{ActiveObject, Cogs, DeploymentComponent, Resource, SchedulingPolicy, SimTime}

/**
 * The `builtin` functions of the library module `ABS.DC` (written in ABS: absc's
 * `src/main/resources/cogs/absc/library/ABS.DC.abs`) and what absc emits for `[DC: dc] new C()`.
 * An ABS `DeploymentComponent` object owns a runtime [[cogs.runtime.DeploymentComponent]] (its
 * `attachment` is the ABS object); resources are numbered as `resourceKind` in ABS.DC does.
 */
object AbsDC {

  private def kind(k: AbsInt): Option[Resource] = k.toInt match {
    case 0 => Some(Resource.Speed)
    case 1 => Some(Resource.Bandwidth)
    case 2 => Some(Resource.Cores)
    case 3 => Some(Resource.Memory)
    case _ => None
  }

  /** The runtime's component of an ABS `DeploymentComponent` object (null for null). */
  def nativeOf(self: AnyRef): DeploymentComponent =
    if (self eq null) null
    else Cogs.deploymentComponents.find(_.attachment eq self).getOrElse(
      throw new IllegalStateException(s"$self is not a deployment component of this run"))

  def dcAttach(self: AnyRef, name: String, speed: Maybe[AbsRat], bandwidth: Maybe[AbsRat], cores: Maybe[AbsRat],
      memory: Maybe[AbsRat]): Unit = {
    def of(r: Resource, m: Maybe[AbsRat]): List[(Resource, SimTime)] = m match {
      case Just(v) => List(r -> AbsTime.toSim(v))
      case _       => Nil
    }
    val dc = Cogs.deploymentComponent(name,
      (of(Resource.Speed, speed) ++ of(Resource.Bandwidth, bandwidth) ++ of(Resource.Cores, cores) ++ of(Resource.Memory, memory)).toMap)
    dc.attachment = self
  }

  def dcLoad(self: AnyRef, k: AbsInt, periods: AbsInt): AbsRat =
    kind(k).map(r => AbsTime.fromSim(nativeOf(self).load(r, periods.toInt))).getOrElse(AbsInt(0))

  def dcTotal(self: AnyRef, k: AbsInt): Maybe[AbsRat] =
    kind(k).flatMap(r => nativeOf(self).total(r)) match {
      case Some(t) => Just(AbsTime.fromSim(t))
      case None    => Nothing
    }

  def dcAdjust(self: AnyRef, k: AbsInt, delta: AbsRat): AbsRat =
    kind(k).map(r => AbsTime.fromSim(nativeOf(self).adjust(r, AbsTime.toSim(delta)))).getOrElse(delta)

  def dcShutdown(self: AnyRef): Unit = nativeOf(self).shutdown()

  /**
   * Do `self`'s objects run on another cluster node? Only once its node is known (a spread
   * component's is fixed by its first `new`), so asking never takes a turn of the spread.
   */
  def dcElsewhere(self: AnyRef): Boolean = {
    val remote = cogs.absc.run.RemotePlacement.current
    (remote ne null) && (self ne null) && remote.isPlacedElsewhere(nativeOf(self).name)
  }

  /** ABS `thisDC()`: the ABS object of the running COG's component, or null. */
  def thisDC(): AnyRef = Cogs.thisDC.map(_.attachment).orNull

  /** `[DC: dc] new C(..)` (code compiled before placement on nodes existed). */
  def spawnOn[T <: ActiveObject](dc: AnyRef)(make: => T): T = Cogs.spawnOn(nativeOf(dc))(make)

  /**
   * `[DC: dc] new C(args)`: on `dc` in this runtime, or, when the configuration maps `dc` to
   * another cluster node (cogs.absc.run.RemotePlacement), created there from `cls` and `args`
   * (`make` is then never evaluated) and referenced through a proxy that implements C's
   * interfaces. The result type `T` is the one the `new` is assigned to (an interface of C), so
   * that the proxy fits; `args` are the values `make` uses, evaluated once by the caller.
   */
  def placeOn[C <: ActiveObject, T >: C](dc: AnyRef, cls: Class[C], at: String, args: Any*)(make: => C): T = {
    val native = nativeOf(dc)
    val remote = cogs.absc.run.RemotePlacement.current
    if ((remote ne null) && (native ne null) && remote.isRemote(native.name))
      remote.create(native.name, cls, args, at).asInstanceOf[T]
    else Cogs.spawnOn(native)(make)
  }

  /**
   * `[DC: dc] [Scheduler: f(queue)] new C(args)`: as [[placeOn]], with the scheduling policy made
   * from the new object, here or, when `dc` is on another node, there (the function travels with
   * the creation: see RemotePlacement.createScheduled).
   */
  def placeScheduledOn[C <: ActiveObject, T >: C](dc: AnyRef, policy: C => SchedulingPolicy, cls: Class[C], at: String, args: Any*)(
      make: => C): T = {
    val native = nativeOf(dc)
    val remote = cogs.absc.run.RemotePlacement.current
    if ((remote ne null) && (native ne null) && remote.isRemote(native.name))
      remote.createScheduled(native.name, cls, args, at, policy.asInstanceOf[ActiveObject => SchedulingPolicy]).asInstanceOf[T]
    else Cogs.spawnScheduledOn(native, policy)(make)
  }

  /** `[DC: dc] [Scheduler: f(queue)] new C(..)` (code compiled before a scheduled object could be placed on another node). */
  def spawnScheduledOn[T <: ActiveObject](dc: AnyRef, policy: T => SchedulingPolicy)(make: => T): T = {
    val native = nativeOf(dc)
    val remote = cogs.absc.run.RemotePlacement.current
    if ((remote ne null) && (native ne null) && remote.isRemote(native.name))
      // The policy is a closure over the new object's fields, made on this node: it cannot travel.
      throw new UnsupportedOperationException(s"[Scheduler: ..] on a new placed on another node is not supported: " +
        s"deployment component '${native.name}' is on another node (by cogs.distributed.deployment, absc's --deploy, " +
        "or --spread-components); keep the component of a [Scheduler] object on the node that creates it")
    Cogs.spawnScheduledOn(native, policy)(make)
  }
}
