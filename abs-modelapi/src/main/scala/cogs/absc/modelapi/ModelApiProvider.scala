package cogs.absc.modelapi

import java.nio.file.Path

import cogs.absc.run.ModelApi
import cogs.runtime.CogRuntime

/**
 * Found by the runner of `cogs-abs-runtime` (`cogs.absc.run.ModelApi.provider`) through
 * `META-INF/services`, when a run asks for a port: the server of this module on the run's runtime.
 */
final class ModelApiProvider extends ModelApi.Provider {
  def start(rt: CogRuntime, objects: HttpObjects, port: Int, indexFile: Option[Path], urlPrefix: String,
      staticDir: Option[Path]): ModelApi =
    ModelApiServer.start(port, ModelView.of(rt), indexFile, objects, urlPrefix, staticDir)
}
