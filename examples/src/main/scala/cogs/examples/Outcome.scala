package cogs.examples

import cogs.runtime.{CallFailedException, CogRuntime, DeadlockException}

/**
 * What the core of every Scala example returns: the figures it measured, the checks that failed
 * (none when it worked), and a few lines for people. Tests assert on the figures; `main` prints.
 */
trait Outcome {
  /** One line per failed check; empty when every check passed. */
  def problems: List[String]
  /** Summary for people (counts, time). */
  def report: String
  final def ok: Boolean = problems.isEmpty
}

/** The command-line side shared by the Scala examples: arguments, printing, exit status. */
private[examples] object ExampleMain {

  final class UsageError(msg: String) extends RuntimeException(msg)

  /** The `i`-th argument as a positive integer, or `default` when absent. */
  def intArg(args: Array[String], i: Int, name: String, default: Int): Int =
    if (i >= args.length) default
    else
      args(i).replace("_", "").toIntOption match {
        case Some(v) if v > 0 => v
        case _                => throw new UsageError(s"$name must be a positive integer, got '${args(i)}'")
      }

  /**
   * Run an example's core on a fresh runtime, print its report, close the runtime and exit:
   * 0 when every check passed, 1 when one failed (or the program deadlocked or a call failed),
   * 2 on bad arguments.
   */
  def main(name: String, usage: String, args: Array[String])(core: (CogRuntime, Array[String]) => Outcome): Nothing = {
    if (args.exists(a => a == "-h" || a == "--help")) {
      println(s"usage: $usage")
      sys.exit(0)
    }
    val status =
      try {
        val rt = CogRuntime()
        try {
          val outcome = core(rt, args)
          println(outcome.report)
          if (outcome.ok) { println(s"$name: OK"); 0 }
          else {
            outcome.problems.foreach(p => System.err.println(s"$name: CHECK FAILED: $p"))
            1
          }
        } finally rt.close()
      } catch {
        case e: UsageError =>
          System.err.println(s"$name: ${e.getMessage}\nusage: $usage")
          2
        case e: DeadlockException =>
          System.err.println(s"$name: FAILED: ${e.getMessage}")
          1
        case e: CallFailedException =>
          System.err.println(s"$name: FAILED: ${e.getMessage}")
          e.getCause.printStackTrace()
          1
      }
    sys.exit(status)
  }

  def millis(nanos: Long): String = f"${nanos / 1e6}%.0f ms"
}
