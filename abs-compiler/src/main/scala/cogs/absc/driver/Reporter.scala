package cogs.absc.driver

import java.io.PrintStream

import cogs.absc.diag.Diagnostic

/**
 * Where every part of the driver sends its messages for the user: `err`. Diagnostics are rendered
 * with the source line and a caret. `verbose` (`-v`) adds the time of each phase, the cache's
 * decisions and stack traces; `debug` (`-vv`) also the command line of the compiler JVM.
 */
private[driver] final class Reporter(val err: PrintStream, val verbose: Boolean, val debug: Boolean) {

  /** Runs `body`; with `-v`, prints how long it took under `name`. */
  def phase[A](name: String)(body: => A): A = {
    val t0 = System.nanoTime()
    try body
    finally if (verbose) {
      val ms = (System.nanoTime() - t0) / 1e6
      err.println(f"absc: $name%-10s $ms%9.1f ms")
    }
  }

  /** A line for `-v` only. */
  def note(message: String): Unit = if (verbose) err.println(s"absc: $message")

  /** The diagnostics, each with its source line when it is in one of `sources`. */
  def render(sources: List[SourceFile], ds: List[Diagnostic]): String = {
    val texts = sources.map(s => s.name -> s.text).toMap
    ds.map(d => texts.get(d.pos.file).fold(d.header)(d.render)).mkString("\n")
  }

  /** Prints the diagnostics and `absc: N errors`; the failure they make. */
  def errors(sources: List[SourceFile], ds: List[Diagnostic]): BuildFailure = {
    err.println(render(sources, ds))
    val n = ds.count(_.isError)
    val summary = if (n == 1) "1 error" else s"$n errors"
    err.println(s"absc: $summary")
    BuildFailure(Exit.Compile, s"does not compile ($summary)")
  }

  /** absc itself failed while `what` the program: one line (and the stack trace with `-v`). */
  def crashed(e: Throwable, what: String): BuildFailure = {
    err.println(s"absc: internal error: absc crashed while $what the program: $e")
    if (verbose) e.printStackTrace(err) else err.println("absc: (run with -v for the stack trace)")
    BuildFailure(Exit.Compile, s"internal error: $e")
  }
}
