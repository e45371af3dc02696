package cogs.distributed.bench

import cogs.distributed.Wire
import cogs.distributed.bench.ChatBench._
import org.apache.pekko.actor.{Actor, ActorRef, ActorSystem, Address, Props}
import org.apache.pekko.pattern.ask
import org.apache.pekko.util.Timeout
import scala.concurrent.{Await, Promise => SPromise}
import scala.concurrent.duration._

/**
 * The chat benchmark with plain Pekko classic actors: the same actors, actions, pseudo-random
 * choices and accounting as ChatBench's Cogs version, with messages where Cogs has calls, and an
 * acknowledgement message where the Cogs version awaits a reply (a bump before the report that
 * could end the round; a post, a leave, a setup). Between nodes the messages are Jackson CBOR
 * (marked Wire), ActorRefs included; a chat is a child actor of the client that made it and stops
 * when its last member leaves.
 */
object ChatPekko {
  final case class Bump(n: Int, token: Long) extends Wire
  final case class BumpAck(token: Long) extends Wire
  final case class Stop(kind: Int) extends Wire
  final case class Join(c: ActorRef) extends Wire
  final case class Invite(c: ActorRef, acc: ActorRef) extends Wire
  final case class Invited(chat: ActorRef, acc: ActorRef) extends Wire
  final case class LeaveChat(c: ActorRef) extends Wire
  final case class Left(empty: Boolean) extends Wire
  final case class PostTo(msg: String, acc: ActorRef) extends Wire
  final case class Posted(n: Int) extends Wire
  final case class Forward(msg: String, acc: ActorRef) extends Wire
  final case class Act(acc: ActorRef) extends Wire
  final case class Befriend(f: ActorRef) extends Wire
  final case class Ack(n: Int) extends Wire
  final case class SetupDir(first: Int, n: Int, seed: Long, mix: String) extends Wire
  final case class GetClient(i: Int) extends Wire
  final case class ClientRef(r: ActorRef) extends Wire
  final case class Poke(acc: ActorRef) extends Wire
  final case class MakeDirectory(n: Int) extends Wire
  final case class Messages(n: Long) extends Wire

  final class Acc(expected: Int, done: SPromise[Array[Long]]) extends Actor {
    private var open = expected.toLong
    private var bumps = 0L
    private var negative = false
    private val counts = new Array[Long](6)
    def receive: Receive = {
      case Bump(n, token) => open += n; bumps += n; sender() ! BumpAck(token)
      case Stop(kind) =>
        open -= 1; counts(kind) += 1
        if (open < 0) negative = true
        if (open == 0) { done.trySuccess(counts :+ bumps :+ (if (negative) 1L else 0L)); context.stop(self) }
    }
  }

  final class Chat extends Actor {
    private val members = scala.collection.mutable.LinkedHashSet.empty[ActorRef]
    private val posts = scala.collection.mutable.HashMap.empty[Long, (String, ActorRef, Vector[ActorRef], ActorRef)]
    private var token = 0L
    def receive: Receive = {
      case Join(c)        => members += c
      case Invite(c, acc) => members += c; c ! Invited(self, acc)
      case LeaveChat(c) =>
        members -= c
        sender() ! Left(members.isEmpty)
        if (members.isEmpty && posts.isEmpty) context.stop(self)
      case PostTo(msg, acc) =>
        token += 1
        val to = members.toVector
        posts(token) = (msg, acc, to, sender())
        acc ! Bump(to.size, token)
      case BumpAck(t) =>
        val (msg, acc, to, poster) = posts.remove(t).get
        to.foreach(_ ! Forward(msg, acc))
        poster ! Posted(to.size)
    }
  }

  final class Client(id: Int, seed: Long, mix: Vector[Int]) extends Actor {
    private val rng = new Rng(seed, id)
    private val friends = scala.collection.mutable.ArrayBuffer.empty[ActorRef]
    private val chats = scala.collection.mutable.ArrayBuffer.empty[ActorRef]
    private var received = 0L
    private var acc: ActorRef = _
    private var creating: (ActorRef, Vector[ActorRef]) = _
    def receive: Receive = {
      case Befriend(f)         => friends += f; sender() ! Ack(1)
      case Invited(chat, a)    => chats += chat; a ! Stop(FollowUp)
      case Forward(_, a)       => received += 1; a ! Stop(FollowUp)
      case Messages(_)         => sender() ! Messages(received)
      case Posted(_)           => acc ! Stop(Post)
      case Left(_)             => acc ! Stop(Leave)
      case BumpAck(_) =>
        val (chat, invitees) = creating
        chat ! Join(self)
        invitees.foreach(f => chat ! Invite(f, acc))
        acc ! Stop(Create)
      case Act(a) =>
        acc = a
        pick(rng, mix) match {
          case Compute                 => if (compute() < 0) received -= 1; acc ! Stop(Compute)
          case Post if chats.nonEmpty  => chats(rng.next(chats.size)) ! PostTo(s"client $id says hello", acc)
          case Leave if chats.nonEmpty => chats.remove(rng.next(chats.size)) ! LeaveChat(self)
          case Create =>
            val chat = context.actorOf(Props(new Chat))
            val invitees = friends.filter(_ => rng.next(2) == 0).toVector
            chats += chat
            creating = (chat, invitees)
            acc ! Bump(invitees.size, 0)
          case _ => acc ! Stop(Skip)
        }
    }
  }

  final class Directory extends Actor {
    private val clients = scala.collection.mutable.ArrayBuffer.empty[ActorRef]
    def receive: Receive = {
      case SetupDir(first, n, seed, mix) =>
        val m = mix.split(',').map(_.toInt).toVector
        clients ++= (first until first + n).map(i => context.actorOf(Props(new Client(i, seed, m))))
        sender() ! Ack(n)
      case GetClient(i) => sender() ! ClientRef(clients(i))
      case Poke(a)      => clients.foreach(_ ! Act(a))
    }
  }

  /** Every node's maker of directories (Pekko has no factory registry of Cogs nodes). */
  final class Factory extends Actor {
    def receive: Receive = { case MakeDirectory(_) => sender() ! ClientRef(context.actorOf(Props(new Directory))) }
  }

  final val FactoryName = "chat-factory"
  def factoryProps: Props = Props(new Factory)
  def directoryProps: Props = Props(new Directory)

  private implicit val timeout: Timeout = Timeout(120.seconds)
  private def j[A](f: scala.concurrent.Future[Any]): A = Await.result(f, 130.seconds).asInstanceOf[A]

  def makeDirectory(system: ActorSystem, on: Address): ActorRef = {
    val f = Await.result(system.actorSelection(s"$on/user/$FactoryName").resolveOne(30.seconds), 40.seconds)
    j[ClientRef](f ? MakeDirectory(0)).r
  }

  def impl(system: ActorSystem, directories: Vector[ActorRef]): Impl = new Impl {
    def name = "pekko"
    private var clients = Vector.empty[ActorRef]
    private var n = 0
    def setup(o: Options): Int = {
      n = o.clients
      val per = clientsPer(o)
      val firsts = per.scanLeft(0)(_ + _)
      directories.zipWithIndex.foreach { case (d, i) => j[Ack](d ? SetupDir(firsts(i), per(i), o.seed, o.mix)) }
      clients = directories.zipWithIndex.flatMap { case (d, i) => (0 until per(i)).map(k => j[ClientRef](d ? GetClient(k)).r) }
      val links = friendships(o)
      links.map { case (a, b) => clients(a) ? Befriend(clients(b)) }.foreach(f => j[Ack](f))
      links.size
    }
    def round(): Array[Long] = {
      val done = SPromise[Array[Long]]()
      val acc = system.actorOf(Props(new Acc(n, done)))
      directories.foreach(_ ! Poke(acc))
      Await.result(done.future, 130.seconds)
    }
    def received(): Long = clients.map(c => j[Messages](c ? Messages(0)).n).sum
  }
}
