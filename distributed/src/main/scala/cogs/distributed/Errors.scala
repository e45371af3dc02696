package cogs.distributed

/** The node a call waited on left the cluster or crashed before it replied. */
final class NodeLostException(val node: String, val call: String, reason: String)
    extends RuntimeException(s"node $node was lost ($reason) before it replied to $call")

/** The remote method ended with an exception; its class and message, as text (exceptions do not travel). */
final class RemoteCallException(val node: String, val call: String, val remoteClass: String, val remoteMessage: String)
    extends RuntimeException(s"$call on node $node failed: $remoteClass: $remoteMessage")

/** A value of a remote call (argument or result) could not be serialised or deserialised. */
final class NotSerializableValueException(val valueClass: String, message: String, cause: Throwable)
    extends RuntimeException(message, cause)
