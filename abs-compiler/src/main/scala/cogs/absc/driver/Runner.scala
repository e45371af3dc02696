package cogs.absc.driver

import java.io.PrintStream
import java.lang.reflect.{InvocationTargetException, Modifier}
import java.net.URLClassLoader

import cogs.absc.lib.Out
import cogs.absc.run.ProgramRunner

/**
 * Runs a compiled program in this JVM as `config` says: its main object in a fresh class loader,
 * on a new thread, and how it ended. Phase times go to the reporter.
 */
private[driver] final class Runner(config: RunConfig, reporter: Reporter) {
  import config.verbose

  /**
   * Runs the program's main object and returns how it ended. `programErr` receives the runner's
   * failure report; `output` the program's text (standard output unless given). With a timeout, a
   * program still running then is stopped (`ProgramRunner.Session.stop`: its output takes nothing
   * more, its runtime's workers are interrupted and end at the next check point of the generated
   * loops) and fails; if its threads do not end (code without a check point), they are left behind
   * as daemons and the failure says so.
   */
  def execute(built: Built, args: Array[String], programErr: PrintStream, timeoutMillis: Long = 0L,
      output: cogs.absc.lib.Output = Out.stdout): ProgramRunner.Outcome =
    built.program.mainObject match {
      case None => ProgramRunner.Outcome(Exit.Compile, None, Some("the program has no main block"))
      case Some(mainObject) =>
        // --classpath: the classes of --foreign implementations, found by the model's own loader.
        val extra = config.extraClassPath.map(_.toUri.toURL)
        val loader = new URLClassLoader("absc-program", (built.program.classes.toUri.toURL :: extra).toArray, getClass.getClassLoader)
        val session = new ProgramRunner.Session(verbose, programErr, output, config.runOptions)
        @volatile var result: ProgramRunner.Outcome = null
        val thread = new Thread(() => {
          result =
            try ProgramRunner.withSession(session)(invokeMain(loader, mainObject, args, session))
            catch {
              case e: Throwable => // an Error out of the program's main, outside the runner's reach
                output.flush()
                session.err.println(s"absc: the program failed: ${ProgramRunner.describe(e)}")
                if (verbose) e.printStackTrace(session.err)
                ProgramRunner.Outcome(Exit.Failure, None, Some(ProgramRunner.describe(e)))
            }
        }, "absc-main")
        thread.setDaemon(true)
        thread.setContextClassLoader(loader)
        reporter.phase("run") {
          thread.start()
          if (timeoutMillis > 0) thread.join(timeoutMillis) else thread.join()
        }
        if (thread.isAlive) {
          val timedOut = s"timed out after ${timeoutMillis / 1000.0} s"
          // The runtime waits cogs.shutdown-timeout for its workers; the runner's thread returns
          // once its rt.run is woken, which the stop does last.
          val stopped = session.stop()
          thread.join(Runner.StopGraceMillis)
          if (stopped && !thread.isAlive) {
            loader.close()
            ProgramRunner.Outcome(Exit.Failure, None, Some(s"$timedOut (stopped)"))
          } else ProgramRunner.Outcome(Exit.Failure, None, Some(s"$timedOut; it could not be stopped (a process runs code " +
            "without a check point, e.g. a foreign class or a recursive function), so its threads keep running in this JVM"))
        } else {
          loader.close()
          result
        }
    }

  private def invokeMain(loader: ClassLoader, mainObject: String, args: Array[String],
      session: ProgramRunner.Session): ProgramRunner.Outcome = {
    def internal(message: String): ProgramRunner.Outcome = {
      session.err.println(s"absc: internal error: $message")
      ProgramRunner.Outcome(Exit.Compile, None, Some(s"internal error: $message"))
    }
    val main =
      try {
        val m = Class.forName(mainObject, true, loader).getMethod("main", classOf[Array[String]])
        if (Modifier.isStatic(m.getModifiers)) Right(m) else Left(s"$mainObject.main is not static")
      } catch {
        case e: ClassNotFoundException => Left(s"the main object $mainObject was not generated ($e)")
        case e: NoSuchMethodException  => Left(s"$mainObject has no main(Array[String]) ($e)")
        case e: LinkageError           => Left(s"$mainObject cannot be loaded: $e")
      }
    main match {
      case Left(message) => internal(message)
      case Right(m) =>
        try {
          m.invoke(null, args)
          Option(session.outcome).getOrElse(ProgramRunner.Outcome(Exit.Ok, None, None)) // a main without the runner
        } catch {
          case e: InvocationTargetException =>
            val cause = Option(e.getCause).getOrElse(e)
            session.output.flush()
            session.err.println(s"absc: the program failed: ${ProgramRunner.describe(cause)}")
            if (verbose) cause.printStackTrace(session.err)
            ProgramRunner.Outcome(Exit.Failure, None, Some(ProgramRunner.describe(cause)))
        }
    }
  }
}

private[driver] object Runner {
  /** How long a stopped program's main thread may take to return after its runtime stopped. */
  private final val StopGraceMillis = 5000L
}
