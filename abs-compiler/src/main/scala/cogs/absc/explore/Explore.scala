package cogs.absc.explore

import java.io.PrintStream
import java.lang.reflect.InvocationTargetException
import java.net.URLClassLoader
import java.nio.file.Path

import cogs.absc.lib.Out
import cogs.absc.run.{ProgramRunner, ScheduleFile}
import cogs.runtime.{CogRuntime, Proc}

/** `absc explore` once the model is compiled: load it once, explore, report. */
object Explore {
  /** Exit statuses: 0 no failure found, 1 a deadlock or failure found. */
  final val NoFailure = 0
  final val FailureFound = 1

  /**
   * Explore the compiled program in `classes` (main object `mainObject`); the report goes to
   * `err`, witnesses to `witnessDir`. `model` names the model's files in the replay command.
   */
  def run(classes: Path, mainObject: String, options: Explorer.Options, witnessDir: Path, model: String,
      err: PrintStream, verbose: Boolean): Int = {
    val loader = new URLClassLoader("absc-explore", Array(classes.toUri.toURL), getClass.getClassLoader)
    val thread = Thread.currentThread()
    val previousLoader = thread.getContextClassLoader
    thread.setContextClassLoader(loader)
    try {
      mainBlock(loader, mainObject, err, verbose) match {
        case Left(message) =>
          err.println(s"absc: internal error: $message")
          2
        case Right(main) =>
          val explorer = new Explorer(main, options, err)
          // Ctrl-C: the exploration stops after its current schedule and the results so far are reported.
          val done = new java.util.concurrent.CountDownLatch(1)
          val hook = new Thread(() => {
            explorer.stopRequested = true
            done.await(10, java.util.concurrent.TimeUnit.SECONDS)
          }, "absc-explore-interrupt")
          val hooked = try { Runtime.getRuntime.addShutdownHook(hook); true } catch { case _: IllegalStateException => false }
          try {
            val result = explorer.explore()
            Explorer.report(result, options, witnessDir, model, ScheduleFile.fingerprint(main.getClass), err)
            err.flush()
            if (result.failures.nonEmpty) FailureFound else NoFailure
          } finally {
            done.countDown()
            if (hooked) try Runtime.getRuntime.removeShutdownHook(hook) catch { case _: IllegalStateException => () }
          }
      }
    } finally {
      thread.setContextClassLoader(previousLoader)
      loader.close()
    }
  }

  /** The main block of the generated program: its `main` hands it to the runner, which keeps it (captureMain). */
  private def mainBlock(loader: ClassLoader, mainObject: String, err: PrintStream, verbose: Boolean): Either[String, CogRuntime => Proc[Any]] = {
    val session = new ProgramRunner.Session(verbose, err)
    session.captureMain = true
    try {
      val m = Class.forName(mainObject, true, loader).getMethod("main", classOf[Array[String]])
      ProgramRunner.withSession(session)(m.invoke(null, Array.empty[String]))
      Option(session.mainBlock).toRight(s"$mainObject.main did not hand its main block to the runner")
    } catch {
      case e: ClassNotFoundException => Left(s"the main object $mainObject was not generated ($e)")
      case e: NoSuchMethodException => Left(s"$mainObject has no main(Array[String]) ($e)")
      case e: InvocationTargetException => Out.flush(); Left(s"$mainObject.main failed: ${e.getCause}")
      case e: LinkageError => Left(s"$mainObject cannot be loaded: $e")
    }
  }
}
