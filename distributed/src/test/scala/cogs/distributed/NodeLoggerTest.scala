package cogs.distributed

import org.apache.pekko.actor.Address
import org.apache.pekko.cluster.MemberStatus
import org.apache.pekko.cluster.MemberStatus._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** Which of Artery's stream warnings a node leaves out: only those a departure explains. */
class NodeLoggerTest {
  private val self = Address("pekko", "cogs", "127.0.0.1", 2551)
  private val peer = Address("pekko", "cogs", "127.0.0.1", 37541)
  private val reset =
    s"[outbound connection to [$peer], control stream] Upstream failed, cause: StreamTcpException: The connection closed with error: Connection reset"

  private def hidden(message: String, mine: Option[MemberStatus], theirs: Option[MemberStatus]): Boolean =
    NodeLogger.abortedByDeparture(message, self, a => if (a == self) mine else if (a == peer) theirs else None)

  @Test def aResetByAPeerThatIsLeavingOrGoneIsLeftOut(): Unit =
    for (s <- List(Leaving, Exiting, Down, Removed))
      assertTrue(hidden(reset, Some(Up), Some(s)), s"peer $s")

  @Test def aResetByAPeerThatWasRemovedIsLeftOut(): Unit =
    assertTrue(hidden(reset, Some(Up), None))

  @Test def aResetWhileThisNodeLeavesIsLeftOut(): Unit =
    for (s <- List(Leaving, Exiting, Down))
      assertTrue(hidden(reset, Some(s), Some(Up)), s"self $s")

  @Test def aResetByAPeerThatIsUpIsShown(): Unit = {
    // A peer that crashed is still Up here (then unreachable): its reset is a fault.
    assertFalse(hidden(reset, Some(Up), Some(Up)))
    assertFalse(hidden(reset, Some(Up), Some(WeaklyUp)))
    assertFalse(hidden(reset, Some(Up), Some(Joining)))
  }

  @Test def aSeedThatCannotBeReachedBeforeJoiningIsShown(): Unit = {
    val refused = s"[outbound connection to [$peer], control stream] Upstream failed, cause: StreamTcpException: " +
      "Tcp command [Connect(127.0.0.1:37541,None,List(),Some(5000 milliseconds),true)] failed because of java.net.ConnectException: Connection refused"
    assertFalse(hidden(refused, Some(Removed), None))
    assertFalse(hidden(refused, Some(Joining), None))
  }

  @Test def otherWarningsAreShown(): Unit = {
    assertFalse(hidden("Using the Java serializer for class [X]", Some(Leaving), Some(Removed)))
    assertFalse(hidden(s"[outbound connection to [$peer], message stream] something else", Some(Up), Some(Removed)))
    assertFalse(hidden("[outbound connection to [not an address], control stream] Upstream failed", Some(Up), None))
    assertFalse(hidden("[outbound connection to [", Some(Up), None))
  }
}
