package cogs.runtime

import java.util.concurrent.atomic.AtomicLong
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * The local wake-up (Cog.wakeLocal): a future resolved by a process of the waiter's own COG puts
 * the waiter straight into the ready queue, and a self-call goes there too, while wake-ups from
 * other COGs still go through the inbox. Here both kinds race on the same processes: each round a
 * process awaits a future resolved on its own COG and one resolved on a neighbour's (on another
 * worker), together (`f1? & f2?`: two wake tokens, one local and one remote, compete for the one
 * CAS out of PARKED), one of them, or one together with a condition another process of its COG
 * sets. Four workers on this machine's two cores, so threads are preempted inside the hand-offs.
 *
 * A lost wake-up leaves a process parked for ever: the run ends with a deadlock report (or
 * `run` throws DeadlockException). A wake-up taken twice runs a process twice: it pushes the
 * same process into the ready queue twice, and the counts below go over. Checked once by hand:
 * with `wakeLocal` dropping one local wake-up in 500 at random, this test fails with a deadlock
 * report naming the stranded processes.
 */
class StressLocalWakeTest {

  trait Node extends Active {
    def work(rounds: Int, seed: Long, peer: Node): Proc[Int]
    def local(): Proc[Int]
    def remote(): Proc[Int]
    def setFlag(): Proc[Unit]
  }

  final class NodeImpl(done: AtomicLong) extends ActiveObject with Node {
    private var localCount = 0
    private var flag = false
    def localCalls: Int = localCount

    def local(): Proc[Int] = Proc.delay { localCount += 1; localCount }
    def remote(): Proc[Int] = Proc.delay(1)
    def setFlag(): Proc[Unit] = Proc.delay { flag = true }

    def work(rounds: Int, seed: Long, peer: Node): Proc[Int] = {
      val rnd = new scala.util.Random(seed)
      var i = 0
      Proc.loopWhile(i < rounds) {
        val f1 = this.send("local")(_.local())
        val f2 = peer.send("remote")(_.remote())
        val wait: Proc[Unit] = rnd.nextInt(5) match {
          case 0 => Proc.await(f1 & f2)
          case 1 => Proc.await(f1).void
          case 2 => Proc.await(f2).flatMap(_ => Proc.await(f1)).void
          case 3 =>
            flag = false
            this.send("setFlag")(_.setFlag())
            Proc.await(Guard.cond(flag) & f1)
          case _ => Proc.suspend.flatMap(_ => Proc.await(f1 | f2))
        }
        wait.flatMap(_ => Proc.await(f1)).flatMap(_ => Proc.await(f2)).map { _ => done.incrementAndGet(); i += 1 }
      }.as(rounds)
    }
  }

  @Test def localAndRemoteWakeUpsNeverLoseOrDuplicateAProcess(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.parallelism = 4")
    try {
      val done = new AtomicLong
      val objects = 40
      val perObject = 4 // processes of each object running `work` at once
      val rounds = 300
      val objs = Vector.fill(objects)(rt.spawn(new NodeImpl(done)))
      val total = rt.run {
        val futs = for (i <- 0 until objects; k <- 0 until perObject)
          yield objs(i).send("work")(_.work(rounds, (i * perObject + k).toLong, objs((i + 1) % objects)))
        Proc.awaitAll(futs).map(_.sum)
      }
      assertEquals(objects * perObject * rounds, total)
      assertEquals(objects.toLong * perObject * rounds, done.get())
      objs.foreach(o => assertEquals(perObject * rounds, o.localCalls, s"$o: local() ran once per round"))
      assertEquals(List(), rt.deadlockReport())
    } finally rt.close()
  }
}
