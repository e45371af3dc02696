package cogs.absc.run

import java.nio.file.Path

/**
 * The options of one run of a compiled ABS program, as a value: the driver (`absc run`, `absc
 * test`) builds one from its command line and hands it to the runner with the run
 * ([[ProgramRunner.Session]]); a program started on its own (its package's launcher, `java -jar`,
 * `java -cp`) builds one from its command line ([[ProgramCommandLine]]), over what
 * [[RunOptions.fromSystemProperties]] reads. The runner keeps it in the run's [[RunContext]]: nothing of it
 * lives in a JVM-wide static, so two runs in one JVM with different options share nothing.
 *
 *  - `workers`: the runtime's worker threads (`--workers N`; None: one per processor, or what
 *    `cogs.executor.parallelism` says);
 *  - `record`, `recordFormat`, `replay`: the schedule file of the run ([[ScheduleFile]]);
 *  - `clockLimit`: where Timed ABS's clock stops (`--clock-limit T`: `n` or `n/d`);
 *  - `port`, `indexFile`, `urlPrefix`, `staticDir`: the Model API's;
 *  - `strict`, `endReport`: what the end-of-run report does;
 *  - `seed`: the seed of `random` (`cogs.absc.seed`);
 *  - `foreign`: the `[Foreign]` bindings, ABS class (`Module.Class`) to Java class.
 *
 * Relative file names are resolved by whoever builds the value (the driver against its client's
 * directory, a standalone program against its own).
 */
final case class RunOptions(workers: Option[Int] = None, record: Option[Path] = None, recordFormat: Option[String] = None,
    replay: Option[Path] = None, clockLimit: Option[String] = None, port: Option[Int] = None,
    indexFile: Option[Path] = None, urlPrefix: Option[String] = None, staticDir: Option[Path] = None,
    strict: Boolean = false, endReport: Boolean = true, seed: Option[Long] = None,
    foreign: Map[String, String] = Map.empty) {

  /** The runtime's configuration when these options change it (`workers`); None: the runtime's own. */
  private[absc] def runtimeConfig: Option[com.typesafe.config.Config] = workers.map(WorkersConfig(_))
}

/**
 * The configuration of a run that sets its workers. An object of its own so that loading (and
 * verifying) `RunOptions` loads no Typesafe Config class: a plain run reads no configuration
 * (`DeploymentProbeColdTest`), and the verifier loads `Config` and `ConfigMergeable` to check a
 * `withFallback` call in whatever class holds it.
 */
private[run] object WorkersConfig {
  def apply(n: Int): com.typesafe.config.Config =
    com.typesafe.config.ConfigFactory.parseString(s"cogs.executor.parallelism = $n")
      .withFallback(com.typesafe.config.ConfigFactory.load())
}

object RunOptions {

  /**
   * What a program on its own takes from system properties: the runtime's worker threads (its own
   * configuration key, `cogs.executor.parallelism`), the seed of `random` (`cogs.absc.seed`) and
   * the `--foreign` bindings `absc package` writes into its launcher. The run's options come from
   * its command line ([[ProgramCommandLine]]), not from properties. `System.getProperty`, not
   * `sys.props`: see [[ProgramRunner]] on start-up cost.
   */
  def fromSystemProperties(): RunOptions = {
    def prop(name: String): Option[String] = Option(System.getProperty(name)).map(_.trim).filter(_.nonEmpty)
    val foreign = {
      val b = Map.newBuilder[String, String]
      val names = System.getProperties.stringPropertyNames.iterator
      while (names.hasNext) {
        val n = names.next()
        if (n.startsWith(ForeignPrefix)) prop(n).foreach(v => b += n.substring(ForeignPrefix.length) -> v)
      }
      b.result()
    }
    RunOptions(
      workers = prop("cogs.executor.parallelism").flatMap(_.toIntOption).filter(_ > 0),
      seed = prop("cogs.absc.seed").map(_.toLong),
      foreign = foreign)
  }

  /** The system property that binds ABS class `absClass` to a Java class (see cogs.absc.lib.Foreign). */
  final val ForeignPrefix = "cogs.absc.foreign."

  /** The name a package's launcher gives its program, for the program's messages (see [[ProgramCommandLine]]). */
  final val ProgramProperty = "cogs.absc.program"
}
