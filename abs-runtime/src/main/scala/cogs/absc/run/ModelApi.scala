package cogs.absc.run

import java.nio.file.Path

import cogs.absc.modelapi.HttpObjects
import cogs.runtime.{CogRuntime, ScheduleTrace}

/**
 * The Model API of one run (`absc run --port PORT`, a standalone program's `-p PORT`), as the
 * runner sees it. This module has no HTTP server, no JSON codec of the API and no chart page: the
 * implementation lives in the module `cogs-abs-modelapi` (`cogs.absc.modelapi.ModelApiServer`),
 * found with `java.util.ServiceLoader` only when a run asks for a port, as [[RemotePlacement]]
 * finds the distributed module. A model that never serves the API carries none of it.
 */
trait ModelApi {
  /** Where the API is served: `http://127.0.0.1:PORT/PREFIX/`. */
  def url: String

  /** True once a client asked for `/quit` (and got its answer). */
  def quitRequested: Boolean

  /** Blocks until a client asks for `/quit`. */
  def awaitQuit(): Unit

  /** Serve `/trace` from a recorded run's events (read on each request, as the run goes on). */
  def serveTrace(events: () => Map[String, List[ScheduleTrace.Event]]): Unit

  def stop(): Unit
}

object ModelApi {

  /** The artifact that implements the Model API, for the messages that ask for it. */
  final val Module = "cogs-abs-modelapi"

  /** Starts the Model API of a run; implemented by `cogs-abs-modelapi`. */
  trait Provider {
    /**
     * Serve `rt`'s clock and deployment components and the run's `[HTTPName]` objects on the
     * loopback interface at `port` (0: any free port). Throws `java.io.IOException` (a
     * `BindException`) if the port is taken.
     */
    def start(rt: CogRuntime, objects: HttpObjects, port: Int, indexFile: Option[Path], urlPrefix: String,
        staticDir: Option[Path]): ModelApi
  }

  /**
   * The provider on `loader`'s class path, or why there is none (said to the user as it is: the
   * run asked for a port, and the program was packaged or started without the module).
   */
  def provider(loader: ClassLoader): Either[String, Provider] = {
    val it = java.util.ServiceLoader.load(classOf[Provider], loader).iterator()
    if (it.hasNext) Right(it.next())
    else Left(s"the Model API (a port: --port or -p) needs the module $Module, " +
      "which is not on this program's class path: package the model with 'absc package --model-api' " +
      s"(a model with [HTTPName] gets it without asking), or add $Module and its dependencies to the class path")
  }

  /** `--url-prefix`: `abcd/5080`, `/abcd/5080/` and the like become `/abcd/5080/`; empty or `/` is `/`. */
  def normalizePrefix(p: String): String = {
    val segments = p.split("/").filter(_.nonEmpty)
    if (segments.isEmpty) "/" else segments.mkString("/", "/", "/")
  }
}
