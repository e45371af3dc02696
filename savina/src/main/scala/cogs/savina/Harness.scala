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
    val failures = ArrayBuffer.empty[RunFailure]
    val started = ZonedDateTime.now()
    val jobs = for (b <- opts.benchmarks; rt <- opts.runtimes) yield (b, rt)
    val mode = if (opts.quick) "quick" else "full (Savina's defaults)"
    err(s"savina: ${jobs.size} run(s), ${opts.warmup} warm-up + ${opts.iterations} timed iteration(s) each, $mode parameters, " +
      s"${opts.threads} thread(s) per runtime; results in $out")

    jobs.zipWithIndex.foreach { case ((bench, runtime), i) =>
      val tag = s"[${i + 1}/${jobs.size}] ${bench.name} on $runtime"
      err(s"$tag: ${bench.describe(opts.quick)}")
      runChild(opts, bench, runtime, tag) match {
        case Right(ss) => samples ++= ss
        case Left((ss, message)) =>
          samples ++= ss
          failures += RunFailure(bench.name, runtime, message)
          err(s"$tag: FAILED: $message")
      }
      writeAll(out, opts, samples.toList, failures.toList, started)
    }

    val table = writeAll(out, opts, samples.toList, failures.toList, started)
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
  private def runChild(opts: Options, bench: Benchmark, runtime: String, tag: String): Either[(List[Sample], String), List[Sample]] = {
    val javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val cmd = List(javaBin) ++ opts.jvmOpts ++ List(
      "-cp", System.getProperty("java.class.path"),
      s"-Dsavina.timeout=${opts.timeoutSeconds}",
      "cogs.savina.Child",
      "--bench", bench.name, "--runtime", runtime,
      "--iterations", opts.iterations.toString, "--warmup", opts.warmup.toString,
      "--threads", opts.threads.toString
    ) ++ (if (opts.quick) List("--quick") else Nil)
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
          val s = Sample(bench.name, runtime, opts.quick, phase, idx.toInt, nanos.toLong, params)
          got += s
          val n = if (phase == "warmup") s.iteration + 1 else opts.warmup + s.iteration + 1
          val answer = rest.headOption.map(a => s", answer $a").getOrElse("")
          err(s"$tag: ${if (phase == "warmup") "warm-up" else "iteration"} $n/$total ${ms(s.nanos)}$answer")
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
  private def writeAll(out: Path, opts: Options, samples: List[Sample], failures: List[RunFailure], started: ZonedDateTime): String = {
    val order = Suite.savina.map(_._1)
    // A failed run's iterations stay in the CSV but not in the summary.
    val failed = failures.map(f => (f.benchmark, f.runtime)).toSet
    val rows = Report.rows(samples.filterNot(s => failed((s.benchmark, s.runtime))), order)
    val header = List(
      "date" -> started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
      "parameters" -> (if (opts.quick) "quick (tests' sizes, not for comparison)" else "Savina's defaults"),
      "iterations" -> s"${opts.iterations} timed after ${opts.warmup} warm-up, in one JVM per benchmark and runtime",
      "threads" -> s"${opts.threads} per runtime (Cogs: cogs.executor.parallelism; Pekko: fork-join dispatcher parallelism)",
      "machine" -> s"${Runtime.getRuntime.availableProcessors} processors, ${System.getProperty("os.name")} ${System.getProperty("os.arch")}",
      "JVM" -> s"${System.getProperty("java.vm.name")} ${System.getProperty("java.runtime.version")}, child options ${opts.jvmOpts.mkString(" ")}"
    )
    val md = Report.markdown(rows, failures, header)
    Report.write(out.resolve("results.csv"), Report.csv(samples))
    Report.write(out.resolve("results.md"), md)
    val subtitle = s"${if (opts.quick) "quick parameters" else "Savina's default parameters"}, median of ${opts.iterations}, ${opts.threads} threads, ${started.toLocalDate}"
    Report.write(out.resolve("ratios.svg"), Report.svg(rows, subtitle))
    md
  }
}
