package cogs.session.monitor

/**
 * A message that a role's machine did not allow (or a payload of the wrong types, or a message
 * of a session that had ended). `side` says whose monitor saw it: the sender's ("sent") before
 * the call was queued, or the receiver's ("received") before the callee's method ran.
 */
final class ProtocolViolation(
    val session: String,
    val protocol: String,
    val role: String,
    val state: Int,
    val expected: List[String],
    val received: String,
    val side: String,
    val reason: String,
    /** The message came after the session had ended (by `end()` or a violation under EndSession). */
    val afterEnd: Boolean)
    extends RuntimeException(ProtocolViolation.render(session, role, state, expected, received, side, reason)) {

  /** Java: the actions the role's machine allowed in `state`. */
  def expectedList: java.util.List[String] = {
    import scala.jdk.CollectionConverters._
    expected.asJava
  }
}

private object ProtocolViolation {
  def render(session: String, role: String, state: Int, expected: List[String], received: String, side: String, reason: String): String = {
    val exp = if (expected.isEmpty) "nothing (the role has finished)" else expected.mkString(" or ")
    val why = if (reason.isEmpty) "" else s" ($reason)"
    s"protocol violation in session $session: role $role in state $state $side $received$why; expected $exp"
  }
}

/** Where one role stands when a session ends. */
final case class RoleStatus(role: String, boundTo: String, state: Int, isFinal: Boolean, expected: List[String]) {
  def render: String =
    if (isFinal) s"$role ($boundTo): finished (state $state)"
    else s"$role ($boundTo): not finished, stopped in state $state waiting for ${if (expected.isEmpty) "nothing" else expected.mkString(" or ")}"
}

/** The end of a session: each role's state, and the violations seen. */
final case class SessionReport(session: String, protocol: String, roles: List[RoleStatus], violations: List[ProtocolViolation]) {
  /** Every role in a final state and no violation. */
  def complete: Boolean = roles.forall(_.isFinal) && violations.isEmpty
  def unfinished: List[RoleStatus] = roles.filterNot(_.isFinal)

  def render: String = {
    val head = s"session $session ($protocol): " +
      (if (complete) "complete" else s"${unfinished.size} role(s) not finished, ${violations.size} violation(s)")
    (head :: roles.map("  " + _.render) ::: violations.map("  " + _.getMessage)).mkString("\n")
  }
  override def toString: String = render
}
