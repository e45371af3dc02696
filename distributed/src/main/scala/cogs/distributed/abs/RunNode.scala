package cogs.distributed.abs

import com.typesafe.config.{ConfigException, ConfigFactory}
import scala.jdk.CollectionConverters._

/**
 * One node of a packaged ABS model (`absc package --cluster`, `OUT/bin/run --node NAME --config
 * FILE`): `RunNode MAIN_OBJECT NAME [COMMAND LINE..]` with the cluster's configuration as
 * `-Dconfig.file`; the main node hands COMMAND LINE to the model's main as its command line
 * (cogs.absc.run.ProgramCommandLine: options, then `--` and the program's arguments). Reads this node's and the main node's addresses from
 * `cogs.distributed.nodes { main = "HOST:PORT", NAME = "HOST:PORT" }`, sets Pekko's address and
 * seed node from them, and runs the model's main (node `main`) or [[ServeModel]] (any other).
 * What `absc run --node` gives a node as system properties, for a package without absc.
 */
object RunNode {
  def main(args: Array[String]): Unit = {
    if (args.length < 2) usage("a main object and a node name are needed")
    val mainObject = args(0)
    val name = args(1)
    val conf =
      try ConfigFactory.load()
      catch { case e: ConfigException => usage(s"--config: ${e.getMessage}") }
    val file = Option(System.getProperty("config.file")).getOrElse("the configuration")
    val nodes: Map[String, String] =
      try if (conf.hasPath(NodesKey)) conf.getObject(NodesKey).unwrapped.asScala.map { case (k, v) => k -> String.valueOf(v) }.toMap else Map.empty
      catch { case e: ConfigException => usage(s"$file: $NodesKey must be an object { NAME = \"HOST:PORT\" }: ${e.getMessage}") }
    def address(n: String): (String, Int) = {
      val a = nodes.getOrElse(n, usage(s"--node: no node named '$n' in $file ($NodesKey names " +
        s"${if (nodes.isEmpty) "no node" else nodes.keys.toList.sorted.mkString(", ")})"))
      val i = a.lastIndexOf(':')
      (if (i > 0) a.substring(i + 1).toIntOption else None) match {
        case Some(p) if p >= 1 && p <= 65535 => (a.substring(0, i), p)
        case _ => usage(s"$file: $NodesKey.$n = \"$a\" is not an address HOST:PORT (a port from 1 to 65535)")
      }
    }
    val (host, port) = address(name)
    val (mainHost, mainPort) = address(MainNode)
    val system = conf.getString("cogs.distributed.system-name")
    System.setProperty(AbsPlacement.NodeNameKey, name)
    System.setProperty("pekko.remote.artery.canonical.hostname", host)
    System.setProperty("pekko.remote.artery.canonical.port", port.toString)
    System.setProperty("pekko.cluster.seed-nodes.0", s"pekko://$system@$mainHost:$mainPort")
    ConfigFactory.invalidateCaches()
    if (name == MainNode) {
      val m =
        try Class.forName(mainObject).getMethod("main", classOf[Array[String]])
        catch { case e: ReflectiveOperationException => usage(s"the model's main object $mainObject cannot be loaded: $e") }
      try m.invoke(null, args.drop(2))
      catch { case e: java.lang.reflect.InvocationTargetException => throw e.getCause }
    } else ServeModel.main(Array.empty)
  }

  private final val MainNode = "main"
  private final val NodesKey = "cogs.distributed.nodes"

  private def usage(why: String): Nothing = {
    System.err.println(s"run: $why")
    System.exit(2)
    throw new IllegalStateException("unreachable")
  }
}
