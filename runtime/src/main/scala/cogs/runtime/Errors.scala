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
 * its COG, its object and method, and the future or condition it waits for. `failed` has one line
 * per process that failed before and whose failure nobody read (`CogRuntime.unobservedFailures`):
 * a waiting process may wait for what a failed one would have done (a consumer that threw leaves
 * its producers blocked), so the message lists them first.
 */
final class DeadlockException(val waiting: List[String], val failed: List[String])
    extends RuntimeException(DeadlockException.render(waiting, failed)) {
  def this(waiting: List[String]) = this(waiting, Nil)

  /** Java: the waiting processes. */
  def waitingProcesses: java.util.List[String] = {
    import scala.jdk.CollectionConverters._
    waiting.asJava
  }

  /** Java: the failed processes whose failure nobody read. */
  def failedProcesses: java.util.List[String] = {
    import scala.jdk.CollectionConverters._
    failed.asJava
  }
}

private object DeadlockException {
  def render(waiting: List[String], failed: List[String]): String = {
    val head =
      if (waiting.isEmpty) "deadlock: the program cannot finish, but no suspended process was found"
      else s"deadlock: ${waiting.size} process(es) wait and nothing can wake them"
    val before =
      if (failed.isEmpty) Nil
      else s"first, ${failed.size} process(es) that failed before and whose failure nobody read (the waiting ones may depend on them):" ::
        failed.map("  " + _)
    val after = if (failed.isEmpty || waiting.isEmpty) Nil else List("then the waiting ones:")
    if (before.isEmpty && waiting.isEmpty) head
    else s"$head:\n" + (before ::: after ::: waiting).map("  " + _).mkString("\n")
  }
}
