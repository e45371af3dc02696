package cogs.distributed.abs

import com.typesafe.config.{Config, ConfigFactory, ConfigValueFactory}
import cogs.absc.run.RemotePlacement
import cogs.distributed.{Node, NotSerializableValueException, RemoteRef}
import cogs.runtime.{Active, ActiveObject, CogRuntime, Cogs, DeploymentComponent, Fut, Proc, Promise, Resource, SchedulingPolicy, SimTime}
import java.lang.reflect.{InvocationHandler, InvocationTargetException, Method}
import java.util.concurrent.{CompletableFuture, ConcurrentHashMap, TimeUnit}
import org.apache.pekko.actor.{ActorSystem, AddressFromURIString}
import org.apache.pekko.cluster.{Member, MemberStatus}
import scala.jdk.CollectionConverters._
import scala.util.{Failure, Success, Try}

/**
 * ABS deployment components on cluster nodes: the [[RemotePlacement]] of one node (see
 * `cogs.absc.run.RemotePlacement` in abs-runtime, which finds this through [[PlacementProvider]]).
 *
 * Every node runs the same compiled model: the main node its main block (the model's generated
 * main, `absmodel_main.Main`), the others [[ServeModel]]. A node's name (`cogs.distributed.node-name`)
 * is a cluster role of its member (`cogs-node-NAME`); `cogs.distributed.deployment` maps the names
 * of deployment components to node names. `[DC: dc] new C(args)` for a `dc` mapped to another
 * node sends C's class name and the argument values to that node, which creates the object in its
 * runtime; here the `new` returns at once a proxy (a `java.lang.reflect.Proxy` implementing C's
 * ABS interfaces) whose calls become remote calls.
 */
private[distributed] final class AbsPlacement private (val node: Node, val nodeName: String, deployment: Map[String, String],
    private[abs] val loader: ClassLoader, spread: Vector[String] = Vector.empty) extends RemotePlacement {
  import AbsPlacement._

  def runtime: CogRuntime = node.runtime

  // `cogs.distributed.spread-components`: the node of each component the deployment does not map,
  // fixed the first time this node places an object on it (or learns it is a stand-in's here).
  // The i-th such component goes to spread(i mod n): deterministic as long as the model makes its
  // first `new`s on components in a deterministic order (a main block does). computeIfAbsent
  // calls the counter once per name, so a name never moves.
  private[this] val spreadTo = new ConcurrentHashMap[String, String]
  private[this] val spreadNext = new java.util.concurrent.atomic.AtomicInteger

  /** The node the component named `dc` is on: the deployment's, else the spread's, else none (here). */
  private[abs] def nodeOf(dc: String): Option[String] = deployment.get(dc) match {
    case some @ Some(_) => some
    case None if spread.isEmpty => None
    case None => Some(spreadTo.computeIfAbsent(dc, _ => spread(Math.floorMod(spreadNext.getAndIncrement(), spread.size))))
  }

  def isRemote(dc: String): Boolean = nodeOf(dc).exists(_ != nodeName)

  def isPlacedElsewhere(dc: String): Boolean =
    deployment.get(dc).orElse(Option(spreadTo.get(dc))).exists(_ != nodeName)

  // Proxies by (node, object id): one proxy per remote object on this node, so ABS `==` on
  // references (identity) holds for a reference that arrives twice.
  private[this] val proxies = new ConcurrentHashMap[(String, Long), Active]
  // Local objects handed to other nodes, by identity: exported once, so that they see one object.
  private[this] val exported = new java.util.IdentityHashMap[ActiveObject, RemoteRef]

  def create(dc: String, cls: Class[_ <: ActiveObject], args: Seq[Any], at: String): Active = createOn(dc, cls, args, at, null)

  def createScheduled(dc: String, cls: Class[_ <: ActiveObject], args: Seq[Any], at: String,
      policy: ActiveObject => SchedulingPolicy): Active = createOn(dc, cls, args, at, PolicyMaker(policy))

  private def createOn(dc: String, cls: Class[_ <: ActiveObject], args0: Seq[Any], at: String, policy: PolicyMaker): Active = {
    val (fut, what) = createRef(dc, cls, args0, at, policy)
    val handler = new RemoteObject(this, cls.getSimpleName, what, interfacesOf(cls).map(_.getName), dc)
    val proxy = handler.proxy
    fut.onComplete { r =>
      r.foreach(ref => proxies.put((ref.node.toString, ref.objectId), proxy))
      handler.created(r)
    }
    proxy
  }

  /** Sends the creation of an object of `cls` on `dc`'s node: the reference to come, and what it is (for messages). */
  private def createRef(dc: String, cls: Class[_ <: ActiveObject], args0: Seq[Any], at: String, policy: PolicyMaker): (Fut[RemoteRef], String) = {
    // A scheduled object's policy goes first, before the class name (see instantiateIn).
    val args = if (policy eq null) args0 else policy +: args0
    val target = nodeOf(dc).getOrElse(throw new IllegalStateException(s"deployment component '$dc' is not mapped to a node"))
    val what = s"an object of class ${cls.getSimpleName} on node '$target' (deployment component '$dc', new at $at)"
    val member = memberNamed(target).getOrElse(
      throw new IllegalStateException(s"cannot create $what: no member of the cluster is named '$target' now " +
        s"(members: ${namedMembers})"))
    // The component travels with the creation (its name, resources and ABS object) when it has an
    // ABS object (every component of an ABS model has one): see instantiateOn.
    val component = node.runtime.deploymentComponents.find(c => c.name == dc && (c.attachment ne null))
    val fut = component match {
      case Some(c) =>
        node.create(member.address, FactoryOnName, (dc +: resourcesText(c) +: c.attachment +: classFirst(cls, args)): _*)
      case None => node.create(member.address, FactoryName, classFirst(cls, args): _*)
    }
    // An argument that cannot be serialised fails the creation at once: report it at the `new`.
    fut.poll match {
      case Some(Failure(e)) => throw new IllegalArgumentException(s"cannot create $what: ${e.getMessage}", e)
      case _ =>
    }
    (fut, what)
  }

  // ------------------------------------------------------------------ [DataSize] to another node

  // Per component mapped to another node, the helper object on its stand-in there that consumes
  // the Bandwidth of `[DataSize: ..]` calls to its objects; made by the first such call.
  private[this] val bandwidthThere = new ConcurrentHashMap[String, Fut[RemoteRef]]

  /**
   * `[DataSize: amount] o!m(..)` for an `o` this node created on a component of another node: in
   * one JVM the transfer consumes the Bandwidth of `o`'s component, blocking the sender's COG over
   * as many time units as it takes (`Cogs.transfer`). The component's resources are its stand-in's
   * on that node (where `[Cost]` of its objects is accounted too), so the Bandwidth is consumed
   * there, by a helper object made on the stand-in ([[BandwidthThere]]), and the sender's COG is
   * blocked until it is done. Under the cluster clock that takes the same time units as in one
   * JVM (the helper waits for them there). A reference that came from another node does not say
   * its object's component: null, and the transfer costs nothing, as before (docs/distributed.md).
   */
  override def transfer(target: Active, amount: SimTime): Proc[Unit] = target match {
    case p if (p ne null) && java.lang.reflect.Proxy.isProxyClass(p.getClass) =>
      java.lang.reflect.Proxy.getInvocationHandler(p) match {
        case h: RemoteObject if (h.component ne null) && isRemote(h.component) =>
          if (amount.signum <= 0) Proc.unit
          else {
            val dc = h.component
            val helper = bandwidthThere.computeIfAbsent(dc, _ => createRef(dc, classOf[BandwidthThere], Nil, s"[DataSize] to ${h.absClass}", null)._1)
            Proc.get(helper).flatMap(ref => Proc.get(node.call[Any](ref, "consume", Seq(amount.toString)))).map(_ => ())
          }
        case _ => null
      }
    case _ => null
  }

  /** The class name, then the constructor arguments; a scheduled object's policy before both. */
  private def classFirst(cls: Class[_], args: Seq[Any]): Seq[Any] = args.headOption match {
    case Some(p: PolicyMaker) => p +: cls.getName +: args.tail
    case _                    => cls.getName +: args
  }

  // This node's stand-ins for deployment components made on other nodes and mapped here, by name.
  private[this] val components = new ConcurrentHashMap[String, DeploymentComponent]

  /**
   * The factory [[AbsPlacement.FactoryOnName]]: `[DC: dc] new C(args)` made on another node for a
   * component mapped here. Every object of the component is on this node (the mapping is by
   * name), so its resources are consumed here: this node has a component of that name (one per
   * name, made by the first creation with the resources the component had then), on which the
   * object's COG runs. `[Cost: ..]` of its processes is accounted on it, at this node's time (the
   * cluster's, under the cluster clock), and `thisDC()` there is the ABS component object (a
   * reference to the one on the node that made it), so `[DC: thisDC()] new ..` lands here too.
   * The ABS object's own methods (`load`, `total`, ..) run on its node and see the
   * resources as they were made there, not what this node consumed (docs/distributed.md).
   */
  private def instantiateOn(args: Seq[Any]): ActiveObject = {
    val dc = components.computeIfAbsent(String.valueOf(args(0)), name => {
      // A spread component was sent here because it is on this node: `[DC: thisDC()] new ..` here
      // must stay here, not take a turn of this node's own spread.
      if (spread.nonEmpty && !deployment.contains(name)) spreadTo.putIfAbsent(name, nodeName)
      val c = runtime.deploymentComponent(name, parseResources(String.valueOf(args(1))))
      c.attachment = args(2).asInstanceOf[AnyRef]
      c
    })
    instantiateIn(dc, args.drop(3))
  }

  /** The factory [[AbsPlacement.FactoryName]]: `new C(args)` in this node's runtime, from C's class name. */
  private def instantiate(args: Seq[Any]): ActiveObject = instantiateIn(null, args)

  private def instantiateIn(dc: DeploymentComponent, args0: Seq[Any]): ActiveObject = {
    // `[Scheduler: ..] new`: the policy maker came first, made on the creating node (PolicyMaker).
    val (policy, args) = args0.headOption match {
      case Some(PolicyMaker(f)) => (f, args0.tail)
      case _                    => (null, args0)
    }
    val name = String.valueOf(args.head)
    val cls = Class.forName(name, true, loader)
    if (!classOf[ActiveObject].isAssignableFrom(cls)) throw new IllegalArgumentException(s"$name is not an ABS class")
    val ctorArgs = args.tail.map(_.asInstanceOf[AnyRef])
    val ctor = cls.getConstructors.find(_.getParameterCount == ctorArgs.size).getOrElse(
      throw new NoSuchMethodException(s"${cls.getSimpleName} has no constructor of ${ctorArgs.size} argument(s) on node '$nodeName'"))
    def make(): ActiveObject =
      try ctor.newInstance(ctorArgs: _*).asInstanceOf[ActiveObject]
      catch { case e: InvocationTargetException if e.getCause ne null => throw e.getCause }
    if (policy eq null) runtime.spawnOn(dc)(make()) else runtime.spawnScheduledOn(dc, policy)(make())
  }

  // ------------------------------------------------------------------ references as values

  /** The token a reference travels as (see [[AbsValueSerializer]]). */
  private[abs] def tokenFor(a: Active): RefToken = a match {
    case p if java.lang.reflect.Proxy.isProxyClass(p.getClass) =>
      java.lang.reflect.Proxy.getInvocationHandler(p) match {
        case h: RemoteObject =>
          // A reference whose object is still being created: its creation is answered from the
          // network (not from this thread), so waiting for it here cannot wait on itself; a lost
          // node fails the creation after lost-after.
          val ref = try h.ref.get(node.lostAfter.toMillis * 4 + 30000, TimeUnit.MILLISECONDS)
          catch {
            case e: java.util.concurrent.ExecutionException =>
              throw new java.io.NotSerializableException(s"${h.absClass} (a reference to an object whose creation failed: ${e.getCause.getMessage})")
          }
          RefToken(ref.node.toString, ref.objectId, h.absClass, h.interfaceNames)
        case _ => throw new java.io.NotSerializableException(p.getClass.getName)
      }
    case o: ActiveObject =>
      val ref = exported.synchronized {
        val r = exported.get(o)
        if (r ne null) r
        else {
          // An object created here for another node already has an id (the endpoint gave it one
          // after the factory returned): reuse it, so that the other node's proxy stays the one.
          // A linear search, once per object: later sends find it in `exported`.
          val known = node.objects.entrySet().asScala.find(_.getValue eq o)
          val n = known.map(e => new RemoteRef(node, node.address, e.getKey, o.traceName)).getOrElse(node.export(o))
          exported.put(o, n)
          n
        }
      }
      RefToken(ref.node.toString, ref.objectId, o.traceName, interfacesOf(o.getClass).map(_.getName))
    case other => throw new java.io.NotSerializableException(other.getClass.getName)
  }

  /** The object a token names: this node's own object, or a proxy. */
  private[abs] def resolve(t: RefToken): AnyRef =
    if (t.node == node.address.toString) {
      val o = node.objects.get(t.id)
      if (o eq null) throw new IllegalStateException(s"no object ${t.id} (${t.absClass}) on node ${node.address}")
      o
    } else proxies.computeIfAbsent((t.node, t.id), _ => {
      val ref = new RemoteRef(node, AddressFromURIString(t.node), t.id, t.absClass)
      val h = new RemoteObject(this, t.absClass, s"object ${t.id} of class ${t.absClass} on node ${t.node}", t.interfaces)
      h.created(Success(ref))
      h.proxy
    })

  // ------------------------------------------------------------------ members by name

  private def memberNamed(name: String): Option[Member] =
    node.cluster.state.members.find(m => m.status == MemberStatus.Up && m.hasRole(RolePrefix + name))

  private def namedMembers: String = {
    val ms = node.cluster.state.members.toList.map { m =>
      val names = m.roles.filter(_.startsWith(RolePrefix)).map(_.stripPrefix(RolePrefix))
      s"'${names.headOption.getOrElse("(unnamed)")}' at ${m.address} (${m.status})"
    }
    if (ms.isEmpty) "none" else ms.mkString(", ")
  }

  /** Wait until every node the deployment names is up; a name no member carries is an error. */
  private def awaitDeployment(timeout: Long): Unit = {
    val wanted = deployment.values.toSet ++ spread - nodeName
    val deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout)
    var missing = wanted.filter(memberNamed(_).isEmpty)
    while (missing.nonEmpty) {
      if (System.nanoTime() - deadline > 0) {
        val dcs = deployment.filter { case (_, n) => missing(n) }.map { case (d, n) => s"'$d' -> '$n'" }.toList.sorted
        val spreadText = if (spread.exists(missing)) s"; $SpreadKey names ${spread.mkString(", ")}" else ""
        throw new IllegalStateException(
          s"no node named ${missing.toList.sorted.map("'" + _ + "'").mkString(", ")} joined the cluster within $timeout ms " +
            s"($DeploymentKey maps ${if (dcs.isEmpty) "none of them" else dcs.mkString(", ")}$spreadText); members: $namedMembers. " +
            s"A node's name is its $NodeNameKey")
      }
      Thread.sleep(20)
      missing = wanted.filter(memberNamed(_).isEmpty)
    }
  }

  /**
   * On the main node, once the deployment's nodes are up: every node of the model must use the
   * cluster clock if this one does, and none if this one does not. Mixed, the run would hang: a
   * node without it never answers the coordinator's probes, so the clock never advances; a node
   * with it and no coordinator never advances its own clock, so calls to its timed objects never
   * return. Seen through the role [[ClockRole]] each node with the clock carries.
   */
  private def checkClockSettings(clockOn: Boolean): Unit = {
    val other = node.cluster.state.members.toList.filter { m =>
      m.status == MemberStatus.Up && m.address != node.address && m.roles.exists(_.startsWith(RolePrefix)) && m.hasRole(ClockRole) != clockOn
    }
    if (other.nonEmpty) {
      val names = other.flatMap(_.roles.find(_.startsWith(RolePrefix)).map(r => s"'${r.stripPrefix(RolePrefix)}'")).sorted
      def state(on: Boolean) = if (on) "on" else "off"
      throw new IllegalStateException(s"the main node has the cluster clock ($ClusterClockKey) ${state(clockOn)}, but " +
        s"node${if (names.size > 1) "s" else ""} ${names.mkString(", ")} ${if (names.size > 1) "have" else "has"} it ${state(!clockOn)}: every node of a model needs the same " +
        "setting (absc run --cluster-clock for every node's absc, or the setting in the --config file all nodes read)")
    }
  }

  /**
   * For a serving node: wait until the main node was seen and is gone. None if it left the
   * cluster (the model's main program ended), else why it was lost (it crashed, or cannot be
   * reached for `lost-after`), or why this node stopped. Waiting for the main node to appear is
   * bounded by `join-timeout`.
   */
  private[abs] def awaitMainGone(): Option[String] = {
    def main = node.cluster.state.members.find(m => m.hasRole(MainRole) && m.status != MemberStatus.Removed)
    def stopped = node.system.whenTerminated.isCompleted
    val timeout = node.config.getDuration("cogs.distributed.join-timeout")
    val deadline = System.nanoTime() + timeout.toNanos
    while (main.isEmpty && !stopped) {
      if (System.nanoTime() - deadline > 0) {
        // Not in the cluster itself: the node's own join timeout, due now, says why.
        val until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10)
        while (!node.joined && (node.joinFailure eq null) && System.nanoTime() - until < 0) Thread.sleep(20)
        if (node.joinFailure ne null) return Some(node.joinFailure.getMessage)
        return Some(s"no main node (a node running the model's main program) joined the cluster within ${timeout.toMillis} ms " +
          "(cogs.distributed.join-timeout)")
      }
      Thread.sleep(50)
    }
    if (node.joinFailure ne null) return Some(node.joinFailure.getMessage)
    val address = main.map(_.address).orNull
    // Gone from the membership, or lost without being removed (down-lost-nodes off).
    while (!stopped && main.isDefined && (node.lostReason(address) eq null)) Thread.sleep(50)
    if (stopped) return Some(s"this node's actor system stopped (this node was removed from the cluster) while main node $address was running")
    // The endpoint records why a node was lost when it sees the event that the membership already shows: wait for it.
    val until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10)
    while ((node.lostReason(address) eq null) && System.nanoTime() - until < 0) Thread.sleep(20)
    node.lostReason(address) match {
      case Node.LeftReason => None
      case null   => Some(s"main node $address is gone from the cluster")
      case reason => Some(s"main node $address was lost ($reason) before the model's main program ended")
    }
  }

  /**
   * On the main node, inside the main block's first slice (ProgramRunner): start the cluster
   * clock over every member that is up (the deployment's nodes were awaited at start). The main
   * block's COG is running, so the main node is not passive and the first waves cannot find the
   * cluster idle before the model began; every node linked its clock when it started.
   */
  override def mainBlockStarted(): Unit =
    if (node.clock ne null) node.coordinateClock(node.members)

  def close(): Unit = {
    registry.remove(node.system)
    node.close()
  }
}

private[distributed] object AbsPlacement {
  final val DeploymentKey = RemotePlacement.DeploymentKey
  /** The nodes, in turn, of the components the deployment does not map (`absc run --spread-components`). */
  final val SpreadKey = RemotePlacement.SpreadKey
  final val NodeNameKey = "cogs.distributed.node-name"
  /** One simulated clock for the model's nodes (reference.conf). */
  final val ClusterClockKey = "cogs.distributed.cluster-clock"

  /**
   * The process id of the absc that started this node (`absc run --nodes`/`--node`), if one did.
   * absc stops its nodes when it ends, on its own or by a signal it can catch; killed with
   * SIGKILL it cannot, and its nodes would run on. So each node watches it and stops when it ends.
   */
  final val SupervisorKey = "cogs.absc.supervisor-pid"

  // The JDK watches a process that is not this JVM's child by polling it, on a thread of its own:
  // nothing here blocks. The node then exits as on any fatal condition: status 1, Pekko's
  // coordinated shutdown run by the exit's hook, with a halt if that takes longer than 10 s (the
  // node's output may go nowhere now, so the line on stderr is a courtesy).
  private def watchSupervisor(pid: Long, name: String): Unit = {
    def stop(): Unit = {
      System.err.println(s"node '$name': absc (process $pid), which started this node, has ended; the node stops")
      val halt = new Thread(() => { Thread.sleep(10000); Runtime.getRuntime.halt(1) }, "cogs-node-halt")
      halt.setDaemon(true)
      halt.start()
      System.exit(1)
    }
    val h = ProcessHandle.of(pid)
    if (!h.isPresent) stop()
    else {
      h.get.onExit().thenRun(() => stop())
      ()
    }
  }
  private[abs] final val RolePrefix = "cogs-node-"
  private[abs] final val MainRole = "cogs-abs-main"
  /** The role of a node with the cluster clock on. */
  private[abs] final val ClockRole = "cogs-cluster-clock"
  /** The factory every node registers: its arguments are a class name and the constructor's arguments. */
  private[abs] final val FactoryName = "cogs-abs-new"
  /** The factory for an object of a deployment component: its name, resources (text) and ABS object, then as [[FactoryName]]. */
  private[abs] final val FactoryOnName = "cogs-abs-new-on"

  /** A component's resources per time unit as text (`Speed=5;Cores=3/2`; unlimited ones left out). */
  private[abs] def resourcesText(c: DeploymentComponent): String =
    Resource.all.flatMap(r => c.total(r).map(t => s"${r.name}=$t")).mkString(";")

  private[abs] def parseResources(text: String): Map[Resource, SimTime] =
    text.split(';').iterator.filter(_.nonEmpty).map { e =>
      val Array(r, t) = e.split("=", 2)
      Resource.all.find(_.name == r).getOrElse(throw new IllegalArgumentException(s"no resource named $r")) -> parseAmount(t)
    }.toMap

  /** An amount as `SimTime.toString` writes it (`7`, `3/2`). */
  private[abs] def parseAmount(t: String): SimTime = t.split('/') match {
    case Array(n)    => SimTime.of(new java.math.BigInteger(n), java.math.BigInteger.ONE)
    case Array(n, d) => SimTime.of(new java.math.BigInteger(n), new java.math.BigInteger(d))
    case _           => throw new IllegalArgumentException(s"not an amount: $t")
  }

  private[abs] val registry = new ConcurrentHashMap[ActorSystem, CompletableFuture[AbsPlacement]]

  /** The placement of a node's actor system (the serializer asks; a node registers itself right after it starts). */
  private[abs] def of(system: ActorSystem): AbsPlacement =
    registry.computeIfAbsent(system, _ => new CompletableFuture[AbsPlacement]).get(30, TimeUnit.SECONDS)

  /**
   * Start this JVM's node for a model: the name, the deployment and the serializer bindings of
   * ABS values added to `config`, then join, register the creation factory, and (on the main
   * node) wait until every node the deployment names is up.
   */
  def start(rt: CogRuntime, config: Config, loader: ClassLoader, main: Boolean): AbsPlacement = {
    val name =
      if (config.hasPath(NodeNameKey)) config.getString(NodeNameKey)
      else throw new IllegalArgumentException(s"$NodeNameKey is not set: each node of a model needs a name ($DeploymentKey maps components to names)")
    val deployment: Map[String, String] =
      if (config.hasPath(DeploymentKey))
        config.getObject(DeploymentKey).unwrapped().asScala.map { case (k, v) => k -> String.valueOf(v) }.toMap
      else Map.empty
    val spread: Vector[String] =
      if (config.hasPath(SpreadKey)) config.getString(SpreadKey).split(',').iterator.map(_.trim).filter(_.nonEmpty).toVector
      else Vector.empty
    if (config.hasPath(SupervisorKey)) watchSupervisor(config.getLong(SupervisorKey), name)
    val clockOn =
      if (config.hasPath(ClusterClockKey)) config.getBoolean(ClusterClockKey)
      else ConfigFactory.defaultReference(classOf[AbsPlacement].getClassLoader).getBoolean(ClusterClockKey)
    // The cluster clock's role lets the main node see which nodes use it (checkClockSettings).
    val roles = (RolePrefix + name) :: (if (main) List(MainRole) else Nil) ++ (if (clockOn) List(ClockRole) else Nil)
    val full = ConfigFactory.parseString(Bindings)
      .withFallback(config.withValue("pekko.cluster.roles",
        ConfigValueFactory.fromIterable((roles ++ config.getStringList("pekko.cluster.roles").asScala).asJava)))
      .withFallback(ConfigFactory.defaultReference(classOf[AbsPlacement].getClassLoader))
    val node = Node.start(full, rt)
    // Linked before this node can be seen up (Node.start does not wait for the join), so before
    // any creation or call of another node arrives, and before the main block starts here.
    if (full.getBoolean(ClusterClockKey)) node.useClusterClock()
    val p = new AbsPlacement(node, name, deployment, loader, spread)
    registry.computeIfAbsent(node.system, _ => new CompletableFuture[AbsPlacement]).complete(p)
    // Registered before this node's name can be seen up by others (a member turns Up only after
    // the cluster's gossip saw it join, which is later than this line in all but a pathological
    // schedule; a creation that came first would fail naming the factory, not hang).
    node.register(FactoryName)(args => p.instantiate(args))
    node.register(FactoryOnName)(args => p.instantiateOn(args))
    if (main) {
      val timeout = config.getDuration("cogs.distributed.join-timeout").toMillis
      try { p.awaitDeployment(timeout); p.checkClockSettings(clockOn) }
      catch { case e: Exception => p.close(); throw e }
    }
    p
  }

  // Every value of an ABS model is serialised by AbsValueSerializer: its data types, numbers,
  // collections, and object references (as tokens). Strings and booleans keep Pekko's own. A
  // user's exception that failed a remote call travels inside the wrapper that carries where it
  // was thrown (ThrownAt, CreationFailed), so that the caller can still catch it by its type.
  private final val Bindings =
    """pekko.actor {
      |  serializers.cogs-abs = "cogs.distributed.abs.AbsValueSerializer"
      |  serialization-bindings {
      |    "cogs.absc.lib.AbsData" = cogs-abs
      |    "cogs.absc.lib.AbsRat" = cogs-abs
      |    "cogs.absc.lib.AbsSet" = cogs-abs
      |    "cogs.absc.lib.AbsMap" = cogs-abs
      |    "cogs.absc.lib.ThrownAt" = cogs-abs
      |    "cogs.absc.lib.CreationFailed" = cogs-abs
      |    "scala.collection.immutable.List" = cogs-abs
      |    "cogs.runtime.Active" = cogs-abs
      |    "cogs.runtime.Fut" = cogs-abs
      |    "cogs.distributed.abs.PolicyMaker" = cogs-abs
      |  }
      |}""".stripMargin

  /** The ABS interfaces of a class: every interface it has that extends `Active`, but `Active` itself. */
  private[abs] def interfacesOf(c: Class[_]): Array[Class[_]] = {
    val seen = new java.util.LinkedHashSet[Class[_]]
    def walk(k: Class[_]): Unit = if (k ne null) {
      k.getInterfaces.foreach { i =>
        if (i != classOf[Active] && classOf[Active].isAssignableFrom(i) && seen.add(i)) walk(i)
      }
      walk(k.getSuperclass)
    }
    walk(c)
    seen.asScala.toArray
  }
}

/**
 * The scheduling policy of `[DC: dc] [Scheduler: f(..)] new C(..)` on its way to the node that
 * makes the object: a function of the new object, applied there. absc's function is a lambda that
 * captures nothing (the scheduler's arguments are the queue and the object's fields), so it travels
 * as a `SerializedLambda` naming the model's class that made it, which has the lambda again on the
 * other node (every node runs the same compiled model). Written and read by [[AbsValueSerializer]],
 * whose filter admits `SerializedLambda` and this class.
 */
private[abs] final case class PolicyMaker(f: ActiveObject => SchedulingPolicy)

/** What a reference travels as: the node and id of its object, its ABS class, its ABS interfaces. */
private[abs] final case class RefToken(node: String, id: Long, absClass: String, interfaces: Array[String])

/**
 * A remote ABS object as seen from one node: the handler of its proxy. The proxy's COG is a local
 * stub's (a call `o!m(..)` runs a process there that sends the remote call and awaits its reply,
 * so the stub's COG is never blocked). Calls made while the object is still being created wait
 * in `queue`, in order, and are sent when it exists.
 */
private[abs] final class RemoteObject(owner: AbsPlacement, val absClass: String, what: String, val interfaceNames: Array[String],
    /** The deployment component the object was made on, when this node made it; null for a reference that arrived. */
    val component: String = null)
    extends InvocationHandler {

  private[this] val stub: ActiveObject = owner.runtime.spawnOn(null)(new RemoteObject.Stub)
  /** Completed once the object exists (or its creation failed). */
  val ref = new CompletableFuture[RemoteRef]
  // Guarded by `this`: the order of calls made before creation, and their hand-over to `ref`.
  private[this] var known: Try[RemoteRef] = _
  // A queued one-way call has no promise (null); a call's deadline is the time its caller had
  // left when it was queued (null: none).
  private[this] val queue = new java.util.ArrayDeque[(String, Seq[Any], Promise[Any], SimTime)]

  val proxy: Active = java.lang.reflect.Proxy.newProxyInstance(owner.loader,
    interfaceNames.map(n => Class.forName(n, false, owner.loader)), this).asInstanceOf[Active]

  def invoke(p: AnyRef, m: Method, args: Array[AnyRef]): AnyRef = {
    val as: Seq[Any] = if (args eq null) Nil else args.toSeq
    if (m.getDeclaringClass == classOf[Object]) m.getName match {
      case "equals"   => java.lang.Boolean.valueOf(p eq as.head.asInstanceOf[AnyRef])
      case "hashCode" => Integer.valueOf(System.identityHashCode(p))
      case _          => s"$absClass@${if (ref.isDone && !ref.isCompletedExceptionally) ref.join().toString else what}"
    }
    // cog, traceSlot: the stub's, so that the runtime queues calls on the stub's COG.
    else if (m.getDeclaringClass == classOf[Active])
      try m.invoke(stub, args: _*) catch { case e: InvocationTargetException => throw e.getCause }
    // An asynchronous call's entry (absc's `m$entry(p$, ..)`, what its message runs): the remote
    // call as a computation the process runs, which resumes with the reply.
    else if (m.getName.endsWith("$entry") && as.nonEmpty && as.head.isInstanceOf[cogs.runtime.internal.Process])
      as.head.asInstanceOf[cogs.runtime.internal.Process].run(call(m.getName.stripSuffix("$entry"), as.tail))
    else call(m.getName, as)
  }

  /**
   * A call, in a process of the stub's COG: sent now if the object exists, else queued. Why the
   * order holds: a call is queued or sent under `this`, and `created` sends the queue under `this`
   * before it publishes the reference, so no call can overtake a queued one.
   */
  private def call(method: String, args: Seq[Any]): Proc[Any] = {
    // `o!m(..);` whose future nobody can read (absc lowers it to a one-way call, whose process
    // this is): sent one-way, with no reply and nothing waiting for one.
    val oneWay = Cogs.runningOneWay
    // `[Deadline: d] o!m(..)` gave the stub's process (or, for a synchronous call, the caller's)
    // a deadline: the callee's process on the other node gets what is left of it.
    val deadline = if (oneWay) null else Cogs.deadlineLeftOrNull
    val (k, queued) = synchronized {
      if (known ne null) (known, null)
      else if (oneWay) {
        queue.addLast((method, args, null, null))
        (null, null)
      } else {
        // Named as a call: a failure reaches the caller after the object exists, mostly (it ran the
        // call when its node was lost), so the text must not say that it was not created yet.
        val p = owner.node.promise[Any](s"the call $absClass.$method of $what")
        queue.addLast((method, args, p, deadline))
        (null, p)
      }
    }
    if (k eq null) { if (queued ne null) Proc.await(queued.future) else Proc.done(()) }
    else k match {
      case Success(r) if oneWay => r.tell(method, args: _*); Proc.done(())
      case Success(r) => Proc.await(owner.node.call[Any](r, method, args, deadline))
      case Failure(e) => Proc.raise(e)
    }
  }

  def created(r: Try[RemoteRef]): Unit = {
    val k = r match {
      case Failure(e) => Failure(new IllegalStateException(s"creating $what failed: ${e.getMessage}", e))
      case ok => ok
    }
    synchronized {
      while (!queue.isEmpty) {
        val (m, a, p, d) = queue.pollFirst()
        k match {
          case Success(ref) if p eq null => RemoteObject.tellQuietly(ref, m, a)
          case Success(ref) => owner.node.call[Any](ref, m, a, d).onComplete {
            case Success(v) => p.success(v)
            case Failure(e) => p.failure(e)
          }
          case Failure(_) if p eq null => () // a one-way call to an object that never existed: nobody waits
          case Failure(e) => p.failure(e)
        }
      }
      known = k
    }
    k match {
      case Success(x) => ref.complete(x)
      case Failure(e) => ref.completeExceptionally(e)
    }
  }
}

private[abs] object RemoteObject {
  /**
   * A one-way call queued before its object existed, sent when it does (on the thread that learnt
   * it): an argument that cannot be serialised has nobody to fail, so it is reported on standard
   * error, as the runtime reports a one-way call's failure.
   */
  private def tellQuietly(ref: RemoteRef, method: String, args: Seq[Any]): Unit =
    try ref.tell(method, args: _*)
    catch { case e: RuntimeException => System.err.println(s"cogs: the one-way call $method to $ref failed: ${e.getMessage}") }

  /** The local stand-in whose COG runs the calls to one remote object. */
  final class Stub extends ActiveObject {
    override def traceName: String = "RemoteStub"
  }
}

/** Found by `cogs.absc.run.RemotePlacement` through `META-INF/services`. */
final class PlacementProvider extends RemotePlacement.Provider {
  def start(runtime: CogRuntime, config: Config, loader: ClassLoader): RemotePlacement =
    AbsPlacement.start(runtime, config, loader, main = true)
}
