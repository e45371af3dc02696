package cogs.distributed

import com.typesafe.config.ConfigFactory
import java.util.concurrent.TimeUnit

/**
 * The main of each JVM in LauncherTest: configured only by the launcher's system properties.
 * Node 0 offers one shared store (a barrier) and waits until all nodes are up, every other node
 * has added its index, and every other node has left; each other node adds its index to the store on node 0, waits until every
 * other node has added its own (the sum), and leaves.
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
      // One object shared by every caller: the nodes' barrier (nobody leaves before all have called).
      lazy val barrier = node.runtime.spawn(new Store(0))
      node.register("barrier")(_ => barrier)
      val expected = (1 until count).sum
      if (index == 0) {
        // Done when every node was seen as a member, in any state (a node that is done may leave
        // before another one's Up reached this node), and the others left again.
        val seen = scala.collection.mutable.Set.empty[org.apache.pekko.actor.Address]
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
        // And not before every other node has added its index: one that was seen only as joining
        // may still be about to call the barrier when the others have left.
        def added: Int = barrier.send("total")((b: Store) => b.total()).join(60, TimeUnit.SECONDS)
        // "Left" means gone from this node's membership in every state: `node.members` counts only
        // Up members, and a node still Joining (under load, before convergence) or Leaving is not
        // Up but may still call the barrier; ending then failed its next call (a CI failure).
        def others: Int = node.cluster.state.members.count(_.address != node.address)
        while ((seen.size < count || others > 0 || added < expected) && System.nanoTime() < deadline) {
          seen ++= node.cluster.state.members.iterator.map(_.address)
          Thread.sleep(20)
        }
        println(s"node 0 at ${node.address} saw ${seen.size} of $count nodes as members; $others other(s) still members; $added of $expected added")
        status = if (seen.size == count && others == 0 && added == expected) 0 else 1
      } else {
        val seed = org.apache.pekko.actor.AddressFromURIString(System.getProperty("pekko.cluster.seed-nodes.0"))
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90)
        while (!node.members.contains(seed) && System.nanoTime() < deadline) Thread.sleep(20)
        val store = node.create(seed, "barrier").join(60, TimeUnit.SECONDS)
        val got = store.send[Int]("add", index).join(60, TimeUnit.SECONDS)
        println(s"node $index added $index on ${store.node}, got $got")
        var total = got
        while (total < expected && System.nanoTime() < deadline) {
          Thread.sleep(20)
          total = store.send[Int]("total").join(60, TimeUnit.SECONDS)
        }
        println(s"node $index saw the total $total of $expected")
        status = if (got >= index && total == expected) 0 else 1
      }
    } catch {
      // Said in the node's output (the launcher prints it), so a failing run shows why.
      case e: Exception => println(s"node $index failed: $e")
    } finally node.close()
    System.exit(status)
  }
}
