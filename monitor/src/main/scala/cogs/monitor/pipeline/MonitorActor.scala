package cogs.monitor.pipeline

import cogs.runtime.{ActiveObject, Proc}
import scala.collection.mutable.ArrayBuffer

/**
 * One checker instance and its bookkeeping, shared by every place a checker runs (the dispatcher
 * actor, a monitor actor, the inline lock). A checker that throws is a broken monitor, not a broken
 * pipeline: the exception becomes its verdict, it gets no further events (its state is suspect),
 * and the events it missed are counted.
 */
private[pipeline] final class Instance[E](val monitor: String, val label: String, checker: Checker[E]) {
  var events = 0L
  var skipped = 0L
  private[this] var error: Finding = null

  def verify(e: E): Unit =
    if (error eq null) {
      events += 1
      try checker.verify(e)
      catch { case t: Throwable if Instance.catchable(t) => error = Finding(monitor, s"monitor failed on its event $events: $t", events, List(String.valueOf(e))) }
    } else skipped += 1

  def failed: Boolean = error ne null

  /** Ends the checker and gathers its verdicts. */
  def end(): InstanceResult = {
    if (error eq null)
      try checker.end()
      catch { case t: Throwable if Instance.catchable(t) => error = Finding(monitor, s"monitor failed at the end of its trace: $t", 0L, Nil) }
    val found =
      try checker.violations
      catch { case t: Throwable if Instance.catchable(t) => List(Finding(monitor, s"monitor failed reporting its violations: $t", 0L, Nil)) }
    val all = if (error eq null) found else found :+ error
    val note = if (skipped > 0) all :+ Finding(monitor, s"$skipped events after the failure were not checked", events, Nil) else all
    InstanceResult(label, events, note.toVector, failed)
  }
}

private[pipeline] object Instance {
  def catchable(t: Throwable): Boolean = !t.isInstanceOf[VirtualMachineError]
}

/** The outcome of one instance, sent back from a monitor actor. */
private[pipeline] final case class InstanceResult(label: String, events: Long, findings: Vector[Finding], failed: Boolean, stats: StatsSnapshot = null)

/**
 * A monitor actor: one checker instance in a COG of its own, fed in batches by one dispatcher.
 *
 * Order: the dispatcher is this actor's only sender, and Cogs starts the calls of one sender to one
 * COG in the order they were sent (the runtime README's ordering guarantee: a FIFO inbox, and new
 * calls run in arrival order). That holds across the dispatcher's calls too, since its COG runs
 * one process at a time, each process's sends ordered before the next's. Neither method suspends,
 * so a call runs to its end before the next starts: the checker sees its key's events in order.
 */
private[pipeline] final class MonitorActor[E](inst: Instance[E], stats: ActorStats) extends ActiveObject {

  def verify(batch: ArrayBuffer[E], sentAt: Long): Proc[Unit] = Proc.delay {
    val t0 = if (stats ne null) stats.start(sentAt) else 0L
    var i = 0
    val n = batch.length
    while (i < n) { inst.verify(batch(i)); i += 1 }
    if (stats ne null) stats.stop(t0, n)
  }

  def end(sentAt: Long): Proc[InstanceResult] = Proc.delay {
    val t0 = if (stats ne null) stats.start(sentAt) else 0L
    val r = inst.end()
    if (stats ne null) {
      stats.stop(t0, 0)
      r.copy(stats = stats.snapshot())
    } else r
  }

  override def toString: String = s"monitor ${inst.monitor}/${inst.label}"
}
