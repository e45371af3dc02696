package cogs.savina.astar

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark, Work}
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLongArray
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[AStar]]. */
final case class Params(workers: Int, gridSize: Int, threshold: Int, seed: Long) {
  require(workers >= 1 && gridSize >= 2 && threshold >= 1, s"bad parameters $this")
  override def toString = s"workers=$workers grid=$gridSize^3 threshold=$threshold seed=$seed"
}

/** The answer of [[AStar]]: the number of edges of the path found, and what is wrong with it, if anything. */
final case class Route(hops: Int, problem: Option[String]) {
  override def toString = problem.fold(s"a path of $hops edges")(e => s"NOT A PATH ($e, after $hops edges)")
}

/**
 * Savina's `astar` (its "guided search"): a path from the corner (0, 0, 0) of a cube of
 * `gridSize`^3 nodes to the node at 80% of its diagonal, in a random directed graph whose edges
 * go from (i, j, k) to (i + a, j + b, k + c) with a, b, c in {0, 1}, not all equal (clamped at
 * the faces). The nodes' search state is shared, as in Savina: a worker takes a node, explores
 * breadth first from it, at most `threshold` nodes (with Savina's busy wait per node), and hands
 * the nodes left in its queue back to the master, which deals them round-robin to the workers.
 *
 * Savina stops at the first path that reaches the target (whichever worker gets there, so not
 * always a shortest one). Here a node's distance and parent are improved whenever a shorter
 * route to it is found (one compare-and-set on a word holding both), and a node is expanded
 * only while its distance plus an admissible estimate of the rest (each edge advances at most
 * one step along each axis and two in all) is below the target's best distance so far: an A*
 * bound. The search ends when no work is left; the target's parent chain is then a shortest
 * path. The answer is that chain's length, each of its steps checked to be an edge of the graph;
 * it must equal the distance a sequential breadth-first search finds.
 */
object AStar extends SavinaBenchmark[Params, Route] {
  val name = "astar"
  val title = "A-Star Search"
  val defaults: Params = Params(workers = 20, gridSize = 30, threshold = 1024, seed = 123456L)
  val quick: Params = Params(workers = 10, gridSize = 16, threshold = 128, seed = 123456L)

  /** The cube's nodes (id = (i * size + j) * size + k) and their outgoing edges. */
  final class Graph(val size: Int, val edges: Array[Array[Int]]) {
    def nodes: Int = edges.length
    def i(id: Int): Int = id / (size * size)
    def j(id: Int): Int = id / size % size
    def k(id: Int): Int = id % size
    def id(i: Int, j: Int, k: Int): Int = (i * size + j) * size + k
    val origin: Int = 0
    val target: Int = { val t = (0.8 * size).toInt; id(t, t, t) }
  }

  private val graphs = new ConcurrentHashMap[(Int, Long), Graph]()

  /** The graph of `p` (built once per JVM: it is read-only). */
  def graph(p: Params): Graph = graphs.computeIfAbsent((p.gridSize, p.seed), _ => buildGraph(p.gridSize, p.seed))

  // The six directions, in the order they are drawn; the last one is taken whenever the node has no edge yet.
  private val steps = Array((0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0))

  private def buildGraph(size: Int, seed: Long): Graph = {
    val random = new Rand(seed)
    val n = size * size * size
    val edges = new Array[Array[Int]](n)
    val shell = new Graph(size, edges)
    val out = new Array[Int](steps.length)
    for (v <- 0 until n) {
      var count = 0
      for (s <- steps.indices) {
        val (a, b, c) = steps(s)
        if ((s == steps.length - 1 && count == 0) || random.nextInt(2) == 1) {
          val w = shell.id(math.min(size - 1, shell.i(v) + a), math.min(size - 1, shell.j(v) + b), math.min(size - 1, shell.k(v) + c))
          // Clamping at a face can lead back to the node itself or to a neighbour it already has.
          if (w != v && !out.take(count).contains(w)) { out(count) = w; count += 1 }
        }
      }
      edges(v) = out.take(count)
    }
    shell
  }

  def expected(p: Params): Route = {
    val g = graph(p)
    val dist = Array.fill(g.nodes)(-1)
    val queue = new Array[Int](g.nodes)
    var head = 0
    var tail = 0
    dist(g.origin) = 0
    queue(tail) = g.origin; tail += 1
    while (head < tail && dist(g.target) < 0) {
      val u = queue(head); head += 1
      for (v <- g.edges(u) if dist(v) < 0) { dist(v) = dist(u) + 1; queue(tail) = v; tail += 1 }
    }
    if (dist(g.target) < 0) throw new IllegalArgumentException(s"$p: the target cannot be reached")
    Route(dist(g.target), None)
  }

  private final val Unreachable = Int.MaxValue

  /** A lower bound of the edges from `v` to the target; [[Unreachable]] past it on an axis (edges never go back). */
  def estimate(g: Graph, v: Int): Int = {
    val t = g.target
    val di = g.i(t) - g.i(v)
    val dj = g.j(t) - g.j(v)
    val dk = g.k(t) - g.k(v)
    if (di < 0 || dj < 0 || dk < 0) Unreachable
    else math.max(math.max(di, dj), math.max(dk, (di + dj + dk + 1) / 2))
  }

  /**
   * The search state of one run, shared by every worker: per node one word, its best distance so
   * far (high half) and the node it came from (low half), so that both change together.
   */
  final class Search(val g: Graph) {
    private[this] val state = new AtomicLongArray(g.nodes)
    for (v <- 0 until g.nodes) state.set(v, pack(Unreachable, -1))
    state.set(g.origin, pack(0, -1))

    private def pack(distance: Int, parent: Int): Long = (distance.toLong << 32) | (parent & 0xffffffffL)
    def distance(v: Int): Int = (state.get(v) >>> 32).toInt
    def parent(v: Int): Int = state.get(v).toInt

    /** Record `distance` via `from` if it is shorter than what `v` has; true if it was. */
    def improve(v: Int, distance: Int, from: Int): Boolean = {
      val next = pack(distance, from)
      var cur = state.get(v)
      while ((cur >>> 32).toInt > distance) {
        if (state.compareAndSet(v, cur, next)) return true
        cur = state.get(v)
      }
      false
    }

    /**
     * A worker's search from `start`: breadth first, at most `threshold` nodes, each with Savina's
     * busy wait; the nodes still queued, for the master to hand out.
     */
    def explore(start: Int, threshold: Int, random: Rand): Array[Int] = {
      var queue = new Array[Int](64)
      var head = 0
      var tail = 0
      queue(tail) = start; tail += 1
      var processed = 0
      while (head < tail && processed < threshold) {
        processed += 1
        Work.busyWait(random, 100)
        val u = queue(head); head += 1
        val du = distance(u)
        // The target's distance only shrinks: a node that cannot beat it now never will.
        if (du.toLong + estimate(g, u) < distance(g.target)) {
          val out = g.edges(u)
          var e = 0
          while (e < out.length) {
            val v = out(e)
            val h = estimate(g, v)
            if (h != Unreachable && du.toLong + 1 + h < distance(g.target) && improve(v, du + 1, u) && v != g.target) {
              if (tail == queue.length) {
                // The consumed head of the queue is dead: move the rest down, and grow only if it is half full.
                val live = tail - head
                val bigger = if (live * 2 <= queue.length) queue else new Array[Int](queue.length * 2)
                System.arraycopy(queue, head, bigger, 0, live)
                queue = bigger
                head = 0
                tail = live
              }
              queue(tail) = v; tail += 1
            }
            e += 1
          }
        }
      }
      java.util.Arrays.copyOfRange(queue, head, tail)
    }

    /** The path that the parents give from the target back to the origin, each step checked against the graph. */
    def route(): Route = {
      if (distance(g.target) == Unreachable) return Route(0, Some("the target was not reached"))
      var v = g.target
      var hops = 0
      while (v != g.origin) {
        val u = parent(v)
        if (u < 0) return Route(hops, Some(s"node $v has no parent"))
        if (!g.edges(u).contains(v)) return Route(hops, Some(s"$u -> $v is not an edge"))
        hops += 1
        if (hops > g.nodes) return Route(hops, Some("the parents form a cycle"))
        v = u
      }
      Route(hops, None)
    }
  }

  def runCogs(rt: CogRuntime, p: Params): Route = AStarCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Route = AStarPekko.run(system, p)
}
