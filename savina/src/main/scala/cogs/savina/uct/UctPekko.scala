package cogs.savina.uct

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.uct.Uct.Planner
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * UCT on Pekko with Savina's protocol: "generate tree" starts the root; a new node asks the
 * root with "should generate children" (which here also names the node's id); the root answers
 * a yes with "generate children" or "urgent generate children" and a no with silence; a node
 * with children tells its parent ("update grant"). Once every node has asked, the root sends
 * "traverse" down the tree; each node answers its parent with the digest of its subtree (a
 * message Savina does not have) once its children did; the root then sends "terminate" down the
 * tree, and every actor stops.
 */
object UctPekko {

  private case object GenerateTree
  private case object TryGenerate
  private final class ShouldGenerate(val node: ActorRef, val id: Int, val height: Int)
  private final class Generate(val firstChild: Int, val comp: Int)
  private final class UrgentGenerate(val urgentChild: Int, val firstChild: Int, val comp: Int)
  private final class UpdateGrant(val child: Int)
  private case object Traverse
  private final class Traversed(val child: Int, val digest: Long)
  private case object Terminate

  def run(system: ActorSystem, p: Params): Tree = {
    val run = new PekkoRun[Tree](system, Uct.name)
    run.actorOf(Props(new RootActor(run, p))) ! GenerateTree
    run.await()
  }

  /** Collects the children's subtree digests; the last one completes the node's. */
  private final class Digests(n: Int) {
    private[this] val digests = new Array[Long](n)
    private[this] var received = 0
    def add(t: Traversed): Boolean = { digests(t.child) = t.digest; received += 1; received == n }
    def fold(own: Long): Long = digests.foldLeft(own)(Uct.fold)
  }

  private final class RootActor(run: PekkoRun[Tree], p: Params) extends BenchActor(run) {
    private[this] val planner = new Planner(p)
    private[this] var children: Array[ActorRef] = _
    // Savina's record of which children have children ("update grant"); nothing reads it.
    private[this] val hasGrandChildren = new Array[Boolean](p.binomial)
    private[this] val digests = new Digests(p.binomial)

    def receive: Receive = {
      case GenerateTree =>
        val (first, comp) = planner.start()
        children = Array.tabulate(p.binomial)(i =>
          run.actorOf(Props(new NodeActor(run, self, self, p, i, first + i, 2, comp, urgent = false))))
        children.foreach(_ ! TryGenerate)
      case s: ShouldGenerate =>
        val g = planner.ask(s.id, s.height)
        if (g ne null) {
          if (g.urgentChild < 0) s.node ! new Generate(g.firstChild, g.comp)
          else s.node ! new UrgentGenerate(g.urgentChild, g.firstChild, g.comp)
        }
        if (planner.complete) children.foreach(_ ! Traverse)
      case u: UpdateGrant => hasGrandChildren(u.child) = true
      case t: Traversed =>
        if (digests.add(t)) {
          run.answer(Tree(planner.size, planner.height, digests.fold(Uct.rootDigest(Nil))))
          children.foreach(_ ! Terminate)
          exit()
        }
    }
  }

  /** A node; `index` is its place among its parent's children. */
  private final class NodeActor(run: PekkoRun[Tree], parent: ActorRef, root: ActorRef, p: Params, index: Int,
      id: Int, height: Int, comp: Int, urgent: Boolean) extends BenchActor(run) {
    private[this] var created = 0L
    private[this] var children: Array[ActorRef] = _
    private[this] var hasGrandChildren: Array[Boolean] = _
    private[this] var digests: Digests = _
    private[this] var mine = 0L

    def receive: Receive = {
      case TryGenerate =>
        created = Uct.created(id)
        root ! new ShouldGenerate(self, id, height)
      case g: Generate       => generate(g.firstChild, g.comp, -1)
      case g: UrgentGenerate => generate(g.firstChild, g.comp, g.urgentChild)
      case u: UpdateGrant    => hasGrandChildren(u.child) = true
      case Traverse =>
        mine = Uct.own(id, height, comp, urgent, created, Uct.visited(id, comp))
        if (children eq null) parent ! new Traversed(index, mine)
        else children.foreach(_ ! Traverse)
      case t: Traversed =>
        if (digests.add(t)) parent ! new Traversed(index, digests.fold(mine))
      case Terminate =>
        if (children ne null) children.foreach(_ ! Terminate)
        exit()
    }

    private def generate(first: Int, childComp: Int, urgentOne: Int): Unit = {
      parent ! new UpdateGrant(index)
      hasGrandChildren = new Array[Boolean](p.binomial)
      digests = new Digests(p.binomial)
      children = Array.tabulate(p.binomial)(i =>
        run.actorOf(Props(new NodeActor(run, self, root, p, i, first + i, height + 1, childComp, urgent = i == urgentOne))))
      children.foreach(_ ! TryGenerate)
    }
  }
}
