package cogs.savina.threadring

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[ThreadRing]]. */
final case class Params(actors: Int, pings: Int) {
  require(actors >= 1 && pings >= 0, s"bad parameters $this")
  override def toString = s"actors=$actors pings=$pings"
}

/** What a ring reports: how many pings its members handled, and which member got the last one. */
final case class RingAnswer(pingsHandled: Long, lastHolder: Int) {
  override def toString = s"$pingsHandled pings, last at $lastHolder"
}

/**
 * Savina's `threadring`: `actors` actors in a ring pass a token `pings` times, each hop counting
 * down; the actor that gets it at zero sends an exit message around the ring. Here the exit
 * message also sums what every member counted, so the answer is checked: `pings + 1` pings
 * handled (the first and every hop), the last by member `pings mod actors`.
 */
object ThreadRing extends SavinaBenchmark[Params, RingAnswer] {
  val name = "threadring"
  val title = "Thread Ring"
  val defaults: Params = Params(actors = 100, pings = 100000)
  val quick: Params = Params(actors = 20, pings = 19999)

  def expected(p: Params): RingAnswer = RingAnswer(p.pings.toLong + 1, p.pings % p.actors)

  def runCogs(rt: CogRuntime, p: Params): RingAnswer = ThreadRingCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): RingAnswer = ThreadRingPekko.run(system, p)
}
