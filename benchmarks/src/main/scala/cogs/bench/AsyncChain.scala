package cogs.bench

import cogs.async.ProcAsync.{async, await}
import cogs.runtime.{Active, ActiveObject, CogRuntime, Fut, Proc}

/**
 * The `async` variant of [[AwaitChainBench]] (issue 13, target 5): Listing 5 with every method
 * body an `async` block, which scalac's async phase (`-Xasync`, this module's scalac arguments)
 * compiles into one state-machine class per method, in place of the `cogs` variant's chain of
 * `map`/`flatMap` closures (the shape absc emits). The main block is the same as `cogs`'s.
 */
private[bench] object AsyncChain {

  trait A extends Active {
    def recursiveM(i: Int, id: Int): Proc[Int]
    def compute(): Proc[Int]
    def counter(): Proc[Int]
  }

  final class AImpl extends ActiveObject with A {
    private var result = 0

    def recursiveM(i: Int, id: Int): Proc[Int] = async {
      if (i > 0) {
        await(Proc.sync(this, "recursive_m")(_.recursiveM(i - 1, id)))
      } else {
        val f: Fut[Int] = this.send("compute")(_.compute())
        await(f)
      }
      1
    }

    // No await: plain `delay`, as absc emits a method without scheduling points.
    def compute(): Proc[Int] = Proc.delay { result += 1; result }

    def counter(): Proc[Int] = Proc.delay(result)
  }


  /**
   * The `cogs-scala` variant: the same object with the continuations written as absc emits them
   * (Scala closures on `Proc`), so that `async` is compared within the same DSL; `cogs` goes
   * through the Java DSL's adapters.
   */
  final class ClosureAImpl extends ActiveObject with A {
    private var result = 0

    def recursiveM(i: Int, id: Int): Proc[Int] =
      if (i > 0) Proc.sync(this, "recursive_m")(_.recursiveM(i - 1, id)).map(_ => 1)
      else {
        val f: Fut[Int] = this.send("compute")(_.compute())
        Proc.await(f).map(_ => 1)
      }

    def compute(): Proc[Int] = Proc.delay { result += 1; result }

    def counter(): Proc[Int] = Proc.delay(result)
  }
}

/** The workload (a top-level class, so that the Java benchmark can make it); `variant` is `async` or `cogs-scala`. */
private[bench] final class AsyncChain(variant: String, n: Int) extends Workload {
  import AsyncChain._
  private val rt = CogRuntime()
  private var master: A = _
  private var sum = 0L

  override def prepare(): Unit = master = if (variant == "async") rt.spawn(new AImpl) else rt.spawn(new ClosureAImpl)

  override def run(): Long = {
    val m = master
    sum = rt.run(mainBlock(m, n))
    sum
  }

  private def mainBlock(master: A, n: Int): Proc[Long] = {
    val futures = new Array[Fut[Int]](n)
    var i = 0
    while (i < n) {
      val id = i
      futures(i) = master.send("recursive_m")(_.recursiveM(AwaitChainBench.DEPTH, id))
      i += 1
    }
    var s = 0L
    // Newest first, as the seed's main block gets them.
    Proc.repeat(n)(k => Proc.get(futures(n - 1 - k)).map(r => s += r)).map(_ => s)
  }

  override def check(): Unit = {
    Workload.expect(s"$variant: sum of the calls' results", n.toLong, sum)
    Workload.expect(s"$variant: counter", n.toLong, master.send("counter")(_.counter()).join().toLong)
  }

  override def close(): Unit = rt.close()
}
