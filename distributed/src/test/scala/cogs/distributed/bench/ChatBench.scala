package cogs.distributed.bench

import cogs.distributed.{Node, RemoteRef}
import cogs.runtime._
import com.typesafe.config.ConfigFactory
import java.util.concurrent.{CountDownLatch, TimeUnit}
import org.apache.pekko.actor.AddressFromURIString

/**
 * The chat application macrobenchmark of the source document (after the Pony team's design): not
 * a test (ChatBenchTest runs it tiny); docs/distributed.md has the commands and the figures.
 *
 * Directories own clients; every client has friends (filled at set-up, at least one) and a list
 * of chats it belongs to. A round: the poker makes the round's accumulator and pokes every
 * directory, which tells each of its clients to act; each client picks one action with its own
 * seeded pseudo-random generator: post (the chat bumps the accumulator by its members and
 * forwards the message to each, and each member reports to the accumulator), create a chat
 * (invite each friend with probability 1/2: the accumulator is bumped by the invitees, the chat
 * tells each of them, and each reports), leave a chat (the chat confirms), compute (Fibonacci
 * numbers), or sit the round out when the action cannot be done (post or leave with no chat). The
 * accumulator ends the round when every client and every follow-up has reported; a bump is
 * awaited before the report that could end the round, so no round ends early.
 *
 * Local: every actor is an active object of one runtime, called directly. Distributed (under the
 * launcher, N JVMs): directory d and its clients live on node d mod N, the poker and the
 * accumulators on node 0, a chat on the node of the client that made it; every reference between
 * actors is a RemoteRef (also between two actors of one node: they still go through the node's
 * endpoint), passed around as call arguments. Objects of the distributed run are never collected.
 *
 * Arguments: `[--local] [--clients C] [--directories D] [--rounds R] [--warmup W] [--seed S]
 * [--befriend PERCENT] [--mix COMPUTE,POST,LEAVE,CREATE]` (percentages; default 40,30,5,25, the
 * source document's "start and stop actors" scenario). Runs the Cogs version, then the plain
 * Pekko one (ChatPekko) in the same JVMs; prints, for each, the measured rounds' times (median,
 * min, max) and the actions done; checks every round's accounting and exits 1 if a round's did
 * not add up.
 */
object ChatBench {

  // ------------------------------------------------------------------ references, local or remote

  /** A reference to one of the benchmark's actors: a local object or a RemoteRef. */
  sealed trait Ref {
    def call[A](m: String, args: Any*): Fut[A]
    /** A one-way call (no future, no reply): where the Pekko version sends a message and expects no answer. */
    def tell(m: String, args: Any*): Unit
    /** What a call carries: the RemoteRef itself (the receiving node rebuilds it), or this local Ref. */
    def wire: Any
  }
  final case class LRef(obj: Actor) extends Ref {
    def call[A](m: String, args: Any*): Fut[A] = Cogs.sendWithArgs(obj, m, args, (o: Actor) => o.dispatch(m, args).asInstanceOf[Proc[A]])
    def tell(m: String, args: Any*): Unit = Cogs.tellWithArgs(obj, m, args, (o: Actor) => o.dispatch(m, args))
    def wire: Any = this
  }
  final case class RRef(r: RemoteRef) extends Ref {
    def call[A](m: String, args: Any*): Fut[A] = r.send[A](m, args.map { case x: Ref => x.wire; case x => x }: _*)
    def tell(m: String, args: Any*): Unit = r.tell(m, args.map { case x: Ref => x.wire; case x => x }: _*)
    def wire: Any = r
  }
  def ref(x: Any): Ref = x match {
    case r: Ref       => r
    case r: RemoteRef => RRef(r)
    case null         => null
    case o            => throw new IllegalArgumentException(s"not a reference: ${o.getClass.getName}")
  }

  /** Where new actors are made: this runtime, and (distributed) exported through this node. */
  final class Env(val runtime: CogRuntime, val node: Node) {
    def make(obj: => Actor): Ref = {
      val o = runtime.spawn(obj)
      if (node eq null) LRef(o) else RRef(node.export(o))
    }
  }

  /** The local calls go through `dispatch` (no reflection); remote ones find the same methods by name. */
  abstract class Actor extends ActiveObject {
    def dispatch(m: String, a: Seq[Any]): Proc[Any]
    protected def bad(m: String): Nothing = throw new NoSuchMethodException(s"${getClass.getSimpleName}.$m")
  }

  // Report kinds, counted by the accumulator.
  final val FollowUp = 0; final val Post = 1; final val Create = 2; final val Leave = 3; final val Compute = 4; final val Skip = 5
  val kindNames = Vector("follow-ups", "post", "create", "leave", "compute", "skip")

  // ------------------------------------------------------------------ the actors

  final class Accumulator(expected: Int) extends Actor {
    private var open = expected.toLong
    private var bumps = 0L
    private var negative = false
    private val counts = new Array[Long](6)
    def bump(n: Int): Proc[Unit] = Proc.delay { open += n; bumps += n }
    def stop(kind: Int): Proc[Unit] = Proc.delay { open -= 1; counts(kind) += 1; if (open < 0) negative = true }
    /** When the round is over: the counts by kind, the bumps, and whether it ever went below zero. */
    def done(): Proc[String] = Proc.awaitUntil(open == 0).map(_ => (counts.toList :+ bumps :+ (if (negative) 1 else 0)).mkString(","))
    def dispatch(m: String, a: Seq[Any]): Proc[Any] = m match {
      case "bump" => bump(a(0).asInstanceOf[Int]); case "stop" => stop(a(0).asInstanceOf[Int]); case "done" => done(); case _ => bad(m)
    }
  }

  final class Chat extends Actor {
    private val members = scala.collection.mutable.LinkedHashSet.empty[Ref]
    def join(c: Any): Proc[Unit] = Proc.delay { members += ref(c); () }
    def invite(c: Any, acc: Any, self: Any): Proc[Unit] = Proc.delay {
      val r = ref(c)
      members += r
      r.tell("invited", self, acc)
    }
    def leave(c: Any): Proc[Boolean] = Proc.delay { members -= ref(c); members.isEmpty } // true: the chat is over
    def post(msg: String, acc: Any): Proc[Unit] = {
      val a = ref(acc)
      val to = members.toVector
      Proc.await(a.call[Unit]("bump", to.size)).map { _ => to.foreach(_.tell("forward", msg, a)) }
    }
    def dispatch(m: String, a: Seq[Any]): Proc[Any] = m match {
      case "join" => join(a(0)); case "invite" => invite(a(0), a(1), a(2)); case "leave" => leave(a(0))
      case "post" => post(a(0).asInstanceOf[String], a(1)); case _ => bad(m)
    }
  }

  final class Client(id: Int, seed: Long, env: Env, mix: Vector[Int]) extends Actor {
    private var self: Ref = _
    private val friends = scala.collection.mutable.ArrayBuffer.empty[Ref]
    private val chats = scala.collection.mutable.ArrayBuffer.empty[Ref]
    private val rng = new Rng(seed, id)
    private def next(bound: Int): Int = rng.next(bound)
    private var received = 0L
    def setSelf(r: Any): Proc[Unit] = Proc.delay { self = ref(r) }
    def befriend(f: Any): Proc[Unit] = Proc.delay { friends += ref(f); () }
    def invited(chat: Any, acc: Any): Proc[Unit] = Proc.delay { chats += ref(chat); ref(acc).tell("stop", FollowUp) }
    def forward(msg: String, acc: Any): Proc[Unit] = Proc.delay { received += 1; ref(acc).tell("stop", FollowUp) }
    def messages(): Proc[Long] = Proc.done(received)

    def act(accAny: Any): Proc[Unit] = {
      val acc = ref(accAny)
      def report(kind: Int): Proc[Unit] = Proc.delay { acc.tell("stop", kind) }
      pick(rng, mix) match {
        case Compute =>
          Proc.delay { if (compute() < 0) received -= 1 }.flatMap(_ => report(Compute))
        case Post if chats.nonEmpty =>
          val chat = chats(next(chats.size))
          Proc.await(chat.call[Unit]("post", s"client $id says hello", acc)).flatMap(_ => report(Post))
        case Leave if chats.nonEmpty =>
          val chat = chats.remove(next(chats.size))
          Proc.await(chat.call[Boolean]("leave", self)).flatMap(_ => report(Leave))
        case Create =>
          val chat = env.make(new Chat)
          val invitees = friends.filter(_ => next(2) == 0).toVector
          chats += chat
          // Join, then the invitations: one-way, in this order (one sender, one chat), as in Pekko.
          Proc.await(acc.call[Unit]("bump", invitees.size))
            .flatMap { _ => chat.tell("join", self); invitees.foreach(f => chat.tell("invite", f, acc, chat)); report(Create) }
        case _ => report(Skip)
      }
    }
    def dispatch(m: String, a: Seq[Any]): Proc[Any] = m match {
      case "setSelf" => setSelf(a(0)); case "befriend" => befriend(a(0)); case "invited" => invited(a(0), a(1))
      case "forward" => forward(a(0).asInstanceOf[String], a(1)); case "act" => act(a(0)); case "messages" => messages(); case _ => bad(m)
    }
  }

  private def fib(n: Int): Long = if (n < 2) n else fib(n - 1) + fib(n - 2)
  /** The compute action: a few Fibonacci numbers, recursively. */
  def compute(): Long = { var s = 0L; for (k <- 10 to 14) s += fib(k); s }

  /** xorshift64*: a client's own pseudo-random sequence, fixed by the seed and its id. */
  final class Rng(seed: Long, id: Int) {
    private var x = (seed * 0x9E3779B97F4A7C15L) ^ (id + 1L) * 0xBF58476D1CE4E5B9L
    def next(bound: Int): Int = {
      x ^= x >>> 12; x ^= x << 25; x ^= x >>> 27
      (((x * 0x2545F4914F6CDD1DL) >>> 33) % bound).toInt
    }
  }

  /** The round's action by the mix (compute, post, leave, create percentages). */
  def pick(rng: Rng, mix: Vector[Int]): Int = {
    val roll = rng.next(100)
    if (roll < mix(0)) Compute else if (roll < mix(0) + mix(1)) Post else if (roll < mix(0) + mix(1) + mix(2)) Leave else Create
  }

  final class Directory(env: Env) extends Actor {
    private val clients = scala.collection.mutable.ArrayBuffer.empty[Ref]
    /** Make clients `first` until `first + n` here; answers when they know themselves. */
    def setup(first: Int, n: Int, seed: Long, mix: String): Proc[Unit] = {
      val m = mix.split(',').map(_.toInt).toVector
      val made = (first until first + n).map(i => env.make(new Client(i, seed, env, m)))
      clients ++= made
      Proc.awaitAll(made.map(c => c.call[Unit]("setSelf", c))).map(_ => ())
    }
    def client(i: Int): Proc[Any] = Proc.done(clients(i).wire)
    def poke(acc: Any): Proc[Unit] = Proc.delay { clients.foreach(_.tell("act", acc)) }
    def dispatch(m: String, a: Seq[Any]): Proc[Any] = m match {
      case "setup" => setup(a(0).asInstanceOf[Int], a(1).asInstanceOf[Int], a(2).asInstanceOf[Long], a(3).asInstanceOf[String])
      case "client" => client(a(0).asInstanceOf[Int]); case "poke" => poke(a(0)); case _ => bad(m)
    }
  }

  // ------------------------------------------------------------------ the run

  final case class Options(local: Boolean, clients: Int, directories: Int, rounds: Int, warmup: Int, seed: Long, befriend: Int, mix: String)

  private def parse(argv: List[String]): Options = {
    var o = Options(local = false, clients = 256, directories = 8, rounds = 20, warmup = 5, seed = 42, befriend = 10, mix = "40,30,5,25")
    var a = argv
    while (a.nonEmpty) a match {
      case "--local" :: t            => o = o.copy(local = true); a = t
      case "--clients" :: v :: t     => o = o.copy(clients = v.toInt); a = t
      case "--directories" :: v :: t => o = o.copy(directories = v.toInt); a = t
      case "--rounds" :: v :: t      => o = o.copy(rounds = v.toInt); a = t
      case "--warmup" :: v :: t      => o = o.copy(warmup = v.toInt); a = t
      case "--seed" :: v :: t        => o = o.copy(seed = v.toLong); a = t
      case "--befriend" :: v :: t    => o = o.copy(befriend = v.toInt); a = t
      case "--mix" :: v :: t         => o = o.copy(mix = v); a = t
      case x :: _ =>
        System.err.println(s"unknown argument '$x'; usage: ChatBench [--local] [--clients C] [--directories D] [--rounds R] [--warmup W] [--seed S] [--befriend PERCENT] [--mix COMPUTE,POST,LEAVE,CREATE]")
        System.exit(2)
      case Nil =>
    }
    require(o.mix.split(',').map(_.toInt).sum == 100 && o.mix.split(',').length == 4, s"--mix: four percentages adding up to 100, got ${o.mix}")
    require(o.clients >= 2 && o.directories >= 1 && o.directories <= o.clients, "at least 2 clients and 1..clients directories")
    o
  }

  /** One implementation of the benchmark, set up: a round gives the accumulator's counts. */
  trait Impl {
    def name: String
    /** Make the clients and their friendships; the number of friendships. */
    def setup(o: Options): Int
    /** One round: kinds 0..5 counted, then bumps, then 1 if the count went below zero. */
    def round(): Array[Long]
    /** Forwarded chat messages received by all clients so far. */
    def received(): Long
  }

  def clientsPer(o: Options): IndexedSeq[Int] = (0 until o.directories).map(d => o.clients / o.directories + (if (d < o.clients % o.directories) 1 else 0))

  /** Friends: each ordered pair with probability befriend%, and each client at least its successor. */
  def friendships(o: Options): IndexedSeq[(Int, Int)] = {
    val rnd = new java.util.Random(o.seed)
    for (a <- 0 until o.clients; b <- 0 until o.clients if a != b && (b == (a + 1) % o.clients || rnd.nextInt(100) < o.befriend)) yield (a, b)
  }

  private def j[A](f: Fut[A]): A = f.join(120, TimeUnit.SECONDS)

  /** Cogs: directories(d) is directory d (local, or on its node). */
  final class CogsImpl(env: Env, directories: Vector[Ref]) extends Impl {
    def name = "cogs"
    private var clients = Vector.empty[Ref]
    private var n = 0
    def setup(o: Options): Int = {
      n = o.clients
      val per = clientsPer(o)
      val firsts = per.scanLeft(0)(_ + _)
      directories.zipWithIndex.foreach { case (d, i) => j(d.call[Unit]("setup", firsts(i), per(i), o.seed, o.mix)) }
      clients = directories.zipWithIndex.flatMap { case (d, i) => (0 until per(i)).map(k => ref(j(d.call[Any]("client", k)))) }
      val links = friendships(o)
      links.map { case (a, b) => clients(a).call[Unit]("befriend", clients(b)) }.foreach(f => j(f))
      links.size
    }
    def round(): Array[Long] = {
      val acc = env.make(new Accumulator(n))
      directories.foreach(_.tell("poke", acc))
      j(acc.call[String]("done")).split(',').map(_.toLong)
    }
    def received(): Long = clients.map(c => j(c.call[Long]("messages"))).sum
  }

  /** Set up and run the rounds of `impl`; whether every round added up. */
  private def run(o: Options, impl: Impl, where: String): Boolean = {
    val links = impl.setup(o)
    val tag = s"chat ${impl.name}"
    println(f"$tag%-10s $where%-8s clients ${o.clients} directories ${o.directories} friendships $links mix ${o.mix} seed ${o.seed}, load ${BigBang.loadAverage()}")
    var ok = true
    val totals = new Array[Long](7)
    val times = Vector.newBuilder[Double]
    val t0 = System.nanoTime()
    var tm = 0L
    for (r <- 0 until o.warmup + o.rounds) {
      if (r == o.warmup) tm = System.nanoTime()
      val start = System.nanoTime()
      val result = impl.round()
      val ms = (System.nanoTime() - start) / 1e6
      if (r >= o.warmup) times += ms
      val actions = result.slice(1, 6).sum
      val roundOk = actions == o.clients && result(FollowUp) == result(6) && result(7) == 0
      if (!roundOk) println(s"$tag round $r did not add up: ${kindNames.zip(result).map { case (k, v) => s"$k $v" }.mkString(", ")}, bumps ${result(6)}, went negative ${result(7) == 1}")
      ok &&= roundOk
      if (r >= o.warmup) (0 until 7).foreach(k => totals(k) += result(k))
    }
    val measured = (System.nanoTime() - tm) / 1e9
    val received = impl.received()
    val ts = times.result().sorted
    val actionsTotal = totals.slice(1, 6).sum
    println(f"$tag%-10s $where%-8s rounds ${o.rounds} in $measured%.2f s: ${o.rounds / measured}%.1f rounds/s  median round ${ts(ts.size / 2)}%.1f ms  min ${ts.head}%.1f  max ${ts.last}%.1f ms  " +
      f"actions ${actionsTotal} (${(1 to 5).map(k => s"${kindNames(k)} ${totals(k)}").mkString(", ")}) follow-ups ${totals(0)}  ${(actionsTotal + totals(0)) / measured}%.0f reports/s")
    println(s"$tag check: every round added up: $ok; chat messages received by clients (with warm-up): $received; total ${(System.nanoTime() - t0) / 1e9} s")
    ok
  }

  private def runLocal(o: Options): Int = {
    val rt = CogRuntime()
    val env = new Env(rt, null)
    val cogsOk = try run(o, new CogsImpl(env, (0 until o.directories).map(_ => env.make(new Directory(env))).toVector), "local") finally rt.close()
    val system = org.apache.pekko.actor.ActorSystem("chat", ConfigFactory.parseString("pekko.loglevel = ERROR\npekko.actor.provider = local").withFallback(ConfigFactory.load()))
    val pekkoOk = try run(o, ChatPekko.impl(system, (0 until o.directories).map(_ => system.actorOf(ChatPekko.directoryProps)).toVector), "local")
    finally scala.concurrent.Await.ready(system.terminate(), scala.concurrent.duration.Duration(30, TimeUnit.SECONDS))
    if (cogsOk && pekkoOk) 0 else 1
  }

  /** The local run in this JVM (ChatBenchTest); the exit status main would have. */
  def local(args: Seq[String]): Int = runLocal(parse(args.toList))

  /** The distributed run on `nodes` JVMs under the launcher; the worst exit status. */
  def launch(nodes: Int, args: Seq[String]): Int = cogs.distributed.Launcher.launch(nodes, getClass.getName.stripSuffix("$"), args)

  final class Quit(latch: CountDownLatch) extends ActiveObject {
    def quit(): Proc[Unit] = Proc.delay(latch.countDown())
  }

  def main(argv: Array[String]): Unit = {
    val o = parse(argv.toList)
    val index = Integer.getInteger("cogs.node.index", -1).intValue
    val count = Integer.getInteger("cogs.node.count", -1).intValue
    if (o.local || index < 0) System.exit(runLocal(o))
    val config = ConfigFactory.systemProperties()
      .withFallback(ConfigFactory.parseString(
        """pekko.loglevel = ERROR
          |pekko.log-dead-letters = off
          |pekko.log-dead-letters-during-shutdown = off
          |pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
          |cogs.distributed.lost-after = 20s""".stripMargin))
      .withFallback(ConfigFactory.load())
    val node = Node.start(config)
    val env = new Env(node.runtime, node)
    val exit = new CountDownLatch(1)
    val quit = node.runtime.spawn(new Quit(exit))
    node.register("directory")(_ => node.runtime.spawn(new Directory(env)))
    node.register("quit")(_ => quit)
    node.system.actorOf(ChatPekko.factoryProps, ChatPekko.FactoryName)
    var status = 1
    try {
      if (index != 0) {
        val seed = AddressFromURIString(System.getProperty("pekko.cluster.seed-nodes.0"))
        var seen = false
        while (!exit.await(200, TimeUnit.MILLISECONDS) && !(seen && !node.members.contains(seed))) seen ||= node.members.contains(seed)
        status = if (exit.getCount == 0) 0 else 1
        Thread.sleep(500)
      } else {
        node.awaitMembers(count, 120, TimeUnit.SECONDS)
        val all = node.address +: node.members.filter(_ != node.address).sortBy(_.port.getOrElse(0)).toVector
        val dirs = (0 until o.directories).map(d => RRef(node.create(all(d % count), "directory").join(60, TimeUnit.SECONDS))).toVector
        val cogsOk = run(o, new CogsImpl(env, dirs), s"$count nodes")
        val pdirs = (0 until o.directories).map(d => ChatPekko.makeDirectory(node.system, all(d % count))).toVector
        val pekkoOk = run(o, ChatPekko.impl(node.system, pdirs), s"$count nodes")
        status = if (cogsOk && pekkoOk) 0 else 1
        all.drop(1).foreach(a => node.create(a, "quit").join(60, TimeUnit.SECONDS).send[Unit]("quit").join(60, TimeUnit.SECONDS))
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
        while (node.members.size > 1 && System.nanoTime() < deadline) Thread.sleep(50)
      }
    } finally node.close()
    System.exit(status)
  }
}
