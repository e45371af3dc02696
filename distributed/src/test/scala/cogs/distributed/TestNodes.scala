package cogs.distributed

import com.typesafe.config.{Config, ConfigFactory}
import java.util.concurrent.TimeUnit

/** Nodes on loopback for the tests: same JVM, one actor system and one runtime each. */
object TestNodes {

  /** Short failure detection, quiet logs, ports picked by the system (0). */
  def config(seeds: Seq[String], extra: String = ""): Config = ConfigFactory.parseString(
    s"""$extra
       |pekko.loglevel = WARNING
       |pekko.stdout-loglevel = WARNING
       |pekko.log-dead-letters = off
       |pekko.log-dead-letters-during-shutdown = off
       |pekko.remote.artery.canonical.hostname = "127.0.0.1"
       |pekko.remote.artery.canonical.port = 0
       |pekko.cluster.seed-nodes = [${seeds.map(s => "\"" + s + "\"").mkString(", ")}]
       |pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
       |pekko.cluster.failure-detector.heartbeat-interval = 200 ms
       |pekko.cluster.failure-detector.acceptable-heartbeat-pause = 1 s
       |pekko.cluster.unreachable-nodes-reaper-interval = 250 ms
       |pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
       |cogs.distributed.lost-after = 1 s
       |cogs.executor.parallelism = 2
       |""".stripMargin).withFallback(ConfigFactory.load())

  /** The factories every test node offers. */
  def registerAll(n: Node): Unit = {
    n.register("store")(args => n.runtime.spawn(new Store(args.headOption.fold(0)(_.asInstanceOf[Int]))))
    n.register("relay")(_ => n.runtime.spawn(new Relay))
    n.register("broken")(_ => throw new IllegalStateException("the broken factory always throws"))
  }

  /** `count` nodes in one cluster, the first one its seed; every one has the test factories. */
  def start(count: Int, extra: String = ""): Vector[Node] = {
    val first = Node.start(config(Nil, extra))
    registerAll(first)
    val rest = (1 until count).map { _ =>
      val n = Node.start(config(Seq(first.address.toString), extra))
      registerAll(n)
      n
    }
    val all = first +: rest.toVector
    all.foreach(_.awaitMembers(count, 30, TimeUnit.SECONDS))
    all
  }

  def closeAll(nodes: Seq[Node]): Unit = nodes.reverse.foreach(n => try n.close() catch { case _: Exception => () })
}
