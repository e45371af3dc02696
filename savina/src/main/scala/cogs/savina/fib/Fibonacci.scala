package cogs.savina.fib

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Fibonacci]]. */
final case class Params(n: Int) {
  require(n >= 1 && n <= 40, s"bad parameters $this")
  override def toString = s"n=$n"
}

/**
 * Savina's `fib`: fib(n) computed by a tree of actors, each creating two children for fib(n-1)
 * and fib(n-2) and adding their answers (fib(1) = fib(2) = 1). Actor creation and two messages
 * per node: fib(25) creates about 150,000 actors.
 */
object Fibonacci extends SavinaBenchmark[Params, Long] {
  val name = "fib"
  val title = "Fibonacci"
  val defaults: Params = Params(n = 25)
  val quick: Params = Params(n = 18)

  def expected(p: Params): Long = {
    var a = 1L
    var b = 1L
    for (_ <- 3 to p.n) { val c = a + b; a = b; b = c }
    b
  }

  def runCogs(rt: CogRuntime, p: Params): Long = FibonacciCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = FibonacciPekko.run(system, p)
}
