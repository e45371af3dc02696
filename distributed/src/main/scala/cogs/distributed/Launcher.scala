package cogs.distributed

import java.net.ServerSocket

/**
 * Starts nodes as separate JVMs on loopback (127.0.0.1), for tests, examples and benchmarks.
 *
 * From the command line: `Launcher N MAIN_CLASS [ARGS..]` starts N JVMs running `MAIN_CLASS`
 * with this JVM's class path, waits for all of them and exits with the worst exit status. JVM i
 * (from 0) gets the system properties `cogs.node.index=i` and `cogs.node.count=N`, a free port of
 * its own (`pekko.remote.artery.canonical.port`), and node 0 as its seed node, so a main that
 * calls `Node.start()` joins the others with no configuration of its own. Their output is
 * prefixed with `[node i]`.
 */
object Launcher {

  /**
   * Start one JVM running `mainClass` with `args`, the given system properties and this JVM's
   * class path (the test class path under Maven's surefire); its output goes to this JVM's.
   */
  def startJvm(mainClass: String, args: Seq[String], properties: Map[String, String], inheritIO: Boolean): Process = {
    val javaBin = java.nio.file.Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val cmd = new java.util.ArrayList[String]()
    cmd.add(javaBin)
    cmd.add("-Xss4m")
    // From JDK 24 the JVM warns on stderr, four lines per JVM, when Pekko uses sun.misc.Unsafe's
    // memory access; a node's output should be its own. The option exists from JDK 23 (JDK 17
    // would refuse it).
    if (Runtime.version().feature() >= 23) cmd.add("--sun-misc-unsafe-memory-access=allow")
    properties.foreach { case (k, v) => cmd.add(s"-D$k=$v") }
    cmd.add("-cp")
    cmd.add(System.getProperty("java.class.path"))
    cmd.add(mainClass)
    args.foreach(cmd.add)
    val pb = new ProcessBuilder(cmd)
    if (inheritIO) pb.inheritIO() else pb.redirectErrorStream(true)
    pb.start()
  }

  /** The system properties that put JVM `index` of `count` on loopback port `ports(index)`, node 0 its seed. */
  def nodeProperties(index: Int, ports: IndexedSeq[Int]): Map[String, String] = {
    val system = com.typesafe.config.ConfigFactory.defaultReference().getString("cogs.distributed.system-name")
    Map(
      "cogs.node.index" -> index.toString,
      "cogs.node.count" -> ports.size.toString,
      "pekko.remote.artery.canonical.hostname" -> "127.0.0.1",
      "pekko.remote.artery.canonical.port" -> ports(index).toString,
      "pekko.cluster.seed-nodes.0" -> s"pekko://$system@127.0.0.1:${ports(0)}"
    )
  }

  /**
   * `n` free TCP ports on loopback. A port is free when asked; another program could take it
   * before the node binds it (then that node fails to start, saying so): acceptable on a test
   * machine, and only the seed's port has to be known in advance.
   */
  def freePorts(n: Int): IndexedSeq[Int] = {
    val sockets = (0 until n).map(_ => new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress))
    try sockets.map(_.getLocalPort) finally sockets.foreach(_.close())
  }

  /**
   * Start `n` JVMs running `mainClass` (see the object's comment), wait for all of them and return
   * the worst exit status. Their output is printed with `[node i] ` in front.
   */
  def launch(n: Int, mainClass: String, args: Seq[String]): Int = {
    require(n >= 1, s"launch: at least one node, got $n")
    val ports = freePorts(n)
    launch(mainClass, args, (0 until n).map(nodeProperties(_, ports)))
  }

  /** [[launch]] with each JVM's system properties given (one JVM per entry). */
  def launch(mainClass: String, args: Seq[String], properties: IndexedSeq[Map[String, String]]): Int = {
    val n = properties.size
    val procs = (0 until n).map { i =>
      val p = startJvm(mainClass, args, properties(i), inheritIO = false)
      val prefix = s"[node $i] "
      val t = new Thread(() => {
        val in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream))
        Iterator.continually(in.readLine()).takeWhile(_ != null).foreach(l => println(prefix + l))
      }, s"node-$i-output")
      t.setDaemon(true)
      t.start()
      (p, t)
    }
    // Ending the launcher ends its nodes (no orphan JVMs holding ports).
    val hook = new Thread(() => procs.foreach(_._1.destroy()))
    Runtime.getRuntime.addShutdownHook(hook)
    try {
      val codes = procs.map { case (p, t) => val c = p.waitFor(); t.join(1000); c }
      codes.zipWithIndex.foreach { case (c, i) => if (c != 0) System.err.println(s"node $i exited with status $c") }
      codes.max
    } finally {
      procs.foreach(_._1.destroy())
      Runtime.getRuntime.removeShutdownHook(hook)
    }
  }

  def main(args: Array[String]): Unit = {
    if (args.length < 2 || args(0).toIntOption.forall(_ < 1)) {
      System.err.println("usage: Launcher N MAIN_CLASS [ARGS..]   (starts N JVMs on 127.0.0.1, node 0 the seed)")
      System.exit(2)
    }
    System.exit(launch(args(0).toInt, args(1), args.drop(2).toSeq))
  }
}
