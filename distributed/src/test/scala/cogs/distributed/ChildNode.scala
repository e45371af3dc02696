package cogs.distributed

/**
 * A node in a JVM of its own, for the crash test: joins the seed given as its argument, offers the
 * test factories, prints `READY <address>`, and stops when its standard input closes (or when it
 * is killed, which is the point).
 */
object ChildNode {
  def main(args: Array[String]): Unit = {
    val node = Node.start(TestNodes.config(args.toSeq))
    TestNodes.registerAll(node)
    println(s"READY ${node.address}")
    System.out.flush()
    while (System.in.read() >= 0) {}
    node.close()
  }
}
