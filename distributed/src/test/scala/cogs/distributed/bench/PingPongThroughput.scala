package cogs.distributed.bench

import cogs.distributed.{Node, RemoteRef}
import cogs.runtime._
import com.typesafe.config.ConfigFactory
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.{AtomicBoolean, AtomicLong}
import org.apache.pekko.actor.{Actor, ActorRef, Props}
import scala.concurrent.Await
import scala.concurrent.duration._
import scala.jdk.CollectionConverters._

/**
 * PingPong throughput (not a test; docs/distributed.md has the command and the figures): K pingers
 * and one ponger; each pinger sends a ball, waits for it to come back, and sends the next. Counted
 * are round trips (two messages each) in one-second windows, after a warm-up, for four setups:
 * Cogs in one runtime, Cogs with the ponger on a second node, plain Pekko actors in one actor
 * system, and plain Pekko actors with the ponger in a second actor system (remote). The two
 * nodes are two actor systems in this JVM, on loopback TCP (Artery), so the network path is real
 * but both share this machine's cores.
 *
 * Arguments: `[--jvms] [--remote-only] [--order SEQ] [--prime N] [WARMUP_S] [WINDOWS] [BALLS..]`,
 * default `2 5 1 64`. With `--jvms`, the second node is a second JVM (started with `Launcher.startJvm`)
 * instead of a second actor system here; `--remote-only` leaves out the two setups in one
 * runtime; `--order` runs the two-node setups in that order, c for Cogs and p for Pekko (default
 * `cp`; `pc` puts Pekko first, `cpcp` runs each twice in the same JVMs); `--prime N` first runs
 * every setup unmeasured with 64 balls until it made N round trips (the JIT warm-up of both,
 * whatever the link's delay), then the measurements (each still after its WARMUP_S). With
 * `-Dcogs.bench.link.delay-ms=D` and/or `-Dcogs.bench.link.loss-percent=P`, the nodes talk
 * through [[DelayLink]]s (`distributed/run-pair --link D:P`).
 */
object PingPongThroughput {

  final class Ponger extends ActiveObject {
    def hit(i: Int): Proc[Int] = Proc.done(i)
  }

  final class Pinger(local: Ponger, remote: RemoteRef, count: AtomicLong, stop: AtomicBoolean) extends ActiveObject {
    private def ball(i: Int): Fut[Int] =
      if (remote ne null) remote.send[Int]("hit", i) else Cogs.send(local, "hit", (p: Ponger) => p.hit(i))
    def go(): Proc[Unit] = Proc.loopWhile(!stop.get)(Proc.await(ball(1)).map { _ => count.incrementAndGet(); () })
  }

  final class PekkoPonger extends Actor {
    def receive: Receive = { case i: Int => sender() ! i }
  }

  final class PekkoPinger(pong: ActorRef, count: AtomicLong, stop: AtomicBoolean) extends Actor {
    override def preStart(): Unit = pong ! 1
    def receive: Receive = {
      case i: Int =>
        count.incrementAndGet()
        if (!stop.get) pong ! i else context.stop(self)
    }
  }

  private def conf(seeds: Seq[String], link: Map[String, String] = Map.empty) = ConfigFactory.parseMap(link.asJava).withFallback(ConfigFactory.parseString(
    s"""pekko.loglevel = ERROR
       |pekko.stdout-loglevel = ERROR
       |pekko.log-dead-letters = off
       |pekko.remote.artery.canonical.hostname = "127.0.0.1"
       |pekko.remote.artery.canonical.port = 0
       |pekko.cluster.seed-nodes = [${seeds.map("\"" + _ + "\"").mkString(",")}]
       |pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
       |pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
       |""".stripMargin)).withFallback(ConfigFactory.load())

  private val LinkKeys = Seq("canonical.hostname", "canonical.port", "bind.hostname", "bind.port").map("pekko.remote.artery." + _)

  /**
   * Round trips per one-second window. With `-Dcogs.bench.threads=true`, also what the threads of
   * each JVM in `pids` did over the windows, per round trip ([[ThreadCounters]]), printed as
   * comment lines after `label`.
   */
  private def measure(count: AtomicLong, warmup: Int, windows: Int, label: String = "", pids: Seq[(String, Long)] = Nil): Vector[Long] = {
    Thread.sleep(warmup * 1000L)
    val on = ThreadCounters.enabled && pids.nonEmpty
    val before = if (on) pids.map { case (_, p) => ThreadCounters.snapshot(p) } else Nil
    val start = count.get
    val w = (1 to windows).map { _ =>
      val c0 = count.get
      val t0 = System.nanoTime()
      Thread.sleep(1000)
      val c1 = count.get
      val t1 = System.nanoTime()
      ((c1 - c0) * 1e9 / (t1 - t0)).round
    }.toVector
    if (on) {
      val n = count.get - start
      val after = pids.map { case (_, p) => ThreadCounters.snapshot(p) }
      pids.indices.foreach(i => println(ThreadCounters.report(s"$label, ${pids(i)._1}", n, ThreadCounters.delta(before(i), after(i), ThreadCounters.javaNames(pids(i)._2)))))
    }
    w
  }

  /** The second node in a JVM of its own: both pongers, READY, then wait for standard input to close. */
  private def servePongers(seed: String): Unit = {
    // Behind a link, the parent says where to bind and what to advertise.
    val b = Node.start(conf(Seq(seed), LinkKeys.flatMap(k => Option(System.getProperty(k)).map(k -> _)).toMap))
    b.register("ponger")(_ => b.runtime.spawn(new Ponger))
    b.system.actorOf(Props(new PekkoPonger), "pong")
    println(s"READY ${b.address}")
    System.out.flush()
    while (System.in.read() >= 0) {}
    b.close()
    System.exit(0)
  }

  def main(argv: Array[String]): Unit = {
    if (argv.headOption.contains("--ponger")) return servePongers(argv(1))
    // Options first, in any order, then the numbers.
    var opts = argv.toList
    var jvms = false
    var remoteOnly = false
    var order = "cp"
    var prime = 0L
    var more = true
    while (more) opts match {
      case "--jvms" :: rest        => jvms = true; opts = rest
      case "--remote-only" :: rest => remoteOnly = true; opts = rest
      case "--order" :: o :: rest  =>
        require(o.nonEmpty && o.forall("cp".contains(_)), s"--order takes letters c (Cogs) and p (Pekko), got '$o'")
        order = o; opts = rest
      case "--prime" :: n :: rest  => prime = n.toLong; opts = rest
      case _ => more = false
    }
    val args = opts.toArray
    val warmup = args.headOption.fold(2)(_.toInt)
    val windows = args.lift(1).fold(5)(_.toInt)
    val ballsList = if (args.length > 2) args.drop(2).map(_.toInt).toSeq else Seq(1, 64)
    // With `-Dcogs.bench.link.delay-ms=D` (and/or `.loss-percent=P`) every message between the two
    // nodes crosses a DelayLink (both links run in this JVM).
    val linkSetting = DelayLink.fromProperties()
    val bindPorts = cogs.distributed.Launcher.freePorts(2)
    val links = linkSetting.toVector.flatMap { case (d, l) => bindPorts.map(p => new DelayLink(p, d, l)) }
    def linkOf(i: Int): Map[String, String] = if (links.isEmpty) Map.empty else DelayLink.nodeSettings(links(i), bindPorts(i))
    linkSetting.foreach { case (d, l) => println(f"# links: delay ${d / 1e6}%.1f ms per direction, loss ${l * 100}%.1f%% (TCP stalls of 200 ms)") }
    val a = Node.start(conf(Nil, linkOf(0)))
    var child: java.lang.Process = null
    var b: Node = null
    val bAddress =
      if (jvms) {
        child = cogs.distributed.Launcher.startJvm(getClass.getName.stripSuffix("$"), Seq("--ponger", a.address.toString), linkOf(1), inheritIO = false)
        val out = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream))
        var line = out.readLine()
        while (line != null && !line.startsWith("READY ")) line = out.readLine()
        require(line != null, "the ponger JVM ended before it was ready")
        val drain = new Thread(() => try while (out.readLine() != null) {} catch { case _: java.io.IOException => () })
        drain.setDaemon(true)
        drain.start()
        org.apache.pekko.actor.AddressFromURIString(line.stripPrefix("READY ").trim)
      } else {
        b = Node.start(conf(Seq(a.address.toString), linkOf(1)))
        b.register("ponger")(_ => b.runtime.spawn(new Ponger))
        b.address
      }
    a.awaitMembers(2, 60, TimeUnit.SECONDS)
    val remotePonger = a.create(bAddress, "ponger").join(30, TimeUnit.SECONDS)
    val where = if (jvms) "two JVMs" else "two nodes"
    val pekkoPongers = new AtomicLong
    val pids = Seq("caller JVM" -> ProcessHandle.current().pid()) ++ (if (child ne null) Seq("ponger JVM" -> child.pid()) else Nil)
    println(f"${"setup"}%-22s ${"balls"}%5s  round trips/s per 1 s window")
    // One setup with `balls` pingers; `during` runs while they play (measure, or prime) and gives the windows.
    def runCogs(remote: Boolean, balls: Int, during: AtomicLong => Vector[Long]): Vector[Long] = {
      val count = new AtomicLong
      val stop = new AtomicBoolean
      val local = a.runtime.spawn(new Ponger)
      val pingers = (1 to balls).map(_ => a.runtime.spawn(new Pinger(local, if (remote) remotePonger else null, count, stop)))
      val done = pingers.map(p => Cogs.send(p, "go", (x: Pinger) => x.go()))
      val w = during(count)
      stop.set(true)
      done.foreach(_.join(60, TimeUnit.SECONDS))
      w
    }
    def runPekko(remote: Boolean, balls: Int, during: AtomicLong => Vector[Long]): Vector[Long] = {
      val count = new AtomicLong
      val stop = new AtomicBoolean
      val pong =
        if (!remote) a.system.actorOf(Props(new PekkoPonger))
        else {
          val name = if (jvms) "pong" else { val n = s"pong-$balls-${pekkoPongers.incrementAndGet()}"; b.system.actorOf(Props(new PekkoPonger), n); n }
          Await.result(a.system.actorSelection(s"$bAddress/user/$name").resolveOne(10.seconds), 15.seconds)
        }
      (1 to balls).foreach(_ => a.system.actorOf(Props(new PekkoPinger(pong, count, stop))))
      val w = during(count)
      stop.set(true)
      Thread.sleep(500)
      w
    }
    try {
      // Priming: every setup to be measured plays 64 balls, unmeasured, until it has made `prime`
      // round trips (60 s at most), before any measurement. Without it the first setup measured
      // pays the JVMs' JIT compilation of the code both share (Artery, its streams, TCP), and at
      // a low rate (one ball through a slow link: 80 round trips a second) a time-based warm-up
      // compiles hardly anything (docs/distributed.md, "Where the idle gap goes").
      if (prime > 0) {
        def until(count: AtomicLong): Vector[Long] = {
          val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
          while (count.get < prime && System.nanoTime() < deadline) Thread.sleep(20)
          Vector(count.get)
        }
        val setups = (if (remoteOnly) Nil else Seq("cl", "pl")) ++ order.distinct.map(_.toString + "r")
        for (st <- setups) {
          val n = (if (st(0) == 'c') runCogs(st(1) == 'r', 64, until _) else runPekko(st(1) == 'r', 64, until _)).head
          println(s"# primed ${if (st(0) == 'c') "cogs" else "pekko"} ${if (st(1) == 'r') where else "local"}: $n round trips")
        }
      }
      for (balls <- ballsList) {
        def setup(c: Boolean, remote: Boolean): Vector[Long] = {
          val label = s"${if (c) "cogs" else "pekko"} $balls"
          val m = (count: AtomicLong) => measure(count, warmup, windows, label, pids)
          if (c) runCogs(remote, balls, m) else runPekko(remote, balls, m)
        }
        val local = Seq[(String, () => Vector[Long])]("cogs local" -> (() => setup(true, false)), "pekko local" -> (() => setup(false, false)))
        val remote = order.map {
          case 'c' => s"cogs $where" -> (() => setup(true, true))
          case _   => s"pekko $where" -> (() => setup(false, true))
        }
        for ((name, run) <- (if (remoteOnly) remote else local ++ remote)) {
          val w = run()
          val sorted = w.sorted
          println(f"$name%-22s $balls%5d  median ${sorted(sorted.size / 2)}%9d  min ${sorted.head}%9d  max ${sorted.last}%9d  windows ${w.mkString(" ")}")
        }
      }
    } finally {
      if (child ne null) { child.getOutputStream.close(); child.waitFor(30, TimeUnit.SECONDS); child.destroyForcibly() }
      if (b ne null) b.close()
      a.close()
      links.foreach(_.close())
    }
  }
}
