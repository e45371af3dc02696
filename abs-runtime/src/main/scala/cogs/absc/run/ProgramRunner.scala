package cogs.absc.run

import java.io.PrintStream

import cogs.absc.lib.{AbsException, CreationFailed, HeapOverflowException, Out, Output, StackOverflowException, ThrownAt}
import cogs.runtime.{CallFailedException, CogRuntime, ControlledRun, DeadlockException, Proc}

/**
 * The entry point of every compiled ABS program: the generated main object hands its main block
 * to this object, which runs it on a fresh [[cogs.runtime.CogRuntime]], reports how it ended, and
 * turns that into the exit status.
 *
 * == The contract with the emitter ==
 *
 * `ScalaEmitter.emit` returns `EmittedProgram(files, mainObject = Some("P.Main"))` for a program
 * with a main block, where `P.Main` is the fully qualified name of a top-level Scala `object`
 * (no companion class, so that scalac gives it a static `main` forwarder) in one of `files`:
 *
 * {{{
 * package P
 *
 * object Main {
 *   def main(args: Array[String]): Unit =
 *     cogs.absc.run.ProgramRunner.runMain(args, (rt: cogs.runtime.CogRuntime) => MAINBLOCK)
 * }
 * }}}
 *
 * where `MAINBLOCK: Proc[Unit]` is the translation of the main block (it is evaluated inside the
 * main block's process, on the main COG, so it may call `Cogs.spawn`, `!`, `Proc.await`, ...).
 * If the main block declares a variable `Bool testresult` (the convention of the ABS backend test
 * suites), the emitter calls instead
 *
 * {{{
 *     cogs.absc.run.ProgramRunner.runTest(args, (rt: cogs.runtime.CogRuntime) => MAINBLOCK)
 * }}}
 *
 * with `MAINBLOCK: Proc[Boolean]`: the main block, followed by `Proc.done(testresult)` (the value
 * the variable has when the block ends). That is all: `main` must do nothing else, neither before
 * nor after the call (no `System.exit`, no printing). Program output goes through
 * [[cogs.absc.lib.Out]], never `System.out`.
 *
 * == What the runner does ==
 *
 *  1. creates a `CogRuntime()` (configured from `application.conf` / `reference.conf`), runs the
 *     main block with `rt.run`, which waits until the program is quiescent;
 *  2. flushes [[cogs.absc.lib.Out]] and `System.out`, closes the runtime;
 *  3. reports a failure on standard error, one paragraph, no stack trace (unless verbose: `absc -v`,
 *     or `-Dcogs.absc.verbose=true` for a standalone program);
 *  4. ends with the exit status: [[ExitOk]] (0), [[ExitFailure]] (1) for an uncaught exception in the
 *     main block (this includes a failed `assert`) or a deadlock; [[ExitMonitor]] (3) when
 *     a monitor found a violation (programs compiled with `--monitor`). A program started with `java` (after `absc compile` and `scalac`) exits
 *     the JVM with it; inside `absc run` / `absc test` the status is handed back to the driver
 *     instead, and the JVM goes on.
 *
 * `absc test` passes a file when its program ends with status 0 and `testresult` True; `absc run`
 * and a standalone program do not look at `testresult`.
 *
 * == The Model API ==
 *
 * With a port (`absc run --port PORT`, which the driver passes in the run's [[RunOptions]]; a
 * standalone program takes `--port PORT` (`-p`) on its command line, see [[ProgramCommandLine]]), the runner starts
 * the Model API (loopback only; the module `cogs-abs-modelapi`, found through [[ModelApi.provider]]:
 * without it on the class path the run ends at once with exit status 2 and says so) before the main block, says
 * its URL on standard error, and after the main block has ended (and its failure, if any, was
 * reported) keeps the model running and serving until the process is killed or a client asks for
 * `/quit`; then it exits as it would have. `/quit` also ends a model whose main block still runs
 * (exit status 0): it stops the clock where it is and says so in a last line on standard error.
 * `--url-prefix P` serves the API below P. `--modelapi-index-file FILE` replaces the default index
 * page; `--modelapi-static-dir DIR` serves DIR's files below `static/`. Port 0 picks a free port.
 *
 * == A program on its own ==
 *
 * Started without absc (its package's launcher, `java -jar`, `java -cp`), `main`'s `args` are the
 * program's command line: the run's options, then `--` and the program's arguments, parsed and
 * checked by [[ProgramCommandLine]] with the checks `absc run` makes ([[OptionChecks]]); a bad
 * one ends with status 2 before anything runs. Inside absc they are only the program's arguments
 * (the options come with the [[Session]]).
 */
object ProgramRunner {

  final val ExitOk = 0
  final val ExitFailure = 1
  /** The monitor configuration is bad or names a monitor class that is not there (as absc's compile errors). */
  final val ExitUsage = 2
  /** A runtime-verification monitor reported a violation (or could not certify the run). */
  final val ExitMonitor = 3
  /**
   * `--strict`: the program ended as the reference backends would exit 0, but
   * the end-of-run report found failures nobody read or processes still waiting.
   */
  final val ExitStrict = 4

  /** How a program ended. `testResult` is the value of `testresult` if the main block declares it. */
  final case class Outcome(status: Int, testResult: Option[Boolean], failure: Option[String])

  /**
   * The main block of a program without `testresult`. Outside absc, a failure exits the JVM.
   * `monitor`: the HOCON text of a monitor pipeline (programs compiled with `--monitor`), or null.
   */
  def runMain(args: Array[String], main: CogRuntime => Proc[Unit], monitor: String = null): Unit =
    if (!captured(main)) finish(inContext(args, main)(withModelApi(execute(main, isTest = false, monitor, _))))

  /** The main block of a program that declares `Bool testresult`; the Proc yields its final value. */
  def runTest(args: Array[String], main: CogRuntime => Proc[Boolean], monitor: String = null): Unit =
    if (!captured(main)) finish(inContext(args, main)(withModelApi(execute(main, isTest = true, monitor, _))))

  // ------------------------------------------------------------------ the program context

  /**
   * The context of the run this thread runs (see [[RunContext]]): made by [[inContext]] for each
   * run, attached to its runtime before the first object, and kept here for the runner's own code
   * (flushing the run's output before a report), which runs outside every process.
   */
  private[this] val running = new ThreadLocal[RunContext]

  /**
   * Runs `body` in a new context. Its options: the session's (inside absc, which built them from
   * its command line; `args` are then the program's own), or, for a program on its own, its
   * command line ([[ProgramCommandLine]]). A bad command line ends
   * the run before it starts (status 2), `--help` too (status 0).
   */
  private def inContext(args: Array[String], main: AnyRef)(body: => Outcome): Outcome = {
    val s = session.get()
    if (s ne null) inContext(new RunContext(s.output, s.options))(body)
    else ProgramCommandLine.parse(args, RunOptions.fromSystemProperties()) match {
      case ProgramCommandLine.Run(o, _) => inContext(new RunContext(Out.stdout, o))(body)
      case ProgramCommandLine.Help =>
        System.out.print(ProgramCommandLine.usage(programName(main)))
        Outcome(ExitOk, None, None)
      case ProgramCommandLine.Bad(problem) =>
        val name = programName(main)
        err.println(s"$name: $problem (see '$name --help')")
        Outcome(ExitUsage, None, Some(problem))
    }
  }

  /**
   * How the user started this program, for its messages: the name its package's launcher gives
   * (`cogs.absc.program`), or `java -jar JAR` / `java MAIN` as the JVM was started (HotSpot's
   * `sun.java.command`).
   */
  private def programName(main: AnyRef): String =
    Option(System.getProperty(RunOptions.ProgramProperty)).map(_.trim).filter(_.nonEmpty).getOrElse {
      Option(System.getProperty("sun.java.command")).flatMap(_.trim.split("\\s+").headOption).filter(_.nonEmpty) match {
        case Some(jar) if jar.endsWith(".jar") => s"java -jar ${java.nio.file.Paths.get(jar).getFileName}"
        case Some(cls) => s"java $cls"
        case None => main.getClass.getName.takeWhile(_ != '$')
      }
    }

  /** The options of the run this thread runs. */
  private def options: RunOptions = { val c = running.get(); if (c ne null) c.options else RunContext.outside.options }

  private def inContext[A](c: RunContext)(body: => A): A = {
    val previous = running.get()
    running.set(c)
    try body
    finally running.set(previous)
  }

  /** The run's output: where the program's text goes, flushed before every report on standard error. */
  private def output: Output = { val c = running.get(); if (c ne null) c.output else Out.stdout }

  /** `rt`, with this thread's run context attached (before any object exists on it). */
  private def attached(rt: CogRuntime): CogRuntime = { rt.context = running.get(); rt }

  // ------------------------------------------------------------------ the Model API

  /** The Model API's options of a run: a port, and what it serves. */
  private[run] final case class ModelApiOptions(port: Int, indexFile: Option[java.nio.file.Path], urlPrefix: String = "/",
      staticDir: Option[java.nio.file.Path] = None)

  /** The Model API's options of `o`, checked ([[OptionChecks.modelApi]]: a page or directory without a port, one that is not there). */
  private[run] def modelApiOptions(o: RunOptions): Either[String, Option[ModelApiOptions]] = {
    val file = o.indexFile.map(_.toAbsolutePath.normalize())
    val dir = o.staticDir.map(_.toAbsolutePath.normalize())
    OptionChecks.modelApi(o.port, file, dir, o.urlPrefix).toLeft(
      o.port.map(n => ModelApiOptions(n, file, ModelApi.normalizePrefix(o.urlPrefix.getOrElse("/")), dir)))
  }

  /** Runs `body`, which runs the program, under the Model API if the options ask for it. */
  private def withModelApi(body: Option[CogRuntime => ModelApi] => Outcome): Outcome = {
    // The [HTTPName] objects are the run's (RunContext.httpObjects): a run after another in this
    // JVM starts with an empty table.
    val context = running.get()
    modelApiOptions(context.options) match {
      case Left(problem) =>
        err.println(s"absc: $problem")
        Outcome(ExitUsage, None, Some(problem))
      case Right(None) => body(None)
      case Right(Some(o)) =>
        // The server is a module of its own, on the class path only when a run may serve it: asked
        // for before anything runs, so that a program without it fails at once and says why.
        val loader = Option(Thread.currentThread().getContextClassLoader).getOrElse(getClass.getClassLoader)
        ModelApi.provider(loader) match {
          case Left(why) =>
            err.println(s"absc: $why")
            Outcome(ExitUsage, None, Some(why))
          case Right(provider) => serving(provider, o, context, body)
        }
    }
  }

  /** Runs `body` with the Model API of `provider` started on the run's runtime, and stopped after. */
  private def serving(provider: ModelApi.Provider, o: ModelApiOptions, context: RunContext,
      body: Option[CogRuntime => ModelApi] => Outcome): Outcome = {
    @volatile var server: ModelApi = null
    // Started with the runtime, before the main block, so that its objects can be queried while it runs.
    val started = (rt: CogRuntime) => {
      server = provider.start(rt, context.httpObjects, o.port, o.indexFile, o.urlPrefix, o.staticDir)
      err.println(s"absc: the Model API listens at ${server.url} (stop the model with Ctrl-C or ${server.url}quit)")
      err.flush()
      server
    }
    try body(Some(started))
    finally if (server ne null) server.stop()
  }

  // ------------------------------------------------------------------ in-process runs (absc run/test)

  /**
   * Set by the driver around a call of the generated `main`, on the calling thread. The generated
   * classes are loaded by a child of absc's class loader, so they see this very object.
   */
  private[absc] final class Session(val verbose: Boolean, val err: PrintStream, val output: Output = Out.stdout,
      val options: RunOptions = RunOptions.fromSystemProperties()) {
    @volatile var outcome: Outcome = _
    // The run's runtime once made, and whether the driver stopped the run; under this object's lock.
    private[this] var runtime: CogRuntime = _
    private[this] var stopped = false

    /** The runner made `rt` for the run; if the driver already stopped the run, it is stopped now. */
    private[run] def started(rt: CogRuntime): Unit = {
      val stopNow = synchronized { runtime = rt; stopped }
      if (stopNow) rt.stop()
    }

    /** True once [[stop]] was called. */
    def wasStopped: Boolean = synchronized(stopped)

    /**
     * Give up on the run (`absc test --timeout`): its output takes nothing more (what it printed
     * so far is flushed first; standard output is only flushed), and its runtime is stopped (`CogRuntime.stop`: the workers are interrupted, a
     * process spinning in a loop of generated code ends at the loop's check point). True if every
     * worker ended within `cogs.shutdown-timeout`; a process in code without a check point (a
     * foreign class, a library call that never returns) keeps its worker. The runner's own thread
     * then returns soon after (its `rt.run` is woken).
     */
    def stop(): Boolean = {
      val rt = synchronized { stopped = true; runtime }
      if (output eq Out.stdout) output.flush() else output.close()
      if (rt ne null) rt.stop() else true
    }
    /**
     * Set by `absc explore` before it calls the generated `main`: the runner then only hands over
     * the main block (into [[mainBlock]]) and runs nothing; the explorer runs it once per schedule.
     */
    @volatile var captureMain: Boolean = false
    @volatile var mainBlock: CogRuntime => Proc[Any] = _
  }

  /** The session asks for the main block only (`absc explore`): keep it, true. */
  private def captured(main: CogRuntime => Proc[Any]): Boolean = {
    val s = session.get()
    if ((s ne null) && s.captureMain) { s.mainBlock = main; true } else false
  }

  private[this] val session = new ThreadLocal[Session]

  private[absc] def withSession[A](s: Session)(body: => A): A = {
    val previous = session.get()
    session.set(s)
    try body
    finally session.set(previous)
  }

  // ------------------------------------------------------------------ the run itself

  private def verbose: Boolean = {
    val s = session.get()
    if (s ne null) s.verbose else Option(System.getProperty("cogs.absc.verbose")).exists(_.trim.equalsIgnoreCase("true"))
  }

  private def err: PrintStream = {
    val s = session.get()
    if (s ne null) s.err else System.err
  }

  // The runtime logs a fatal error with its stack trace, for the users of the library; a run of an
  // ABS program reports it itself, as one paragraph (the log comes back with -v). Silenced through
  // the runtime, not by setting a java.util.logging level: that would start java.util.logging on
  // every run (tens of milliseconds) for a log that a normal run never writes.
  private def execute[A](main: CogRuntime => Proc[A], isTest: Boolean, monitor: String,
      modelApi: Option[CogRuntime => ModelApi]): Outcome = {
    CogRuntime.logSilenced = !verbose
    executeWith(main, isTest, monitor, modelApi)
  }

  private def executeWith[A](main: CogRuntime => Proc[A], isTest: Boolean, monitor: String,
      modelApi: Option[CogRuntime => ModelApi]): Outcome =
    if (monitor eq null) executeOn(attached(options.runtimeConfig.fold(CogRuntime())(CogRuntime(_))), main, isTest, modelApi)
    else {
      val loader = Option(Thread.currentThread().getContextClassLoader).getOrElse(getClass.getClassLoader)
      // The pipeline is a module of its own (cogs-abs-monitoring), asked for before anything runs.
      val started = MonitoredRun.provider(loader) match {
        case Left(why) => Left(Left(why))
        case Right(p) =>
          try Right(p.start(monitor, loader, running.get()))
          catch { case e: Exception => Left(Right(e)) }
      }
      started match {
        case Left(Left(why)) =>
          err.println(s"absc: $why")
          Outcome(ExitUsage, None, Some(why))
        case Left(Right(e)) =>
          // A bad configuration or a monitor class that is not there: the user's input, not the program.
          err.println(s"absc: the monitor pipeline could not be started: ${Option(e.getMessage).getOrElse(e.toString)}")
          if (String.valueOf(e.getMessage).contains("not found"))
            err.println("absc: (monitor classes are compiled from the .scala FILEs given with the model)")
          if (verbose) e.printStackTrace(err)
          Outcome(ExitUsage, None, Some("the monitor pipeline could not be started"))
        case Right(m) =>
          val outcome = executeOn(m.runtime, main, isTest, modelApi, monitored = true)
          // The program's runtime is closed: every event has been emitted. Now the verdicts.
          val verdict = m.finish(err)
          if (verdict.violated) outcome.copy(status = ExitMonitor, failure = outcome.failure.orElse(Some(verdict.headline)))
          else outcome
      }
    }

  private def executeOn[A](given: CogRuntime, main: CogRuntime => Proc[A], isTest: Boolean,
      modelApi: Option[CogRuntime => ModelApi], monitored: Boolean = false): Outcome = {
    var rt = given
    var controlled: Option[(ControlledRun, Vector[String])] = None
    val schedule =
      try {
        val m = ScheduleFile.fromOptions(options)
        m match {
          // A witness of absc explore, replayed step by step on one thread (not under a monitor or the Model API).
          case ScheduleFile.StepReplay(_, steps, _, _, _) if !monitored && modelApi.isEmpty =>
            given.close()
            val c = new ControlledRun
            rt = attached(c.runtime)
            controlled = Some((c, steps))
          case _ =>
        }
        ScheduleFile.install(m, rt, main.getClass, controlled.isDefined)
      } catch {
        case e: ScheduleFile.BadSchedule =>
          rt.close()
          err.println(s"absc: ${e.getMessage}")
          return Outcome(ExitUsage, None, Some(e.getMessage))
      }
    // absc test gives up on the run from another thread: it stops this runtime.
    val s = session.get()
    if (s ne null) s.started(rt)
    // On the runtime that runs the program (a step replay's controlled run replaced the given one).
    val out = output
    rt.stuckReporter = stuckReporter(err, verbose, main.getClass.getClassLoader, out)
    // What the main block printed reaches a pipe before it waits (Out's comment).
    rt.mainBlockSuspends = () => out.flush()
    val api =
      try modelApi.map(start => start(rt))
      catch {
        case e: java.io.IOException =>
          rt.close()
          err.println(s"absc: the Model API cannot listen on the port asked for: $e")
          return Outcome(ExitUsage, None, Some("the Model API cannot listen on the port asked for"))
      }
    // Deployment components mapped to cluster nodes (cogs.distributed.deployment): join the
    // cluster before the main block; nothing is loaded when the configuration maps none, and
    // Config itself only when something could map one (RemotePlacement.mayBeConfigured).
    val placement =
      try {
        val loader = main.getClass.getClassLoader
        // What ConfigFactory.load() reads: the context class loader's resources.
        val configLoader = Option(Thread.currentThread().getContextClassLoader).getOrElse(loader)
        if (!RemotePlacement.mayBeConfigured(configLoader)) None
        else RemotePlacement.startIfConfigured(rt, com.typesafe.config.ConfigFactory.load(), loader)
      }
      catch {
        case e: Exception =>
          api.foreach(_.stop())
          rt.close()
          err.println(s"absc: deployment components cannot be placed on cluster nodes: ${Option(e.getMessage).getOrElse(e.toString)}")
          if (verbose) e.printStackTrace(err)
          return Outcome(ExitFailure, None, Some("deployment components cannot be placed on cluster nodes"))
      }
    // A recorded run serves its recording so far as the Erlang backend's /trace.
    schedule match {
      case r: ScheduleFile.Record => api.foreach(_.serveTrace(() => r.trace.events))
      case _ =>
    }
    val diverged = () => ScheduleFile.divergence(schedule)
    var stillRunning = false
    val lastResort = new LastResort(() => fatal(rt, "", None), standalone = session.get() eq null)
    rt.fatalErrorHook = lastResort.wake
    try {
      val outcome = api match {
        case None => runMainBlock(rt, main, isTest, controlled, diverged = diverged, lastResort = lastResort)
        case Some(server) =>
          val (o, running) = serveUntilQuit(server, rt, main, isTest, diverged)
          stillRunning = running
          o
      }
      // A model stopped by /quit in the middle of its work has nothing left behind worth reporting.
      if (stillRunning) outcome else endOfRun(rt, outcome, main)
    } catch {
      // After a fatal error, the report itself ran out of memory (the heap is still full of what
      // the program made): LastResort's text, written without allocating.
      case _: VirtualMachineError if lastResort.woken => lastResort.reportLost(); LostReport
    } finally {
      try {
        flushOutput()
        placement.foreach(RemotePlacement.stop(rt, _))
        // A model stopped by /quit while a process still ran without suspending: its workers cannot be
        // stopped from here, and a close would wait for them (cogs.shutdown-timeout). They are daemon
        // threads: the JVM ends without them (absc exits, a standalone program returns from main).
        if (!stillRunning) rt.close()
        try ScheduleFile.finish(schedule)
        catch { case e: java.io.IOException => err.println(s"absc: the schedule could not be written: $e") }
      } catch {
        // Out of memory again after a fatal error, with the report written: what is left undone
        // ends with the JVM, and the error must not reach `main` (an uncaught error is a stack trace).
        case _: VirtualMachineError if lastResort.woken =>
      }
      lastResort.done()
    }
  }

  /**
   * With the Model API: the main block runs on a thread of its own, and this one waits for
   * `/quit`, which ends the model whatever it is doing: after the main block (the model kept
   * serving), or during it (a simulation still running: the clock is stopped where it is, so the
   * runtime comes to rest; a process that never suspends is left to the daemon threads). The
   * outcome, and true if the model was still running when it was left.
   */
  private def serveUntilQuit[A](server: ModelApi, rt: CogRuntime, main: CogRuntime => Proc[A],
      isTest: Boolean, diverged: () => Option[String]): (Outcome, Boolean) = {
    @volatile var outcome: Outcome = null
    val ended = new java.util.concurrent.CountDownLatch(1)
    val s = session.get()
    val c = running.get()
    val runner = new Thread(() => {
      try outcome = withSession(s)(inContext(c)(runMainBlock(rt, main, isTest, None, server, diverged)))
      finally {
        // The main block's output is out before the model goes on serving.
        flushOutput()
        err.flush()
        ended.countDown()
      }
    }, "absc-main-block")
    runner.setDaemon(true)
    runner.setContextClassLoader(Thread.currentThread().getContextClassLoader)
    runner.start()
    server.awaitQuit()
    if (ended.getCount > 0) {
      // Stop the simulation at the time it reached: the clock advances no more, the runtime rests.
      rt.limitClock(rt.now)
      ended.await(QuitGrace.toMillis, java.util.concurrent.TimeUnit.MILLISECONDS)
    }
    val left = ended.getCount > 0
    flushOutput()
    err.println(s"absc: the model stopped at the request of ${server.url}quit (simulated time ${rt.now})" +
      (if (left) "; a process was still running without suspending" else ""))
    err.flush()
    (if (left || (outcome eq null)) Outcome(ExitOk, None, None) else outcome, left)
  }

  /** How long `/quit` waits for a model whose clock it stopped to come to rest. */
  private val QuitGrace = java.time.Duration.ofSeconds(2)

  /**
   * The main block, and how it ended. `diverged`: a checked replay that diverged from its
   * recording, which is then the outcome (exit status 2) whatever the run did after the divergence
   * (a deadlock of the COGs waiting for the diverged one, a result the recorded run did not give).
   */
  /** In the main block's process, before the block: with session protocols, its object takes the roles bound to `main`. */
  private def mainBlockStarted(): Unit = {
    val s = RunContext.current.sessions
    if (s ne null) s.mainBlockStarted()
    val p = RunContext.current.placement
    if (p ne null) p.mainBlockStarted()
  }

  private def runMainBlock[A](rt: CogRuntime, main: CogRuntime => Proc[A], isTest: Boolean,
      controlled: Option[(ControlledRun, Vector[String])], server: ModelApi = null,
      diverged: () => Option[String] = () => None, lastResort: LastResort = null): Outcome = {
    val limit = clockLimit()
    // Stopped by /quit (which stops the clock): no clock limit to speak of.
    def quitting = (server ne null) && server.quitRequested
    val ran =
      try {
        limit.foreach(rt.limitClock)
        Right(controlled match {
          case None => rt.run { mainBlockStarted(); main(rt) }
          case Some((c, steps)) => runSteps(c, steps) { mainBlockStarted(); main(rt) }
        })
      } catch { case e: Throwable => Left(e) }
    diverged() match {
      case Some(d) =>
        flushOutput()
        err.println(s"absc: $d")
        return Outcome(ExitUsage, None, Some(d))
      case None =>
    }
    try {
      val result = ran.fold(e => throw e, identity)
      flushOutput()
      if (rt.clockLimitReached && !quitting) err.println(s"absc: the simulation stopped at the clock limit ${rt.clockLimit.getOrElse(limit.get)} (time ${rt.now})")
      val test = if (isTest) Some(result == true) else None
      Outcome(ExitOk, test, None)
    } catch {
      case _: DeadlockException if quitting =>
        Outcome(ExitOk, None, None)
      case e: DeadlockException if rt.clockLimitReached =>
        // Not a deadlock: the main block waits for something the simulation did not reach.
        flushOutput()
        err.println(s"absc: the simulation stopped at the clock limit ${rt.clockLimit.getOrElse(limit.get)} (time ${rt.now}) before the main block finished" +
          (if (server ne null) s"; ${server.url}clock/advance?by=N lets it go on" else ""))
        if (verbose) err.println(e.getMessage)
        Outcome(ExitOk, None, None)
      case e: DeadlockException =>
        // The failures nobody read come first, named the ABS way (the runtime's lines name them the Java way).
        val (failed, notKept) = rt.takeUnobservedFailures()
        val lines = failed.map(describeFailure(_, main)) ++ notKeptLine(notKept)
        fail(new DeadlockException(e.waiting, lines).getMessage, e)
      case e: CallFailedException =>
        val cause = if (e.getCause ne null) e.getCause else e
        fail(s"${describeOrigin(e.origin)} failed${jvmErrorAt(cause, main)}: ${describe(cause)}", cause)
      case e: ScheduleFile.BadSchedule =>
        err.println(s"absc: ${e.getMessage}")
        Outcome(ExitUsage, None, Some(e.getMessage))
      case _: Throwable if stoppedBySession =>
        // absc test gave up on the run and stopped it: the driver says so, nothing to add here.
        Outcome(ExitFailure, None, Some("stopped"))
      case e: InterruptedException =>
        Thread.currentThread().interrupt()
        fail("interrupted", e)
      case e: Throwable if rt.haltReport.isDefined =>
        // The runtime halted after a fatal error of the JVM in a process (cogs.on-fatal-error).
        val cause = if (e.getCause ne null) e.getCause else e
        if (lastResort ne null) lastResort.forReport()
        fail(fatal(rt, creating(cause) + jvmErrorAt(cause, main), Some(cause.toString)), e)
      case e: Throwable =>
        // Not from the program's processes: creating the runtime, a bug in the runtime or here.
        fail(s"the program could not be run: ${describe(e)}", e)
    }
  }

  // ------------------------------------------------------------------ the end-of-run report

  /**
   * What the run left that nobody saw, on standard error after the program's output (issue 28):
   * the processes that failed and whose future nobody read (`o!m();` to a method that threw, a
   * future never `get` or awaited with a value), each with its object, method and exception
   * (ABS exceptions with their position where they carry one), then the processes still waiting
   * (each with what it waits for). The exit status stays what the reference backends give (0 for
   * a main block that ended) unless `--strict` asks for [[ExitStrict]];
   * `--no-end-report` leaves the report out. After a deadlock the
   * waiting processes and failures were already reported; after a halt the runtime's state is not
   * to be trusted, so nothing is added. Not with a clock limit: processes waiting for time are why
   * it stopped (failures are still listed).
   */
  private def endOfRun[A](rt: CogRuntime, outcome: Outcome, main: CogRuntime => Proc[A]): Outcome = {
    if (rt.haltReport.isDefined || outcome.status == ExitUsage) return outcome
    val (failed, notKept) = rt.takeUnobservedFailures()
    val deadlocked = outcome.failure.exists(_.startsWith("deadlock"))
    val waiting = if (deadlocked || rt.clockLimitReached || !rt.isQuiescent) Nil else rt.deadlockReport()
    if (failed.isEmpty && notKept == 0 && waiting.isEmpty) return outcome
    if (options.endReport) {
      flushOutput()
      val out = err
      if (failed.nonEmpty || notKept > 0) {
        out.println(s"absc: ${count(failed.size, "process")} failed and nobody read the failure:")
        (failed.map(describeFailure(_, main)) ++ notKeptLine(notKept)).foreach(l => out.println(s"  $l"))
      }
      if (waiting.nonEmpty) {
        out.println(s"absc: the program ended with ${count(waiting.size, "process")} still waiting:")
        waiting.foreach(l => out.println(s"  $l"))
      }
      if (outcome.status == ExitOk && !strict)
        out.println("absc: (the exit status stays 0, as the reference backends give it; --strict makes it 4, --no-end-report leaves this report out)")
      out.flush()
    }
    if (outcome.status == ExitOk && strict) {
      val what = if (failed.nonEmpty || notKept > 0) s"${count(failed.size + notKept.toInt, "process")} failed unobserved" else s"${count(waiting.size, "process")} still waiting"
      outcome.copy(status = ExitStrict, failure = Some(s"--strict: $what"))
    } else outcome
  }

  private def stoppedBySession: Boolean = { val s = session.get(); (s ne null) && s.wasStopped }

  private def strict: Boolean = options.strict

  private def count(n: Int, what: String): String = if (n == 1) s"1 $what" else s"$n ${what}es"

  private def notKeptLine(notKept: Long): List[String] =
    if (notKept == 0) Nil else List(s"($notKept more failed processes were not kept: their failures may or may not have been read)")

  /** A failed process as a modeller reads it: object and method, the ABS exception, its line. */
  private def describeFailure[A](f: (String, Throwable, Boolean), main: CogRuntime => Proc[A]): String = {
    val (origin, error, oneWay) = f
    val cause = error match { case c: CallFailedException if c.getCause ne null => c.getCause; case e => e }
    s"${describeOrigin(origin)} failed${jvmErrorAt(cause, main)}: ${describe(cause)}" +
      (if (oneWay) " (its future was not kept)" else "")
  }

  /**
   * `rt.run(main)` on a controlled run that takes the recorded `steps` (`COG/call` each), then
   * the first enabled step at each point until quiescence. Throws as `CogRuntime.run` does; a
   * step that is not enabled when its turn comes is a schedule of another program.
   */
  private def runSteps[A](c: ControlledRun, steps: Vector[String])(main: => Proc[A]): A = {
    val fut = c.start(main)
    var i = 0
    var enabled = c.enabled()
    while (!enabled.isEmpty) {
      var pick = 0
      if (i < steps.length) {
        while (pick < enabled.size && enabled.get(pick).key != steps(i)) pick += 1
        if (pick == enabled.size)
          throw new ScheduleFile.BadSchedule(s"the replayed schedule runs ${steps(i)} at step ${i + 1}, which is not enabled there " +
            s"(enabled: ${(0 until enabled.size).map(enabled.get(_).key).mkString(", ")}): the program is not the one explored")
        i += 1
      }
      c.step(enabled.get(pick))
      enabled = c.enabled()
    }
    fut.poll match {
      case Some(scala.util.Failure(e)) => throw e
      case Some(scala.util.Success(v)) => v
      case None => throw new DeadlockException(c.waiting)
    }
  }

  /**
   * The watchdog's report (`cogs.watchdog.stuck-after`) in ABS terms: a warning on standard error
   * naming the method and the ABS lines the stack shows (innermost first); the JVM stack with -v.
   * Captures the session's stream and flags: it is called on the watchdog's thread.
   */
  private def stuckReporter(out: PrintStream, verbose: Boolean, loader: ClassLoader, programOut: Output): cogs.runtime.StuckProcess => Unit = s => {
    val lines =
      try AbsLines.ofStack(s.stack, loader)
      catch { case _: Exception => Nil } // only the location is lost
    val at = lines match {
      case Nil => ""
      case here :: Nil => s" at $here"
      case here :: callers => s" at $here (called from ${callers.mkString(", ")})"
    }
    val b = new StringBuilder(
      s"absc: warning: ${describeOrigin(s.describe)} has run for ${s.ranForMillis / 1000.0} s without reaching a " +
        s"scheduling point (await, get, suspend or the end of the method)$at; until it does, it holds one of the " +
        "runtime's worker threads, and no other object can use that thread")
    if (verbose) s.stack.foreach(f => b ++= "\n\tat " ++= f.toString)
    programOut.flush() // what the program printed so far comes before the warning
    out.println(b.result())
    out.flush()
  }

  /** What a run whose report ran out of memory returns (LastResort wrote the text). */
  private val LostReport = Outcome(ExitFailure, None, Some("the program ran out of memory"))

  /** The run's clock limit (`absc run -l T`, a program's `--clock-limit T`): checked by whoever built the options. */
  private def clockLimit(): Option[cogs.runtime.SimTime] =
    options.clockLimit.map(_.trim).filter(_.nonEmpty).map(OptionChecks.clockLimitTime)

  /** A fatal error of the JVM as a modeller can act on it: where it happened, and what to raise. */
  private def fatal(rt: CogRuntime, at: String, error: Option[String]): String = {
    // Without a failed process (the error met the scheduler, or there was no memory to record the
    // failure): the error itself, not the halt's report, which lists processes left waiting.
    val (where, what) = rt.firstFailure.map { f =>
      val i = f.indexOf(" failed: ")
      if (i < 0) ("the program", f) else (describeOrigin(f.substring(0, i)), f.substring(i + " failed: ".length))
    }.getOrElse(("the program", error.getOrElse("java.lang.OutOfMemoryError")))
    if (what.contains("OutOfMemoryError"))
      s"$where ran out of memory$at ($what); give the JVM more heap, e.g. JAVA_OPTS=-Xmx4g"
    else s"$where failed with a fatal error of the JVM$at ($what); the run was stopped"
  }

  /**
   * ` at file.abs:line` for an error the JVM raised in the model's code (a stack overflow, out of
   * memory), which has no ABS position of its own; empty for everything else (ABS exceptions and
   * the library's failures name their call site in their message). `main` is the generated code's
   * entry: its class loader has the line tables.
   */
  private def jvmErrorAt(t: Throwable, main: AnyRef): String = t match {
    case _: VirtualMachineError =>
      try AbsLines.of(t, main.getClass.getClassLoader).fold("")(" at " + _)
      catch { case _: Exception | _: VirtualMachineError => "" } // only the location is lost
    case _ => ""
  }

  /**
   * ` while creating a COG` (an object, a process, a future, a list) for running out of memory,
   * from the innermost constructor on the error's stack; empty when the JVM gave the error no stack
   * (it preallocates a few with one) or no constructor is on it.
   */
  private def creating(t: Throwable): String = t match {
    case _: OutOfMemoryError =>
      try t.getStackTrace.iterator.filter(_.getMethodName == "<init>").map(f => created(f.getClassName))
        .collectFirst { case Some(what) => s" while creating $what" }.getOrElse("")
      catch { case _: Exception | _: VirtualMachineError => "" }
    case _ => ""
  }

  private def created(cls: String): Option[String] = cls match {
    case "cogs.runtime.Cog" | "cogs.runtime.CogCore" => Some("a COG")
    case "cogs.runtime.Process" | "cogs.runtime.ProcessCore" => Some("a process (an asynchronous call)")
    case "cogs.runtime.Fut" | "cogs.runtime.FutCore" => Some("a future")
    case "scala.collection.immutable.$colon$colon" => Some("a list")
    case c if c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("scala.") || c.startsWith("cogs.") => None
    case c => Some(s"an object of class ${c.substring(c.lastIndexOf('.') + 1)}")
  }

  /** What a modeller can do about a failure, if there is something: the JVM settings that limit it. */
  private def hint(cause: Throwable): Option[String] = AbsException.lift(cause) match {
    case StackOverflowException | _: StackOverflowException =>
      Some("ABS functions and methods that cannot suspend recurse on the JVM stack; give threads a larger one, e.g. JAVA_OPTS=-Xss1g")
    case HeapOverflowException | _: HeapOverflowException =>
      Some("give the JVM more heap, e.g. JAVA_OPTS=-Xmx4g")
    case _ => None
  }

  private def fail(message: String, cause: Throwable): Outcome = {
    flushOutput() // what the program printed comes before the report
    val out = err
    out.println(s"absc: $message")
    hint(cause).foreach(h => out.println(s"absc: $h"))
    if (verbose) cause.printStackTrace(out)
    out.flush()
    Outcome(ExitFailure, None, Some(firstLine(message)))
  }

  private def finish(outcome: Outcome): Unit = {
    val s = session.get()
    if (s ne null) s.outcome = outcome
    else {
      flushOutput()
      System.err.flush()
      writeTestResult(outcome)
      if (outcome.status != ExitOk) System.exit(outcome.status)
      // Status 0: return from main normally; the runtime's threads are daemons.
    }
  }

  /**
   * The system property by which `absc test --nodes` learns a test's `testresult` from the main
   * node's JVM: the file it names gets `True` or `False` when the main block declares one and the
   * program ended normally (nothing otherwise, so a missing file is a failed or cut-off run).
   */
  private[absc] final val TestResultFileProperty = "cogs.absc.testresult-file"

  private def writeTestResult(outcome: Outcome): Unit =
    for (f <- Option(System.getProperty(TestResultFileProperty)); r <- outcome.testResult if outcome.status == ExitOk)
      try java.nio.file.Files.writeString(java.nio.file.Paths.get(f), if (r) "True" else "False")
      catch { case e: java.io.IOException => err.println(s"absc: cannot write the test result to $f: $e") }

  private def flushOutput(): Unit = {
    output.flush()
    System.out.flush()
  }

  /** `main.main` is how the runtime names the main block's process. */
  private[absc] def describeOrigin(origin: String): String =
    if (origin == "main.main" || origin == null) "the main block"
    else origin.replace("(via main.main)", "(via the main block)")

  /**
   * An exception as an ABS modeller knows it: ABS exceptions by their ABS value (`getMessage` is
   * the ABS `toString` plus a detail), JVM errors by the ABS exception they stand for
   * (`AbsException.lift`), anything else by its class and message.
   */
  private[absc] def describe(t: Throwable): String = AbsException.lift(t) match {
    case _: AbsException if t.isInstanceOf[CreationFailed] || t.isInstanceOf[ThrownAt] => s"uncaught exception ${t.getMessage}"
    case e: AbsException => s"uncaught exception ${e.getMessage}"
    case q: cogs.absc.lib.SqliteQueryFailed => q.getMessage
    case f: cogs.absc.lib.BuiltinFailed => f.getMessage
    case other =>
      val m = other.getMessage
      val name = other.getClass.getName
      s"uncaught exception $name" + (if (m == null || m.isEmpty) "" else s": $m")
  }

  /** The first line, without a colon that introduced the next ones. */
  private def firstLine(s: String): String = {
    val i = s.indexOf('\n')
    if (i < 0) s else s.substring(0, i).stripSuffix(":")
  }
}
