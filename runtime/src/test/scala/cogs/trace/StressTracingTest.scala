package cogs.trace

import cogs.runtime._
import cogs.trace.TraceEvent._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

object StressTracingTest {
  trait Node extends Active {
    def ping(n: Int): Proc[Int]
    def fanOut(peers: Vector[Node], leaves: Vector[Node], rounds: Int, seed: Int): Proc[Int]
  }
  final class NodeImpl extends ActiveObject with Node {
    private var served = 0
    def ping(n: Int): Proc[Int] = Proc.delay { served += 1; n }
    def fanOut(peers: Vector[Node], leaves: Vector[Node], rounds: Int, seed: Int): Proc[Int] = {
      val rnd = new java.util.Random(seed)
      def loop(i: Int, acc: Int): Proc[Int] =
        if (i == rounds) Proc.done(acc)
        else {
          // Alternate between suspending on any node and blocking (get) on a leaf, which never
          // calls anyone (a get on a node could close a cycle of blocked COGs: a real deadlock).
          val useGet = i % 2 == 1
          val pool = if (useGet) leaves else peers
          val f = pool(rnd.nextInt(pool.size)).send("ping")(_.ping(i))
          (if (useGet) f.get else f.await).flatMap(v => loop(i + 1, acc + v))
        }
      loop(0, 0)
    }
  }
}

/**
 * Many objects on many COGs calling each other at once while every event goes to one shared
 * tracer: each object's events must arrive complete (no gaps in the sequence numbers) and in the
 * object's order, and every call must show up exactly once on both sides.
 */
class StressTracingTest {
  import StressTracingTest._
  import TracingTest._

  @Test def eachObjectsTraceIsCompleteAndInOrderUnderLoad(): Unit = {
    val rec = new Recorder
    val rt = CogRuntime.withTracing(rec, com.typesafe.config.ConfigFactory.parseString("cogs.executor.parallelism = 4")
      .withFallback(com.typesafe.config.ConfigFactory.load()))
    val objects = 64
    val rounds = 500
    try {
      rt.run {
        val nodes = Vector.fill(objects)(Cogs.spawn(new NodeImpl): Node)
        val leaves = Vector.fill(8)(Cogs.spawn(new NodeImpl): Node)
        val fs = nodes.zipWithIndex.map { case (n, i) => n.send("fanOut")(_.fanOut(nodes, leaves, rounds, i)) }
        Proc.awaitAll(fs)
      }
      val all = rec.all
      assertSound(all)
      val calls = all.collect { case c: CallSent if c.method == "ping" => c }
      val started = all.collect { case s: Started if s.method == "ping" => s }
      val completed = all.collect { case c: Completed if c.method == "ping" => c }
      assertEquals(objects * rounds, calls.size)
      assertEquals(calls.map(_.fut).toSet, started.map(_.fut).toSet)
      assertEquals(objects * rounds, started.map(_.fut).distinct.size)
      assertEquals(objects * rounds, completed.size)
      assertEquals(objects * rounds / 2, all.count { case g: Get => true; case _ => false })
      // a process's events keep their causal order within its object: started before completed
      val startSeq = started.map(s => s.fut -> s.seq).toMap
      completed.foreach(c => assertTrue(startSeq(c.fut) < c.seq, c.toString))
    } finally rt.close()
  }
}
