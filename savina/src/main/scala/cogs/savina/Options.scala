package cogs.savina

import java.nio.file.{Path, Paths}

/** The command line of the harness (and, with one benchmark and one runtime, of [[Child]]). */
final case class Options(
    benchmarks: List[Benchmark],
    runtimes: List[String],
    iterations: Int,
    warmup: Int,
    quick: Boolean,
    out: Path,
    threads: Int,
    jvmOpts: List[String],
    timeoutSeconds: Long,
    help: Boolean,
    list: Boolean,
    monitor: Option[Path] = None,
    jvms: Int = 1,
    counters: Boolean = false
)

object Options {

  final class UsageError(message: String) extends RuntimeException(message)

  val DefaultIterations = 10
  val DefaultWarmup = 3
  val QuickIterations = 3
  val QuickWarmup = 1
  val DefaultJvmOpts: List[String] = List("-Xms2g", "-Xmx2g")
  val DefaultTimeoutSeconds = 1800L

  /** Where results go unless `--out` says otherwise: `savina.out` (set by savina/run), else ./target/savina. */
  def defaultOut: Path = Paths.get(Option(System.getProperty("savina.out")).getOrElse("target/savina"))

  val usage: String =
    s"""usage: savina/run [OPTIONS]

Runs Savina benchmarks on Cogs and on Apache Pekko, each benchmark and runtime in a fresh JVM,
checks every answer, and writes results.csv, results.md and ratios.svg.

options:
  --bench a,b,...       benchmarks to run (default: every implemented one; --list shows them)
  --runtimes r,...      runtimes: cogs, pekko (default: both)
  --iterations N        timed iterations per benchmark and runtime (default: $DefaultIterations; with --quick: $QuickIterations)
  --warmup N            untimed iterations before them, in the same JVM (default: $DefaultWarmup; with --quick: $QuickWarmup)
  --quick               the quick parameters (well under a second each) instead of Savina's defaults:
                        a smoke test of every benchmark, not numbers to compare
  --threads N           worker threads of both runtimes (default: available processors, here ${Runtimes.defaultThreads})
  --out DIR             where to write the results (default: savina/target/savina)
  --jvm-opts "..."      options of the child JVMs (default: "${DefaultJvmOpts.mkString(" ")}")
  --timeout SECONDS     kill a child JVM that runs longer (default: $DefaultTimeoutSeconds)
  --monitor FILE        monitor the Cogs runs with the pipeline configured in FILE (HOCON, a cogs.monitor
                        section; see monitor/README.md): a fresh pipeline per iteration, finished inside
                        the timed region, so the times include checking every event; a violation or a
                        trace that is not complete and in order fails the run. Writes monitor.csv too.
  --jvms N              run each benchmark on each runtime in N fresh JVMs (default: 1), round by round
                        (every benchmark and runtime once, then again); the report gives the median of
                        the JVMs' medians and each runtime's spread (slowest JVM's median / fastest's)
  --counters            start the Cogs JVMs with -Dcogs.scheduler.counters=true and report the scheduler's
                        counters per JVM (counters.csv and a table in results.md; see savina/README.md)
  --list                list the benchmarks and their parameters, then exit
  -h, --help            this help

Exit status: 0 when every run gave the right answer, 1 when one did not, 2 on bad options.
Full numbers: savina/run            smoke test: savina/run --quick
One benchmark: savina/run --bench nqueenk --iterations 20 --warmup 5"""

  def parse(args: List[String], child: Boolean = false): Options = {
    var benches: Option[List[Benchmark]] = None
    var runtimes: List[String] = Runtimes.names
    var iterations: Option[Int] = None
    var warmup: Option[Int] = None
    var quick = false
    var out = defaultOut
    var threads = Runtimes.defaultThreads
    var jvmOpts = DefaultJvmOpts
    var timeout = DefaultTimeoutSeconds
    var help = false
    var list = false
    var monitor: Option[Path] = None
    var jvms = 1
    var counters = false

    // Accept both `--opt value` and `--opt=value`.
    val expanded = args.flatMap { a =>
      if (a.startsWith("--") && a.contains('=')) { val i = a.indexOf('='); List(a.take(i), a.drop(i + 1)) }
      else List(a)
    }

    def names(opt: String, v: String): List[String] = {
      val ns = v.split(',').map(_.trim).filter(_.nonEmpty).toList
      if (ns.isEmpty) throw new UsageError(s"$opt needs a comma-separated list, got '$v'")
      ns.distinct
    }

    def int(opt: String, v: String, min: Int): Int =
      v.replace("_", "").toIntOption.filter(_ >= min).getOrElse(
        throw new UsageError(s"$opt needs an integer of at least $min, got '$v'"))

    var rest = expanded
    def value(opt: String): String = rest match {
      case v :: tail if !v.startsWith("--") || v.length == 2 => rest = tail; v
      case _ => throw new UsageError(s"$opt needs a value")
    }
    while (rest.nonEmpty) {
      val opt = rest.head
      rest = rest.tail
      opt match {
        case "--bench" | "--benchmarks" =>
          val ns = names(opt, value(opt))
          val unknown = ns.filterNot(n => Suite.find(n).isDefined)
          if (unknown.nonEmpty) {
            val notYet = unknown.filter(n => Suite.savina.exists(_._1 == n))
            val detail =
              if (notYet.size == unknown.size) s"not implemented yet: ${notYet.mkString(", ")}"
              else s"unknown benchmark(s): ${unknown.mkString(", ")}"
            throw new UsageError(s"$detail (implemented: ${Suite.implemented.map(_.name).mkString(", ")})")
          }
          benches = Some(ns.map(n => Suite.find(n).get))
        case "--runtimes" | "--runtime" =>
          val rs = names(opt, value(opt))
          val unknown = rs.filterNot(Runtimes.names.contains)
          if (unknown.nonEmpty)
            throw new UsageError(s"unknown runtime(s): ${unknown.mkString(", ")} (known: ${Runtimes.names.mkString(", ")})")
          runtimes = rs
        case "--iterations" => iterations = Some(int(opt, value(opt), 1))
        case "--warmup"     => warmup = Some(int(opt, value(opt), 0))
        case "--quick"      => quick = true
        case "--threads"    => threads = int(opt, value(opt), 1)
        case "--out" =>
          val v = value(opt)
          if (v.isEmpty) throw new UsageError("--out needs a directory")
          out = Paths.get(v)
        case "--jvm-opts" => jvmOpts = value(opt).split("\\s+").filter(_.nonEmpty).toList
        case "--timeout"  => timeout = int(opt, value(opt), 1).toLong
        case "--monitor" =>
          val f = Paths.get(value(opt))
          if (!java.nio.file.Files.isRegularFile(f)) throw new UsageError(s"--monitor: no such file '$f'")
          monitor = Some(f.toAbsolutePath.normalize)
        case "--jvms"     => jvms = int(opt, value(opt), 1)
        case "--counters" => counters = true
        case "--list"     => list = true
        case "-h" | "--help" => help = true
        case other if other.startsWith("-") => throw new UsageError(s"unknown option '$other'")
        case other => throw new UsageError(s"unexpected argument '$other' (options start with --)")
      }
    }

    val bs = benches.getOrElse(Suite.implemented)
    if (child && !help && (benches.map(_.size).getOrElse(0) != 1 || runtimes.size != 1))
      throw new UsageError("a child runs exactly one benchmark (--bench NAME) on one runtime (--runtime cogs|pekko)")
    // The quick parameters are a smoke test: fewer iterations unless asked for.
    val its = iterations.getOrElse(if (quick) QuickIterations else DefaultIterations)
    val wu = warmup.getOrElse(if (quick) QuickWarmup else DefaultWarmup)
    Options(bs, runtimes, its, wu, quick, out, threads, jvmOpts, timeout, help, list, monitor, jvms, counters)
  }
}
