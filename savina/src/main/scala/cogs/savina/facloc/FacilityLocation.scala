package cogs.savina.facloc

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem
import scala.collection.mutable.ArrayBuffer

/** The parameters of [[FacilityLocation]]. */
final case class Params(points: Int, gridSize: Double, alpha: Double, seed: Long) {
  require(points >= 1 && gridSize > 0 && alpha > 0, s"bad parameters $this")
  override def toString = s"points=$points gridSize=$gridSize alpha=$alpha seed=$seed"

  /** A closed quadrant opens its facility once its customers' costs add up to more than this: Savina's `alpha * F`, `F` the grid's diagonal. */
  def threshold: Double = alpha * math.sqrt(2) * gridSize
}

/**
 * What the quadrants report when they stop: facilities opened, customers held by the leaves,
 * and the sum of the bit patterns of every quadrant's cost (exact, and independent of the order
 * the reports are added in).
 */
final case class Answer(facilities: Int, customers: Int, costBits: Long) {
  override def toString = s"$facilities facilities, $customers customers, cost bits ${java.lang.Long.toHexString(costBits)}"
}

/**
 * Savina's `facloc` (online facility location): a producer sends `points` customers, uniform on
 * a square of side `gridSize`, one at a time, to the root of a quadtree of quadrant actors. A
 * closed quadrant keeps its customers and their cost (the distance to the nearest facility it
 * knows: its own centre, those of its ancestors, and every facility it has been told of); when
 * the cost exceeds `alpha` times the grid's diagonal it opens its facility: it creates four child
 * quadrants that take over its customers, and tells its parent. A parent passes a new facility
 * up to its own parent and down to the child diagonally opposite the one it came from, which
 * tells its whole subtree. An open quadrant routes each customer to the child that contains it.
 * At the end an exit request goes down the tree and the counts come back up.
 *
 * In Savina the root asks for the next customer as soon as it has routed one, so a customer
 * can overtake the news of a facility that an earlier one made open, and the tree differs from
 * run to run. Here the next customer is requested once the previous one is settled (it reached
 * a leaf and every facility message it caused was passed on): the result is that of a
 * sequential run, and the answer ([[Answer]]) is checked exactly against one. Savina's cut-off
 * depth (3) is a parameter its actor versions do not use; it is left out.
 */
object FacilityLocation extends SavinaBenchmark[Params, Answer] {
  val name = "facloc"
  val title = "Online Facility Location"
  val defaults: Params = Params(points = 100000, gridSize = 500.0, alpha = 2.0, seed = 123456L)
  val quick: Params = Params(points = 10000, gridSize = 500.0, alpha = 2.0, seed = 123456L)

  final class Point(val x: Double, val y: Double) {
    def distance(p: Point): Double = {
      val dx = p.x - x
      val dy = p.y - y
      math.sqrt(dx * dx + dy * dy) // correctly rounded: the same bits everywhere
    }
  }

  final class Box(val x1: Double, val y1: Double, val x2: Double, val y2: Double) {
    def contains(p: Point): Boolean = x1 <= p.x && y1 <= p.y && p.x <= x2 && p.y <= y2
    def centre: Point = new Point((x1 + x2) / 2, (y1 + y2) / 2)

    /** Savina's four children, in its order: top left, top right, bottom left, bottom right. */
    def quarters: Array[Box] = {
      val c = centre
      Array(new Box(x1, c.y, c.x, y2), new Box(c.x, c.y, x2, y2), new Box(x1, y1, c.x, c.y), new Box(c.x, y1, x2, c.y))
    }
  }

  /** The quarter diagonally opposite quarter `i` (top left and bottom right, top right and bottom left). */
  def opposite(i: Int): Int = 3 - i

  /** The customers, in the order the producer sends them. */
  final class Customers(p: Params) {
    private[this] val rand = new Rand(p.seed)
    def next(): Point = {
      val x = rand.nextDouble() * p.gridSize
      val y = rand.nextDouble() * p.gridSize
      new Point(x, y)
    }
  }

  /**
   * A quadrant's own state and computation, shared by both implementations: its facilities, its
   * customers while closed, its cost, its children's boxes once open. The messages are the
   * implementations' business.
   */
  final class Quadrant(val box: Box, val depth: Int, threshold: Double, known: ArrayBuffer[Point], inherited: Iterable[Point]) {
    val facility: Point = box.centre
    /** Every facility this quadrant knows of, its own (open or not) included. */
    val facilities: ArrayBuffer[Point] = known.clone() += facility
    private[this] val customers = new ArrayBuffer[Point]()
    private[this] var cost = 0.0
    /** Null while closed. */
    var quarters: Array[Box] = _

    inherited.foreach(c => if (box.contains(c)) add(c))

    def open: Boolean = quarters ne null

    private def add(c: Point): Unit = {
      customers += c
      var nearest = Double.MaxValue
      var i = 0
      while (i < facilities.length) {
        val d = facilities(i).distance(c)
        if (d < nearest) nearest = d
        i += 1
      }
      cost += nearest
    }

    /** A closed quadrant takes customer `c`; true when its cost now calls for opening its facility. */
    def take(c: Point): Boolean = { add(c); cost > threshold }

    /** Open: the customers go to the children (see [[child]]); the boxes of the children. */
    def openUp(): Array[Box] = { quarters = box.quarters; quarters }

    /** The state of child `i` of this just opened quadrant. */
    def child(i: Int): Quadrant = new Quadrant(quarters(i), depth + 1, threshold, facilities, customers)

    /** Once the children exist. */
    def handedOver(): Unit = customers.clear()

    /** The child an open quadrant sends customer `c` to: the first that contains it. */
    def route(c: Point): Int = {
      var i = 0
      while (!quarters(i).contains(c)) i += 1
      i
    }

    /** This quadrant's own part of the report; children's are added to it. */
    def report: Answer = Answer(if (open) 1 else 0, customers.length, java.lang.Double.doubleToLongBits(cost))
  }

  def add(a: Answer, b: Answer): Answer = Answer(a.facilities + b.facilities, a.customers + b.customers, a.costBits + b.costBits)

  def expected(p: Params): Answer = {
    // A sequential quadtree: each customer is placed, and the news of a facility it opens
    // spread, before the next one comes.
    final class Node(val parent: Node, val position: Int, val box: Box, known: Seq[Point], inherited: Seq[Point]) {
      val facilities: ArrayBuffer[Point] = ArrayBuffer.from(known) += box.centre
      val customers: ArrayBuffer[Point] = ArrayBuffer.empty
      var cost = 0.0
      var children: Array[Node] = null
      for (c <- inherited if box.contains(c)) place(c)

      def place(c: Point): Unit = {
        customers += c
        cost += facilities.map(_.distance(c)).min
      }

      def tell(f: Point): Unit = {
        facilities += f
        if (children ne null) children.foreach(_.tell(f))
      }
    }

    val threshold = p.threshold
    val root = new Node(null, -1, new Box(0, 0, p.gridSize, p.gridSize), Nil, Nil)
    val customers = new Customers(p)
    for (_ <- 0 until p.points) {
      val c = customers.next()
      var q = root
      while (q.children ne null) q = q.children.find(_.box.contains(c)).get
      q.place(c)
      if (q.cost > threshold) {
        val opened = q
        q.children = opened.box.quarters.zipWithIndex.map { case (b, i) =>
          new Node(opened, i, b, opened.facilities.toSeq, opened.customers.toSeq)
        }
        opened.customers.clear()
        val f = opened.box.centre
        var from = opened
        while (from.parent ne null) {
          from.parent.facilities += f
          from.parent.children(opposite(from.position)).tell(f)
          from = from.parent
        }
      }
    }

    def total(n: Node): Answer = {
      val own = Answer(if (n.children ne null) 1 else 0, n.customers.length, java.lang.Double.doubleToLongBits(n.cost))
      if (n.children eq null) own else n.children.map(total).foldLeft(own)(add)
    }
    total(root)
  }

  def runCogs(rt: CogRuntime, p: Params): Answer = FacilityLocationCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Answer = FacilityLocationPekko.run(system, p)
}
