package cogs.savina

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import scala.jdk.CollectionConverters._

/** The harness's option parsing and reports (its child JVMs are exercised by savina/run). */
class HarnessTest {

  private def usageError(args: String*): String =
    assertThrows(classOf[Options.UsageError], () => Options.parse(args.toList)).getMessage

  @Test def defaultsRunEveryImplementedBenchmarkOnBothRuntimes(): Unit = {
    val o = Options.parse(Nil)
    assertEquals(Suite.implemented, o.benchmarks)
    assertEquals(List("cogs", "pekko"), o.runtimes)
    assertEquals(Options.DefaultIterations, o.iterations)
    assertEquals(Options.DefaultWarmup, o.warmup)
    assertFalse(o.quick)
    val q = Options.parse(List("--quick"))
    assertEquals((Options.QuickIterations, Options.QuickWarmup), (q.iterations, q.warmup))
  }

  @Test def optionsAreParsedInBothSpellings(): Unit = {
    val o = Options.parse(List("--bench", "nqueenk,pingpong", "--runtimes=cogs", "--iterations", "4", "--warmup=0", "--quick", "--out", "x/y", "--threads", "3"))
    assertEquals(List("nqueenk", "pingpong"), o.benchmarks.map(_.name))
    assertEquals(List("cogs"), o.runtimes)
    assertEquals(4, o.iterations)
    assertEquals(0, o.warmup)
    assertTrue(o.quick)
    assertEquals(java.nio.file.Paths.get("x/y"), o.out)
    assertEquals(3, o.threads)
  }

  @Test def badOptionsSayWhatIsWrong(): Unit = {
    assertTrue(usageError("--bench", "nosuch").contains("unknown benchmark(s): nosuch"))
    assertTrue(usageError("--runtimes", "akka").contains("unknown runtime(s): akka"))
    assertTrue(usageError("--iterations", "0").contains("--iterations needs an integer of at least 1"))
    assertTrue(usageError("--warmup").contains("--warmup needs a value"))
    assertTrue(usageError("--frobnicate").contains("unknown option '--frobnicate'"))
    assertTrue(usageError("stray").contains("unexpected argument 'stray'"))
  }

  @Test def aChildRunsExactlyOneBenchmarkOnOneRuntime(): Unit = {
    assertThrows(classOf[Options.UsageError], () => Options.parse(List("--runtime", "cogs"), child = true))
    val o = Options.parse(List("--bench", "pingpong", "--runtime", "pekko"), child = true)
    assertEquals(List("pekko"), o.runtimes)
  }

  @Test def theSummaryHasMediansRatiosAndTheirGeometricMean(): Unit = {
    def s(b: String, rt: String, i: Int, ms: Double, phase: String = "measure") =
      Sample(b, rt, quick = false, phase, i, (ms * 1e6).toLong, "n=1")
    val samples = List(
      s("pingpong", "cogs", 0, 100, "warmup"),
      s("pingpong", "cogs", 0, 2), s("pingpong", "cogs", 1, 4), s("pingpong", "cogs", 2, 3),
      s("pingpong", "pekko", 0, 2), s("pingpong", "pekko", 1, 2),
      s("nqueenk", "cogs", 0, 8), s("nqueenk", "pekko", 0, 4)
    )
    val rows = Report.rows(samples, Suite.savina.map(_._1))
    assertEquals(List("pingpong", "nqueenk"), rows.map(_.benchmark))
    assertEquals(Stats(3, 3.0, 2.0, 4.0), rows.head.stats("cogs"))
    assertEquals(1.5, rows.head.ratio.get, 1e-9)
    assertEquals(2.0, rows(1).ratio.get, 1e-9)
    val md = Report.markdown(rows, List(RunFailure("fib", "pekko", "boom")), List("k" -> "v"))
    assertTrue(md.contains("| pingpong | n=1 | 3.00 | 2.00 | 4.00 | - | - | 2.00 | 2.00 | 2.00 | - | - | 1.500 |"), md)
    assertTrue(md.contains(f"**${math.sqrt(3.0)}%.3f**"), md)
    assertTrue(md.contains("- fib on pekko: boom"), md)
    val csv = Report.csv(samples)
    assertEquals(samples.size + 1, csv.linesIterator.size)
    assertTrue(csv.startsWith("benchmark,runtime,mode,jvm,phase,iteration,millis,cores,gc_ms,collections,steal_ms,params\npingpong,cogs,full,0,warmup,0,100.000,,,,,n=1\n"), csv)
    val svg = Report.svg(rows, "test")
    assertTrue(svg.startsWith("<svg") && svg.trim.endsWith("</svg>"))
    assertTrue(svg.contains(">geometric mean<") && svg.contains(">1.500<"), svg)
  }

  @Test def severalJvmsGiveTheMedianOfTheirMediansAndTheSpread(): Unit = {
    def s(rt: String, jvm: Int, ms: Double, cores: Double = Double.NaN) =
      Sample("pingpong", rt, quick = false, "measure", 0, (ms * 1e6).toLong, "n=1", jvm, cores)
    // Cogs: JVM medians 10, 40, 20 (a slow JVM); Pekko: 10, 12, 11.
    val samples = List(
      s("cogs", 0, 9, 1.0), s("cogs", 0, 11, 1.2), s("cogs", 1, 40, 1.9), s("cogs", 1, 40, 2.0), s("cogs", 2, 20, 1.5),
      s("pekko", 0, 10), s("pekko", 1, 12), s("pekko", 2, 11))
    val rows = Report.rows(samples, Suite.savina.map(_._1))
    val cogs = rows.head.stats("cogs")
    assertEquals(20.0, cogs.median, 1e-9)
    assertEquals(Some(4.0), cogs.spread)
    assertEquals((9.0, 40.0), (cogs.min, cogs.max))
    assertEquals(1.5, cogs.cores.get, 1e-9)
    assertEquals(1.2, rows.head.stats("pekko").spread.get, 1e-9)
    assertEquals(None, rows.head.stats("pekko").cores)
    val md = Report.markdown(rows, Nil, Nil)
    assertTrue(md.contains("| pingpong | n=1 | 20.00 | 9.00 | 40.00 | 4.00 | 1.50 | 11.00 | 10.00 | 12.00 | 1.20 | - | 1.818 |"), md)
    assertTrue(md.contains("Spread on Cogs: largest 4.00 (pingpong)"), md)
    val per = Report.perJvm(samples, Suite.savina.map(_._1))
    assertTrue(per.contains("| pingpong | cogs | 10.00 (1.10), 40.00 (1.95), 20.00 (1.50) |"), per)
    assertEquals("", Report.perJvm(samples.filter(_.jvm == 0), Suite.savina.map(_._1)))
    // With the collectors' time reported, each JVM's cell gives its median gc ms per iteration.
    val withGc = samples.map(x => if (x.runtime == "cogs") x.copy(gcMillis = x.millis / 2, collections = 1) else x)
    val perGc = Report.perJvm(withGc, Suite.savina.map(_._1))
    assertTrue(perGc.contains("| pingpong | cogs | 10.00 (1.10; gc 5), 40.00 (1.95; gc 20), 20.00 (1.50; gc 10) |"), perGc)
    assertTrue(Report.csv(withGc).contains(",cogs,full,1,measure,0,40.000,1.90,20,1,,n=1\n"), Report.csv(withGc))
    // With the host's steal time reported: in the CSV, and in a JVM's cell where it is not zero
    // (JVM 1 is the slow one here: the host took 30 ms of its CPUs per iteration).
    val withSteal = withGc.map(x => if (x.runtime == "cogs") x.copy(stealMillis = if (x.jvm == 1) 30 else 0) else x)
    val perSteal = Report.perJvm(withSteal, Suite.savina.map(_._1))
    assertTrue(perSteal.contains("| pingpong | cogs | 10.00 (1.10; gc 5), 40.00 (1.95; gc 20; steal 30), 20.00 (1.50; gc 10) |"), perSteal)
    assertTrue(Report.csv(withSteal).contains(",cogs,full,1,measure,0,40.000,1.90,20,1,30,n=1\n"), Report.csv(withSteal))
    assertEquals(3, Options.parse(List("--jvms", "3")).jvms)
    assertTrue(usageError("--jvms", "0").contains("--jvms needs an integer of at least 1"))
  }

  /**
   * `--counters` end to end: the Cogs child runs with the scheduler's counters on, and what they
   * count agrees with what pingpong does: every ping is a call sent from a worker (the replies are
   * futures, whose resolution wakes ping when it had parked).
   */
  @Test def countersCountTheMessagesOfAQuickRun(): Unit = {
    val dir = java.nio.file.Files.createTempDirectory("savina-counters-test")
    val opts = Options.parse(List("--bench", "pingpong", "--runtimes", "cogs", "--quick", "--iterations", "2", "--warmup", "0",
      "--counters", "--jvms", "2", "--out", dir.toString, "--timeout", "120"))
    assertEquals(0, Harness.run(opts))
    val lines = java.nio.file.Files.readAllLines(dir.resolve("counters.csv"))
    assertEquals("benchmark,jvm,phase,iteration,counter,count", lines.get(0))
    val counts = lines.subList(1, lines.size).asScala.map(_.split(',')).map(f => ((f(1).toInt, f(3).toInt, f(4)), f(5).toLong)).toMap
    val pings = cogs.savina.pingpong.PingPong.quick.pings.toLong
    for (jvm <- 0 to 1; it <- 0 to 1) {
      def c(n: String) = counts.getOrElse((jvm, it, n), fail(s"no $n for JVM $jvm iteration $it in $lines"))
      assertTrue(c("calls") >= pings, s"calls ${c("calls")} for $pings pings")
      // Every message found its target somewhere, each exactly once.
      assertEquals(c("calls") + c("wakes"), c("toSelf") + c("toSlot") + c("toIdle") + c("toApart") + c("toQueued"))
      assertTrue(c("batches") > 0 && c("slices") >= c("batches"), lines.toString)
    }
    val md = java.nio.file.Files.readString(dir.resolve("results.md"))
    assertTrue(md.contains("## Scheduler counters (Cogs)") && md.contains("## Per JVM"), md)
    // The child's cpu line carries the host's steal time where the system reports it (Linux):
    // every iteration's steal_ms (the field before the parameters) is then a number of ms.
    if (java.nio.file.Files.isReadable(java.nio.file.Paths.get("/proc/stat"))) {
      val rows = java.nio.file.Files.readAllLines(dir.resolve("results.csv")).asScala.drop(1).map(_.split(','))
      assertEquals(4, rows.size, rows.map(_.mkString(",")).mkString("\n"))
      rows.foreach(f => assertTrue(f(10).toDoubleOption.exists(_ >= 0), f.mkString(",")))
    }
  }

  @Test def monitorOptionNeedsAnExistingFile(): Unit = {
    assertTrue(usageError("--monitor", "no/such/file.conf").contains("--monitor: no such file"))
    assertEquals(None, Options.parse(Nil).monitor)
  }

  /** A quick monitored run end to end: child JVM, pipeline per iteration, verdicts and soundness in monitor.csv. */
  @Test def aMonitoredQuickRunIsSoundAndPasses(): Unit = {
    val dir = java.nio.file.Files.createTempDirectory("savina-monitor-test")
    val conf = dir.resolve("monitor.conf")
    java.nio.file.Files.writeString(conf,
      """cogs.monitor {
        |  observe { classes = ["PingImpl", "PongImpl"], methods = ["PongImpl.ping"] }
        |  monitors = [ { property = "call-answered", class = "PongImpl", method = "ping" } ]
        |  statistics { enabled = true }
        |  output { summary = false }
        |}""".stripMargin)
    val opts = Options.parse(List("--bench", "pingpong", "--runtimes", "cogs", "--quick", "--iterations", "2", "--warmup", "0",
      "--monitor", conf.toString, "--out", dir.resolve("out").toString, "--timeout", "120"))
    assertEquals(0, Harness.run(opts))
    val csv = java.nio.file.Files.readAllLines(dir.resolve("out").resolve("monitor.csv"))
    assertEquals("benchmark,runtime,phase,iteration,millis,program_millis,finish_millis,events,sound,violations", csv.get(0))
    assertEquals(3, csv.size, csv.toString)
    // 5,000 pings: each a call, its start, its completion and its future's resolution, at least.
    csv.subList(1, csv.size).forEach { l =>
      val f = l.split(',')
      assertEquals("true", f(8), l)
      assertEquals("0", f(9), l)
      assertTrue(f(7).toLong >= 4 * 5000, l)
    }
    val md = java.nio.file.Files.readString(dir.resolve("out").resolve("results.md"))
    assertTrue(md.contains("## Monitoring (Cogs)") && md.contains("| pingpong |"), md)
  }
}
