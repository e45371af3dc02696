package cogs.distributed

import org.apache.pekko.actor.{Actor, Address, AddressFromURIString}
import org.apache.pekko.cluster.{Cluster, MemberStatus}
import org.apache.pekko.dispatch.RequiresMessageQueue
import org.apache.pekko.event.LoggerMessageQueueSemantics
import org.apache.pekko.event.Logging.{Error, InitializeLogger, LogEvent, LoggerInitialized, StdOutLogger, Warning}

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
    case w: Warning if NodeLogger.abortedByDeparture(String.valueOf(w.message), selfAddress, statusOf) => ()
    case event: LogEvent                          => Console.withOut(System.err)(print(event))
  }

  // The cluster extension exists once the system has started; only a warning about a peer's
  // stream asks for it.
  private def selfAddress: Address =
    if (context.system.hasExtension(Cluster)) Cluster(context.system).selfAddress else Address("pekko", "unknown")

  /** A member's status as this node last saw it (None: not a member, or removed). */
  private def statusOf(a: Address): Option[MemberStatus] =
    if (!context.system.hasExtension(Cluster)) Some(MemberStatus.Up)
    else {
      val cluster = Cluster(context.system)
      if (a == cluster.selfAddress) Some(cluster.selfMember.status)
      else cluster.state.members.find(_.address == a).map(_.status)
    }
}

private[distributed] object NodeLogger {
  /** The TCP listener's failure to bind the node's address (in use, or a host name that does not resolve). */
  def reportedByNode(e: Error): Boolean =
    String.valueOf(e.message).startsWith("Bind failed") ||
      Iterator.iterate(e.cause)(_.getCause).takeWhile(_ != null).exists(_.isInstanceOf[java.net.BindException])

  private val OutboundStream = "[outbound connection to ["

  /**
   * Artery's warning that a stream to a peer failed (`[outbound connection to [ADDR], control
   * stream] Upstream failed, cause: ...`) when the peer is leaving or gone, or this node is: the
   * nodes of a model end together, and the first to stop resets the others' connections to it.
   * That it cannot hide a real fault by racing: a member leaves gracefully only after the leader
   * moved it to Exiting, which needs every reachable member to have seen it Leaving; so by the
   * time its transport closes, this node already sees it as Leaving or later. A peer that
   * crashed is still Up (then Unreachable), and its reset is shown.
   */
  def abortedByDeparture(message: String, self: Address, statusOf: Address => Option[MemberStatus]): Boolean =
    message.startsWith(OutboundStream) && message.contains("Upstream failed") && {
      val end = message.indexOf(']', OutboundStream.length)
      end > 0 && (try {
        val peer = AddressFromURIString(message.substring(OutboundStream.length, end))
        val mine = statusOf(self)
        def leaving(s: MemberStatus) =
          s == MemberStatus.Leaving || s == MemberStatus.Exiting || s == MemberStatus.Down || s == MemberStatus.Removed
        // A peer that is no member is one that was removed only if this node is one itself: before
        // it joined, a seed it cannot reach is no member either, and that failure is shown.
        val memberHere = mine.exists(s => s == MemberStatus.Up || s == MemberStatus.WeaklyUp || s == MemberStatus.Leaving || s == MemberStatus.Exiting)
        mine.exists(s => s == MemberStatus.Leaving || s == MemberStatus.Exiting || s == MemberStatus.Down) ||
          (statusOf(peer) match {
            case Some(s) => leaving(s)
            case None    => memberHere
          })
      } catch { case _: Exception => false })
    }
}
