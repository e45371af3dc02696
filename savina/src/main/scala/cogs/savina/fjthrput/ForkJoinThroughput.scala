package cogs.savina.fjthrput

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[ForkJoinThroughput]]. */
final case class Params(messages: Int, actors: Int) {
  require(messages >= 1 && actors >= 1, s"bad parameters $this")
  override def toString = s"messages=$messages actors=$actors"
}

/**
 * Savina's `fjthrput`: `actors` actors, each sent `messages` messages (round robin over the
 * actors), each message a computation of sin(37.2)^2. The answer is the number of messages
 * processed. (Savina's default also asks for message priorities, which its Akka version ignores.)
 */
object ForkJoinThroughput extends SavinaBenchmark[Params, Long] {
  val name = "fjthrput"
  val title = "Fork Join (throughput)"
  val defaults: Params = Params(messages = 10000, actors = 60)
  val quick: Params = Params(messages = 2000, actors = 20)

  def expected(p: Params): Long = p.messages.toLong * p.actors

  def runCogs(rt: CogRuntime, p: Params): Long = ForkJoinThroughputCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = ForkJoinThroughputPekko.run(system, p)
}
