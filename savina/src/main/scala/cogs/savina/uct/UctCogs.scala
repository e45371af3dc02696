package cogs.savina.uct

import cogs.runtime._
import cogs.savina.uct.Uct.{Grant, Planner}

/**
 * UCT on Cogs: the root and every node are objects, each in a COG of its own. A new node works,
 * then awaits `root ! ask(..)`: the future carries the root's answer (Savina: a message back, or
 * none for "no"), and a yes makes the node create its children and call `tryGenerate` on each,
 * one-way (`tell`). The root's `grow` process awaits the condition "every node has asked" (the
 * root's COG serves the requests meanwhile), then awaits `child ! traverse()` of its children;
 * a node's `traverse` awaits its own children's and gives back the digest of its subtree.
 * Savina's "update grant" message, which nothing reads, and its termination messages (a Cogs
 * object needs none) are left out.
 */
object UctCogs {

  trait Root extends Active {
    /** Node `id` asks whether it may have children: its grant, or null. */
    def ask(id: Int, height: Int): Proc[Grant]
    def grow(): Proc[Tree]
  }

  trait Node extends Active {
    def tryGenerate(): Proc[Unit]
    /** The digest of this node's subtree. */
    def traverse(): Proc[Long]
  }

  final class RootImpl(p: Params) extends ActiveObject with Root {
    private[this] val planner = new Planner(p)

    def ask(id: Int, height: Int): Proc[Grant] = Proc.done(planner.ask(id, height))

    def grow(): Proc[Tree] = {
      val (first, comp) = planner.start()
      val children: Array[Node] = Array.tabulate(p.binomial)(i => Cogs.spawn(new NodeImpl(this, p, first + i, 2, comp, urgent = false)))
      children.foreach(_.tell("tryGenerate")(_.tryGenerate()))
      Proc.awaitUntil(planner.complete)
        .flatMap(_ => Proc.awaitAll(children.toList.map(_.send("traverse")(_.traverse()))))
        .map(digests => Tree(planner.size, planner.height, Uct.rootDigest(digests)))
    }
  }

  final class NodeImpl(root: Root, p: Params, id: Int, height: Int, comp: Int, urgent: Boolean) extends ActiveObject with Node {
    private[this] var created = 0L
    private[this] var children: Array[Node] = _

    def tryGenerate(): Proc[Unit] = {
      created = Uct.created(id)
      Proc.await(root.send("ask")(_.ask(id, height))).map { g =>
        if (g ne null) {
          children = Array.tabulate(p.binomial)(i =>
            Cogs.spawn(new NodeImpl(root, p, g.firstChild + i, height + 1, g.comp, urgent = i == g.urgentChild)))
          children.foreach(_.tell("tryGenerate")(_.tryGenerate()))
        }
      }
    }

    def traverse(): Proc[Long] = {
      val mine = Uct.own(id, height, comp, urgent, created, Uct.visited(id, comp))
      if (children eq null) Proc.done(mine)
      else Proc.awaitAll(children.toList.map(_.send("traverse")(_.traverse()))).map(_.foldLeft(mine)(Uct.fold))
    }
  }

  def run(rt: CogRuntime, p: Params): Tree =
    rt.run {
      val root: Root = Cogs.spawn(new RootImpl(p))
      Proc.await(root.send("grow")(_.grow()))
    }
}
