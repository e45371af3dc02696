package cogs.savina.sieve

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Sieve]]. */
final case class Params(limit: Long, primesPerFilter: Int) {
  require(limit >= 3 && primesPerFilter >= 1, s"bad parameters $this")
  override def toString = s"limit=$limit primesPerFilter=$primesPerFilter"
}

/**
 * Savina's `sieve`: a producer sends the odd numbers from 3 below `limit`, in order, into a
 * pipeline of filters, each holding up to `primesPerFilter` primes (the first holds 2). A
 * number no filter divides is prime: the last filter keeps it, or starts a new filter when full.
 * The answer is the number of primes below `limit`, checked against a plain sieve.
 */
object Sieve extends SavinaBenchmark[Params, Long] {
  val name = "sieve"
  val title = "Sieve of Eratosthenes"
  val defaults: Params = Params(limit = 100000, primesPerFilter = 1000)
  val quick: Params = Params(limit = 30000, primesPerFilter = 300)

  def expected(p: Params): Long = {
    val n = p.limit.toInt
    val composite = new Array[Boolean](n)
    var count = 0L
    var i = 2
    while (i < n) {
      if (!composite(i)) {
        count += 1
        var j = i.toLong * i
        while (j < n) { composite(j.toInt) = true; j += i }
      }
      i += 1
    }
    count
  }

  /** True when none of `primes(0 until n)` divides `candidate`. */
  def locallyPrime(candidate: Long, primes: Array[Long], n: Int): Boolean = {
    var i = 0
    while (i < n) {
      if (candidate % primes(i) == 0) return false
      i += 1
    }
    true
  }

  def runCogs(rt: CogRuntime, p: Params): Long = SieveCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = SievePekko.run(system, p)
}
