package cogs.distributed.bench

import cogs.distributed.{Launcher, Node, RemoteRef}
import cogs.runtime._
import com.typesafe.config.ConfigFactory
import java.util.concurrent.{CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicLong
import org.apache.pekko.actor.{Actor, ActorRef, Address, AddressFromURIString, Props}
import scala.concurrent.Await
import scala.concurrent.duration._

/**
 * The Big and Bang benchmarks of the source document (after the Erlang benchmark suite), one
 * actor per node (JVM), Cogs over Pekko and plain Pekko actors in the same JVMs, one after the
 * other. Not a test (BigBangTest runs it tiny); docs/distributed.md has the commands and figures.
 *
 * - Big: every node's actor sends a ping to every other node's actor and waits for all the
 *   pongs, then the next round: an n-to-n exchange.
 * - Bang: node 0's actor only answers; every other node's actor sends BURST pings to it and waits
 *   for the pongs, then the next round: an n-to-1 exchange (N JVMs are one receiver and N-1
 *   senders).
 *
 * Cogs: the actor is one active object per node; a ping is a remote call (`RemoteRef.send`), its
 * pong the reply; the sending process awaits all of a round's futures. Pekko: a classic actor per
 * node, pings are `Int`s, pongs `Long`s. Counted are pongs received, in all nodes together.
 *
 * Run under the launcher, which starts the N JVMs (node 0 coordinates, through Cogs remote calls
 * to a control object on every node, a few per second):
 * `Launcher N cogs.distributed.bench.BigBang big|bang [--rounds R] [--burst B] [--order SEQ of c|p] [--prime N] [WARMUP_S WINDOWS]`.
 * Timed (default): pongs per second in one-second windows after a warm-up, Cogs then Pekko
 * (`--order pc`: Pekko first); `--prime N` first runs each unmeasured until N pongs (JIT warm-up).
 * `--rounds R`: every sender does exactly R rounds; node 0 checks that the pongs counted are
 * exactly the expected number and that every pong carried its ping's number (exit status 0 if so).
 */
object BigBang {

  /** One node's counters, shared by its Cogs object and its Pekko actor. */
  final class State {
    val pongs = new AtomicLong
    val errors = new AtomicLong // a round whose pongs did not carry its pings' numbers
    @volatile var stop = false
    @volatile var driving = false
  }

  /** The Cogs actor of a node: it answers pings and (when driving) sends them. */
  final class BigObj(st: State) extends ActiveObject {
    def ping(i: Int): Proc[Int] = Proc.done(i)

    def drive(peers: Vector[RemoteRef], burst: Int, rounds: Int): Proc[Unit] = {
      var round = 0
      var seq = 0
      Proc.loopWhile(round < rounds && !st.stop) {
        val sent = Vector.newBuilder[Int]
        val futs = for (p <- peers; _ <- 0 until burst) yield { seq += 1; sent += seq; p.send[Int]("ping", seq) }
        val expected = sent.result()
        Proc.awaitAll(futs).map { got =>
          if (got != expected.toList) st.errors.incrementAndGet()
          st.pongs.addAndGet(got.size)
          round += 1
        }
      }.guarantee(Proc.delay { st.driving = false })
    }
  }

  final case class Go(peers: Vector[ActorRef], burst: Int, rounds: Int)

  /** The plain Pekko actor of a node: the same protocol with messages. */
  final class BigActor(st: State) extends Actor {
    private var go: Go = _
    private var round = 0
    private var seq = 0
    private var outstanding = 0
    private var sentSum = 0L
    private var gotSum = 0L

    private def fire(): Unit = {
      outstanding = go.peers.size * go.burst
      sentSum = 0; gotSum = 0
      for (p <- go.peers; _ <- 0 until go.burst) { seq += 1; sentSum += seq; p ! seq }
    }

    def receive: Receive = {
      case i: Int => sender() ! i.toLong
      case l: Long =>
        gotSum += l
        st.pongs.incrementAndGet()
        outstanding -= 1
        if (outstanding == 0) {
          if (gotSum != sentSum) st.errors.incrementAndGet()
          round += 1
          if (round < go.rounds && !st.stop) fire() else st.driving = false
        }
      case g: Go =>
        go = g; round = 0
        if (g.rounds > 0) fire() else st.driving = false
    }
  }

  /**
   * The control object of a node, called by node 0: start a phase, read the counters, stop, exit.
   * `begin` resolves the peers first (Cogs: a reference to each peer's BigObj; Pekko: the peer
   * actors' refs), then starts the node's sender.
   */
  final class Ctl(node: Node, st: State, obj: BigObj, actor: ActorRef, exit: CountDownLatch) extends ActiveObject {
    def begin(impl: String, peers: String, burst: Int, rounds: Int): Proc[Unit] = {
      st.pongs.set(0); st.errors.set(0); st.stop = false
      val addrs = peers.split(' ').filter(_.nonEmpty).map(AddressFromURIString(_)).toVector
      if (addrs.isEmpty) Proc.done(())
      else {
        st.driving = true
        if (impl == "cogs")
          Proc.awaitAll(addrs.map(a => node.create(a, "big"))).map { refs =>
            Cogs.send(obj, "drive", (o: BigObj) => o.drive(refs.toVector, burst, rounds)); ()
          }
        else Proc.delay {
          // Blocks this control COG only, and only while the phase starts.
          val refs = addrs.map(a => Await.result(node.system.actorSelection(s"$a/user/big").resolveOne(20.seconds), 30.seconds))
          actor ! Go(refs, burst, rounds)
        }
      }
    }
    def count(): Proc[Long] = Proc.delay(st.pongs.get)
    def errors(): Proc[Long] = Proc.delay(st.errors.get)
    def busy(): Proc[Boolean] = Proc.delay(st.driving)
    def halt(): Proc[Unit] = Proc.delay { st.stop = true }
    def quit(): Proc[Unit] = Proc.delay(exit.countDown())
  }

  private def usage(): Nothing = {
    System.err.println("usage: Launcher N cogs.distributed.bench.BigBang big|bang [--rounds R] [--burst B] [--order SEQ of c|p] [--prime N] [WARMUP_S WINDOWS]")
    System.exit(2); throw new IllegalStateException
  }

  def main(argv: Array[String]): Unit = {
    val index = Integer.getInteger("cogs.node.index", -1).intValue
    val count = Integer.getInteger("cogs.node.count", -1).intValue
    if (index < 0 || count < 2) { System.err.println("BigBang runs under the launcher with at least 2 nodes"); usage() }
    var args = argv.toList
    val bench = args match { case ("big" | "bang") :: _ => args.head; case _ => usage() }
    args = args.tail
    var rounds = -1
    var burst = if (bench == "big") 1 else 16
    var order = Seq("cogs", "pekko")
    var prime = 0L
    var rest = List.empty[String]
    while (args.nonEmpty) args match {
      case "--rounds" :: r :: t => rounds = r.toInt; args = t
      case "--burst" :: b :: t  => burst = b.toInt; args = t
      case "--order" :: o :: t  =>
        // c for Cogs, p for Pekko, in the order given (a profile of one side: `c` or `p`).
        if (o.isEmpty || o.exists(ch => ch != 'c' && ch != 'p')) usage()
        order = o.map(ch => if (ch == 'c') "cogs" else "pekko"); args = t
      case "--prime" :: n :: t  => prime = n.toLong; args = t
      case x :: t               => rest :+= x; args = t
      case Nil                  =>
    }
    val warmup = rest.headOption.fold(3)(_.toInt)
    val windows = rest.lift(1).fold(5)(_.toInt)

    val config = ConfigFactory.systemProperties()
      .withFallback(ConfigFactory.parseString(
        """pekko.loglevel = ERROR
          |pekko.log-dead-letters = off
          |pekko.log-dead-letters-during-shutdown = off
          |pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
          |cogs.distributed.lost-after = 20s""".stripMargin))
      .withFallback(ConfigFactory.load())
    val node = Node.start(config)
    val st = new State
    val exit = new CountDownLatch(1)
    val obj = node.runtime.spawn(new BigObj(st))
    val actor = node.system.actorOf(Props(new BigActor(st)), "big")
    val ctl = node.runtime.spawn(new Ctl(node, st, obj, actor, exit))
    node.register("big")(_ => obj)
    node.register("ctl")(_ => ctl)
    var status = 1
    try {
      if (index != 0) {
        // Until node 0 says so, or it is gone (no orphan JVMs).
        val seed = AddressFromURIString(System.getProperty("pekko.cluster.seed-nodes.0"))
        var seen = false
        while (!exit.await(200, TimeUnit.MILLISECONDS) && !(seen && !node.members.contains(seed))) seen ||= node.members.contains(seed)
        status = if (exit.getCount == 0) 0 else 1
        Thread.sleep(500) // the reply to quit() leaves before the node does
      } else status = coordinate(node, ctl, count, bench, burst, rounds, warmup, windows, order, prime)
    } finally node.close()
    System.exit(status)
  }

  /**
   * Node 0: run the phases in `order` (Cogs then Pekko by default), print the results; the exit
   * status. With `prime` > 0, first each implementation runs unmeasured until its nodes counted
   * `prime` pongs (60 s at most): the JIT warm-up of both, before either is measured
   * (docs/distributed.md, "Where the idle gap goes").
   */
  private def coordinate(node: Node, own: Ctl, n: Int, bench: String, burst: Int, rounds: Int, warmup: Int, windows: Int,
      order: Seq[String], prime: Long): Int = {
    node.awaitMembers(n, 120, TimeUnit.SECONDS)
    val others = node.members.filter(_ != node.address).sortBy(_.port.getOrElse(0)).toVector
    def j[A](f: Fut[A]): A = f.join(60, TimeUnit.SECONDS)
    val ctls: Vector[Either[Ctl, RemoteRef]] = Left(own) +: others.map(a => Right(j(node.create(a, "ctl"))))
    def ask[A](c: Either[Ctl, RemoteRef], m: String, args: Any*): A = c match {
      case Left(o) =>
        j(Cogs.sendWithArgs(o, m, args, (x: Ctl) => (m match {
          case "begin" => x.begin(args(0).asInstanceOf[String], args(1).asInstanceOf[String], args(2).asInstanceOf[Int], args(3).asInstanceOf[Int])
          case "count" => x.count()
          case "errors" => x.errors()
          case "busy" => x.busy()
          case "halt" => x.halt()
        }).asInstanceOf[Proc[A]]))
      case Right(r) => j(r.send[A](m, args: _*))
    }
    val all = node.address +: others
    // Big: everyone sends to everyone else. Bang: nodes 1.. send to node 0.
    def peersOf(i: Int): String =
      if (bench == "big") all.patch(i, Nil, 1).mkString(" ") else if (i == 0) "" else all(0).toString
    val senders = if (bench == "big") n else n - 1
    val perRound = (if (bench == "big") n - 1 else 1).toLong * burst
    def total(): Long = ctls.map(c => ask[Long](c, "count")).sum
    var ok = true
    println(f"${"bench"}%-5s ${"impl"}%-5s ${"nodes"}%5s  pongs/s per 1 s window (burst $burst, load ${loadAverage()})")
    def halted(): Unit = {
      ctls.foreach(c => ask[Unit](c, "halt"))
      val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
      while (ctls.exists(c => ask[Boolean](c, "busy")) && System.nanoTime() < deadline) Thread.sleep(50)
    }
    if (prime > 0 && rounds < 0) for (impl <- order) {
      ctls.zipWithIndex.foreach { case (c, i) => ask[Unit](c, "begin", impl, peersOf(i), burst, Int.MaxValue) }
      val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
      var got = total()
      while (got < prime && System.nanoTime() < deadline) { Thread.sleep(100); got = total() }
      halted()
      println(s"# primed $impl: $got pongs")
    }
    for (impl <- order) {
      val r = if (rounds >= 0) rounds else Int.MaxValue
      ctls.zipWithIndex.foreach { case (c, i) => ask[Unit](c, "begin", impl, peersOf(i), burst, r) }
      if (rounds >= 0) {
        val expected = senders * perRound * rounds
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90)
        while (ctls.exists(c => ask[Boolean](c, "busy")) && System.nanoTime() < deadline) Thread.sleep(50)
        val got = total()
        val errors = ctls.map(c => ask[Long](c, "errors")).sum
        val pass = got == expected && errors == 0
        ok &&= pass
        println(s"$bench $impl $n nodes: $got pongs of $expected expected, $errors rounds with wrong pongs: ${if (pass) "ok" else "FAILED"}")
      } else {
        Thread.sleep(warmup * 1000L)
        var c0 = total(); var t0 = System.nanoTime()
        val w = (1 to windows).map { _ =>
          Thread.sleep(1000)
          val c1 = total(); val t1 = System.nanoTime()
          val rate = ((c1 - c0) * 1e9 / (t1 - t0)).round
          c0 = c1; t0 = t1
          rate
        }.toVector
        halted()
        val errors = ctls.map(c => ask[Long](c, "errors")).sum
        ok &&= errors == 0
        val s = w.sorted
        println(f"$bench%-5s $impl%-5s $n%5d  median ${s(s.size / 2)}%9d  min ${s.head}%9d  max ${s.last}%9d  windows ${w.mkString(" ")}${if (errors > 0) s"  ($errors rounds with wrong pongs)" else ""}")
      }
    }
    ctls.drop(1).foreach { case Right(r) => j(r.send[Unit]("quit")); case _ => }
    // Let the others leave before this node (the seed) does.
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
    while (node.members.size > 1 && System.nanoTime() < deadline) Thread.sleep(50)
    if (ok) 0 else 1
  }

  private[bench] def loadAverage(): String =
    try new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/loadavg"))).split(' ').take(3).mkString(" ")
    catch { case _: java.io.IOException => "?" }

  /** Runs the launcher for `nodes` JVMs (what BigBangTest and the doc's commands do). */
  def launch(nodes: Int, args: Seq[String]): Int = Launcher.launch(nodes, getClass.getName.stripSuffix("$"), args)
}
