package cogs.runtime

/**
 * A call ended with an exception. Thrown by [[Fut.join]] outside the runtime; names the object
 * and method (`origin`), and carries the original exception as its cause. Inside processes the
 * original exception itself is raised, so ABS `catch` clauses match on its type.
 */
final class CallFailedException(val origin: String, cause: Throwable)
    extends RuntimeException(s"$origin failed: $cause", cause)

/**
 * Processes wait and nothing in the runtime can wake them. `waiting` has one line per process:
 * its COG, its object and method, and the future or condition it waits for.
 */
final class DeadlockException(val waiting: List[String])
    extends RuntimeException(DeadlockException.render(waiting)) {
  /** Java: the waiting processes. */
  def waitingProcesses: java.util.List[String] = {
    import scala.jdk.CollectionConverters._
    waiting.asJava
  }
}

private object DeadlockException {
  def render(waiting: List[String]): String =
    if (waiting.isEmpty) "deadlock: the program cannot finish, but no suspended process was found"
    else s"deadlock: ${waiting.size} process(es) wait and nothing can wake them:\n" + waiting.map("  " + _).mkString("\n")
}
