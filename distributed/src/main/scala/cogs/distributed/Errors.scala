package cogs.distributed

/** The node a call waited on left the cluster or crashed before it replied. */
final class NodeLostException(val node: String, val call: String, reason: String)
    extends RuntimeException(s"node $node was lost ($reason) before it replied to $call")

/**
 * The remote method ended with an exception that could not travel as itself (no serializer but
 * Java's, or the caller could not rebuild it): its class and message, as text. On an exception
 * that did travel, one of these is a suppressed exception saying where it was thrown.
 */
final class RemoteCallException(val node: String, val call: String, val remoteClass: String, val remoteMessage: String)
    extends RuntimeException(s"$call on node $node failed: $remoteClass: $remoteMessage")

/** A value of a remote call (argument or result) could not be serialised or deserialised. */
final class NotSerializableValueException(val valueClass: String, message: String, cause: Throwable)
    extends RuntimeException(message, cause)

/**
 * A node could not start: its port is taken, its host name is unknown, or it did not join the
 * cluster through its seed nodes within `cogs.distributed.join-timeout`. The message is the whole
 * explanation (one paragraph, what to change); Pekko's own exception, if any, is the cause.
 * The node's actor system is terminated before this is thrown, so nothing keeps the JVM alive.
 */
final class NodeStartException(message: String, cause: Throwable) extends RuntimeException(message, cause)
