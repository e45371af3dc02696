package cogs.savina

import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Path, Paths}
import java.time.ZonedDateTime
import java.time.format.DateTimeFormatter
import java.util.Locale
import java.util.concurrent.TimeUnit
import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._

/**
 * Runs the chosen benchmarks on the chosen runtimes, each pair in a fresh JVM ([[Child]], started
 * with this JVM's java and classpath), and writes every iteration to `results.csv`, the summary
 * to `results.md` and the ratios to `ratios.svg` in the output directory (rewritten after each
 * child, so an interrupted run keeps what it measured). Progress goes to standard error; the
 * summary table also to standard output. `--help` lists the options.
 */
object Harness {

  def main(args: Array[String]): Unit = {
    val opts =
      try Options.parse(args.toList)
      catch {
        case e: Options.UsageError =>
          System.err.println(s"savina: ${e.getMessage}")
          System.err.println("savina: try --help")
          sys.exit(2)
      }
    if (opts.help) { println(Options.usage); sys.exit(0) }
    if (opts.list) { list(opts.quick); sys.exit(0) }
    sys.exit(run(opts))
  }

  private def list(quick: Boolean): Unit = {
    println(s"implemented (${if (quick) "quick" else "Savina's default"} parameters):")
    Suite.implemented.foreach(b => println(f"  ${b.name}%-12s ${b.title}%-40s ${b.describe(quick)}"))
    if (Suite.missing.nonEmpty) println(s"not implemented yet: ${Suite.missing.mkString(", ")}")
  }

  /** Run everything `opts` asks for; the exit status (0 all verified, 1 a run failed). */
  def run(opts: Options): Int = {
    val out = opts.out.toAbsolutePath.normalize
    val samples = ArrayBuffer.empty[Sample]
    val monitored = ArrayBuffer.empty[MonitorSample]
    val failures = ArrayBuffer.empty[RunFailure]
    val counted = ArrayBuffer.empty[CounterSample]
    val started = ZonedDateTime.now()
    // Round by round, so that a change of the machine's load during the run touches every
    // benchmark and runtime alike rather than all JVMs of one.
    val jobs = for (j <- (0 until opts.jvms).toList; b <- opts.benchmarks; rt <- opts.runtimes) yield (b, rt, j)
    val mode = if (opts.quick) "quick" else "full (Savina's defaults)"
    err(s"savina: ${jobs.size} run(s)${if (opts.jvms > 1) s" (${opts.jvms} JVMs per benchmark and runtime)" else ""}, ${opts.warmup} warm-up + ${opts.iterations} timed iteration(s) each, $mode parameters, " +
      s"${opts.threads} thread(s) per runtime; results in $out")
    opts.monitor.foreach(f => err(s"savina: Cogs runs monitored with $f (a fresh pipeline per iteration, finished inside the timed region)"))

    jobs.zipWithIndex.foreach { case ((bench, runtime, jvm), i) =>
      val tag = s"[${i + 1}/${jobs.size}] ${bench.name} on $runtime${if (opts.jvms > 1) s", JVM ${jvm + 1}/${opts.jvms}" else ""}"
      err(s"$tag: ${bench.describe(opts.quick)}")
      runChild(opts, bench, runtime, jvm, tag, monitored, counted) match {
        case Right(ss) => samples ++= ss
        case Left((ss, message)) =>
          samples ++= ss
          if (!failures.exists(f => f.benchmark == bench.name && f.runtime == runtime))
            failures += RunFailure(bench.name, runtime, message)
          err(s"$tag: FAILED: $message")
      }
      writeAll(out, opts, samples.toList, failures.toList, started, monitored.toList, counted.toList)
    }

    val table = writeAll(out, opts, samples.toList, failures.toList, started, monitored.toList, counted.toList)
    println(table)
    err(s"savina: wrote ${out.resolve("results.csv")}, ${out.resolve("results.md")}, ${out.resolve("ratios.svg")}")
    if (failures.nonEmpty) {
      err(s"savina: ${failures.size} run(s) FAILED: ${failures.map(f => s"${f.benchmark}/${f.runtime}").mkString(", ")}")
      1
    } else 0
  }

  private def err(s: String): Unit = { System.err.println(s); System.err.flush() }

  private def ms(nanos: Long): String = String.format(Locale.ROOT, "%.2f ms", Double.box(nanos / 1e6))

  /** The child's samples, or what it measured before it failed and why it failed. */
  private def runChild(opts: Options, bench: Benchmark, runtime: String, jvm: Int, tag: String,
                       monitored: ArrayBuffer[MonitorSample], counted: ArrayBuffer[CounterSample]): Either[(List[Sample], String), List[Sample]] = {
    val javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val counting = if (opts.counters && runtime == "cogs") List("-Dcogs.scheduler.counters=true") else Nil
    val cmd = List(javaBin) ++ opts.jvmOpts ++ counting ++ List(
      "-cp", System.getProperty("java.class.path"),
      s"-Dsavina.timeout=${opts.timeoutSeconds}",
      "cogs.savina.Child",
      "--bench", bench.name, "--runtime", runtime,
      "--iterations", opts.iterations.toString, "--warmup", opts.warmup.toString,
      "--threads", opts.threads.toString
    ) ++ (if (opts.quick) List("--quick") else Nil) ++
      (if (runtime == "cogs") opts.monitor.toList.flatMap(f => List("--monitor", f.toString)) else Nil)
    val pb = new ProcessBuilder(cmd.asJava).redirectError(ProcessBuilder.Redirect.INHERIT)
    val proc =
      try pb.start()
      catch { case e: java.io.IOException => return Left((Nil, s"could not start a JVM: ${e.getMessage}")) }
    // A watchdog: a child that hangs (a lost message, a deadlock that nothing detects) is killed.
    val watchdog = new Thread(() => {
      try {
        if (!proc.waitFor(opts.timeoutSeconds, TimeUnit.SECONDS)) {
          err(s"$tag: still running after ${opts.timeoutSeconds} s, killing it")
          proc.destroyForcibly()
        }
      } catch { case _: InterruptedException => () }
    }, "savina-watchdog")
    watchdog.setDaemon(true)
    watchdog.start()

    val got = ArrayBuffer.empty[Sample]
    var params = bench.describe(opts.quick)
    var error: Option[String] = None
    val total = opts.warmup + opts.iterations
    val reader = new BufferedReader(new InputStreamReader(proc.getInputStream, UTF_8))
    var line = reader.readLine()
    while (line != null) {
      line.split(" ", 4).toList match {
        case "params" :: rest => params = rest.mkString(" ")
        case (phase @ ("warmup" | "measure")) :: idx :: nanos :: rest if idx.toIntOption.isDefined && nanos.toLongOption.isDefined =>
          val s = Sample(bench.name, runtime, opts.quick, phase, idx.toInt, nanos.toLong, params, jvm)
          got += s
          val n = if (phase == "warmup") s.iteration + 1 else opts.warmup + s.iteration + 1
          val answer = rest.headOption.map(a => s", answer $a").getOrElse("")
          err(s"$tag: ${if (phase == "warmup") "warm-up" else "iteration"} $n/$total ${ms(s.nanos)}$answer")
        case "monitor" :: rest =>
          // monitor <phase> <i> <program ns> <events> <sound> <violations>: follows its iteration's line.
          line.split(" ").toList match {
            case _ :: phase :: idx :: prog :: events :: sound :: violations :: Nil if got.nonEmpty =>
              val s = got.last
              monitored += MonitorSample(bench.name, runtime, phase, idx.toInt, s.nanos, prog.toLong, events.toLong, sound.toBoolean, violations.toInt)
              err(s"$tag:   monitored: program ${ms(prog.toLong)}, ${events} events checked, trace ${if (sound.toBoolean) "sound" else "NOT sound"}, $violations violation(s)")
            case _ => err(s"$tag: (child) ${rest.mkString(" ")}")
          }
        case "cpu" :: _ =>
          // cpu <phase> <i> <cpu ns> <wall ns> <gc ms> <gc count> [<steal ms>]: follows its iteration's line.
          line.split(" ").toList match {
            case _ :: phase :: idx :: cpuNs :: wallNs :: gcMs :: gcCount :: steal if steal.size <= 1 && got.nonEmpty && got.last.phase == phase && got.last.iteration.toString == idx =>
              val (c, w) = (cpuNs.toLong, wallNs.toLong)
              val stealMs = steal.headOption.flatMap(_.toDoubleOption).filter(_ >= 0).getOrElse(Double.NaN)
              val s = got.last.copy(gcMillis = gcMs.toDouble, collections = gcCount.toInt, stealMillis = stealMs)
              got(got.size - 1) = if (c >= 0 && w > 0) s.copy(cores = c.toDouble / w) else s
            case _ => err(s"$tag: (child) $line")
          }
        case "counters" :: _ =>
          line.split(" ").toList match {
            case _ :: phase :: idx :: kvs if idx.toIntOption.isDefined =>
              val counts = kvs.flatMap { kv =>
                kv.split("=", 2) match { case Array(k, v) => v.toLongOption.map(k -> _); case _ => None }
              }.toMap
              counted += CounterSample(bench.name, jvm, phase, idx.toInt, counts)
            case _ => err(s"$tag: (child) $line")
          }
        case "error" :: rest => error = Some(rest.mkString(" "))
        case _ => err(s"$tag: (child) $line")
      }
      line = reader.readLine()
    }
    val status = proc.waitFor()
    watchdog.interrupt()
    val measured = got.count(_.phase == "measure")
    if (status == 0 && measured == opts.iterations) Right(got.toList)
    else {
      val why = error.getOrElse {
        if (status == 0) s"the child reported $measured of ${opts.iterations} iterations"
        else s"the child JVM exited with status $status"
      }
      Left((got.toList, why))
    }
  }

  /** Rewrite the three result files from everything so far; the markdown summary. */
  private def writeAll(out: Path, opts: Options, samples: List[Sample], failures: List[RunFailure], started: ZonedDateTime,
                       monitored: List[MonitorSample], counted: List[CounterSample]): String = {
    val order = Suite.savina.map(_._1)
    // A failed run's iterations stay in the CSV but not in the summary.
    val failed = failures.map(f => (f.benchmark, f.runtime)).toSet
    val rows = Report.rows(samples.filterNot(s => failed((s.benchmark, s.runtime))), order)
    val header = List(
      "date" -> started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
      "parameters" -> (if (opts.quick) "quick (tests' sizes, not for comparison)" else "Savina's defaults"),
      "iterations" -> s"${opts.iterations} timed after ${opts.warmup} warm-up, in ${if (opts.jvms == 1) "one JVM" else s"each of ${opts.jvms} JVMs"} per benchmark and runtime",
      "threads" -> s"${opts.threads} per runtime (Cogs: cogs.executor.parallelism; Pekko: fork-join dispatcher parallelism)",
      "machine" -> s"${Runtime.getRuntime.availableProcessors} processors, ${System.getProperty("os.name")} ${System.getProperty("os.arch")}",
      "JVM" -> s"${System.getProperty("java.vm.name")} ${System.getProperty("java.runtime.version")}, child options ${opts.jvmOpts.mkString(" ")}"
    ) ++ opts.monitor.map(f => "monitor" -> s"Cogs runs monitored with $f; times include finishing the pipeline (see monitor.csv and the table below)")
    val md = Report.markdown(rows, failures, header) + Report.perJvm(samples, order) +
      (if (opts.monitor.isEmpty) "" else MonitorSample.markdown(monitored)) +
      (if (opts.counters) Report.countersMarkdown(counted, samples, order) else "")
    if (opts.counters) Report.write(out.resolve("counters.csv"), Report.countersCsv(counted))
    if (opts.monitor.nonEmpty) Report.write(out.resolve("monitor.csv"), MonitorSample.csv(monitored))
    Report.write(out.resolve("results.csv"), Report.csv(samples))
    Report.write(out.resolve("results.md"), md)
    val subtitle = s"${if (opts.quick) "quick parameters" else "Savina's default parameters"}, median of ${opts.iterations}, ${opts.threads} threads, ${started.toLocalDate}"
    Report.write(out.resolve("ratios.svg"), Report.svg(rows, subtitle))
    md
  }
}

/** One monitored iteration as the child reported it: the whole time, the program's part, and the monitors' verdict. */
final case class MonitorSample(benchmark: String, runtime: String, phase: String, iteration: Int, nanos: Long, programNanos: Long,
                               events: Long, sound: Boolean, violations: Int)

object MonitorSample {
  def csv(ms: Seq[MonitorSample]): String = {
    val sb = new StringBuilder("benchmark,runtime,phase,iteration,millis,program_millis,finish_millis,events,sound,violations\n")
    def f(n: Long) = String.format(Locale.ROOT, "%.3f", Double.box(n / 1e6))
    ms.foreach(m => sb ++= s"${m.benchmark},${m.runtime},${m.phase},${m.iteration},${f(m.nanos)},${f(m.programNanos)},${f(m.nanos - m.programNanos)},${m.events},${m.sound},${m.violations}\n")
    sb.toString
  }

  def markdown(ms: Seq[MonitorSample]): String = {
    val sb = new StringBuilder("\n## Monitoring (Cogs)\n\n")
    sb ++= "Medians over the timed iterations: the whole iteration (as above), the program until its answer, the rest (finishing the pipeline).\n\n"
    sb ++= "| benchmark | iteration ms | program ms | finish ms | events checked | sound | violations |\n| --- | ---: | ---: | ---: | ---: | --- | ---: |\n"
    def med(xs: Seq[Double]) = Stats.of(xs).median
    def f(d: Double) = String.format(Locale.ROOT, "%.2f", Double.box(d))
    ms.filter(_.phase == "measure").groupBy(_.benchmark).toList.sortBy(_._1).foreach { case (b, xs) =>
      sb ++= s"| $b | ${f(med(xs.map(_.nanos / 1e6)))} | ${f(med(xs.map(_.programNanos / 1e6)))} | ${f(med(xs.map(x => (x.nanos - x.programNanos) / 1e6)))} | " +
        s"${med(xs.map(_.events.toDouble)).toLong} | ${if (xs.forall(_.sound)) "all" else s"${xs.count(_.sound)} of ${xs.size}"} | ${xs.map(_.violations).sum} |\n"
    }
    sb.toString
  }
}
