package cogs.savina.uct

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Uct]]. */
final case class Params(maxNodes: Int, avgCompSize: Int, stdevCompSize: Int, binomial: Int, urgentPercent: Int) {
  require(binomial >= 1 && maxNodes >= 1 + binomial && avgCompSize >= 1 && stdevCompSize >= 0 &&
    urgentPercent >= 0 && urgentPercent <= 100, s"bad parameters $this")
  override def toString =
    s"maxNodes=$maxNodes avgCompSize=$avgCompSize stdevCompSize=$stdevCompSize binomial=$binomial urgentPercent=$urgentPercent"
}

/** The tree a run built: its number of nodes (with the root), its height (the root alone: 1), and a digest of its structure and its nodes' work. */
final case class Tree(nodes: Int, height: Int, digest: Long) {
  override def toString = s"$nodes nodes, height $height, digest ${java.lang.Long.toHexString(digest)}"
}

/**
 * Savina's `uct` (Unbalanced Cobwebbed Tree): a root and one actor per node grow a random tree
 * of at most `maxNodes` nodes. The root creates `binomial` children; every new node does some
 * work and asks the root whether it may have children; while the tree has room the root says
 * yes with probability 1/2, with a computation size drawn from a normal distribution
 * (`avgCompSize`, `stdevCompSize`) and, in about `urgentPercent`% of the cases, an urgent child;
 * the node then creates its `binomial` children, which ask in turn. Every node talks to the root:
 * the cobweb. When every node has asked, the root traverses the tree: each node works in
 * proportion to its computation size and passes the traversal to its children.
 *
 * Answer: the number of nodes, the height and a digest of every node (id, height, computation
 * size, urgency, the results of its work) folded over the tree, checked exactly against a
 * sequential construction. Three changes make the tree deterministic and the work real:
 *  - The root's decisions are made in the order of the node ids (breadth first), whatever the
 *    order the requests arrive in: a request for node `i` first settles every node below `i`
 *    not yet decided (the root can: a decision depends on nothing the node sends). Savina's root
 *    decides in arrival order, so its tree differs from run to run.
 *  - The traversal reports back: each node answers with the digest of its subtree (Cogs: the
 *    future of `traverse`; Pekko: one more message per node). It starts once every node has
 *    asked the root, so every node exists; Savina starts it at the first request past the limit,
 *    when some nodes may still be on their way.
 *  - Savina's busy loops count to `40,000 x size` and their result is dropped, so the JIT may
 *    remove them (were they run, the default tree would take hours); ours run `size` rounds of
 *    a mixing function (100 when a node is created, its computation size when visited), whose
 *    results are in the digest, so they cannot be dropped.
 * Savina's root never starts its "urgent" traversal; neither does ours: urgency only shows in the digest.
 */
object Uct extends SavinaBenchmark[Params, Tree] {
  val name = "uct"
  val title = "Unbalanced Cobwebbed Tree"
  val defaults: Params = Params(maxNodes = 200000, avgCompSize = 500, stdevCompSize = 100, binomial = 10, urgentPercent = 50)
  val quick: Params = Params(maxNodes = 10000, avgCompSize = 500, stdevCompSize = 100, binomial = 10, urgentPercent = 50)

  /** Savina's busy work when a node is created (its `loop(100, dummy)`). */
  val CreateRounds = 100

  /** The seed of the root's decisions (Savina's root uses `new Random(2)`). */
  val Seed = 2L

  /** `rounds` rounds of a mixing function: the busy work, each round depending on the last. */
  def spin(seed: Long, rounds: Int): Long = {
    var x = seed
    var i = 0
    while (i < rounds) {
      x = x * 6364136223846793005L + 1442695040888963407L
      x ^= x >>> 29
      i += 1
    }
    x
  }

  /** The work a node does when created. */
  def created(id: Int): Long = spin(id, CreateRounds)

  /** The work a node does when the traversal visits it. */
  def visited(id: Int, comp: Int): Long = spin(~id.toLong, comp)

  /** A node's own part of the digest. */
  def own(id: Int, height: Int, comp: Int, urgent: Boolean, created: Long, visited: Long): Long = {
    var h = id.toLong
    h = h * 1000003 + height
    h = h * 1000003 + comp
    h = h * 1000003 + (if (urgent) 1 else 0)
    h = h * 1000003 + created
    h * 1000003 + visited
  }

  /** Fold a child's subtree digest into its parent's, children in order. */
  def fold(h: Long, child: Long): Long = h * 31 + child

  /** A normally distributed computation size, redrawn until positive (as Savina does), from `rand` alone. */
  def normal(rand: Rand, mean: Int, dev: Int): Int = {
    var result = 0
    while (result <= 0) {
      // Box-Muller. StrictMath: the same bits whichever way the JIT compiles it.
      val u1 = 1.0 - rand.nextDouble()
      val u2 = rand.nextDouble()
      val g = StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2.0 * StrictMath.PI * u2)
      result = StrictMath.round(g * dev + mean).toInt
    }
    result
  }

  /** The root's yes: the node's children get ids `firstChild` and on, computation size `comp`; `urgentChild` is -1 for none. */
  final class Grant(val firstChild: Int, val comp: Int, val urgentChild: Int)

  /**
   * The root's decisions, made in node-id order whatever the order of the requests (see above).
   * Shared by both implementations; the expected answer is computed without it.
   */
  final class Planner(p: Params) {
    private[this] val rand = new Rand(Seed)
    private[this] val heights = new Array[Int](p.maxNodes)
    private[this] val grants = new Array[Grant](p.maxNodes)
    private[this] var decided = 1 // ids below are decided; the root is id 0
    private[this] var asked = 0
    /** Nodes so far, with the root: ids are 0 until size. */
    var size = 1
    /** The greatest height of a node so far (the root: 1). */
    var height = 1

    heights(0) = 1

    private def allocate(parent: Int): Int = {
      val first = size
      val h = heights(parent) + 1
      var i = 0
      while (i < p.binomial) { heights(first + i) = h; i += 1 }
      size += p.binomial
      if (h > height) height = h
      first
    }

    /** The root's own children: the id of the first (1) and their computation size. */
    def start(): (Int, Int) = {
      val comp = normal(rand, p.avgCompSize, p.stdevCompSize)
      (allocate(0), comp)
    }

    private def decideNext(): Unit = {
      val id = decided
      decided += 1
      if (size + p.binomial <= p.maxNodes && rand.nextLong() < 0) {
        val comp = normal(rand, p.avgCompSize, p.stdevCompSize)
        val urgentChild = if (rand.nextInt(100) > p.urgentPercent) -1 else rand.nextInt(p.binomial)
        grants(id) = new Grant(allocate(id), comp, urgentChild)
      }
    }

    /** Node `id` (of height `height`) asks: its grant, or null. */
    def ask(id: Int, height: Int): Grant = {
      if (id <= 0 || id >= size || heights(id) != height)
        throw new IllegalStateException(s"a request from node $id of height $height, which the root did not create")
      while (decided <= id) decideNext()
      asked += 1
      val g = grants(id)
      grants(id) = null
      g
    }

    /** Every node has asked: the tree is complete, every node exists. */
    def complete: Boolean = asked == size - 1
  }

  def expected(p: Params): Tree = {
    val rand = new Rand(Seed)
    val b = p.binomial
    val height = new Array[Int](p.maxNodes)
    val comp = new Array[Int](p.maxNodes)
    val urgent = new Array[Boolean](p.maxNodes)
    val firstChild = Array.fill(p.maxNodes)(-1)
    height(0) = 1
    firstChild(0) = 1
    val rootComp = normal(rand, p.avgCompSize, p.stdevCompSize)
    for (i <- 1 to b) { height(i) = 2; comp(i) = rootComp }
    var size = 1 + b
    var id = 1
    while (id < size) { // breadth first: every node asks once, in id order
      if (size + b <= p.maxNodes && rand.nextLong() < 0) {
        val c = normal(rand, p.avgCompSize, p.stdevCompSize)
        val u = if (rand.nextInt(100) > p.urgentPercent) -1 else rand.nextInt(b)
        firstChild(id) = size
        for (i <- 0 until b) { height(size + i) = height(id) + 1; comp(size + i) = c; urgent(size + i) = i == u }
        size += b
      }
      id += 1
    }
    // Children have greater ids than their parent: fill the digests from the last id down.
    val digest = new Array[Long](size)
    var n = size - 1
    while (n >= 0) {
      var h =
        if (n == 0) own(0, 1, 0, urgent = false, 0L, 0L)
        else own(n, height(n), comp(n), urgent(n), created(n), visited(n, comp(n)))
      if (firstChild(n) >= 0) for (i <- 0 until b) h = fold(h, digest(firstChild(n) + i))
      digest(n) = h
      n -= 1
    }
    Tree(size, height.max, digest(0))
  }

  /** The root's digest from its children's, in order. */
  def rootDigest(children: Iterable[Long]): Long = children.foldLeft(own(0, 1, 0, urgent = false, 0L, 0L))(fold)

  def runCogs(rt: CogRuntime, p: Params): Tree = UctCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Tree = UctPekko.run(system, p)
}
