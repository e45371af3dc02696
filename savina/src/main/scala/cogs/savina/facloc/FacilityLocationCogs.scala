package cogs.savina.facloc

import cogs.runtime._
import cogs.savina.facloc.FacilityLocation.{Box, Customers, Point, Quadrant}
import scala.collection.mutable.ArrayBuffer

/**
 * FacilityLocation on Cogs: every quadrant is an object in a COG of its own. The producer awaits
 * `root ! customer(c)` before it sends the next; an open quadrant awaits the same call on the
 * child that contains the customer, so the future resolves once the customer is settled. A
 * closed quadrant takes the customer and, if that opens its facility, creates its children and
 * awaits `parent ! childOpened(..)`: that call reaches a COG whose `customer` process is
 * suspended on the very future this one will resolve, and cooperative scheduling lets the parent
 * serve it (Savina's actors get the same effect from handling the news as a separate message).
 * The parent sends the news across to the opposite child and awaits its own parent's
 * `childOpened`. The news across and down a subtree (`facility`) is a call nobody awaits: it
 * reaches each quadrant before any later customer does, because a COG runs the calls of one
 * sender in the order they were sent and the parent sent the news first. So the run computes
 * what a sequential one does, with the broadcast trailing behind as in the Pekko version, whose
 * "settled" message is here the resolution of the futures. At the end the producer awaits
 * `root ! exit()`, which awaits every child's.
 */
object FacilityLocationCogs {

  trait Quad extends Active {
    /** Resolves once the customer is settled: placed, and any facility it opened reported up to the root. */
    def customer(c: Point): Proc[Unit]
    /** Child `from` opened facility `f`. */
    def childOpened(from: Int, f: Point): Proc[Unit]
    /** Facility `f` opened elsewhere; tell the subtree. */
    def facility(f: Point): Proc[Unit]
    /** The report of this subtree. */
    def exit(): Proc[Answer]
  }

  trait Producer extends Active {
    def produce(root: Quad, p: Params): Proc[Answer]
  }

  final class QuadImpl(parent: Quad, position: Int, q: Quadrant) extends ActiveObject with Quad {
    private[this] var children: Array[Quad] = _

    def customer(c: Point): Proc[Unit] =
      if (q.open) Proc.await(children(q.route(c)).send("customer")(_.customer(c)))
      else if (!q.take(c)) Proc.unit
      else {
        // Open before the await: once this process suspends, the COG may serve other calls.
        q.openUp()
        children = Array.tabulate(4)(i => { val s = q.child(i); Cogs.spawn(new QuadImpl(this, i, s)) })
        q.handedOver()
        if (parent eq null) Proc.unit
        else { val f = q.facility; Proc.await(parent.send("childOpened")(_.childOpened(position, f))) }
      }

    def childOpened(from: Int, f: Point): Proc[Unit] = {
      q.facilities += f
      children(FacilityLocation.opposite(from)).tell("facility")(_.facility(f))
      if (parent eq null) Proc.unit
      else Proc.await(parent.send("childOpened")(_.childOpened(position, f)))
    }

    def facility(f: Point): Proc[Unit] = {
      q.facilities += f
      if (q.open) children.foreach(_.tell("facility")(_.facility(f)))
      Proc.unit
    }

    def exit(): Proc[Answer] =
      if (!q.open) Proc.done(q.report)
      else Proc.awaitAll(children.toList.map(_.send("exit")(_.exit()))).map(_.foldLeft(q.report)(FacilityLocation.add))
  }

  final class ProducerImpl extends ActiveObject with Producer {
    def produce(root: Quad, p: Params): Proc[Answer] = {
      val customers = new Customers(p)
      Proc.repeat(p.points)(_ => { val c = customers.next(); Proc.await(root.send("customer")(_.customer(c))) })
        .flatMap(_ => Proc.await(root.send("exit")(_.exit())))
    }
  }

  def run(rt: CogRuntime, p: Params): Answer =
    rt.run {
      val box = new Box(0, 0, p.gridSize, p.gridSize)
      val root: Quad = Cogs.spawn(new QuadImpl(null, -1, new Quadrant(box, 0, p.threshold, ArrayBuffer.empty, Nil)))
      val producer: Producer = Cogs.spawn(new ProducerImpl)
      Proc.await(producer.send("produce")(_.produce(root, p)))
    }
}
