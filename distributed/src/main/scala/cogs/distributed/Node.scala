package cogs.distributed

import com.typesafe.config.{Config, ConfigFactory}
import cogs.runtime.{ActiveObject, CogRuntime, Fut, Promise, SimTime}
import java.util.concurrent.{ConcurrentHashMap, TimeUnit, TimeoutException}
import java.lang.invoke.VarHandle
import java.util.concurrent.atomic.AtomicLong
import org.apache.pekko.actor.{ActorRef, ActorSystem, Address, ExtendedActorSystem, Props}
import org.apache.pekko.cluster.{Cluster, MemberStatus}
import org.apache.pekko.serialization.{Serialization, SerializationExtension}
import scala.concurrent.Await
import scala.concurrent.duration.{Duration, FiniteDuration}
import scala.jdk.CollectionConverters._

/**
 * One node of a distributed Cogs program: a [[CogRuntime]] and a Pekko actor system (remoting
 * over Artery TCP, cluster membership) in one JVM. Other nodes create objects here with the
 * factories [[register]]ed under a name, and this node creates objects on them with [[create]];
 * calls through the [[RemoteRef]]s return ordinary `Fut`s of this node's runtime.
 *
 * {{{
 * val node = Node.start(ConfigFactory.parseString("pekko.remote.artery.canonical.port = 0"))
 * node.register("counter")(args => node.runtime.spawn(new Counter(args(0).asInstanceOf[Int])))
 * val ref = node.create(other, "counter", 10).join()
 * val f: Fut[Int] = ref.send[Int]("inc", 5)
 * }}}
 */
final class Node private (val runtime: CogRuntime, ownsRuntime: Boolean, private[distributed] val config: Config) extends AutoCloseable {
  import Node._
  import Protocol._

  private[this] val dc = config.getConfig("cogs.distributed")
  private[distributed] val lostAfter: FiniteDuration =
    Duration.fromNanos(dc.getDuration("lost-after").toNanos)
  private[distributed] val downLostNodes: Boolean = dc.getBoolean("down-lost-nodes")
  private[distributed] val maxInFlight: Int = dc.getInt("max-in-flight")
  require(maxInFlight >= 1, s"cogs.distributed.max-in-flight must be at least 1, got $maxInFlight")
  // A message larger than a frame is dropped by Artery (with a log line only): refused here instead.
  private[distributed] val maxPayload: Long =
    config.getBytes("pekko.remote.artery.advanced.maximum-frame-size") - 4096

  /** The node's actor system (cluster provider). */
  val system: ActorSystem = startSystem(dc.getString("system-name"), config, () => if (ownsRuntime) runtime.close())
  private[distributed] val cluster: Cluster = Cluster(system)
  private[distributed] val serialization: Serialization = SerializationExtension(system)
  /** The codecs of the values of this node's calls and answers. */
  private[distributed] val values: Values = new Values(this)

  private[this] val factories = new ConcurrentHashMap[String, Seq[Any] => ActiveObject]
  private[distributed] val objects = new ConcurrentHashMap[java.lang.Long, ActiveObject]
  private[this] val objectIds = new AtomicLong
  private[this] val callIds = new AtomicLong

  // Peers by address. Created on first use under peersLock, which also guards `lostAddresses`:
  // so a peer made after its node was lost is born lost, and one made before is swept by nodeLost.
  private[this] val peers = new ConcurrentHashMap[Address, Peer]
  private[this] val peersLock = new Object
  private[this] val lostAddresses = new java.util.HashMap[Address, String]

  @volatile private[this] var closed = false
  /** Set when the node did not join its cluster within `join-timeout` (and closed itself). */
  @volatile private[distributed] var joinFailure: NodeStartException = _

  /** This node is or was a member of its cluster (not still joining). */
  private[distributed] def joined: Boolean = cluster.selfMember.status match {
    case MemberStatus.Joining | MemberStatus.Removed => false
    case _                                           => true
  }

  private[distributed] def isClosed: Boolean = closed

  // Created before the node joins: a member's endpoint exists before anyone can address it. Its
  // dispatcher runs it on the thread that delivers each message (CallerThreadExecutor): a call
  // from another node goes into its COG, and a reply resolves its future, from Artery's thread.
  private[distributed] val endpoint: ActorRef =
    system.actorOf(Props(new Endpoint(this)).withDispatcher(EndpointDispatcher), EndpointName)

  // ------------------------------------------------------------------ the cluster clock

  // Set once by useClusterClock, before the simulation starts; read on every send.
  @volatile private[distributed] var clock: ClusterClock = _

  /**
   * Timed ABS on several nodes (issue 30): this node's simulated clock becomes part of one clock
   * for the cluster, advanced only when every node is passive and no message is in flight
   * (`../docs/distributed.md`, "One simulated clock for the cluster"). Call on every node of the
   * clock, before any process waits for time or sends to another node; then call
   * [[coordinateClock]] on one of them once the simulation's first processes are started. Until
   * the clock ends, this node's runtime is not quiescent.
   */
  def useClusterClock(): Unit = synchronized {
    if (clock eq null) clock = new ClusterClock(this)
  }

  /**
   * Start the cluster clock's waves from this node over `nodes` (this one among them; each has
   * called [[useClusterClock]]). The clock ends, and every node's runtime can become quiescent,
   * when no process of any node waits for time and nothing is in flight, or when one of the
   * nodes is lost.
   */
  def coordinateClock(nodes: Seq[Address]): Unit = {
    if (clock eq null) throw new IllegalStateException(s"node $address does not use the cluster clock (useClusterClock first)")
    if (!nodes.contains(address)) throw new IllegalArgumentException(s"the coordinator $address must be one of the clock's nodes (${nodes.mkString(", ")})")
    endpoint.tell(ClusterClock.Coordinate(nodes.toVector.distinct), ActorRef.noSender)
  }

  /** Why the cluster clock ended on this node, once it has (None while it runs, or without one). */
  def clusterClockEnded: Option[String] = { val c = clock; if (c eq null) None else c.ended }

  /** The remote endpoint of node `a` (for the clock's control messages, which bypass the backlog). */
  private[distributed] def endpointOf(a: Address): ActorRef = {
    val p = peerFor(a)
    if (p ne null) p.ref
    else system.asInstanceOf[ExtendedActorSystem].provider.resolveActorRef(s"${a.toString}/user/$EndpointName")
  }

  /** A promise for a remote answer: under the cluster clock not counted by the runtime (Promise.uncounted says why). */
  private[distributed] def promise[A](description: String): Promise[A] =
    if (clock eq null) Promise[A](runtime, description) else Promise.uncounted[A](runtime, description)

  /** An answer from the endpoint to `to`: stamped and counted under the cluster clock. */
  private[distributed] def answer(to: ActorRef, m: Msg): Unit = {
    val c = clock
    to.tell(if (c eq null) m else c.stamp(m), endpoint)
  }

  /** This node's address (`pekko://cogs@host:port`; the port is the bound one when 0 was asked). */
  def address: Address = cluster.selfAddress

  /**
   * Register a factory under `name`: other nodes' [[create]] calls it, on a thread of this node's
   * actor system, with the arguments they gave. It must create the object in this node's runtime
   * (`node.runtime.spawn(new C(..))`). Register before other nodes use the name.
   */
  def register(name: String)(factory: Seq[Any] => ActiveObject): Unit = {
    if (factories.putIfAbsent(name, factory) ne null)
      throw new IllegalArgumentException(s"a factory named '$name' is already registered on node $address")
  }

  /** Java: [[register]] with a `java.util.function.Function` of the argument list. */
  def register(name: String, factory: java.util.function.Function[java.util.List[Object], ActiveObject]): Unit =
    register(name)(args => factory.apply(args.map(_.asInstanceOf[Object]).asJava))

  /** The members of the cluster that are up, this node included. */
  def members: Seq[Address] =
    cluster.state.members.iterator.filter(_.status == MemberStatus.Up).map(_.address).toSeq

  /** Java: [[members]] as a list. */
  def memberList: java.util.List[Address] = members.asJava

  /**
   * Block (outside every COG) until at least `n` members are up. Otherwise, after `timeout`, the
   * node is closed (its actor system's threads would keep the JVM alive after an uncaught
   * exception) and `TimeoutException` is thrown, naming the members that are up.
   */
  def awaitMembers(n: Int, timeout: Long, unit: TimeUnit): Unit = {
    val deadline = System.nanoTime() + unit.toNanos(timeout)
    while (members.size < n) {
      val failed = joinFailure
      if (failed ne null) throw failed
      if (System.nanoTime() - deadline > 0) {
        val up = members
        try close() catch { case _: Exception => () }
        throw new TimeoutException(s"node $address: ${up.size} member(s) up after $timeout ${unit.toString.toLowerCase}, wanted $n " +
          s"(up: ${up.mkString(", ")}); the node is closed")
      }
      Thread.sleep(20)
    }
  }

  /**
   * Create an object on node `on` with the factory registered there as `factory`. The future
   * resolves to a reference once the object exists, and fails if the node has no such factory,
   * the factory throws, an argument cannot be serialised, or the node is lost first.
   */
  @scala.annotation.varargs
  def create(on: Address, factory: String, args: Any*): Fut[RemoteRef] = {
    val what = s"create '$factory'"
    val promise = this.promise[RemoteRef](s"the creation of '$factory' on node $on")
    val encoded = encodeAll(args, what, on, promise)
    if (encoded ne null) dispatch(on, what, promise, id => Create(id, factory, encoded), Pending.Create(promise, what))
    promise.future
  }

  /**
   * A reference to `obj`, a local object, that calls can carry to other nodes (for instance a
   * caller passing itself). The object stays reachable, and alive, until this node closes:
   * exported and created objects are never collected.
   */
  def export(obj: ActiveObject): RemoteRef = {
    val id = nextObjectId()
    objects.put(id, obj)
    new RemoteRef(this, address, id, obj.getClass.getSimpleName)
  }

  // ------------------------------------------------------------------ client side

  /** A call; `deadline`: the time the caller has left until its deadline (null: none), see [[Protocol.Call]]. */
  private[distributed] def call[A](ref: RemoteRef, method: String, args: Seq[Any], deadline: SimTime = null): Fut[A] = {
    val what = s"${ref.className}.$method (object ${ref.objectId})"
    val promise = this.promise[A](s"the reply of $what from node ${ref.node}")
    val encoded = encodeAll(args, what, ref.node, promise)
    if (encoded ne null) {
      val index = ref.methodIndex(method, args.size)
      dispatch(ref.node, what, promise, id => Call(id, ref.objectId, index, method, encoded, deadline), Pending.Call(promise.asInstanceOf[Promise[Any]], what))
    }
    promise.future
  }

  /**
   * A one-way call: sent like [[call]] (same order with the calls and one-way calls of the same
   * sender), but with no id, no promise and no pending entry, and never answered. An argument
   * that cannot be serialised, a node that is not a member, or this node closed throw here; a
   * call to a node that is lost is dropped (counted by [[oneWayDropped]]), as a local call whose
   * future nobody reads fails unseen.
   */
  private[distributed] def tell(ref: RemoteRef, method: String, args: Seq[Any]): Unit = {
    val encoded = encodeArgs(args, s"${ref.className}.$method (object ${ref.objectId})", ref.node)
    val to = ref.node
    if (closed) throw new IllegalStateException(s"node $address is closed: cannot send ${ref.className}.$method")
    val peer = peerFor(to)
    if (peer eq null)
      throw new IllegalStateException(s"node $to is not a member of the cluster of node $address: cannot send ${ref.className}.$method")
    if (peer.lost ne null) oneWayDropped.incrementAndGet()
    // Behind the calls waiting in the backlog (order), but holding no place in the window (no
    // answer would give it back). Lost after this line: dropped with the backlog (counted there).
    else submit(peer, Tell(ref.objectId, ref.methodIndex(method, args.size), method, encoded))
  }

  /** One-way calls dropped because their node was lost before they were sent. */
  private[distributed] val oneWayDropped = new AtomicLong

  /** Calls of this node waiting for an answer (all peers): a one-way call never adds one. */
  private[distributed] def pendingCalls: Int = peers.values().asScala.map(_.pending.size).sum

  /** The arguments serialised, or null after failing `promise` with the reason. */
  private def encodeAll(args: Seq[Any], what: String, on: Address, promise: Promise[_]): Array[Byte] =
    try encodeArgs(args, what, on)
    catch {
      case e: RuntimeException => promise.failure(e); null
    }

  private def encodeArgs(args: Seq[Any], what: String, on: Address): Array[Byte] = {
    val v = values.encodeArgs(args, i => s"argument ${i + 1} of $what for node $on")
    if (v.length > maxPayload)
      throw new IllegalArgumentException(
        s"the arguments of $what are ${v.length} bytes serialised, more than a frame holds (pekko.remote.artery.advanced.maximum-frame-size)")
    v
  }

  /**
   * Send a request to node `to` (or queue it behind the in-flight window), registering it so that
   * exactly one of its answer and the loss of `to` completes its promise: both take the entry out
   * of `peer.pending` (a concurrent map, no lock per node) with `remove`, and only the one that
   * got it completes the promise.
   *
   * Why the loss of `to` misses no call: this thread puts the entry, then (full fence) reads
   * `peer.lost`; [[failAll]] writes `lost`, then (full fence) sweeps the map. With a fence on
   * each side, at least one of the two sees the other's write: this thread sees the loss (and
   * removes its entry itself unless the sweep got it first), or the sweep sees the entry.
   */
  private def dispatch(to: Address, what: String, promise: Promise[_], msg: Long => Msg, pending: Pending): Unit = {
    if (closed) { promise.failure(new IllegalStateException(s"node $address is closed: cannot send $what")); return }
    val peer = peerFor(to)
    if (peer eq null) {
      promise.failure(new IllegalStateException(s"node $to is not a member of the cluster of node $address: cannot send $what"))
      return
    }
    val id = callIds.incrementAndGet()
    peer.pending.put(id, pending)
    VarHandle.fullFence()
    val lost = peer.lost
    if (lost ne null) {
      if (peer.pending.remove(id) ne null) promise.failure(new NodeLostException(to.toString, what, lost))
    } else submit(peer, msg(id))
  }

  /**
   * Queue `m` for `peer` and send what the window allows. The ORDER of the messages from one
   * sender to one node is the order of their `offer`s into the FIFO backlog (program order for one
   * thread or one process, whose consecutive slices are ordered by the COG's hand-offs); only the
   * holder of `peer.draining` takes from the backlog and tells Artery, so the tells into Artery's
   * one outbound queue for the peer's endpoint keep that order, and Artery delivers it (Pekko's
   * per-sender-receiver ordering).
   */
  private def submit(peer: Peer, m: Msg): Unit = {
    // Under the cluster clock, counted sent here, before it can wait in the backlog: from now
    // until the receiver counts it, the clock cannot advance (ClusterClock.stamp).
    val c = clock
    peer.backlog.offer(if (c eq null) m else c.stamp(m))
    drain(peer)
  }

  /**
   * Send from the backlog while the head is a one-way call or the window has a place. Why nothing
   * is left behind (no lost wake-up): each event that can let a message go (an `offer`, an answer
   * giving a place back) is followed by `drain` on the thread that made it. If that thread does
   * not get the flag, another holds it, and that one, after releasing it (a volatile write, later
   * in the order of synchronisation actions than the failed CAS, which read it set), looks again
   * at the backlog and the window, and sees the event: it drains again rather than return.
   */
  private def drain(peer: Peer): Unit = {
    while (peer.draining.compareAndSet(false, true)) {
      try {
        var m = peer.backlog.peek()
        while ((m ne null) && (oneWay(m) || peer.inFlight.get < maxInFlight)) {
          peer.backlog.poll()
          if (!oneWay(m)) peer.inFlight.incrementAndGet()
          peer.ref.tell(m, endpoint)
          m = peer.backlog.peek()
        }
      } finally peer.draining.set(false)
      val h = peer.backlog.peek()
      if ((h eq null) || !(oneWay(h) || peer.inFlight.get < maxInFlight)) return
    }
  }

  private def oneWay(m: Msg): Boolean = m match {
    case _: Tell               => true
    case Stamped(_, _, _: Tell) => true
    case _                     => false
  }

  private def peerFor(to: Address): Peer = {
    val p = peers.get(to)
    if (p ne null) p
    else peersLock.synchronized {
      val q = peers.get(to)
      if (q ne null) q
      else {
        val lost = lostAddresses.get(to)
        if ((lost eq null) && !cluster.state.members.exists(_.address == to)) null
        else {
          val path = s"${to.toString}/user/$EndpointName"
          val ref = system.asInstanceOf[ExtendedActorSystem].provider.resolveActorRef(path)
          val n = new Peer(to, ref)
          n.lost = lost
          peers.put(to, n)
          n
        }
      }
    }
  }

  /** An answer from `from`: take its pending entry (if the node was not lost first) and refill the window. */
  private[distributed] def answered(from: Address, id: Long): Pending = {
    val peer = peers.get(from)
    if (peer eq null) return null
    val p = peer.pending.remove(id)
    if (p ne null) {
      peer.inFlight.decrementAndGet()
      if (!peer.backlog.isEmpty) drain(peer)
    }
    p
  }

  /** Why node `addr` was lost (null if it was not): "it left the cluster" when it left on its own. */
  private[distributed] def lostReason(addr: Address): String = peersLock.synchronized(lostAddresses.get(addr))

  /**
   * Node `addr` is lost: from now on calls to it fail at once, and every call waiting on it fails
   * with the node and the call named. Idempotent. A peer created later is created lost
   * (peersLock orders its creation against `lostAddresses`); for calls racing with the loss, see
   * [[dispatch]].
   */
  private[distributed] def nodeLost(addr: Address, reason: String): Unit = {
    val peer = peersLock.synchronized {
      if (!lostAddresses.containsKey(addr)) lostAddresses.put(addr, reason)
      peers.get(addr)
    }
    if (peer ne null) failAll(peer, reason)
    // On the endpoint actor (its only caller), where the clock's coordinator state lives.
    val c = clock
    if (c ne null) c.nodeLost(addr, reason)
  }

  private def failAll(peer: Peer, reason: String): Unit = {
    if (peer.lost eq null) peer.lost = reason
    VarHandle.fullFence()
    val why = peer.lost
    // Nothing more goes out to it: what the backlog holds is dropped (one-way calls counted; the
    // calls' entries are swept below). A drain racing with this may still tell Artery a message
    // or two for the lost node, which Artery drops; their entries are swept all the same.
    var m = peer.backlog.poll()
    while (m ne null) { if (oneWay(m)) oneWayDropped.incrementAndGet(); m = peer.backlog.poll() }
    val it = peer.pending.keySet().iterator()
    while (it.hasNext) {
      val p = peer.pending.remove(it.next())
      if (p ne null) p.promise.failure(new NodeLostException(peer.address.toString, p.what, why))
    }
  }

  // ------------------------------------------------------------------ server side

  private[distributed] def factory(name: String): Seq[Any] => ActiveObject = factories.get(name)
  private[distributed] def factoryNames: String = factories.keySet().asScala.toList.sorted.mkString(", ")
  private[distributed] def nextObjectId(): Long = objectIds.incrementAndGet()

  // ------------------------------------------------------------------ lifecycle

  /**
   * Leave the cluster and stop: calls still waiting for a reply fail (this node closes), the
   * actor system terminates (leaving the cluster gracefully, so the other nodes fail their calls
   * to this one), then the runtime is closed if the node made it.
   */
  def close(): Unit = if (!closed) {
    closed = true
    val all = peersLock.synchronized(peers.values().asScala.toList)
    all.foreach(p => failAll(p, s"node $address, which sent the call, closed"))
    // A model's nodes end together: the serving nodes leave as soon as they see the main node
    // go, and this node's transport streams to them are then aborted, which Pekko logs as
    // warnings (two per peer) on a stop that is no fault. Errors still show.
    system.eventStream.setLogLevel(org.apache.pekko.event.Logging.ErrorLevel)
    Await.ready(system.terminate(), Duration(30, TimeUnit.SECONDS))
    if (ownsRuntime) runtime.close()
  }

  override def toString: String = s"Node($address)"
}

object Node {
  private[distributed] final val EndpointName = "cogs-node"
  private[distributed] final val EndpointDispatcher = "cogs.distributed.endpoint-dispatcher"
  /** The reason a node is lost when it left the cluster on its own (closed). */
  private[distributed] final val LeftReason = "it left the cluster"

  /**
   * Start a node from configuration: `cogs { ... }` for its runtime, `cogs.distributed` and
   * `pekko { ... }` for the network (see the module's reference.conf). Without
   * `pekko.cluster.seed-nodes` the node forms a cluster of its own.
   */
  def start(config: Config = ConfigFactory.load()): Node = {
    val full = withDefaults(config)
    new Node(CogRuntime(full), ownsRuntime = true, full).joinCluster()
  }

  /** [[start]] with a runtime the caller owns (and closes). */
  def start(config: Config, runtime: CogRuntime): Node =
    new Node(runtime, ownsRuntime = false, withDefaults(config)).joinCluster()

  private def withDefaults(config: Config): Config = {
    val full = config.withFallback(ConfigFactory.defaultReference())
    // Pekko's logging: warnings and errors only, unless the application sets a level itself (a
    // value that comes from a reference.conf is Pekko's default, INFO: some 27 lines per node),
    // through NodeLogger (the errors the node reports itself are left out) unless it sets loggers.
    def unset(k: String) = !full.hasPath(k) || Option(full.getValue(k).origin.resource).contains("reference.conf")
    val quiet = List("pekko.loglevel", "pekko.stdout-loglevel").filter(unset).map(k => s"$k = WARNING") ++
      (if (unset("pekko.loggers")) List("pekko.loggers = [\"cogs.distributed.NodeLogger\"]") else Nil)
    // Pekko's 3 s to bind the port counts from the actor system's start, which on a loaded machine
    // (a JVM still loading and compiling Pekko's classes) can take longer than that by itself: a
    // node then failed to start with a bind time-out though its port was free. The port is taken
    // or free at once; the time limit only guards a bind that hangs, so a generous one loses nothing.
    val bind = if (unset("pekko.remote.artery.bind.bind-timeout")) List("pekko.remote.artery.bind.bind-timeout = 30s") else Nil
    // Exceptions marked Wire: see ThrowableModule (appended to the modules the configuration lists).
    val throwables = "pekko.serialization.jackson.jackson-modules += \"cogs.distributed.ThrowableModule\""
    ConfigFactory.parseString(("pekko.actor.provider = cluster" :: throwables :: quiet ++ bind).mkString("\n")).withFallback(full).resolve()
  }

  /**
   * The actor system, or a [[NodeStartException]] that says why not in one paragraph (Pekko's
   * exception as its cause, for whoever wants it): Artery binds the node's port while the system
   * starts, and an address in use or a host name that does not resolve fails it there.
   */
  private def startSystem(name: String, config: Config, cleanUp: () => Unit): ActorSystem =
    try ActorSystem(name, config)
    catch {
      case e: Exception =>
        cleanUp()
        val host = config.getString("pekko.remote.artery.canonical.hostname")
        val port = config.getInt("pekko.remote.artery.canonical.port")
        val bind = s"$host:$port (pekko.remote.artery.canonical.hostname and .port)"
        val causes = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).toList
        val text = causes.map(c => s"${c.getClass.getName}: ${c.getMessage}").mkString(" / ")
        // The innermost exception that says something.
        def message = causes.reverseIterator.collectFirst { case c if c.getMessage ne null => s"${c.getClass.getSimpleName}: ${c.getMessage}" }
          .getOrElse(causes.last.getClass.getName)
        val why =
          if (causes.exists(_.isInstanceOf[java.net.BindException]) || text.contains("Address already in use"))
            s"the address $bind is in use by another program (another node?): give this node another port, or 0 for any free one"
          else if (causes.exists(c => c.isInstanceOf[java.net.UnknownHostException] || c.isInstanceOf[java.nio.channels.UnresolvedAddressException]) ||
              text.contains("Unresolved address") || text.contains("Name or service not known"))
            s"the host name '$host' (pekko.remote.artery.canonical.hostname) is not known on this machine: use an address or a name it resolves"
          else if (causes.exists(_.isInstanceOf[java.net.SocketException]))
            s"it cannot listen on $bind: ${message}; use an address of this machine"
          else s"its actor system failed to start: $message"
        throw new NodeStartException(s"cannot start the node: $why.", e)
    }

  private implicit final class Joining(private val n: Node) extends AnyVal {
    /**
     * Join the cluster (a node without seed nodes forms its own), without waiting: the caller
     * registers its factories before others can see the node up. Pekko retries joining its seed
     * nodes forever; a node given a wrong address must fail instead, naming the addresses, and
     * leave nothing running that would keep the JVM alive: after `cogs.distributed.join-timeout`
     * a node still not in the cluster says so on standard error and closes (`joinFailure`).
     */
    def joinCluster(): Node = {
      val seeds = n.cluster.settings.SeedNodes
      if (seeds.isEmpty) n.cluster.join(n.cluster.selfAddress)
      val timeout = n.config.getDuration("cogs.distributed.join-timeout")
      n.system.scheduler.scheduleOnce(Duration.fromNanos(timeout.toNanos)) {
        if (!n.joined && !n.isClosed) {
          val self = n.address
          val tried = seeds.filter(_ != self)
          val why =
            if (tried.isEmpty) s"it did not come up within ${timeout.toMillis} ms (cogs.distributed.join-timeout)"
            else s"no seed node let it in within ${timeout.toMillis} ms (cogs.distributed.join-timeout); it tried " +
              s"${tried.mkString(", ")} (pekko.cluster.seed-nodes): check that a node runs at that address and port, " +
              "with the same actor system name (cogs.distributed.system-name), and is reachable from here"
          val e = new NodeStartException(s"node $self could not join the cluster: $why.", null)
          n.joinFailure = e
          System.err.println(s"cogs: ${e.getMessage}")
          // Not on this scheduler's thread: closing waits for the actor system to terminate.
          new Thread(() => n.close(), "cogs-node-join-timeout").start()
        }
      }(n.system.dispatcher)
      n
    }
  }

  /** What a call registered with its peer waits for. */
  private[distributed] sealed abstract class Pending(val promise: Promise[_], val what: String)
  private[distributed] object Pending {
    final case class Create(p: Promise[RemoteRef], w: String) extends Pending(p, w)
    final case class Call(p: Promise[Any], w: String) extends Pending(p, w)
  }

  /**
   * The state of one remote node as seen by this node, with no lock: the calls waiting for an
   * answer by id (a concurrent map), the in-flight count, the FIFO backlog and the flag of the one
   * thread that sends from it (see `dispatch`, `drain`, `failAll`).
   */
  private[distributed] final class Peer(val address: Address, val ref: ActorRef) {
    @volatile var lost: String = _
    val pending = new ConcurrentHashMap[java.lang.Long, Pending]
    val inFlight = new java.util.concurrent.atomic.AtomicInteger
    val backlog = new java.util.concurrent.ConcurrentLinkedQueue[Protocol.Msg]
    val draining = new java.util.concurrent.atomic.AtomicBoolean
  }
}
