package cogs.savina.fjcreate

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[ForkJoinCreate]]. */
final case class Params(workers: Int) {
  require(workers >= 1, s"bad parameters $this")
  override def toString = s"workers=$workers"
}

/**
 * Savina's `fjcreate`: create `workers` actors, send each one message; each computes sin(37.2)^2
 * once and stops. The cost measured is mostly creating actors. The answer is the number of
 * workers that did their computation.
 */
object ForkJoinCreate extends SavinaBenchmark[Params, Long] {
  val name = "fjcreate"
  val title = "Fork Join (actor creation)"
  val defaults: Params = Params(workers = 40000)
  val quick: Params = Params(workers = 10000)

  def expected(p: Params): Long = p.workers.toLong

  def runCogs(rt: CogRuntime, p: Params): Long = ForkJoinCreateCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = ForkJoinCreatePekko.run(system, p)
}
