package cogs.savina.facloc

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.facloc.FacilityLocation.{Box, Customers, Point, Quadrant}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}
import scala.collection.mutable.ArrayBuffer

/**
 * FacilityLocation on Pekko with Savina's protocol (customer, next customer, facility with its
 * "from child" flag, exit request, exit confirmation with the counts) and one message more:
 * "settled". A leaf that took a customer, after the facility message it may have sent up, sends
 * "settled" to its parent, which passes it up; the root then asks the producer for the next
 * customer (Savina's root asks at once). Messages between two actors keep their order, so a
 * parent has passed on every facility message of a customer before that customer's "settled",
 * and the next customer follows the news down every path: the run computes what a sequential
 * one does.
 */
object FacilityLocationPekko {

  private case object Start
  private final class Customer(val producer: ActorRef, val point: Point)
  private case object NextCustomer
  private final class Facility(val position: Int, val depth: Int, val point: Point, val fromChild: Boolean)
  private case object Settled
  private case object RequestExit
  private final class ConfirmExit(val report: Answer)

  def run(system: ActorSystem, p: Params): Answer = {
    val run = new PekkoRun[Answer](system, FacilityLocation.name)
    val box = new Box(0, 0, p.gridSize, p.gridSize)
    val root = run.actorOf(Props(new QuadrantActor(run, null, -1, new Quadrant(box, 0, p.threshold, ArrayBuffer.empty, Nil))))
    run.actorOf(Props(new Producer(run, p, root))) ! Start
    run.await()
  }

  private final class Producer(run: PekkoRun[Answer], p: Params, root: ActorRef) extends BenchActor(run) {
    private[this] val customers = new Customers(p)
    private[this] var produced = 0

    private def produce(): Unit = { root ! new Customer(self, customers.next()); produced += 1 }

    def receive: Receive = {
      case Start => produce()
      case NextCustomer =>
        if (produced < p.points) produce()
        else { root ! RequestExit; exit() }
    }
  }

  private final class QuadrantActor(run: PekkoRun[Answer], parent: ActorRef, position: Int, q: Quadrant) extends BenchActor(run) {
    private[this] var children: Array[ActorRef] = _
    private[this] var producer: ActorRef = _ // the root's: whom to ask for the next customer
    private[this] var confirmed = 0
    private[this] var fromChildren = Answer(0, 0, 0L)

    def receive: Receive = {
      case c: Customer =>
        if (parent eq null) producer = c.producer
        if (q.open) children(q.route(c.point)) ! c
        else {
          if (q.take(c.point)) partition()
          settled()
        }
      case Settled => settled()
      case f: Facility =>
        q.facilities += f.point
        if (f.fromChild) {
          if (parent ne null) parent ! new Facility(position, f.depth, f.point, true)
          children(FacilityLocation.opposite(f.position)) ! new Facility(-1, q.depth, f.point, false)
        } else if (q.open) {
          val down = new Facility(-1, q.depth, f.point, false)
          children.foreach(_ ! down)
        }
      case RequestExit =>
        if (q.open) children.foreach(_ ! RequestExit)
        else confirm()
      case c: ConfirmExit =>
        fromChildren = FacilityLocation.add(fromChildren, c.report)
        confirmed += 1
        if (confirmed == 4) confirm()
    }

    private def settled(): Unit = if (parent eq null) producer ! NextCustomer else parent ! Settled

    private def partition(): Unit = {
      if (parent ne null) parent ! new Facility(position, q.depth, q.facility, true)
      q.openUp()
      // The children's states are made here, before this actor's customers are handed over.
      children = Array.tabulate(4)(i => { val s = q.child(i); run.actorOf(Props(new QuadrantActor(run, self, i, s))) })
      q.handedOver()
    }

    private def confirm(): Unit = {
      val report = FacilityLocation.add(q.report, fromChildren)
      if (parent eq null) run.answer(report) else parent ! new ConfirmExit(report)
      exit()
    }
  }
}
