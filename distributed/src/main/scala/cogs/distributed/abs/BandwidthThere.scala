package cogs.distributed.abs

import cogs.runtime.{ActiveObject, Cogs, DeploymentComponent, Proc, Resource}

/**
 * The helper that consumes, on a deployment component's stand-in, the Bandwidth of
 * `[DataSize: ..]` calls made on another node to objects of that component ([[AbsPlacement]]'s
 * `transfer`). One per component and calling node, made on the stand-in by the first such call.
 *
 * Each transfer runs in an object of its own on the component (a [[BandwidthThere.Transfer]]):
 * consuming blocks its COG over the time units it takes, as a local transfer blocks the sender's,
 * and transfers from several senders at once must share each unit's Bandwidth as they do in one
 * JVM, not wait for each other's end in one blocked COG.
 */
final class BandwidthThere extends ActiveObject {
  /** Consume `amount` (as `SimTime.toString` writes it) of this component's Bandwidth; ends once it is consumed. */
  def consume(amount: String): Proc[Unit] = {
    val dc = Cogs.thisDC.getOrElse(throw new IllegalStateException("a [DataSize] helper runs on no deployment component"))
    val t = AbsPlacement.parseAmount(amount)
    val one = Cogs.spawnOn(dc)(new BandwidthThere.Transfer)
    Proc.await(Cogs.send(one, "transfer", (o: BandwidthThere.Transfer) => o.run(dc, t)))
  }
}

object BandwidthThere {
  /** One transfer on the component; its COG is blocked while it lasts (DeploymentComponent.consume). */
  final class Transfer extends ActiveObject {
    def run(dc: DeploymentComponent, amount: cogs.runtime.SimTime): Proc[Unit] = dc.consume(Resource.Bandwidth, amount)
  }
}
