package cogs.savina.philosopher

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Philosophers]]. */
final case class Params(philosophers: Int, rounds: Int) {
  require(philosophers >= 2 && rounds >= 1, s"bad parameters $this")
  override def toString = s"philosophers=$philosophers rounds=$rounds"
}

/**
 * Savina's `philosopher`: `philosophers` philosophers around a table each eat `rounds` times; an
 * arbitrator hands out the two forks of a philosopher when both are free and denies the request
 * otherwise (the philosopher asks again at once). The answer is the number of meals the
 * arbitrator saw; how many requests were denied varies from run to run.
 */
object Philosophers extends SavinaBenchmark[Params, Long] {
  val name = "philosopher"
  val title = "Dining Philosophers"
  val defaults: Params = Params(philosophers = 20, rounds = 10000)
  val quick: Params = Params(philosophers = 10, rounds = 2000)

  def expected(p: Params): Long = p.philosophers.toLong * p.rounds

  def runCogs(rt: CogRuntime, p: Params): Long = PhilosophersCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = PhilosophersPekko.run(system, p)
}
