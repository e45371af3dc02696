package cogs.distributed.bench

import java.nio.file.{Files, Path, Paths}
import scala.jdk.CollectionConverters._
import scala.util.Try

/**
 * Linux's per-thread scheduler counters of a JVM (`/proc/PID/task/TID/schedstat` and `status`),
 * for finding where a round trip's time goes (docs/distributed.md, "Where the idle gap goes"):
 * how often each kind of thread was switched in (each time a parked thread is woken to take a
 * message is one), how long it ran, and how long it waited for a core after being woken. A
 * diagnostic of the benchmarks (`-Dcogs.bench.threads=true`), not a measurement of throughput.
 */
object ThreadCounters {
  /** One thread: CPU time and run-queue wait (ns), times switched in, voluntary and involuntary switches. */
  final case class Counts(name: String, cpu: Long, queued: Long, slices: Long, vol: Long, invol: Long) {
    def -(o: Counts): Counts = Counts(name, cpu - o.cpu, queued - o.queued, slices - o.slices, vol - o.vol, invol - o.invol)
    def +(o: Counts): Counts = Counts(name, cpu + o.cpu, queued + o.queued, slices + o.slices, vol + o.vol, invol + o.invol)
  }

  val enabled: Boolean = java.lang.Boolean.getBoolean("cogs.bench.threads")

  /** Every thread of process `pid`, by thread id (empty where /proc has no such file). */
  def snapshot(pid: Long): Map[Long, Counts] = {
    val dir = Paths.get(s"/proc/$pid/task")
    if (!Files.isDirectory(dir)) return Map.empty
    val tasks = Try(Files.list(dir).iterator().asScala.toList).getOrElse(Nil)
    tasks.flatMap { t => Try(read(t)).toOption.map(t.getFileName.toString.toLong -> _) }.toMap
  }

  private def read(t: Path): Counts = {
    val name = new String(Files.readAllBytes(t.resolve("comm"))).trim
    val s = new String(Files.readAllBytes(t.resolve("schedstat"))).trim.split("\\s+").map(_.toLong)
    val status = Files.readAllLines(t.resolve("status")).asScala
    def field(k: String) = status.find(_.startsWith(k)).map(_.split("\\s+")(1).toLong).getOrElse(0L)
    Counts(name, s(0), s(1), s(2), field("voluntary_ctxt_switches:"), field("nonvoluntary_ctxt_switches:"))
  }

  /** A thread's kind: its name (as /proc keeps it, 15 characters) with numbers as `#` (`cogs-worker-3` and `cogs-worker-4` are one kind). */
  private def kind(name: String): String = name.replaceAll("\\d+", "#")

  /**
   * The JVM's own names of its threads by native id (`jcmd PID Thread.print`, `nid=0x..`): /proc
   * keeps 15 characters, which make Pekko's default and internal dispatchers one name. Empty if
   * jcmd is not there.
   */
  def javaNames(pid: Long): Map[Long, String] = Try {
    val p = new ProcessBuilder("jcmd", pid.toString, "Thread.print").redirectErrorStream(true).start()
    val lines = scala.io.Source.fromInputStream(p.getInputStream).getLines().toList
    p.waitFor()
    val Line = "^\"([^\"]*)\".*nid=0x([0-9a-f]+).*".r
    lines.collect { case Line(name, nid) => java.lang.Long.parseLong(nid, 16) -> name }.toMap
  }.getOrElse(Map.empty)

  /** What each kind of thread did between two snapshots (threads born in between counted from zero). */
  def delta(before: Map[Long, Counts], after: Map[Long, Counts], names: Map[Long, String] = Map.empty): Map[String, Counts] =
    after.toSeq.map { case (tid, a) => (a - before.getOrElse(tid, Counts(a.name, 0, 0, 0, 0, 0))).copy(name = names.getOrElse(tid, a.name)) }
      .groupBy(c => kind(c.name))
      .map { case (k, cs) => k -> cs.reduce(_ + _) }

  /**
   * Lines per kind of thread that was switched in at least 0.05 times per round trip: switches in
   * per round trip, CPU µs per round trip, run-queue wait µs per round trip.
   */
  def report(label: String, roundTrips: Long, d: Map[String, Counts]): String = {
    val n = math.max(roundTrips, 1L).toDouble
    val rows = d.toSeq.filter(_._2.slices / n >= 0.05).sortBy(-_._2.slices)
    val total = if (d.isEmpty) Counts("", 0, 0, 0, 0, 0) else d.values.reduce(_ + _)
    (f"#   $label: $roundTrips round trips; per round trip: ${total.slices / n}%.2f switches in, ${total.cpu / n / 1000}%.0f µs CPU, ${total.queued / n / 1000}%.0f µs waiting for a core" +:
      rows.map { case (k, c) =>
        f"#     $k%-40s ${c.slices / n}%6.2f in  ${c.vol / n}%6.2f vol  ${c.invol / n}%5.2f invol  ${c.cpu / n / 1000}%7.1f µs CPU  ${c.queued / n / 1000}%7.1f µs wait"
      }).mkString("\n")
  }
}
