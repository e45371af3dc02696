package cogs.absc.run

import com.typesafe.config.Config
import cogs.runtime.{Active, ActiveObject, CogRuntime, Proc, SchedulingPolicy, SimTime}

/**
 * Where `[DC: dc] new C(..)` goes when the configuration maps deployment components to cluster
 * nodes (`cogs.distributed.deployment`). This module knows no network: the implementation lives in
 * the module `cogs-distributed` (package `cogs.distributed.abs`), found at start with
 * `java.util.ServiceLoader`, so a model whose configuration maps nothing never loads it (and the
 * class path of `absc run` does not even have it).
 */
trait RemotePlacement {
  /** Is the deployment component named `dc` mapped to another node than this one? */
  def isRemote(dc: String): Boolean

  /**
   * [[isRemote]] without fixing anything: true only when `dc` already has a node and it is
   * another (a component that `--spread-components` has not placed yet is here for now).
   */
  def isPlacedElsewhere(dc: String): Boolean

  /**
   * Create an object of `cls` with the constructor arguments `args` on the node `dc` is mapped to.
   * Returns at once (ABS `new` does) a reference that implements the ABS interfaces of `cls`;
   * calls through it queue until the object exists. `at` is the ABS position of the `new`.
   */
  def create(dc: String, cls: Class[_ <: ActiveObject], args: Seq[Any], at: String): Active

  /**
   * [[create]] for `[DC: dc] [Scheduler: f(..)] new C(args)`: the new object's COG picks its
   * processes by the policy `policy` makes from the object. The function travels to the other node
   * and is applied there, so it may capture nothing that cannot travel: absc's captures nothing
   * (the scheduler's arguments are the queue and fields of the new object, its parameter).
   */
  def createScheduled(dc: String, cls: Class[_ <: ActiveObject], args: Seq[Any], at: String,
      policy: ActiveObject => SchedulingPolicy): Active

  /**
   * ABS `[DataSize: amount] o!m(..)` where `o` is an object this placement made on another node:
   * the Bandwidth of `o`'s deployment component is consumed on that node, and the computation
   * returned ends once it is, the sender's COG blocked meanwhile (as `Cogs.transfer` blocks it for
   * a local transfer). Null when `target` is not such an object: the caller transfers locally.
   */
  def transfer(target: Active, amount: SimTime): Proc[Unit] = null

  /** Leave the cluster (the runtime is closed by its owner). */
  def close(): Unit

  /**
   * The main block's process has started (called inside it, so its COG is running): the node
   * that runs it may now start the cluster's simulated clock (issue 30), which must not look for
   * an idle cluster before the model has begun.
   */
  def mainBlockStarted(): Unit = ()
}

object RemotePlacement {

  /** Starts a [[RemotePlacement]] for a runtime; implemented by `cogs-distributed`. */
  trait Provider {
    def start(runtime: CogRuntime, config: Config, loader: ClassLoader): RemotePlacement
  }

  /** The configuration key that maps deployment components to nodes. */
  final val DeploymentKey = "cogs.distributed.deployment"

  /**
   * The nodes (names, comma-separated) that the deployment components not mapped by
   * [[DeploymentKey]] go to in turn, in the order the model first places an object on each
   * (`absc run --spread-components`; docs/distributed.md).
   */
  final val SpreadKey = "cogs.distributed.spread-components"

  /**
   * The placement of the run whose process calls (its [[RunContext]]), or null. Set once at start,
   * before the main block runs, and read by the processes that run `new`.
   */
  def current: RemotePlacement = RunContext.current.placement

  /** Thrown when the configuration maps deployment components but the placement cannot start. */
  final class StartFailed(message: String, cause: Throwable) extends RuntimeException(message, cause)

  /**
   * Start placement for `rt` if `config` maps any deployment component (else None, and nothing of
   * the distributed module is loaded). Installs it as [[current]].
   */
  def startIfConfigured(rt: CogRuntime, config: Config, loader: ClassLoader): Option[RemotePlacement] =
    if ((!config.hasPath(DeploymentKey) || config.getObject(DeploymentKey).isEmpty) &&
        (!config.hasPath(SpreadKey) || config.getString(SpreadKey).trim.isEmpty)) None
    else {
      val it = java.util.ServiceLoader.load(classOf[Provider], loader).iterator()
      if (!it.hasNext)
        throw new StartFailed(s"the configuration maps deployment components to nodes ($DeploymentKey), " +
          "but the module cogs-distributed is not on the class path (run the compiled model with it, " +
          "see docs/distributed.md, \"ABS deployment components on cluster nodes\")", null)
      val p = it.next().start(rt, config, loader)
      RunContext.of(rt).placement = p
      Some(p)
    }

  /**
   * Whether `ConfigFactory.load()` (with `loader` as the context class loader) could map a
   * deployment component, decided without loading Typesafe Config: loading and parsing it was
   * some 50 ms of every cold run of an ABS model (JDK 17, `docs/benchmarks.md`, section 4), for a
   * key almost no run sets. The runtime's probe ([[cogs.runtime.ConfigProbe]]) asked about
   * [[DeploymentKey]], with the runtime's and the monitor's `reference.conf` as known (neither maps
   * deployment components, which `DeploymentProbeTest` checks against Config itself); the
   * distributed module's own `reference.conf` is read like any other library's.
   */
  private[run] def mayBeConfigured(loader: ClassLoader): Boolean =
    cogs.runtime.ConfigProbe.maySet(loader, List(DeploymentKey, SpreadKey), classOf[cogs.runtime.CogRuntime] :: monitorClass(loader).toList)

  // The monitor is a module of a monitored run only (cogs-abs-monitoring brings it): asked for by
  // name, without initialising it, so that a plain run does not need it on its class path.
  private def monitorClass(loader: ClassLoader): Option[Class[_]] =
    try Some(Class.forName("cogs.monitor.pipeline.Pipeline", false, loader))
    catch { case _: ClassNotFoundException | _: LinkageError => None }

  /** Stop placement (after the main block). */
  def stop(rt: CogRuntime, p: RemotePlacement): Unit = {
    val c = RunContext.of(rt)
    if (c.placement eq p) c.placement = null
    p.close()
  }
}
