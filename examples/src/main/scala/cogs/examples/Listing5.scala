package cogs.examples

import cogs.runtime._

/**
 * The await benchmark of the seed paper (its Listing 1 in ABS, Listing 5 in Scala).
 *
 * {{{
 * class A() implements Ainterface {
 *   Int result = 0;
 *   Int recursive_m(Int i, Int id) {
 *     if (i > 0) { this.recursive_m(i - 1, id); }      // synchronous self-call
 *     else { Fut<Int> f = this ! compute(); await f?; } // suspends the whole call stack
 *     return 1;
 *   }
 *   Int compute() { result = result + 1; return result; }
 * }
 * { // main block: N asynchronous calls, then get every future
 *   Ainterface master = new A();
 *   List<Fut<Int>> futures = Nil;
 *   while (i < N) { futures = Cons(master ! recursive_m(5, i), futures); i = i + 1; }
 *   while (futures != Nil) { Int r = head(futures).get; futures = tail(futures); }
 * }
 * }}}
 *
 * Every call builds a stack of six synchronous frames and suspends at its bottom, so the object
 * holds up to N suspended call stacks at once; each is resumed when its `compute` has run.
 */
object Listing5 {

  trait Ainterface extends Active {
    def recursive_m(i: Int, id: Int): Proc[Int]
    def compute(): Proc[Int]
    /** The field `result` (the counter), read through a call like any other state of the object. */
    def counter(): Proc[Int]
  }

  final class A extends ActiveObject with Ainterface {
    private var result = 0

    def recursive_m(i: Int, id: Int): Proc[Int] =
      if (i > 0)
        // this.recursive_m(i - 1, id): same COG, so it runs at once as part of this process; if
        // it suspends, the whole chain of frames suspends with it (kept as data, not on a thread).
        Proc.sync(this, "recursive_m")(_.recursive_m(i - 1, id)).as(1)
      else {
        val f = this.send("compute")(_.compute()) // this ! compute()
        Proc.await(f).as(1) // await f?; return 1
      }

    def compute(): Proc[Int] = Proc.delay { result += 1; result }

    def counter(): Proc[Int] = Proc.delay(result)

    override def toString = "A"
  }

  final case class Result(calls: Int, counter: Int, sumOfReturns: Long, elapsedNanos: Long) extends Outcome {
    def problems: List[String] =
      List(
        if (counter != calls) Some(s"counter is $counter, expected exactly $calls (one compute per call)") else None,
        if (sumOfReturns != calls) Some(s"the calls returned $sumOfReturns in total, expected $calls (each returns 1)") else None
      ).flatten

    def report: String =
      s"listing5: $calls calls of recursive_m(5, id), final counter $counter, " +
        s"time ${ExampleMain.millis(elapsedNanos)}" + f" (${elapsedNanos.toDouble / math.max(calls, 1) / 1000}%.2f us per call)"
  }

  /** Run the main block with `n` calls and report what it saw. */
  def run(rt: CogRuntime, n: Int): Result = {
    val start = System.nanoTime()
    val (counter, sum) = rt.run {
      val master: Ainterface = Cogs.spawn(new A) // new A()
      var futures: List[Fut[Int]] = Nil
      var i = 0
      while (i < n) {
        val id = i // the call's arguments are read when it runs: give it a value, not the variable
        futures = master.send("recursive_m")(_.recursive_m(5, id)) :: futures
        i += 1
      }
      var sum = 0L
      Proc.loopWhile(futures.nonEmpty) {
        val f = futures.head
        futures = futures.tail
        f.get.map(r => sum += r) // Int r = f.get (blocks the main block's COG until resolved)
      } >> master.send("counter")(_.counter()).get.map(counter => (counter, sum))
    }
    Result(n, counter, sum, System.nanoTime() - start)
  }

  def main(args: Array[String]): Unit =
    ExampleMain.main("listing5", "examples/run listing5 [N=100000]", args) { (rt, args) =>
      run(rt, ExampleMain.intArg(args, 0, "N", 100000))
    }
}
