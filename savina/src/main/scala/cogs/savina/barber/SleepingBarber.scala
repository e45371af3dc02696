package cogs.savina.barber

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[SleepingBarber]]. */
final case class Params(haircuts: Int, waitingRoom: Int, productionRate: Int, haircutRate: Int) {
  require(haircuts >= 1 && waitingRoom >= 1 && productionRate >= 1 && haircutRate >= 1, s"bad parameters $this")
  override def toString = s"haircuts=$haircuts room=$waitingRoom production=$productionRate haircut=$haircutRate"
}

/**
 * Savina's `barber`: a customer factory sends `haircuts` customers, one every
 * `rand(productionRate) + 10` units of busy work, to a waiting room with `waitingRoom` chairs;
 * a barber serves them one at a time, each haircut `rand(haircutRate) + 10` units; a customer
 * who finds the room full goes back to the factory, which sends it again. The answer is the
 * number of customers served (how many attempts it took varies from run to run).
 */
object SleepingBarber extends SavinaBenchmark[Params, Long] {
  val name = "barber"
  val title = "Sleeping Barber"
  val defaults: Params = Params(haircuts = 5000, waitingRoom = 1000, productionRate = 1000, haircutRate = 1000)
  val quick: Params = Params(haircuts = 1000, waitingRoom = 100, productionRate = 1000, haircutRate = 1000)

  def expected(p: Params): Long = p.haircuts.toLong

  def runCogs(rt: CogRuntime, p: Params): Long = SleepingBarberCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = SleepingBarberPekko.run(system, p)
}
