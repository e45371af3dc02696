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
 * The functions of `ABS.Scheduler` on processes. Cogs runs untimed models only (Timed ABS is not
 * supported yet), where the clock stays at 0: `arrival`, `start` and `finish` are `Time(0)`.
 * `[Cost: ..]` and `[Deadline: ..]` are not carried to run time yet: `cost` is `Duration(0)` and
 * `proc_deadline` is `InfDuration`, their values for a call without those annotations. `crit` and
 * `value` are unused by the reference backends too: `False` and `0`.
 */
object AbsProcess {
  private val Zero = Time(AbsInt(0))

  def method(p: AbsProcess): String = { val m = p.process.method; if (m eq null) "" else m }
  def destinyOf(p: AbsProcess): Fut[_] = p.process.destiny
  def arrival(p: AbsProcess): Time = Zero
  def cost(p: AbsProcess): Duration = Duration.Duration(AbsInt(0))
  def proc_deadline(p: AbsProcess): Duration = InfDuration
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
