package cogs.absc.driver

/**
 * What the command line says about the program itself: which module's main block runs
 * (`--main-module`; `mainModuleOption` says whether the command offers that option, for the
 * hint when a choice is needed), how many worker threads its runtime has (`--workers`), and
 * whether the run records its scheduling decisions into a file or replays them from one
 * (`--record`, `--replay`; see cogs.absc.run.ScheduleFile), where Timed ABS's simulated clock
 * stops (`--clock-limit`), whether it serves the Model API (`--port`,
 * `--modelapi-index-file`; see cogs.absc.modelapi), which product of a product line is built
 * (`-p`; None: the core; see cogs.absc.spl.Flatten), and what the end-of-run report does
 * (`--strict`: a non-zero status when it finds something; `--no-end-report`: no report).
 */
final case class ProgramOptions(mainModule: Option[String] = None, workers: Option[Int] = None,
    mainModuleOption: Boolean = false, record: Option[String] = None, replay: Option[String] = None,
    clockLimit: Option[String] = None, port: Option[Int] = None, modelApiIndexFile: Option[String] = None,
    product: Option[String] = None, strict: Boolean = false, endReport: Boolean = true,
    urlPrefix: Option[String] = None, modelApiStaticDir: Option[String] = None, recordFormat: Option[String] = None,
    foreign: Map[String, String] = Map.empty, classpath: List[String] = Nil)
