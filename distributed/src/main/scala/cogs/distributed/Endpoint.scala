package cogs.distributed

import cogs.runtime.{ActiveObject, CallFailedException, Cogs, Proc}
import java.lang.reflect.{InvocationTargetException, Method}
import java.util.concurrent.ConcurrentHashMap
import org.apache.pekko.actor.{Actor, ActorRef, Address, Timers}
import org.apache.pekko.cluster.ClusterEvent._
import org.apache.pekko.cluster.MemberStatus
import scala.util.{Failure, Success}

/**
 * A node's actor: it serves the requests of other nodes (create, call) into the node's runtime,
 * takes the answers to this node's requests, and turns cluster events into lost nodes.
 */
private[distributed] final class Endpoint(node: Node) extends Actor with Timers {
  import Endpoint._
  import Protocol._

  private[this] val me: ActorRef = self
  private[this] val unreachable = scala.collection.mutable.Set.empty[Address]

  override def preStart(): Unit =
    node.cluster.subscribe(self, InitialStateAsEvents, classOf[MemberEvent], classOf[UnreachableMember], classOf[ReachableMember])

  override def postStop(): Unit = node.cluster.unsubscribe(self)

  private def from: Address = {
    val a = sender().path.address
    if (a.hasLocalScope) node.address else a
  }

  def receive: Receive = {
    case c: Call   => serve(c, sender())
    case c: Create => create(c, sender())

    case Created(id, obj, cls) =>
      val a = from
      node.answered(a, id) match {
        case Node.Pending.Create(p, _) => p.success(new RemoteRef(node, a, obj, cls))
        case _                         => // the node was lost (or this one closed) first: its promise already failed
      }
    case Reply(id, value) =>
      node.answered(from, id) match {
        case Node.Pending.Call(p, what) =>
          try p.success(decode(node, value, s"the result of $what"))
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
      val args = c.args.zipWithIndex.map { case (p, i) => decode(node, p, s"argument ${i + 1} of $what") }
      val obj = f(args)
      if (obj eq null) throw new IllegalStateException(s"the factory '${c.factory}' returned null")
      val id = node.nextObjectId()
      node.objects.put(id, obj)
      replyTo.tell(Created(c.id, id, obj.getClass.getSimpleName), me)
    } catch {
      case e: Exception => replyTo.tell(failed(node, c.id, e), me)
    }
  }

  private def serve(c: Call, replyTo: ActorRef): Unit = {
    val target = node.objects.get(c.obj)
    if (target eq null) {
      replyTo.tell(Failed(c.id, classOf[NoSuchElementException].getName, s"no object ${c.obj} on node ${node.address}", None), me)
      return
    }
    val what = s"${target.getClass.getSimpleName}.${c.method}"
    val args = try c.args.zipWithIndex.map { case (p, i) => decode(node, p, s"argument ${i + 1} of $what") }
    catch {
      case e: RuntimeException =>
        replyTo.tell(failed(node, c.id, e), me)
        return
    }
    // Queued into the object's COG from this actor's thread, in the order the calls arrived
    // (Pekko delivers one sender's messages in order and an actor takes them one at a time).
    // The method is looked up inside the process, so a missing method fails the call the way a
    // throwing one does.
    val fut = Cogs.send[ActiveObject, Any](target, c.method, (t: ActiveObject) => invoke(t, c.method, args))
    // Hand-off from the COG back to the network: the callback runs on the thread that resolves
    // the future (a worker of the runtime, at the end of the process) or at once if it already
    // resolved (FutCore's CAS gives exactly one of the two), and `tell` may be called from any
    // thread; so the reply is sent exactly once and cannot be lost inside this node.
    fut.onComplete {
      case Success(v) =>
        val msg =
          try {
            val p = encode(node.serialization, v, s"the result of $what on node ${node.address}")
            // Artery would drop a reply larger than a frame (logging it only) and the caller would
            // wait until this node is lost: fail the call instead.
            if (size(Vector(p)) > node.maxPayload)
              Failed(c.id, classOf[IllegalStateException].getName,
                s"the result of $what is ${p.bytes.length} bytes serialised, more than a frame holds (pekko.remote.artery.advanced.maximum-frame-size)", None)
            else Reply(c.id, p)
          } catch { case e: RuntimeException => failed(node, c.id, e) }
        replyTo.tell(msg, me)
      case Failure(e) =>
        val cause = e match { case x: CallFailedException if x.getCause ne null => x.getCause; case x => x }
        replyTo.tell(failed(node, c.id, cause), me)
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
        else Some(Protocol.encode(node.serialization, e, "the exception")).filter(p => Protocol.size(Vector(p)) <= node.maxPayload / 2)
      } catch { case _: Exception => None } // not serialisable after all: it travels as text
    Protocol.Failed(id, e.getClass.getName, if (m.length <= 8000) m else m.take(8000) + "... (truncated)", error)
  }

  /**
   * What a caller's future fails with: the remote exception itself where it travelled (so that a
   * catch by its type works as for a local call; the node and the call are added to it as a
   * suppressed [[RemoteCallException]] where the exception allows that), else a
   * [[RemoteCallException]] with its class and message as text.
   */
  private def remoteFailure(node: Node, from: String, call: String, cls: String, msg: String, error: Option[Protocol.Payload]): Throwable = {
    val text = new RemoteCallException(from, call, cls, msg)
    error.flatMap { p =>
      try Some(Protocol.decode(node, p, s"the exception of $call")) catch { case _: RuntimeException => None }
    } match {
      case Some(t: Throwable) => t.addSuppressed(text); t
      case _ => text
    }
  }

  private[this] val methods = new ConcurrentHashMap[(Class[_], String, Int), Array[Method]]

  private def invoke(target: ActiveObject, name: String, args: Seq[Any]): Proc[Any] = {
    val c = target.getClass
    val candidates = methods.computeIfAbsent((c, name, args.size),
      k => c.getMethods.filter(m => m.getName == k._2 && m.getParameterCount == k._3))
    val m = candidates.find(m => fits(m.getParameterTypes, args)).getOrElse {
      val types = args.map(a => if (a == null) "null" else a.getClass.getSimpleName).mkString(", ")
      throw new NoSuchMethodException(s"${c.getSimpleName} has no public method $name($types)")
    }
    val r = try m.invoke(target, args.map(_.asInstanceOf[AnyRef]): _*)
    catch { case e: InvocationTargetException if e.getCause ne null => throw e.getCause }
    r match {
      case p: Proc[_] => p.asInstanceOf[Proc[Any]]
      case v          => Proc.done(v)
    }
  }

  private def fits(types: Array[Class[_]], args: Seq[Any]): Boolean =
    types.indices.forall { i =>
      val a = args(i)
      val t = types(i)
      if (a == null) !t.isPrimitive else boxed(t).isInstance(a)
    }

  private def boxed(t: Class[_]): Class[_] =
    if (!t.isPrimitive) t
    else t match {
      case java.lang.Integer.TYPE   => classOf[java.lang.Integer]
      case java.lang.Long.TYPE      => classOf[java.lang.Long]
      case java.lang.Double.TYPE    => classOf[java.lang.Double]
      case java.lang.Boolean.TYPE   => classOf[java.lang.Boolean]
      case java.lang.Float.TYPE     => classOf[java.lang.Float]
      case java.lang.Short.TYPE     => classOf[java.lang.Short]
      case java.lang.Byte.TYPE      => classOf[java.lang.Byte]
      case java.lang.Character.TYPE => classOf[java.lang.Character]
      case _                        => classOf[scala.runtime.BoxedUnit]
    }
}
