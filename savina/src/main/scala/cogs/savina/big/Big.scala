package cogs.savina.big

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Big]]. */
final case class Params(pings: Int, actors: Int) {
  require(pings >= 0 && actors >= 1, s"bad parameters $this")
  override def toString = s"pings=$pings actors=$actors"
}

/**
 * Savina's `big`: `actors` actors, each pinging a random other one (possibly itself) `pings`
 * times, one ping at a time, and answering every ping it gets with a pong; a sink learns when
 * each is done. The answer is the number of pongs that came back from the actor that was pinged
 * (each actor checks the sender of every pong).
 */
object Big extends SavinaBenchmark[Params, Long] {
  val name = "big"
  val title = "Big"
  val defaults: Params = Params(pings = 20000, actors = 120)
  val quick: Params = Params(pings = 2000, actors = 20)

  def expected(p: Params): Long = p.pings.toLong * p.actors

  def runCogs(rt: CogRuntime, p: Params): Long = BigCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = BigPekko.run(system, p)
}
