package cogs.distributed

import org.apache.pekko.actor.Actor
import org.apache.pekko.dispatch.RequiresMessageQueue
import org.apache.pekko.event.LoggerMessageQueueSemantics
import org.apache.pekko.event.Logging.{Error, InitializeLogger, LogEvent, LoggerInitialized, StdOutLogger}

/**
 * A node's Pekko logger (`pekko.loggers`, set by `Node.start` unless the application sets its
 * own): Pekko's standard-output logger writing to standard error, less the errors that the node
 * reports itself in one paragraph. Standard error because standard output is the program's: the
 * main node of an ABS model prints the model's output there (`absc run --nodes`), and a warning of
 * Pekko's as the cluster shuts down must not end up in it. A port in use or a host name that does not resolve is one: Pekko's TCP listener logs
 * it with a 30-line stack trace, and then `Node.start` throws a [[NodeStartException]] that says
 * the same with what to change.
 */
final class NodeLogger extends Actor with StdOutLogger with RequiresMessageQueue[LoggerMessageQueueSemantics] {
  def receive: Receive = {
    case InitializeLogger(_)                      => sender() ! LoggerInitialized
    case e: Error if NodeLogger.reportedByNode(e) => ()
    case event: LogEvent                          => Console.withOut(System.err)(print(event))
  }
}

private[distributed] object NodeLogger {
  /** The TCP listener's failure to bind the node's address (in use, or a host name that does not resolve). */
  def reportedByNode(e: Error): Boolean =
    String.valueOf(e.message).startsWith("Bind failed") ||
      Iterator.iterate(e.cause)(_.getCause).takeWhile(_ != null).exists(_.isInstanceOf[java.net.BindException])
}
