package cogs.absc.lib

import scala.jdk.CollectionConverters._
import cogs.runtime.{Fut, Scheduled, SchedulingPolicy}

/**
 * ABS `ABS.Scheduler.Process`: a process as a user-defined scheduler sees it. Models cannot make
 * one (the type has no constructor); the runtime hands a list of them to the scheduler function.
 * Equal when they stand for the same process.
 */
final class AbsProcess private[lib] (private[lib] val process: Scheduled) {
  override def equals(o: Any): Boolean = o match {
    case p: AbsProcess => p.process eq process
    case _             => false
  }
  override def hashCode: Int = System.identityHashCode(process)
  override def toString: String = s"Process(${AbsProcess.method(this)})"
}

/**
 * The functions of `ABS.Scheduler` on processes. `arrival` is the simulated time of the call and
 * `proc_deadline` what is left of its `[Deadline: d]` (`InfDuration` without one). Not tracked
 * (their values for a process that has not started): `start` and `finish` are `Time(0)`, `cost`
 * is `Duration(0)`. `crit` and `value` are unused by the reference backends too: `False` and `0`.
 */
object AbsProcess {
  private val Zero = Time(AbsInt(0))

  def method(p: AbsProcess): String = { val m = p.process.method; if (m eq null) "" else m }
  def destinyOf(p: AbsProcess): Fut[_] = p.process.destiny
  def arrival(p: AbsProcess): Time = Time(AbsTime.fromSim(p.process.arrival))
  def cost(p: AbsProcess): Duration = Duration.Duration(AbsInt(0))
  def proc_deadline(p: AbsProcess): Duration = p.process.deadline match {
    case null => InfDuration
    case d    => Duration.Duration(AbsTime.fromSim(d - cogs.runtime.Cogs.now))
  }
  def start(p: AbsProcess): Time = Zero
  def finish(p: AbsProcess): Time = Zero
  def crit(p: AbsProcess): Boolean = false
  def value(p: AbsProcess): AbsInt = AbsInt(0)

  /** ABS `defaultscheduler(queue) = head(queue)`. */
  def defaultscheduler(queue: List[AbsProcess]): AbsProcess = queue.head

  /** ABS `randomscheduler(queue)`: a random process of the queue. */
  def randomscheduler(queue: List[AbsProcess]): AbsProcess = nth(queue, random(AbsInt(queue.length)))

  /**
   * The runtime's policy for a scheduler function of the model: `f` receives the processes that may
   * run (ABS's `queue`) and returns the one to run. Generated code closes `f` over the fields of
   * the COG's first object that the annotation names.
   */
  def policy(f: List[AbsProcess] => AbsProcess): SchedulingPolicy = new SchedulingPolicy {
    def choose(queue: java.util.List[Scheduled]): Scheduled = {
      var l: List[AbsProcess] = Nil
      val it = queue.asScala.reverseIterator
      while (it.hasNext) l = new AbsProcess(it.next()) :: l
      f(l).process
    }
  }
}
