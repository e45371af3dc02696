package cogs.absc.driver

import cogs.absc.run.ProgramRunner

/** Exit statuses of absc (see the README, "The absc command"). */
object Exit {
  final val Ok = 0
  /** The program failed: an uncaught exception (a failed `assert` too) or a deadlock; a test failed. */
  final val Failure = 1
  /** The program does not compile (or absc could not translate it), or a bad command line. */
  final val Compile = 2
  /** A monitored property was violated (`--monitor`). */
  final val Monitor = ProgramRunner.ExitMonitor
}
