package cogs.distributed.abs

import com.typesafe.config.ConfigFactory
import cogs.absc.lib.Out
import cogs.runtime.CogRuntime

/**
 * A node that serves a compiled ABS model without running its main block: it joins the cluster
 * under its name (`cogs.distributed.node-name`), creates the objects that other nodes place on
 * the deployment components mapped to it, and exits (status 0) once the main node has left, that
 * is once the model's main program ended; with status 1 and a line saying why when the main node
 * was lost (killed, or unreachable for `lost-after`), when no main node came within
 * `join-timeout`, or when this node cannot start or join. Run it with the model's classes on the
 * class path:
 *
 * {{{
 * java -cp MODEL_CLASSES:CLASSPATH -Dcogs.distributed.node-name=n1 \
 *   -Dpekko.remote.artery.canonical.port=0 -Dpekko.cluster.seed-nodes.0=pekko://cogs@127.0.0.1:PORT \
 *   cogs.distributed.abs.ServeModel
 * }}}
 */
object ServeModel {
  def main(args: Array[String]): Unit = {
    // The model's objects print here; unbuffered, so that output shows while the node runs.
    Out.autoFlush = true
    val config = ConfigFactory.load()
    val rt = CogRuntime(config)
    val status =
      try {
        val p = AbsPlacement.start(rt, config, Thread.currentThread().getContextClassLoader, main = false)
        // Said once the node is in the cluster (a node that cannot join says why and closes).
        while (!p.node.joined && !p.node.isClosed) Thread.sleep(20)
        if (p.node.joined) System.err.println(s"cogs: node '${p.nodeName}' serves the model at ${p.node.address}")
        val lost = try p.awaitMainGone() finally p.close()
        lost match {
          case None => 0
          case Some(why) =>
            // A failure to join was said already, by the node.
            if (p.node.joinFailure eq null) System.err.println(s"cogs: node '${p.nodeName}' stops: $why")
            1
        }
      } catch {
        case e: Exception =>
          System.err.println(s"cogs: the node cannot serve the model: ${e.getMessage}")
          1
      } finally {
        Out.flush()
        rt.close()
      }
    System.exit(status)
  }
}
