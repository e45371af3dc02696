package cogs.distributed

import com.typesafe.config.ConfigFactory
import java.util.concurrent.TimeUnit

/**
 * The main of each JVM in LauncherTest: configured only by the launcher's system properties.
 * Node 0 offers a store and waits until every other node has used it and left; each other node
 * adds its index to the store on node 0, checks the sum it gets back, and leaves.
 * Exit status 0 when everything checked out.
 */
object LaunchedNode {
  def main(args: Array[String]): Unit = {
    val index = Integer.getInteger("cogs.node.index").intValue
    val count = Integer.getInteger("cogs.node.count").intValue
    val config = ConfigFactory.systemProperties()
      .withFallback(ConfigFactory.parseString(
        """pekko.loglevel = WARNING
          |pekko.log-dead-letters = off
          |pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off""".stripMargin))
      .withFallback(ConfigFactory.load())
    val node = Node.start(config)
    var status = 1
    try {
      node.register("store")(_ => node.runtime.spawn(new Store(0)))
      node.awaitMembers(count, 60, TimeUnit.SECONDS)
      println(s"node $index of $count is up at ${node.address}; members: ${node.members.size}")
      if (index == 0) {
        // Done when every other node has left again.
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90)
        while (node.members.size > 1 && System.nanoTime() < deadline) Thread.sleep(50)
        status = if (node.members.size == 1) 0 else 1
      } else {
        val seed = org.apache.pekko.actor.AddressFromURIString(System.getProperty("pekko.cluster.seed-nodes.0"))
        val store = node.create(seed, "store").join(60, TimeUnit.SECONDS)
        val got = store.send[Int]("add", index).join(60, TimeUnit.SECONDS)
        println(s"node $index added $index on ${store.node}, got $got")
        status = if (got == index) 0 else 1
      }
    } finally node.close()
    System.exit(status)
  }
}
