package cogs.session.monitor

/** What a session does with a message its role's machine does not allow. */
sealed abstract class Policy(val name: String) {
  override def toString: String = name
}

object Policy {
  /**
   * The method does not run; the call's future fails with the [[ProtocolViolation]] (a one-way
   * call fails as a process, counted by the runtime's `failedProcesses`). The machine stays where it was.
   */
  case object Reject extends Policy("reject")

  /** The violation is logged and recorded; the method runs; the machine stays where it was. */
  case object LogAndContinue extends Policy("log")

  /**
   * The message is discarded silently: the method does not run, the sender is not told, the
   * machine stays. A call that has a future cannot leave it pending forever (its caller would
   * wait forever), so that future fails with the violation as under [[Reject]]; a one-way call
   * simply disappears (recorded in the session's violations, not counted as a failed process).
   */
  case object Drop extends Policy("drop")

  /**
   * The message is rejected as under [[Reject]] and the session ends: every later message of the
   * session is rejected too, naming the violation that ended it.
   */
  case object EndSession extends Policy("end-session")

  val all: List[Policy] = List(Reject, LogAndContinue, Drop, EndSession)

  /** `reject`, `log`, `drop` or `end-session` (the names configuration files use). */
  def parse(s: String): Policy = all.find(_.name == s).getOrElse(
    throw new IllegalArgumentException(s"unknown violation policy '$s' (the policies: ${all.map(_.name).mkString(", ")})"))
}
