package cogs.savina.pingpong

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[PingPong]]. */
final case class Params(pings: Int) {
  require(pings >= 1, s"bad parameters $this")
  override def toString = s"pings=$pings"
}

/** Savina's `pingpong`: two actors exchange `pings` request/reply pairs, one at a time. The answer is the number of pings pong answered. */
object PingPong extends SavinaBenchmark[Params, Long] {

  val name = "pingpong"
  val title = "Ping Pong"
  val defaults: Params = Params(pings = 40000)
  val quick: Params = Params(pings = 5000)

  def expected(p: Params): Long = p.pings.toLong

  def runCogs(rt: CogRuntime, p: Params): Long = PingPongCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = PingPongPekko.run(system, p)
}
