package cogs.distributed

import cogs.runtime.{ActiveObject, CallFailedException, Cogs, Proc}
import org.apache.pekko.actor.{Actor, ActorRef, Address, Timers}
import org.apache.pekko.cluster.ClusterEvent._
import org.apache.pekko.cluster.MemberStatus
import scala.util.{Failure, Success}

/**
 * A node's actor: it serves the requests of other nodes (create, call) into the node's runtime,
 * takes the answers to this node's requests, and turns cluster events into lost nodes. It runs on
 * the thread that delivers each message (its dispatcher's executor is [[CallerThreadExecutor]]):
 * Artery's inbound thread for messages of other nodes, so nothing here may block.
 */
private[distributed] final class Endpoint(node: Node) extends Actor with Timers {
  import Endpoint._
  import Protocol._

  private[this] val unreachable = scala.collection.mutable.Set.empty[Address]

  override def preStart(): Unit =
    node.cluster.subscribe(self, InitialStateAsEvents, classOf[MemberEvent], classOf[UnreachableMember], classOf[ReachableMember])

  override def postStop(): Unit = node.cluster.unsubscribe(self)

  private def from: Address = {
    val a = sender().path.address
    if (a.hasLocalScope) node.address else a
  }

  def receive: Receive = {
    // Under the cluster clock (ClusterClock): the advance the sender had applied first, then the
    // message, then counted received, after its effect is in the runtime (a COG activated, a
    // promise resolved) and after any answer sent while handling it was counted sent.
    case Stamped(epoch, time, m) =>
      val clock = node.clock
      if (clock ne null) clock.catchUp(epoch, time)
      try receive(m)
      finally if (clock ne null) clock.delivered()
    case Probe(wave) =>
      val clock = node.clock
      if (clock ne null) clock.probed(wave, sender(), from)
    case r: Report =>
      val clock = node.clock
      if (clock ne null) clock.report(from, r)
    case Advance(epoch, time) =>
      val clock = node.clock
      if (clock ne null) clock.advance(epoch, time)
    case ClockEnd(reason) =>
      val clock = node.clock
      if (clock ne null) clock.end(reason)
    case ClusterClock.Coordinate(members) =>
      val clock = node.clock
      if (clock ne null) clock.coordinate(members)

    case c: Call   => serve(c, sender())
    case t: Tell   => serveOneWay(t)
    case c: Create => create(c, sender())

    case Created(id, obj, cls, methods) =>
      val a = from
      node.answered(a, id) match {
        case Node.Pending.Create(p, _) => p.success(new RemoteRef(node, a, obj, cls, new RemoteRef.Methods(methods)))
        case _                         => // the node was lost (or this one closed) first: its promise already failed
      }
    case Reply(id, value) =>
      node.answered(from, id) match {
        case Node.Pending.Call(p, what) =>
          try p.success(node.values.decodeOne(value, s"the result of $what"))
          catch { case e: RuntimeException => p.failure(e) }
        case _ =>
      }
    case Failed(id, cls, msg, error) =>
      val a = from
      val p = node.answered(a, id)
      if (p ne null) p.promise.failure(remoteFailure(node, a.toString, p.what, cls, msg, error))

    case UnreachableMember(m) =>
      unreachable += m.address
      timers.startSingleTimer(m.address, LostCheck(m.address), node.lostAfter)
    case ReachableMember(m) => unreachable -= m.address
    case LostCheck(a) if unreachable(a) =>
      node.nodeLost(a, s"unreachable for ${node.lostAfter.toMillis} ms")
      if (node.downLostNodes) node.cluster.down(a)
    case _: LostCheck => // reachable again in time
    case MemberRemoved(m, previous) if m.address != node.address =>
      unreachable -= m.address
      node.nodeLost(m.address, if (previous == MemberStatus.Exiting) Node.LeftReason else "it was removed from the cluster")
    case MemberDowned(m) if m.address != node.address => node.nodeLost(m.address, "it was downed")
    case _: MemberEvent => // joining, up, leaving: nothing to do
  }

  private def create(c: Create, replyTo: ActorRef): Unit = {
    val what = s"create '${c.factory}'"
    try {
      val f = node.factory(c.factory)
      if (f eq null) throw new NoSuchElementException(s"node ${node.address} has no factory named '${c.factory}' (registered: ${node.factoryNames})")
      val args = node.values.decodeArgs(c.args, argument(what)).toVector
      val obj = f(args)
      if (obj eq null) throw new IllegalStateException(s"the factory '${c.factory}' returned null")
      val id = node.nextObjectId()
      node.objects.put(id, obj)
      node.answer(replyTo, Created(c.id, id, obj.getClass.getSimpleName, MethodTable.of(obj.getClass).names))
    } catch {
      case e: Exception => node.answer(replyTo, failed(node, c.id, e))
    }
  }

  private def decodeArgs(block: Array[Byte], what: String): Array[AnyRef] = node.values.decodeArgs(block, argument(what))

  // Argument i (from 0) of a call, or all of them (-1), as an error names them.
  private def argument(what: String): Int => String = i => if (i < 0) s"the arguments of $what" else s"argument ${i + 1} of $what"

  /**
   * A one-way call: queued into the object's COG as a local `Cogs.tell` (in arrival order, like
   * calls), so a failure of the method, and an argument that cannot be decoded, fail its process
   * and are counted and reported by this node's runtime. No object to call: logged (nobody waits).
   */
  private def serveOneWay(t: Tell): Unit = {
    val target = node.objects.get(t.obj)
    if (target eq null) {
      val m = if (t.method ne null) t.method else s"number ${t.index}"
      context.system.log.warning("one-way call of method {} from node {} dropped: no object {} on node {}", m, from, t.obj, node.address)
      return
    }
    val table = MethodTable.of(target.getClass)
    val method = if (t.index >= 0) table.nameOf(t.index) else t.method
    val args = try Right(decodeArgs(t.args, s"${target.getClass.getSimpleName}.$method"))
    catch { case e: RuntimeException => Left(e) }
    Cogs.tell[ActiveObject](target, method, (o: ActiveObject) => args match {
      case Right(as) => table.invoke(o, t.index, method, as)
      case Left(e)   => Proc.raise(e)
    })
  }

  private def serve(c: Call, replyTo: ActorRef): Unit = {
    val target = node.objects.get(c.obj)
    if (target eq null) {
      node.answer(replyTo, Failed(c.id, classOf[NoSuchElementException].getName, s"no object ${c.obj} on node ${node.address}", None))
      return
    }
    val table = MethodTable.of(target.getClass)
    val method = if (c.index >= 0) table.nameOf(c.index) else c.method
    val what = s"${target.getClass.getSimpleName}.$method"
    val args = try decodeArgs(c.args, what)
    catch {
      case e: RuntimeException =>
        node.answer(replyTo, failed(node, c.id, e))
        return
    }
    // Queued into the object's COG from the thread that delivered the call (Artery's, which
    // decoded it), in the order the calls arrived (Pekko delivers one sender's messages in order
    // and an actor takes them one at a time, whichever thread runs it).
    // The method is taken from the table inside the process, so a missing method fails the call
    // the way a throwing one does.
    // With the caller's deadline, if it had one: the time it had left, from this node's now.
    val run = (t: ActiveObject) => table.invoke(t, c.index, method, args)
    val fut =
      if (c.deadline eq null) Cogs.send[ActiveObject, Any](target, method, run)
      else Cogs.sendWithDeadline[ActiveObject, Any](target, method, Nil, c.deadline, run)
    // Hand-off from the COG back to the network: the callback runs on the thread that resolves
    // the future (a worker of the runtime, at the end of the process) or at once if it already
    // resolved (FutCore's CAS gives exactly one of the two), and `tell` may be called from any
    // thread; so the reply is sent exactly once and cannot be lost inside this node.
    // Under the cluster clock the reply is counted sent (Node.answer) either here, before this
    // call is counted received (the Stamped case above counts after `serve` returns), or on the
    // worker that resolves the future, inside the COG's batch, while the COG is still counted
    // active: in both cases before this node can be passive without having counted it, which is
    // what the termination detection needs (docs/distributed.md, "Why a conclusion is never early").
    fut.onComplete {
      case Success(v) =>
        val msg =
          try {
            val p = node.values.encodeOne(v, s"the result of $what on node ${node.address}")
            // Artery would drop a reply larger than a frame (logging it only) and the caller would
            // wait until this node is lost: fail the call instead.
            if (p.length > node.maxPayload)
              Failed(c.id, classOf[IllegalStateException].getName,
                s"the result of $what is ${p.length} bytes serialised, more than a frame holds (pekko.remote.artery.advanced.maximum-frame-size)", None)
            else Reply(c.id, p)
          } catch { case e: RuntimeException => failed(node, c.id, e) }
        node.answer(replyTo, msg)
      case Failure(e) =>
        val cause = e match { case x: CallFailedException if x.getCause ne null => x.getCause; case x => x }
        node.answer(replyTo, failed(node, c.id, cause))
    }
  }
}

private[distributed] object Endpoint {
  final case class LostCheck(node: Address)

  /**
   * A failure as text, short enough for any frame (a message longer than a frame would be
   * dropped), and the exception itself if a serializer of its own takes it (an ABS exception is
   * data and has one) and it fits a frame. Pekko's Java serializer is never used for it (disabled,
   * and unsafe to enable), so most JVM exceptions travel as text only.
   */
  private def failed(node: Node, id: Long, e: Throwable): Protocol.Failed = {
    val m = String.valueOf(e.getMessage)
    val error =
      try {
        val s = node.serialization.findSerializerFor(e)
        if (s.isInstanceOf[org.apache.pekko.serialization.DisabledJavaSerializer] || s.isInstanceOf[org.apache.pekko.serialization.JavaSerializer]) None
        else Some(node.values.encodeOne(e, "the exception")).filter(_.length <= node.maxPayload / 2)
      } catch { case _: Exception => None } // not serialisable after all: it travels as text
    Protocol.Failed(id, e.getClass.getName, if (m.length <= 8000) m else m.take(8000) + "... (truncated)", error)
  }

  /**
   * What a caller's future fails with: the remote exception itself where it travelled (so that a
   * catch by its type works as for a local call; the node and the call are added to it as a
   * suppressed [[RemoteCallException]] where the exception allows that), else a
   * [[RemoteCallException]] with its class and message as text.
   */
  private def remoteFailure(node: Node, from: String, call: String, cls: String, msg: String, error: Option[Array[Byte]]): Throwable = {
    val text = new RemoteCallException(from, call, cls, msg)
    error.flatMap { p =>
      try Some(node.values.decodeOne(p, s"the exception of $call")) catch { case _: RuntimeException => None }
    } match {
      case Some(t: Throwable) => t.addSuppressed(text); t
      case _ => text
    }
  }
}
