package cogs.examples

import cogs.distributed.{Launcher, Node, NodeLostException, RemoteRef}
import cogs.runtime._
import com.typesafe.config.{Config, ConfigFactory}
import java.util.concurrent.TimeUnit

/**
 * Two nodes, two JVMs, on loopback: this JVM is node A (the cluster's seed); it starts node B as
 * a second JVM (`Launcher.startJvm`), creates an `Account` there by its factory name, and a local
 * `Teller` sends it CALLS deposits, each numbered, without waiting in between, then awaits them
 * all and the balance. The account checks that the deposits arrived in the order they were sent.
 * Last, node B is stopped and one more call shows that a call to a lost node fails, naming it.
 */
object TwoNodes {

  /** Lives on node B. */
  final class Account extends ActiveObject {
    private[this] var balance = 0L
    private[this] var next = 0
    private[this] var outOfOrder = 0
    def deposit(seq: Int, amount: Int): Proc[Unit] = Proc.delay {
      if (seq != next) outOfOrder += 1
      next = seq + 1
      balance += amount
    }
    def balance(): Proc[Long] = Proc.delay(balance)
    def outOfOrder(): Proc[Int] = Proc.delay(outOfOrder)
    override def toString = "account"
  }

  /** Lives on node A; holds the reference to the remote account. */
  final class Teller(account: RemoteRef) extends ActiveObject {
    def payIn(n: Int): Proc[(Long, Int)] =
      Proc.delay((0 until n).map(i => account.send[Unit]("deposit", i, 1)).toList)
        .flatMap(fs => Proc.awaitAll(fs))
        .flatMap(_ => Proc.await(account.send[Long]("balance")))
        .flatMap(b => Proc.await(account.send[Int]("outOfOrder")).map(o => (b, o)))
    override def toString = "teller"
  }

  final case class Result(calls: Int, balance: Long, outOfOrder: Int, lostError: String, nodeB: String, elapsedNanos: Long)
      extends Outcome {
    def problems: List[String] = List(
      if (balance != calls) Some(s"the balance is $balance, expected $calls") else None,
      if (outOfOrder != 0) Some(s"$outOfOrder deposits arrived out of order") else None,
      if (lostError == null || !lostError.contains(nodeB)) Some(s"the call to the stopped node did not fail naming it: $lostError") else None
    ).flatten
    def report: String =
      s"twonodes: $calls deposits from node A to an account on node B ($nodeB): balance $balance, " +
        s"$outOfOrder out of order, time ${ExampleMain.millis(elapsedNanos)}\n" +
        s"twonodes: after node B stopped, a call failed with: $lostError"
  }

  private def config(seeds: Seq[String]): Config = ConfigFactory.parseString(
    s"""pekko.loglevel = ERROR
       |pekko.stdout-loglevel = ERROR
       |pekko.log-dead-letters = off
       |pekko.remote.artery.canonical.hostname = "127.0.0.1"
       |pekko.remote.artery.canonical.port = 0
       |pekko.cluster.seed-nodes = [${seeds.map("\"" + _ + "\"").mkString(",")}]
       |pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
       |cogs.distributed.lost-after = 2 s
       |""".stripMargin).withFallback(ConfigFactory.load())

  /** Node A's side: the whole program. `rt` is node A's runtime. */
  def run(rt: CogRuntime, calls: Int): Result = {
    val a = Node.start(config(Nil), rt)
    val b = Launcher.startJvm("cogs.examples.TwoNodes", Seq("--serve", a.address.toString), Map.empty, inheritIO = false)
    try {
      val out = new java.io.BufferedReader(new java.io.InputStreamReader(b.getInputStream))
      var line = out.readLine()
      while (line != null && !line.startsWith("READY ")) line = out.readLine()
      if (line == null) throw new IllegalStateException("node B ended before it was ready")
      val nodeB = line.stripPrefix("READY ").trim
      a.awaitMembers(2, 60, TimeUnit.SECONDS)
      val addrB = a.members.find(_.toString == nodeB).get
      val start = System.nanoTime()
      val account = a.create(addrB, "account").join(60, TimeUnit.SECONDS)
      val (balance, outOfOrder) = rt.run {
        val teller = Cogs.spawn(new Teller(account))
        Proc.await(Cogs.send(teller, "payIn", (t: Teller) => t.payIn(calls)))
      }
      val elapsed = System.nanoTime() - start
      b.getOutputStream.close() // node B leaves the cluster and exits
      b.waitFor(60, TimeUnit.SECONDS)
      val lost = rt.run(Proc.await(account.send[Long]("balance")).map(_ => "no error")
        .recover { case e: NodeLostException => e.getMessage })
      Result(calls, balance, outOfOrder, lost, nodeB, elapsed)
    } finally {
      b.destroyForcibly()
      a.close()
    }
  }

  /** Node B: offers the account factory, says READY, and leaves when its standard input closes. */
  private def serve(seed: String): Unit = {
    val node = Node.start(config(Seq(seed)))
    node.register("account")(_ => node.runtime.spawn(new Account))
    println(s"READY ${node.address}")
    System.out.flush()
    while (System.in.read() >= 0) {}
    node.close()
    sys.exit(0)
  }

  def main(args: Array[String]): Unit =
    if (args.headOption.contains("--serve")) serve(args(1))
    else
      ExampleMain.main("twonodes", "examples/run twonodes [CALLS=10000]", args) { (rt, args) =>
        run(rt, ExampleMain.intArg(args, 0, "CALLS", 10000))
      }
}
