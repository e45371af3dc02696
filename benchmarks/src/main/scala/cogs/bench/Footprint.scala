package cogs.bench

import cogs.runtime._
import java.lang.management.ManagementFactory

/**
 * Bytes per idle active object and per suspended continuation, by heap difference over many
 * instances (after full collections), in a fresh JVM:
 *
 * {{{
 * mvn -q -pl benchmarks -am install -DskipTests && mvn -q -pl benchmarks exec:java -Dexec.args="1000000"
 * }}}
 *
 * An idle object is a minimal active object (one Int field) with its own COG. A suspended
 * continuation is an asynchronous call whose process awaits a future that is still pending: the
 * process, its future, its continuation and its waiter registration.
 */
object Footprint {
  trait Cell extends Active { def get(): Proc[Int] }
  final class CellImpl(v: Int) extends ActiveObject with Cell { def get(): Proc[Int] = Proc.done(v) }

  trait Waiter extends Active { def waitFor(f: Fut[Int]): Proc[Int] }
  final class WaiterImpl extends ActiveObject with Waiter {
    def waitFor(f: Fut[Int]): Proc[Int] = Proc.await(f)
  }

  trait Gate extends Active { def pass(): Proc[Int]; def open(): Proc[Unit] }
  final class GateImpl extends ActiveObject with Gate {
    private var opened = false
    def pass(): Proc[Int] = Proc.awaitUntil(opened).as(1)
    def open(): Proc[Unit] = Proc.delay { opened = true }
  }

  private def used(): Long = {
    val mx = ManagementFactory.getMemoryMXBean
    var i = 0
    while (i < 5) { System.gc(); Thread.sleep(50); i += 1 }
    mx.getHeapMemoryUsage.getUsed
  }

  def main(args: Array[String]): Unit = {
    val n = if (args.nonEmpty) args(0).toInt else 1000000
    val rt = CogRuntime()
    try {
      // Idle objects: the array of references is subtracted.
      val refs = new Array[Cell](n)
      val before = used()
      var i = 0
      while (i < n) { refs(i) = rt.spawn(new CellImpl(i)); i += 1 }
      val perObject = (used() - before).toDouble / n - 4.0 // compressed reference in `refs`
      refs(n - 1).send("get")(_.get()).join()
      java.lang.ref.Reference.reachabilityFence(refs)
      java.util.Arrays.fill(refs.asInstanceOf[Array[AnyRef]], null) // phase 1 must not be freed during phase 2

      // Suspended continuations: n calls spread over 1,000 objects, all awaiting one pending future.
      val gate = rt.spawn(new GateImpl)
      val pending = gate.send("pass")(_.pass())
      val waiters = Array.fill(1000)(rt.spawn(new WaiterImpl): Waiter)
      rt.awaitQuiescence()
      val before2 = used()
      i = 0
      while (i < n) { waiters(i % 1000).send("waitFor")(_.waitFor(pending)); i += 1 }
      rt.awaitQuiescence()
      val perContinuation = (used() - before2).toDouble / n
      java.lang.ref.Reference.reachabilityFence(pending)
      gate ! (_.open())
      rt.awaitQuiescence()

      println(f"idle object (object + COG):              $perObject%.0f bytes  (n = $n)")
      println(f"suspended continuation (await f? call):  $perContinuation%.0f bytes  (n = $n)")
      println(s"JVM: ${System.getProperty("java.vm.name")} ${System.getProperty("java.version")}, " +
        s"max heap ${Runtime.getRuntime.maxMemory >> 20} MiB")
    } finally rt.close()
  }
}
