package cogs.distributed.bench

import cogs.distributed.Launcher

/**
 * `Launcher` with a [[DelayLink]] in front of every node: `LinkedLauncher DELAY_MS LOSS_PERCENT N
 * MAIN_CLASS [ARGS..]` starts N JVMs as `Launcher` does, each binding a port of its own and
 * advertising its link's, so that every message between two of them is delayed `DELAY_MS` (a
 * round trip twice that) and stalled as a lost TCP segment with probability `LOSS_PERCENT` per
 * chunk. The links run in this JVM.
 */
object LinkedLauncher {
  def launch(delayMs: Double, lossPercent: Double, n: Int, mainClass: String, args: Seq[String]): Int = {
    require(n >= 1, s"at least one node, got $n")
    val bind = Launcher.freePorts(n)
    val links = bind.map(p => new DelayLink(p, (delayMs * 1e6).toLong, lossPercent / 100))
    try {
      val canonical = links.map(_.port)
      val props = (0 until n).map(i => Launcher.nodeProperties(i, canonical) ++ DelayLink.nodeSettings(links(i), bind(i)))
      val status = Launcher.launch(mainClass, args, props)
      val stalls = links.map(_.stalls.get).sum
      val chunks = links.map(_.chunks.get).sum
      System.err.println(f"links: delay $delayMs%.1f ms, loss $lossPercent%.1f%%: $chunks chunks, $stalls held as lost")
      status
    } finally links.foreach(_.close())
  }

  def main(args: Array[String]): Unit = {
    if (args.length < 4 || args(0).toDoubleOption.isEmpty || args(1).toDoubleOption.isEmpty || args(2).toIntOption.forall(_ < 1)) {
      System.err.println("usage: LinkedLauncher DELAY_MS LOSS_PERCENT N MAIN_CLASS [ARGS..]")
      System.exit(2)
    }
    System.exit(launch(args(0).toDouble, args(1).toDouble, args(2).toInt, args(3), args.drop(4).toSeq))
  }
}
