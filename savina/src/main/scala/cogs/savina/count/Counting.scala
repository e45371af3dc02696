package cogs.savina.count

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Counting]]. */
final case class Params(messages: Int) {
  require(messages >= 1, s"bad parameters $this")
  override def toString = s"messages=$messages"
}

/**
 * Savina's `count`: a producer sends `messages` increments to a counter, then asks for the
 * total. The answer is the counter's total. It relies on the messages of one sender arriving
 * in the order they were sent (Pekko guarantees it per pair of actors; Cogs runs the calls of a
 * COG in arrival order), which the check would catch if it ever failed.
 */
object Counting extends SavinaBenchmark[Params, Long] {
  val name = "count"
  val title = "Counting Actor"
  val defaults: Params = Params(messages = 1000000)
  val quick: Params = Params(messages = 100000)

  def expected(p: Params): Long = p.messages.toLong

  def runCogs(rt: CogRuntime, p: Params): Long = CountingCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = CountingPekko.run(system, p)
}
