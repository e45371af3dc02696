package cogs.distributed

/**
 * The messages between the endpoints of two nodes. The envelopes are serialised by
 * [[ProtocolSerializer]] (bound in reference.conf); the values inside (a call's arguments, a
 * result, an exception) are a block of bytes written by [[Values]] on the sending side (the caller's
 * thread, the callee's COG) and read on the receiving one, so that a value that cannot travel is
 * refused before anything is sent, with its class named.
 */
private[distributed] object Protocol {

  /** Marker bound to ProtocolSerializer. */
  trait Msg

  /** Create an object with a registered factory; answered by Created or Failed. */
  final case class Create(id: Long, factory: String, args: Array[Byte]) extends Msg
  /**
   * Call a method on object `obj`; answered by Reply or Failed. The method is `index` in the
   * object's [[MethodTable]] when the caller's reference knows the table (then `method` is null on
   * the wire), else -1 and found by the name `method`. `deadline` is the time the caller's
   * process had left until its deadline when it sent the call (Timed ABS `[Deadline: d]`, what
   * `deadline()` gives there), or null if it had none: relative, so that the callee's node
   * anchors it at its own `now` (the same time under the cluster clock; without it each node's
   * clock is its own, and a time left is the only meaning the two share).
   */
  final case class Call(id: Long, obj: Long, index: Int, method: String, args: Array[Byte],
      deadline: cogs.runtime.SimTime = null) extends Msg
  /**
   * A one-way call of `method` on object `obj`: no id, never answered, no pending entry on the
   * sender (`RemoteRef.tell`). A failure of the method is the receiving runtime's, as for a local
   * `Cogs.tell`; a target that does not exist is logged there.
   */
  final case class Tell(obj: Long, index: Int, method: String, args: Array[Byte]) extends Msg
  /** The object exists: its id, its class's simple name, and its class's [[MethodTable]] (names in index order). */
  final case class Created(id: Long, obj: Long, className: String, methods: Vector[String]) extends Msg
  final case class Reply(id: Long, value: Array[Byte]) extends Msg
  /**
   * The call or creation failed: the exception's class and message as text, and the exception
   * itself where it has a serializer of its own (ABS exceptions, which are data; `Wire` classes),
   * so that the caller can catch it by its type.
   */
  final case class Failed(id: Long, errorClass: String, message: String, error: Option[Array[Byte]] = None) extends Msg

  // ---- the cluster clock (ClusterClock; docs/distributed.md, "One simulated clock for the cluster")

  /**
   * A counted message (any of the above) under a cluster clock: sent while the sender's clock was
   * at `epoch` (the number of cluster advances it has applied), whose time is `time`. A receiver
   * behind that epoch applies the advance before it takes the message (ClusterClock.catchUp).
   */
  final case class Stamped(epoch: Long, time: cogs.runtime.SimTime, msg: Msg) extends Msg
  /** Wave `wave` of the coordinator asks for a Report, to be given when the node is passive. */
  final case class Probe(wave: Long) extends Msg
  /**
   * A node's answer to a probe, given while it was passive: its epoch, how many counted messages it
   * has sent and received, and where its own clock would advance next (null: nothing waits).
   */
  final case class Report(wave: Long, epoch: Long, sent: Long, received: Long, next: cogs.runtime.SimTime) extends Msg
  /** Every node advances its clock to `time`, the cluster's advance number `epoch`. */
  final case class Advance(epoch: Long, time: cogs.runtime.SimTime) extends Msg
  /** The cluster clock is over (why): every node gives back its hold. */
  final case class ClockEnd(reason: String) extends Msg
}
