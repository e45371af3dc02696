package cogs.bench.monitor

import cogs.monitor.pipeline.{DispatchKind, StatsSnapshot}
import cogs.runtime.CogRuntime
import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.time.ZonedDateTime
import java.util.Locale
import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._

/**
 * The monitoring experiments (`benchmarks/run monitoring mesa|riarc [OPTIONS]`; docs/monitoring.md):
 *
 *  - `mesa`: the MESA study's shape (its Tables 1-3) on a generated flight trace: the four
 *    dispatcher kinds, the pool at several sizes, statistics off and on;
 *  - `riarc`: the RIARC study's shape: a master spawning workers under steady, pulse and burst
 *    arrivals, unmonitored and monitored inline, outline-centralised and outline-decentralised,
 *    every monitored run checking that its trace was complete and in order.
 *
 * Each configuration runs in a fresh JVM (a child: this class with `child` first), which does its
 * warm-up runs and then the measured ones and prints one `result` line per run; this JVM gathers
 * them and writes `<experiment>.csv` (every run) and `<experiment>.md` (medians, the seeds' tables).
 * A fresh JVM per configuration keeps one configuration's JIT profile, heap and threads (a pool of
 * 3,215 actors leaves garbage and a grown heap behind) out of the next one's numbers.
 */
object MonitoringMain {

  val usage: String =
    """usage: benchmarks/run monitoring mesa  [OPTIONS]     the MESA-shaped experiment (dispatchers, pool sizes, statistics)
      |       benchmarks/run monitoring riarc [OPTIONS]     the RIARC-shaped experiment (arrival profiles, monitoring modes)
      |
      |common options:
      |  --warmup N            untimed runs first, in the same JVM (default 1)
      |  --iterations N        measured runs per configuration (default 3; medians are reported)
      |  --out DIR             where to write the CSV and markdown (default benchmarks/target/monitoring)
      |  --jvm-opts "..."      options of the child JVMs (default "-Xms2g -Xmx2g")
      |mesa:
      |  --kinds a,b           dispatcher kinds: single, indexed, per-key, pool (default: all)
      |  --pools 125,250,...   pool sizes (default 125,250,500,1000,2000,3215)
      |  --stats off,on        statistics off, on, or both (default both)
      |  --subs N              sub-monitors per monitor, to lengthen the service time (default 40)
      |  --events N --keys N   trace size (default 200000 over 3215)
      |riarc:
      |  --profiles a,b        steady, pulse, burst (default: all)
      |  --modes a,b           none, inline, centralised, decentralised (default: all)
      |  --workers N           workers per run (default 2000)
      |  --batch N             requests per worker (default 100)
      |  --load SECONDS        length of the arrival window (default 3)
      |  --work N              arithmetic steps per request (default 100)
      |""".stripMargin

  def main(args: Array[String]): Unit = {
    val status =
      try args.toList match {
        case "child" :: "mesa" :: rest  => mesaChild(Args(rest))
        case "child" :: "riarc" :: rest => riarcChild(Args(rest))
        case "mesa" :: rest             => Driver.mesa(Args(rest))
        case "riarc" :: rest            => Driver.riarc(Args(rest))
        case ("-h" | "--help" | "help") :: _ => println(usage); 0
        case _                          => System.err.println(usage); 2
      } catch {
        case e: Args.Bad => System.err.println(s"monitoring: ${e.getMessage}"); System.err.println(usage); 2
      }
    sys.exit(status)
  }

  /** `--key value` options. */
  final case class Args(values: Map[String, String]) {
    def str(k: String, default: String): String = values.getOrElse(k, default)
    def int(k: String, default: Int): Int =
      values.get(k).map(v => v.replace("_", "").replace(",", "").toIntOption.getOrElse(throw new Args.Bad(s"--$k needs an integer, got '$v'"))).getOrElse(default)
    def double(k: String, default: Double): Double =
      values.get(k).map(v => v.toDoubleOption.getOrElse(throw new Args.Bad(s"--$k needs a number, got '$v'"))).getOrElse(default)
    def list(k: String, default: List[String]): List[String] =
      values.get(k).map(_.split(',').map(_.trim).filter(_.nonEmpty).toList).getOrElse(default)
  }
  object Args {
    final class Bad(msg: String) extends RuntimeException(msg)
    def apply(args: List[String]): Args = {
      val m = Map.newBuilder[String, String]
      var rest = args
      while (rest.nonEmpty) rest match {
        case k :: v :: tail if k.startsWith("--") && !v.startsWith("--") => m += k.drop(2) -> v; rest = tail
        case k :: _ => throw new Bad(s"'$k' needs a value (options are --name value)")
        case Nil    => ()
      }
      Args(m.result())
    }
  }

  private def line(fields: (String, Any)*): String =
    fields.map { case (k, v) => s"$k=${v match { case d: Double => String.format(Locale.ROOT, "%.3f", Double.box(d)); case o => o }}" }.mkString(" ")

  private def statsFields(role: Option[StatsSnapshot], prefix: String): Seq[(String, Any)] = role match {
    case Some(s) => Seq(s"${prefix}_service_us" -> s.meanServiceNanos / 1e3, s"${prefix}_wait_us" -> s.meanWaitNanos / 1e3,
                        s"${prefix}_mailbox" -> s.meanMailbox, s"${prefix}_calls" -> s.calls)
    case None    => Nil
  }

  /** One MESA configuration in this JVM: warm-up runs, then measured ones, one `result` line each. */
  def mesaChild(a: Args): Int = {
    val kind = Mesa.kindOf(a.str("kind", "pool"))
    val pool = a.int("pool", 250)
    val stats = a.str("stats", "off") == "on"
    val p = Mesa.Params(events = a.int("events", 200000), keys = a.int("keys", 3215), subs = a.int("subs", 40))
    val trace = FlightTrace.generate(p.events, p.keys, p.disordered, p.seed)
    val meter = new Meter
    val warmup = a.int("warmup", 1)
    val iterations = a.int("iterations", 3)
    var i = 0
    while (i < warmup + iterations) {
      Meter.settle()
      val rt = CogRuntime.withOverrides("cogs.executor.thread-name-prefix = mesa-pipeline")
      val (o, cost) = try meter.measure(Mesa.run(trace, kind, math.max(1, pool), p.subs, stats, rt)) finally rt.close()
      o.problem.foreach { why => println(s"error $why"); return 1 }
      val roles = o.stats.roles
      println("result " + line(Seq(
        "phase" -> (if (i < warmup) "warmup" else "measure"), "i" -> i,
        "wall_ns" -> cost.wallNanos, "cpu_ns" -> cost.cpuNanos, "peak_used" -> cost.peakUsedBytes, "peak_live" -> cost.peakLiveBytes,
        "gc" -> cost.gcCount, "gc_ms" -> cost.gcMillis, "delivered" -> o.delivered, "errors" -> o.errors, "instances" -> o.instances) ++
        statsFields(roles.find(_.role == "dispatcher"), "disp") ++ statsFields(roles.find(_.role == "monitor"), "mon"): _*))
      System.out.flush()
      i += 1
    }
    0
  }

  /** One RIARC configuration (profile and mode) in this JVM. */
  def riarcChild(a: Args): Int = {
    val mode = a.str("mode", "none")
    val profile = a.str("profile", "steady")
    val p = Riarc.Params(workers = a.int("workers", 2000), batch = a.int("batch", 100), loadSeconds = a.double("load", 3.0), work = a.int("work", 100))
    val arrivals = Riarc.arrivals(profile, p)
    val meter = new Meter
    val warmup = a.int("warmup", 1)
    val iterations = a.int("iterations", 3)
    var i = 0
    while (i < warmup + iterations) {
      Meter.settle()
      val setup = new Riarc.Setup(mode, p)
      val (o, cost) = try meter.measure(Riarc.run(setup, arrivals, p)) finally setup.rt.close()
      val lat = o.latencies.clone()
      java.util.Arrays.sort(lat)
      def pct(q: Double) = Spread.percentile(lat, q) / 1e6
      val r = o.report
      println("result " + line(
        "phase" -> (if (i < warmup) "warmup" else "measure"), "i" -> i,
        "wall_ns" -> cost.wallNanos, "program_ns" -> o.programNanos, "cpu_ns" -> cost.cpuNanos,
        "peak_used" -> cost.peakUsedBytes, "peak_live" -> cost.peakLiveBytes, "gc" -> cost.gcCount, "gc_ms" -> cost.gcMillis,
        "p50_ms" -> pct(50), "p90_ms" -> pct(90), "p99_ms" -> pct(99), "max_ms" -> lat.last / 1e6,
        "events" -> o.events, "chains" -> r.map(_.chains).getOrElse(0),
        "sound" -> r.map(_.sound.toString).getOrElse("-"), "violations" -> r.map(_.violations).getOrElse(0),
        "missing" -> r.map(_.order.missing).getOrElse(0L), "disordered" -> r.map(_.order.disordered).getOrElse(0L),
        "lost" -> r.map(_.losses.total).getOrElse(0L)))
      System.out.flush()
      o.problem.foreach { why => println(s"error $why"); return 1 }
      i += 1
    }
    0
  }

  /** Starts the children, gathers their lines, writes the tables. */
  object Driver {
    final case class Run(config: Map[String, String], fields: Map[String, String]) {
      def measured: Boolean = fields.get("phase").contains("measure")
      def d(k: String): Double = fields.get(k).flatMap(_.toDoubleOption).getOrElse(Double.NaN)
    }

    private def loadavg(): String =
      try new String(Files.readAllBytes(Paths.get("/proc/loadavg")), UTF_8).trim.split(" ").take(3).mkString(" ")
      catch { case _: Exception => "?" }

    private def outDir(a: Args): Path =
      Paths.get(a.str("out", Option(System.getProperty("monitoring.out")).getOrElse("target/monitoring"))).toAbsolutePath.normalize

    private def jvmOpts(a: Args): List[String] = a.str("jvm-opts", "-Xms2g -Xmx2g").split("\\s+").filter(_.nonEmpty).toList

    /** Run one child; its runs, or why it failed. */
    private def child(a: Args, experiment: String, config: List[(String, String)], tag: String): Either[String, List[Run]] = {
      val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
      val passOn = List("warmup", "iterations", "subs", "events", "keys", "workers", "batch", "load", "work")
        .flatMap(k => a.values.get(k).map(v => List(s"--$k", v))).flatten
      val cmd = List(java) ++ jvmOpts(a) ++ List("-cp", System.getProperty("java.class.path"), "cogs.bench.monitor.MonitoringMain",
        "child", experiment) ++ config.flatMap { case (k, v) => List(s"--$k", v) } ++ passOn
      val proc = new ProcessBuilder(cmd.asJava).redirectError(ProcessBuilder.Redirect.INHERIT).start()
      val reader = new BufferedReader(new InputStreamReader(proc.getInputStream, UTF_8))
      val runs = ArrayBuffer.empty[Run]
      var error: Option[String] = None
      var l = reader.readLine()
      while (l != null) {
        if (l.startsWith("result ")) {
          val f = l.drop(7).split(' ').map { kv => val i = kv.indexOf('='); kv.take(i) -> kv.drop(i + 1) }.toMap
          runs += Run(config.toMap, f)
          val wall = f.get("wall_ns").flatMap(_.toLongOption).map(n => f"${n / 1e9}%.2f s").getOrElse("?")
          System.err.println(s"$tag: ${f.getOrElse("phase", "?")} ${f.getOrElse("i", "?")}: $wall")
        } else if (l.startsWith("error ")) error = Some(l.drop(6))
        else System.err.println(s"$tag: (child) $l")
        l = reader.readLine()
      }
      val status = proc.waitFor()
      if (status == 0 && error.isEmpty) Right(runs.toList) else Left(error.getOrElse(s"child exited with status $status"))
    }

    private def fmt(d: Double, digits: Int = 2): String =
      if (d.isNaN) "-" else String.format(Locale.ROOT, s"%.${digits}f", Double.box(d))

    private def header(a: Args, experiment: String, started: ZonedDateTime, loadBefore: String, loadAfter: String, params: String): String = {
      val sb = new StringBuilder
      sb ++= s"# Monitoring experiment: $experiment\n\n"
      sb ++= s"- date: $started\n"
      sb ++= s"- machine: ${Runtime.getRuntime.availableProcessors} processors, ${System.getProperty("os.name")} ${System.getProperty("os.arch")}\n"
      sb ++= s"- JVM: ${System.getProperty("java.vm.name")} ${System.getProperty("java.runtime.version")}, child options ${jvmOpts(a).mkString(" ")}\n"
      sb ++= s"- runs: ${a.int("warmup", 1)} warm-up + ${a.int("iterations", 3)} measured per configuration, each configuration in a fresh JVM; medians (min-max)\n"
      sb ++= s"- parameters: $params\n"
      sb ++= s"- load average (1, 5, 15 min) before: $loadBefore; after: $loadAfter\n\n"
      sb.toString
    }

    private def writeCsv(path: Path, runs: Seq[Run], configKeys: List[String]): Unit = {
      val keys = runs.flatMap(_.fields.keys).distinct.toList
      val sb = new StringBuilder((configKeys ++ keys).mkString(",") + "\n")
      runs.foreach(r => sb ++= (configKeys.map(r.config.getOrElse(_, "")) ++ keys.map(r.fields.getOrElse(_, ""))).mkString(",") + "\n")
      Files.createDirectories(path.getParent)
      Files.write(path, sb.toString.getBytes(UTF_8))
    }

    private def spread(rs: Seq[Run], k: String, scale: Double = 1.0): Spread = Spread.of(rs.map(_.d(k) / scale))

    private def mb(rs: Seq[Run], k: String): String = fmt(spread(rs, k, 1024.0 * 1024).median, 0)

    def mesa(a: Args): Int = {
      val kinds = a.list("kinds", DispatchKind.all.map(_.configName))
      val pools = a.list("pools", List("125", "250", "500", "1000", "2000", "3215")).map(_.toInt)
      val statsModes = a.list("stats", List("off", "on"))
      kinds.foreach(Mesa.kindOf)
      // Statistics off and on of one system run back to back: the machine's load drifts over minutes,
      // and the overhead is a difference between the two.
      val configs = for (k <- kinds; pool <- (if (k == "pool") pools else List(0)); s <- statsModes)
        yield List("kind" -> k, "pool" -> pool.toString, "stats" -> s)
      run(a, "mesa", configs, List("kind", "pool", "stats"),
        s"${a.int("events", 200000)} events over ${a.int("keys", 3215)} flights, 100 of them out of order once; " +
          s"${a.int("subs", 40)} sub-monitors per monitor; pipeline runtime of ${Runtime.getRuntime.availableProcessors} threads")(mesaTables)
    }

    def riarc(a: Args): Int = {
      val profiles = a.list("profiles", Riarc.profiles)
      val modes = a.list("modes", Riarc.modes)
      val configs = for (p <- profiles; m <- modes) yield List("profile" -> p, "mode" -> m)
      run(a, "riarc", configs, List("profile", "mode"),
        s"${a.int("workers", 2000)} workers x ${a.int("batch", 100)} requests, arrivals over ${a.double("load", 3.0)} s, " +
          s"${a.int("work", 100)} arithmetic steps per request; monitor configuration benchmarks/src/main/resources/monitoring/riarc.conf")(riarcTables)
    }

    private def run(a: Args, experiment: String, configs: List[List[(String, String)]], configKeys: List[String], params: String)(
        tables: (Seq[Run], Seq[String]) => String): Int = {
      val out = outDir(a)
      val started = ZonedDateTime.now()
      val loadBefore = loadavg()
      val runs = ArrayBuffer.empty[Run]
      val failures = ArrayBuffer.empty[String]
      System.err.println(s"monitoring $experiment: ${configs.size} configurations; load average $loadBefore; results in $out")
      configs.zipWithIndex.foreach { case (c, i) =>
        val tag = s"[${i + 1}/${configs.size}] ${c.map(_._2).mkString(" ")}"
        child(a, experiment, c, tag) match {
          case Right(rs) => runs ++= rs
          case Left(why) => failures += s"${c.map { case (k, v) => s"$k=$v" }.mkString(" ")}: $why"; System.err.println(s"$tag: FAILED: $why")
        }
        writeCsv(out.resolve(s"$experiment.csv"), runs.toList, configKeys)
      }
      val loadAfter = loadavg()
      val md = header(a, experiment, started, loadBefore, loadAfter, params) + tables(runs.toList, failures.toList)
      Files.write(out.resolve(s"$experiment.md"), md.getBytes(UTF_8))
      println(md)
      System.err.println(s"monitoring $experiment: wrote ${out.resolve(s"$experiment.csv")} and ${out.resolve(s"$experiment.md")}")
      if (failures.isEmpty) 0 else 1
    }

    private def failuresText(failures: Seq[String]): String =
      if (failures.isEmpty) "" else "\n## Failed configurations\n\n" + failures.map(f => s"- $f\n").mkString

    private def mesaTables(runs: Seq[Run], failures: Seq[String]): String = {
      val sb = new StringBuilder
      val measured = runs.filter(_.measured)
      val groups = measured.groupBy(r => (r.config("kind"), r.config("pool"), r.config("stats")))
      def key(k: String, pool: String, s: String) = (k, pool, s)
      def system(k: String, pool: String): String = k match {
        case "single"  => "monitor-indexing (single)"
        case "indexed" => "dispatcher-indexing (indexed)"
        case "per-key" => "concurrent (per-key)"
        case "pool"    => s"bounded-concurrent (pool $pool)"
        case o         => o
      }
      val order = List("single", "indexed", "per-key", "pool")
      val keys = groups.keys.toList.sortBy { case (k, pool, s) => (s != "off", order.indexOf(k), pool.toInt) }
      sb ++= "## All configurations\n\n"
      sb ++= "| system | statistics | time s: median (min-max) | CPU share | peak heap MB | max live after GC MB | GCs | instances | violations found |\n"
      sb ++= "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
      keys.foreach { case g @ (k, pool, s) =>
        val rs = groups(g)
        val t = spread(rs, "wall_ns", 1e9)
        val cpu = Spread.of(rs.map(r => r.d("cpu_ns") / r.d("wall_ns") / Runtime.getRuntime.availableProcessors)).median
        sb ++= s"| ${system(k, pool)} | $s | ${fmt(t.median)} (${fmt(t.min)}-${fmt(t.max)}) | ${fmt(cpu * 100, 0)}% | ${mb(rs, "peak_used")} | ${mb(rs, "peak_live")} | " +
          s"${fmt(spread(rs, "gc").median, 0)} | ${fmt(spread(rs, "instances").median, 0)} | ${fmt(spread(rs, "errors").median, 0)} |\n"
      }
      def med(k: String, pool: String, s: String): Option[Double] = groups.get(key(k, pool, s)).map(rs => spread(rs, "wall_ns", 1e9).median)
      sb ++= "\n## Table 1 shape: ratios of run times (statistics off)\n\n"
      sb ++= "| | single / indexed | indexed / per-key | per-key / pool 250 |\n| --- | ---: | ---: | ---: |\n"
      def ratio(x: Option[Double], y: Option[Double]) = (for (a <- x; b <- y) yield fmt(a / b)).getOrElse("-")
      sb ++= s"| this run | ${ratio(med("single", "0", "off"), med("indexed", "0", "off"))} | ${ratio(med("indexed", "0", "off"), med("per-key", "0", "off"))} | " +
        s"${ratio(med("per-key", "0", "off"), med("pool", "250", "off"))} |\n"
      sb ++= "| MESA (seed, Table 1) | 1.78 | 2.63 | 1.22 |\n"
      val pools = keys.collect { case ("pool", pool, _) => pool }.distinct.sortBy(_.toInt)
      if (pools.nonEmpty) {
        sb ++= "\n## Tables 2 and 3 shape: the pool at several sizes\n\n"
        sb ++= s"| monitor actors | ${pools.mkString(" | ")} |\n| --- |${pools.map(_ => " ---: |").mkString}\n"
        sb ++= s"| time s, statistics off | ${pools.map(p => med("pool", p, "off").map(fmt(_)).getOrElse("-")).mkString(" | ")} |\n"
        sb ++= s"| time s, statistics on | ${pools.map(p => med("pool", p, "on").map(fmt(_)).getOrElse("-")).mkString(" | ")} |\n"
        sb ++= s"| statistics overhead | ${pools.map(p => (for (on <- med("pool", p, "on"); off <- med("pool", p, "off")) yield fmt((on / off - 1) * 100, 1) + "%").getOrElse("-")).mkString(" | ")} |\n"
        val seedPools = Map("125" -> ("169", "203", "20%"), "250" -> ("161", "197", "22.5%"), "500" -> ("167", "202", "21.1%"),
          "1000" -> ("169", "215", "27.7%"), "2000" -> ("183", "237", "29.4%"), "3215" -> ("208", "267", "28.1%"))
        sb ++= s"| MESA time s (Table 2) | ${pools.map(p => seedPools.get(p).map(_._1).getOrElse("-")).mkString(" | ")} |\n"
        sb ++= s"| MESA time s with ASF (Table 3) | ${pools.map(p => seedPools.get(p).map(_._2).getOrElse("-")).mkString(" | ")} |\n"
        sb ++= s"| MESA ASF overhead (Table 3) | ${pools.map(p => seedPools.get(p).map(_._3).getOrElse("-")).mkString(" | ")} |\n"
      }
      val others = order.filter(_ != "pool").filter(k => groups.contains(key(k, "0", "off")) && groups.contains(key(k, "0", "on")))
      if (others.nonEmpty) {
        sb ++= "\n## Statistics overhead of the other systems\n\n| system | off s | on s | overhead |\n| --- | ---: | ---: | ---: |\n"
        others.foreach { k =>
          val off = med(k, "0", "off").get; val on = med(k, "0", "on").get
          sb ++= s"| ${system(k, "0")} | ${fmt(off)} | ${fmt(on)} | ${fmt((on / off - 1) * 100, 1)}% |\n"
        }
      }
      val withStats = keys.filter(_._3 == "on")
      if (withStats.nonEmpty) {
        sb ++= "\n## What the statistics say (means over all calls; MESA's Figures 22-24)\n\n"
        sb ++= "| system | dispatcher service us | dispatcher mailbox wait us | monitor service us | monitor mailbox wait us | monitor sampled mailbox |\n"
        sb ++= "| --- | ---: | ---: | ---: | ---: | ---: |\n"
        withStats.foreach { case g @ (k, pool, _) =>
          val rs = groups(g)
          sb ++= s"| ${system(k, pool)} | ${fmt(spread(rs, "disp_service_us").median, 1)} | ${fmt(spread(rs, "disp_wait_us").median, 1)} | " +
            s"${fmt(spread(rs, "mon_service_us").median, 1)} | ${fmt(spread(rs, "mon_wait_us").median, 1)} | ${fmt(spread(rs, "mon_mailbox").median, 2)} |\n"
        }
      }
      sb ++= failuresText(failures)
      sb.toString
    }

    private def riarcTables(runs: Seq[Run], failures: Seq[String]): String = {
      val sb = new StringBuilder
      val measured = runs.filter(_.measured)
      val groups = measured.groupBy(r => (r.config("profile"), r.config("mode")))
      val keys = groups.keys.toList.sortBy { case (p, m) => (Riarc.profiles.indexOf(p), Riarc.modes.indexOf(m)) }
      sb ++= "## All configurations\n\n"
      sb ++= "Program: from the first arrival until the program is quiescent. Total: until the pipeline finished too (every event checked).\n"
      sb ++= "Latency: per request, from the master's call to the master seeing its answer, over all requests of the measured runs' median run.\n\n"
      sb ++= "| profile | monitoring | program s | total s (min-max) | latency p50 ms | p90 ms | p99 ms | max ms | CPU share | peak heap MB | max live after GC MB | events checked | chains | sound | violations |\n"
      sb ++= "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n"
      keys.foreach { g =>
        val rs = groups(g)
        val t = spread(rs, "wall_ns", 1e9)
        val cpu = Spread.of(rs.map(r => r.d("cpu_ns") / r.d("wall_ns") / Runtime.getRuntime.availableProcessors)).median
        val sound = rs.map(_.fields.getOrElse("sound", "-")).distinct.mkString("/")
        sb ++= s"| ${g._1} | ${g._2} | ${fmt(spread(rs, "program_ns", 1e9).median)} | ${fmt(t.median)} (${fmt(t.min)}-${fmt(t.max)}) | " +
          s"${fmt(spread(rs, "p50_ms").median)} | ${fmt(spread(rs, "p90_ms").median)} | ${fmt(spread(rs, "p99_ms").median)} | ${fmt(spread(rs, "max_ms").median)} | " +
          s"${fmt(cpu * 100, 0)}% | ${mb(rs, "peak_used")} | ${mb(rs, "peak_live")} | ${fmt(spread(rs, "events").median, 0)} | ${fmt(spread(rs, "chains").median, 0)} | $sound | " +
          s"${rs.map(_.d("violations")).max.toLong} |\n"
      }
      sb ++= "\n## Overhead against no monitoring (medians)\n\n"
      sb ++= "| profile | monitoring | total time | latency p50 | latency p99 | CPU time | peak heap |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n"
      keys.filter(_._2 != "none").foreach { case g @ (p, _) =>
        groups.get((p, "none")).foreach { base =>
          val rs = groups(g)
          def over(k: String) = fmt((spread(rs, k).median / spread(base, k).median - 1) * 100, 0) + "%"
          sb ++= s"| ${g._1} | ${g._2} | ${over("wall_ns")} | ${over("p50_ms")} | ${over("p99_ms")} | ${over("cpu_ns")} | ${over("peak_used")} |\n"
        }
      }
      val sound = measured.filter(_.config("mode") != "none")
      val unsound = sound.count(_.fields.get("sound").contains("false"))
      sb ++= s"\nSoundness: ${runs.count(r => r.config("mode") != "none" && r.fields.get("sound").contains("true"))} monitored runs (warm-up included) reported a sound trace " +
        s"(no event lost, every object's sequence numbers gap-free and in order), $unsound measured runs did not; " +
        s"violations in monitored runs: ${runs.filter(_.config("mode") != "none").map(_.d("violations")).sum.toLong}.\n"
      sb ++= failuresText(failures)
      sb.toString
    }
  }
}
