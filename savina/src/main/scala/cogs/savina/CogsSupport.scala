package cogs.savina

import cogs.runtime._

/**
 * Where a Cogs run hands its answer to its main block: an object placed in the main block's COG
 * (`Cogs.spawnLocal`), to which the object that finds the answer calls `deliver`. The main block
 * awaits [[SinkImpl.result]], a condition over the sink's state (ABS `await value != Nothing`),
 * so it neither polls nor holds a thread.
 */
trait Sink[A] extends Active {
  def deliver(a: A): Proc[Unit]
}

final class SinkImpl[A] extends ActiveObject with Sink[A] {
  private[this] var value: Option[A] = None

  def deliver(a: A): Proc[Unit] = {
    if (value.isDefined) throw new IllegalStateException(s"a second answer $a after ${value.get}")
    value = Some(a)
    Proc.unit
  }

  /** For the main block, in the same COG: suspends until the answer was delivered. */
  def result: Proc[A] = Proc.awaitUntil(value.isDefined).map(_ => value.get)
}
