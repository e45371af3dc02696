package cogs.absc.run

import com.typesafe.config.Config
import cogs.runtime.{Active, ActiveObject, CogRuntime}

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
   * Create an object of `cls` with the constructor arguments `args` on the node `dc` is mapped to.
   * Returns at once (ABS `new` does) a reference that implements the ABS interfaces of `cls`;
   * calls through it queue until the object exists. `at` is the ABS position of the `new`.
   */
  def create(dc: String, cls: Class[_ <: ActiveObject], args: Seq[Any], at: String): Active

  /** Leave the cluster (the runtime is closed by its owner). */
  def close(): Unit
}

object RemotePlacement {

  /** Starts a [[RemotePlacement]] for a runtime; implemented by `cogs-distributed`. */
  trait Provider {
    def start(runtime: CogRuntime, config: Config, loader: ClassLoader): RemotePlacement
  }

  /** The configuration key that maps deployment components to nodes. */
  final val DeploymentKey = "cogs.distributed.deployment"

  // Set once at start, before the main block runs, and read by the processes that run `new`:
  // volatile, so every worker sees it.
  @volatile private[this] var current$ : RemotePlacement = _
  def current: RemotePlacement = current$

  /** Thrown when the configuration maps deployment components but the placement cannot start. */
  final class StartFailed(message: String, cause: Throwable) extends RuntimeException(message, cause)

  /**
   * Start placement for `rt` if `config` maps any deployment component (else None, and nothing of
   * the distributed module is loaded). Installs it as [[current]].
   */
  def startIfConfigured(rt: CogRuntime, config: Config, loader: ClassLoader): Option[RemotePlacement] =
    if (!config.hasPath(DeploymentKey) || config.getObject(DeploymentKey).isEmpty) None
    else {
      val it = java.util.ServiceLoader.load(classOf[Provider], loader).iterator()
      if (!it.hasNext)
        throw new StartFailed(s"the configuration maps deployment components to nodes ($DeploymentKey), " +
          "but the module cogs-distributed is not on the class path (run the compiled model with it, " +
          "see docs/distributed.md, \"ABS deployment components on cluster nodes\")", null)
      val p = it.next().start(rt, config, loader)
      current$ = p
      Some(p)
    }

  /**
   * Whether `ConfigFactory.load()` (with `loader` as the context class loader) could map a
   * deployment component, decided without loading Typesafe Config: loading and parsing it was
   * some 50 ms of every cold run of an ABS model (JDK 17, `docs/benchmarks.md`, section 4), for a
   * key almost no run sets. It may give a false alarm (then Config is loaded, as before), never a
   * miss, because it says yes whenever Config could read anything beyond Cogs' own defaults:
   *  - a system property `cogs.distributed...` or `config.*` (`config.resource`, `config.file`,
   *    `config.url`, `config.strategy`, `config.override_with_env_vars` change what is read);
   *  - an `application.conf`/`.json`/`.properties`, or a `reference.json`/`.properties`, anywhere
   *    on the class path;
   *  - a `reference.conf` other than the runtime's and the monitor's own (found next to a class of
   *    each; neither maps deployment components, which `DeploymentProbeTest` checks against Config
   *    itself). The distributed module's, or any library's, counts as a possible mapping.
   */
  private[run] def mayBeConfigured(loader: ClassLoader): Boolean = {
    val props = System.getProperties.stringPropertyNames.iterator()
    while (props.hasNext) {
      val k = props.next()
      if (k.startsWith("cogs.distributed") || k.startsWith("config.")) return true
    }
    val others = List("application.conf", "application.json", "application.properties", "reference.json", "reference.properties")
    if (others.exists(r => loader.getResource(r) ne null)) return true
    val own = List(classOf[cogs.runtime.CogRuntime], classOf[cogs.monitor.pipeline.Pipeline]).flatMap(referenceNextTo)
    val refs = loader.getResources("reference.conf")
    while (refs.hasMoreElements) if (!own.contains(refs.nextElement().toString)) return true
    false
  }

  /** The address of the `reference.conf` in the jar or directory `c` was loaded from. */
  private def referenceNextTo(c: Class[_]): Option[String] = {
    val file = c.getName.replace('.', '/') + ".class"
    Option(c.getResource("/" + file)).map(_.toString).filter(_.endsWith(file)).map(s => s.stripSuffix(file) + "reference.conf")
  }

  /** Stop placement (after the main block). */
  def stop(p: RemotePlacement): Unit = {
    if (current$ eq p) current$ = null
    p.close()
  }
}
