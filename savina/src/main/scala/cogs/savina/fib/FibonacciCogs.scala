package cogs.savina.fib

import cogs.runtime._

/** Fibonacci on Cogs: `fib(n)` creates two objects (each in a new COG), calls them, and awaits both futures. */
object FibonacciCogs {

  trait Fib extends Active {
    def fib(n: Int): Proc[Long]
  }

  final class FibImpl extends ActiveObject with Fib {
    def fib(n: Int): Proc[Long] =
      if (n <= 2) Proc.done(1L)
      else {
        val left: Fib = Cogs.spawn(new FibImpl)
        val right: Fib = Cogs.spawn(new FibImpl)
        val a = left.send("fib")(_.fib(n - 1))
        val b = right.send("fib")(_.fib(n - 2))
        Proc.await(a).flatMap(x => Proc.await(b).map(y => x + y))
      }
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val root: Fib = Cogs.spawn(new FibImpl)
      Proc.await(root.send("fib")(_.fib(p.n)))
    }
}
