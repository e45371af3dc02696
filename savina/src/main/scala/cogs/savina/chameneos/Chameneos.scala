package cogs.savina.chameneos

import cogs.runtime.CogRuntime
import cogs.savina.SavinaBenchmark
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Chameneos]]. */
final case class Params(chameneos: Int, meetings: Int) {
  require(chameneos >= 2 && meetings >= 0, s"bad parameters $this")
  override def toString = s"chameneos=$chameneos meetings=$meetings"
}

/**
 * Savina's `chameneos`: `chameneos` creatures repeatedly ask a mall to meet another; the mall
 * pairs them until it has held `meetings` meetings, then tells every creature to fade. In each
 * meeting both creatures change colour to the complement of their two colours. The answer is
 * the sum of the meetings the creatures counted: two per meeting.
 */
object Chameneos extends SavinaBenchmark[Params, Long] {
  val name = "chameneos"
  val title = "Chameneos"
  val defaults: Params = Params(chameneos = 100, meetings = 200000)
  val quick: Params = Params(chameneos = 20, meetings = 20000)

  def expected(p: Params): Long = 2L * p.meetings

  def runCogs(rt: CogRuntime, p: Params): Long = ChameneosCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Long = ChameneosPekko.run(system, p)

  /** Colours: red, yellow, blue, and faded (the creature leaves). */
  final val Red = 0
  final val Yellow = 1
  final val Blue = 2
  final val Faded = 3

  /** The colour of a creature of colour `a` after meeting one of colour `b`: its own if equal, else the third. */
  def complement(a: Int, b: Int): Int = if (a == b) a else 3 - a - b
}
