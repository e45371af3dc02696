package cogs.absc.run

/**
 * The run options' names, value labels and help texts, written once. absc's commands that run a
 * program (`run`, `test`, ...) and a compiled program's own command line ([[ProgramCommandLine]])
 * offer the same options with the same meaning, checked by the same [[OptionChecks]]; both print
 * these texts. Constants (`final val` without a type), so that absc's picocli annotations can name
 * them.
 */
private[absc] object RunOptionText {
  final val Workers = "--workers"
  final val WorkersLabel = "N"
  final val WorkersHelp = "Worker threads of the program's runtime (cogs.executor.parallelism; default: one per processor)."

  final val ClockLimit = "--clock-limit"
  final val ClockLimitShort = "-l"
  final val ClockLimitLabel = "T"
  final val ClockLimitHelp = "Stop the simulation when the simulated clock would pass T (a whole or rational number, e.g. 100 or 5/2): processes still waiting for time then stay waiting, and the run ends with status 0."

  final val ClusterClock = "--cluster-clock"
  final val ClusterClockHelp = "With --nodes or --node: one simulated clock for all the model's nodes (Timed ABS across nodes; cogs.distributed.cluster-clock = on on every node): time advances only when no node can run and no message is on its way, so every node sees the times one JVM would. Without it each node has its own clock. With --node, give it to every node (or set it in --config's FILE)."

  final val SpreadComponents = "--spread-components"
  final val SpreadComponentsHelp = "With --nodes or --node: every deployment component that --deploy and --config do not map goes to a node, in turn, in the order the model first places an object on it ([DC: dc] new ..): the serving nodes n1, n2, .. first, then main, and round again (the main block already runs on main, so with --nodes local:2 the first component goes to n1, the second to main, the third to n1, ...). A component's objects are all on its node."

  final val Record = "--record"
  final val RecordLabel = "FILE"
  final val RecordHelp = "Record the run's scheduling decisions (and the seed of 'random') into FILE (JSON), to reproduce the run with --replay."
  final val RecordFormat = "--record-format"
  final val RecordFormatLabel = "FORMAT"
  final val RecordFormatHelp = "The format of --record's FILE: 'cogs' (the default; --replay takes it) or 'erlang' (the Erlang backend's trace format, as its /trace gives it, for the tools written for that backend)."
  final val Replay = "--replay"
  final val ReplayLabel = "FILE"
  final val ReplayHelp = "Replay the scheduling decisions recorded in FILE: every COG runs its processes in the recorded order."

  final val Strict = "--strict"
  final val StrictHelp = "Exit with status 4 when the program ended normally but the end-of-run report found processes that failed and whose future nobody read, or processes still waiting (without it the status stays 0, as the reference backends give it)."
  final val NoEndReport = "--no-end-report"
  final val NoEndReportHelp = "Leave out the end-of-run report on stderr (failed processes nobody read, processes still waiting)."

  final val Port = "--port"
  final val PortLabel = "PORT"
  final val PortHelp = "Serve the Model API on PORT of the loopback interface (0: any free port; the URL is printed): objects registered with [HTTPName], their [HTTPCallable] methods, the clock, a chart page. The model then runs until killed or until /quit is requested."
  final val IndexFile = "--modelapi-index-file"
  final val IndexFileLabel = "FILE"
  final val IndexFileHelp = "The Model API's index page (instead of the default chart); files next to it are served below static/."
  final val StaticDir = "--modelapi-static-dir"
  final val StaticDirLabel = "DIR"
  final val StaticDirHelp = "Serve the files of DIR below static/ (e.g. DIR/js/d3.js at static/js/d3.js), as the reference backends' --modelapi-static-dir (here at run time)."
  final val UrlPrefix = "--url-prefix"
  final val UrlPrefixLabel = "PREFIX"
  final val UrlPrefixHelp = "Serve the Model API below PREFIX (e.g. /abcd/5080: the index page at /abcd/5080/, objects at /abcd/5080/o), as the Erlang backend's --url-prefix."
}
