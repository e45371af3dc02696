package cogs.savina.cigsmok

import cogs.runtime.CogRuntime
import cogs.savina.{Digest, Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[CigaretteSmokers]]. */
final case class Params(rounds: Int, smokers: Int) {
  require(rounds >= 1 && smokers >= 1, s"bad parameters $this")
  override def toString = s"rounds=$rounds smokers=$smokers"
}

/** How many cigarettes each smoker smoked (a digest of the counts) and in total. */
final case class Smoked(total: Long, digest: Long) {
  override def toString = s"$total cigarettes, digest ${java.lang.Long.toHexString(digest)}"
}

/**
 * Savina's `cigsmok`: for `rounds` rounds an arbiter puts ingredients on the table for a random
 * one of `smokers` smokers; that smoker takes them (the arbiter may start the next round) and
 * smokes for a random while (busy work). The arbiter's choices come from a seeded generator, so
 * which smoker smoked how often is known in advance: the answer is checked against it.
 */
object CigaretteSmokers extends SavinaBenchmark[Params, Smoked] {
  val name = "cigsmok"
  val title = "Cigarette Smokers"
  val defaults: Params = Params(rounds = 1000, smokers = 200)
  val quick: Params = Params(rounds = 1000, smokers = 50)

  /** The arbiter's choices, round by round: (smoker, length of the smoke). */
  final class Choices(p: Params) {
    private[this] val random = new Rand(p.rounds.toLong * p.smokers)
    def next(): (Int, Int) = (random.nextInt(p.smokers), random.nextInt(1000) + 10)
  }

  def expected(p: Params): Smoked = {
    val counts = new Array[Long](p.smokers)
    val c = new Choices(p)
    for (_ <- 0 until p.rounds) counts(c.next()._1) += 1
    Smoked(counts.sum, Digest.of(counts))
  }

  def runCogs(rt: CogRuntime, p: Params): Smoked = CigaretteSmokersCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Smoked = CigaretteSmokersPekko.run(system, p)
}
