package cogs.savina.apsp

import cogs.runtime.CogRuntime
import cogs.savina.{Digest, Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Apsp]]. */
final case class Params(nodes: Int, blockSize: Int, maxWeight: Int) {
  require(nodes >= 1 && blockSize >= 1 && nodes % blockSize == 0 && nodes / blockSize >= 2 && maxWeight >= 1,
    s"bad parameters $this (nodes must be a multiple of blockSize, with at least 2 blocks per side)")
  override def toString = s"nodes=$nodes block=$blockSize maxWeight=$maxWeight"
  def blocksPerSide: Int = nodes / blockSize
}

/**
 * Savina's `apsp`: all-pairs shortest paths of a complete graph with random weights, by
 * Floyd-Warshall on a grid of blocks, one actor per block. For each k every block needs the
 * previous iteration's blocks of its row and column, which their actors send it. Savina's
 * actors keep one message per neighbour, so a neighbour already one iteration ahead can
 * overwrite data still needed; here the data is kept per iteration. The answer is a digest of
 * the distance matrix, checked against sequential Floyd-Warshall.
 */
object Apsp extends SavinaBenchmark[Params, Long] {
  val name = "apsp"
  val title = "All-Pairs Shortest Path"
  val defaults: Params = Params(nodes = 300, blockSize = 50, maxWeight = 100)
  val quick: Params = Params(nodes = 120, blockSize = 30, maxWeight = 100)

  def graph(p: Params): Array[Array[Long]] = {
    val random = new Rand(p.nodes)
    val g = Array.ofDim[Long](p.nodes, p.nodes)
    for (i <- 0 until p.nodes; j <- i + 1 until p.nodes) {
      val w = random.nextInt(p.maxWeight) + 1L
      g(i)(j) = w
      g(j)(i) = w
    }
    g
  }

  def digest(d: Array[Array[Long]]): Long = Digest.of(d.flatten)

  def expected(p: Params): Long = {
    val d = graph(p)
    val n = p.nodes
    for (k <- 0 until n; i <- 0 until n; j <- 0 until n) {
      val via = d(i)(k) + d(k)(j)
      if (via < d(i)(j)) d(i)(j) = via
    }
    digest(d)
  }

  /** The state and computation of one block, shared by both implementations. */
  final class BlockState(p: Params, val id: Int, g: Array[Array[Long]]) {
    private[this] val b = p.blockSize
    private[this] val side = p.blocksPerSide
    val row0: Int = (id / side) * b
    val col0: Int = (id % side) * b
    /** The ids of the other blocks of this block's row and column. */
    val neighbours: Array[Int] =
      ((0 until side).filter(_ != id / side).map(r => r * side + id % side) ++
        (0 until side).filter(_ != id % side).map(c => (id / side) * side + c)).toArray
    /** This block's distances after iteration `k` (starting at k = -1: the graph). */
    var k: Int = -1
    var data: Array[Array[Long]] = Array.tabulate(b, b)((i, j) => g(row0 + i)(col0 + j))
    // Neighbours' blocks per iteration: a neighbour may be one iteration ahead.
    private[this] val received = new java.util.HashMap[Integer, java.util.HashMap[Integer, Array[Array[Long]]]]()

    def store(iteration: Int, from: Int, block: Array[Array[Long]]): Unit =
      received.computeIfAbsent(iteration, _ => new java.util.HashMap()).put(from, block)

    /** Every neighbour's block of iteration `k` is here. */
    def ready: Boolean = { val m = received.get(k); (m ne null) && m.size == neighbours.length }

    def finished: Boolean = k == p.nodes - 1

    /** Iteration k + 1 from the blocks of iteration k. */
    def step(): Unit = {
      val prev = received.remove(k)
      val kk = k + 1
      def at(r: Int, c: Int): Long = {
        val owner = (r / b) * side + c / b
        val block = if (owner == id) data else prev.get(owner)
        block(r % b)(c % b)
      }
      val next = Array.ofDim[Long](b, b)
      for (i <- 0 until b; j <- 0 until b) {
        val via = at(row0 + i, kk) + at(kk, col0 + j)
        next(i)(j) = math.min(data(i)(j), via)
      }
      data = next
      k = kk
    }
  }

  def assemble(p: Params, blocks: Iterable[(Int, Array[Array[Long]])]): Long = {
    val d = Array.ofDim[Long](p.nodes, p.nodes)
    val side = p.blocksPerSide
    for ((id, block) <- blocks; i <- 0 until p.blockSize; j <- 0 until p.blockSize)
      d((id / side) * p.blockSize + i)((id % side) * p.blockSize + j) = block(i)(j)
    digest(d)
  }

  def runCogs(rt: CogRuntime, p: Params): Long = ApspCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = ApspPekko.run(system, p)
}
