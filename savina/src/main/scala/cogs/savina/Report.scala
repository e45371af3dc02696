package cogs.savina

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}
import java.util.Locale

/**
 * One iteration as a child JVM reported it. `jvm` numbers the JVMs of one benchmark and runtime
 * (`--jvms`); `cores` is the JVM's CPU time over the wall time around the iteration (1.0: one
 * core busy), NaN when the JVM could not tell; `gcMillis` and `collections` the garbage collectors'
 * time and count over the same interval (NaN and -1 when not reported); `stealMillis` the host's
 * steal time over it, summed over the machine's CPUs (NaN where the system does not report it).
 */
final case class Sample(benchmark: String, runtime: String, quick: Boolean, phase: String, iteration: Int, nanos: Long, params: String,
                        jvm: Int = 0, cores: Double = Double.NaN, gcMillis: Double = Double.NaN, collections: Int = -1,
                        stealMillis: Double = Double.NaN) {
  def millis: Double = nanos / 1e6
}

/** The scheduler's counts over one iteration of a Cogs child (`--counters`). */
final case class CounterSample(benchmark: String, jvm: Int, phase: String, iteration: Int, counts: Map[String, Long])

/** A benchmark and runtime whose child failed: a wrong answer, an exception, a crash or a timeout. */
final case class RunFailure(benchmark: String, runtime: String, message: String)

/**
 * Median, minimum and maximum of the timed iterations of one benchmark on one runtime
 * (milliseconds). Over several JVMs: the median is the median of the JVMs' medians, and `spread`
 * the slowest JVM's median over the fastest's (None with one JVM). `cores`: the median of the
 * iterations' CPU over wall time (None when not known); `gc`: the median of the iterations'
 * collection time in ms (None when not known); `steal`: the median of the iterations' host steal
 * time in ms (None when not known).
 */
final case class Stats(n: Int, median: Double, min: Double, max: Double, spread: Option[Double] = None, cores: Option[Double] = None,
                       gc: Option[Double] = None, steal: Option[Double] = None)

object Stats {
  /** The statistics of one runtime's timed samples of one benchmark, over however many JVMs ran it. */
  def ofSamples(ss: Seq[Sample]): Stats = {
    val byJvm = ss.groupBy(_.jvm).values.map(js => of(js.map(_.millis)).median).toList
    val all = of(ss.map(_.millis))
    val cs = ss.map(_.cores).filterNot(_.isNaN)
    val gs = ss.map(_.gcMillis).filterNot(_.isNaN)
    val st = ss.map(_.stealMillis).filterNot(_.isNaN)
    all.copy(
      gc = if (gs.isEmpty) None else Some(of(gs).median),
      steal = if (st.isEmpty) None else Some(of(st).median),
      median = if (byJvm.size > 1) of(byJvm).median else all.median,
      spread = if (byJvm.size > 1) Some(byJvm.max / byJvm.min) else None,
      cores = if (cs.isEmpty) None else Some(of(cs).median))
  }

  def of(millis: Seq[Double]): Stats = {
    require(millis.nonEmpty)
    val s = millis.sorted
    val m = s.size
    val median = if (m % 2 == 1) s(m / 2) else (s(m / 2 - 1) + s(m / 2)) / 2
    Stats(m, median, s.head, s.last)
  }

  def geometricMean(xs: Seq[Double]): Double = math.exp(xs.map(math.log).sum / xs.size)
}

/** The harness's outputs: results.csv (every iteration), results.md (summary), ratios.svg (chart). */
object Report {

  /** One summary row: a benchmark and the statistics of each runtime that ran it. */
  final case class Row(benchmark: String, params: String, stats: Map[String, Stats]) {
    /** Median Cogs time over median Pekko time, when both ran. */
    def ratio: Option[Double] = for (c <- stats.get("cogs"); p <- stats.get("pekko")) yield c.median / p.median
  }

  private def fmt(d: Double, digits: Int = 2): String = String.format(Locale.ROOT, s"%.${digits}f", Double.box(d))

  private def csvField(s: String): String =
    if (s.exists(c => c == ',' || c == '"' || c == '\n')) "\"" + s.replace("\"", "\"\"") + "\"" else s

  def csv(samples: Seq[Sample]): String = {
    val sb = new StringBuilder("benchmark,runtime,mode,jvm,phase,iteration,millis,cores,gc_ms,collections,steal_ms,params\n")
    samples.foreach { s =>
      sb ++= List(s.benchmark, s.runtime, if (s.quick) "quick" else "full", s.jvm.toString, s.phase, s.iteration.toString,
        fmt(s.millis, 3), if (s.cores.isNaN) "" else fmt(s.cores, 2), if (s.gcMillis.isNaN) "" else fmt(s.gcMillis, 0),
        if (s.collections < 0) "" else s.collections.toString, if (s.stealMillis.isNaN) "" else fmt(s.stealMillis, 0),
        csvField(s.params)).mkString(",")
      sb += '\n'
    }
    sb.toString
  }

  def rows(samples: Seq[Sample], order: Seq[String]): List[Row] = {
    val measured = samples.filter(_.phase == "measure")
    order.toList.flatMap { b =>
      val mine = measured.filter(_.benchmark == b)
      if (mine.isEmpty) None
      else {
        val stats = mine.groupBy(_.runtime).map { case (rt, ss) => rt -> Stats.ofSamples(ss) }
        Some(Row(b, mine.head.params, stats))
      }
    }
  }

  def markdown(rows: List[Row], failures: Seq[RunFailure], header: List[(String, String)]): String = {
    val sb = new StringBuilder
    sb ++= "# Savina: Cogs and Apache Pekko side by side\n\n"
    header.foreach { case (k, v) => sb ++= s"- $k: $v\n" }
    sb ++= "\nTimes in milliseconds per iteration: median, min and max over the timed iterations (with several JVMs\n"
    sb ++= "per benchmark and runtime, the median of the JVMs' medians). Spread: the slowest JVM's median over the\n"
    sb ++= "fastest's (- with one JVM). Cores: CPU time over wall time during an iteration, median (1.0: one core\n"
    sb ++= "busy). Ratio = Cogs median / Pekko median: below 1 means Cogs was faster.\n\n"
    sb ++= "| benchmark | parameters | Cogs median | Cogs min | Cogs max | Cogs spread | Cogs cores | Pekko median | Pekko min | Pekko max | Pekko spread | Pekko cores | Cogs/Pekko |\n"
    sb ++= "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    rows.foreach { r =>
      def cells(rt: String): String = r.stats.get(rt) match {
        case Some(s) => s"${fmt(s.median)} | ${fmt(s.min)} | ${fmt(s.max)} | ${s.spread.map(fmt(_)).getOrElse("-")} | ${s.cores.map(fmt(_)).getOrElse("-")}"
        case None    => "- | - | - | - | -"
      }
      sb ++= s"| ${r.benchmark} | ${r.params} | ${cells("cogs")} | ${cells("pekko")} | ${r.ratio.map(fmt(_, 3)).getOrElse("-")} |\n"
    }
    val ratios = rows.flatMap(_.ratio)
    sb ++= "\n"
    if (ratios.nonEmpty)
      sb ++= s"Geometric mean of the ratios (${ratios.size} benchmark${if (ratios.size == 1) "" else "s"}): **${fmt(Stats.geometricMean(ratios), 3)}**\n"
    else sb ++= "No ratios: run both runtimes to compare them.\n"
    for (rt <- List("cogs", "pekko")) {
      val spreads = rows.flatMap(r => r.stats.get(rt).flatMap(_.spread).map(r.benchmark -> _))
      if (spreads.nonEmpty) {
        val (worst, w) = spreads.maxBy(_._2)
        sb ++= s"Spread on ${if (rt == "cogs") "Cogs" else "Pekko"}: largest ${fmt(w)} ($worst), median ${fmt(Stats.of(spreads.map(_._2)).median)}\n"
      }
    }
    if (failures.nonEmpty) {
      sb ++= "\n## Failed runs\n\n"
      failures.foreach(f => sb ++= s"- ${f.benchmark} on ${f.runtime}: ${f.message}\n")
    }
    sb.toString
  }

  /** Each JVM's median and cores, per benchmark and runtime: the modes a spread comes from. Empty with one JVM each. */
  def perJvm(samples: Seq[Sample], order: Seq[String]): String = {
    val measured = samples.filter(_.phase == "measure")
    if (!measured.groupBy(s => (s.benchmark, s.runtime)).values.exists(_.map(_.jvm).distinct.size > 1)) return ""
    val sb = new StringBuilder("\n## Per JVM\n\nEach JVM's median in ms (and its cores; its median garbage-collection ms per iteration; the host's median steal ms per iteration, where the system reports it and it was not zero), in the order the JVMs ran.\n\n")
    sb ++= "| benchmark | runtime | JVMs |\n| --- | --- | --- |\n"
    for (b <- order; rt <- Runtimes.names) {
      val mine = measured.filter(s => s.benchmark == b && s.runtime == rt)
      if (mine.nonEmpty) {
        val cells = mine.groupBy(_.jvm).toList.sortBy(_._1).map { case (_, ss) =>
          val st = Stats.ofSamples(ss)
          val steal = st.steal.filter(_ > 0).map(x => s"; steal ${fmt(x, 0)}").getOrElse("")
          fmt(st.median) + st.cores.map(c => s" (${fmt(c)}${st.gc.map(g => s"; gc ${fmt(g, 0)}").getOrElse("")}$steal)").getOrElse("")
        }
        sb ++= s"| $b | $rt | ${cells.mkString(", ")} |\n"
      }
    }
    sb.toString
  }

  /** Every counter of every iteration (`--counters`). */
  def countersCsv(cs: Seq[CounterSample]): String = {
    val sb = new StringBuilder("benchmark,jvm,phase,iteration,counter,count\n")
    cs.foreach(c => c.counts.toList.sortBy(_._1).foreach { case (k, v) => sb ++= s"${c.benchmark},${c.jvm},${c.phase},${c.iteration},$k,$v\n" })
    sb.toString
  }

  /**
   * The scheduler's counters per Cogs JVM (medians over its timed iterations) beside that JVM's
   * median time and cores, so that fast and slow JVMs can be compared: where each message found
   * its target (percentages of calls and wake-ups), hand-offs and slices per batch, steals, flushes.
   */
  def countersMarkdown(cs: Seq[CounterSample], samples: Seq[Sample], order: Seq[String]): String = {
    val timed = cs.filter(_.phase == "measure")
    if (timed.isEmpty) return ""
    val sb = new StringBuilder("\n## Scheduler counters (Cogs)\n\n")
    sb ++= "Per JVM, medians over the timed iterations. Messages: calls and wake-ups sent from workers; where the\n"
    sb ++= "target was: self (the sender's COG), slot (the sender's hand-off slot), idle (activated by it), apart\n"
    sb ++= "(running on another worker), queued (scheduled, not running). See savina/README.md.\n\n"
    sb ++= "| benchmark | JVM | median ms | cores | messages | self % | slot % | idle % | apart % | queued % | hand-offs/batch | slices/batch | forks | flushes | steals |\n"
    sb ++= "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    def med(xs: Seq[Double]): Double = if (xs.isEmpty) Double.NaN else Stats.of(xs).median
    for (b <- order) {
      timed.filter(_.benchmark == b).groupBy(_.jvm).toList.sortBy(_._1).foreach { case (jvm, its) =>
        def c(name: String): Seq[Double] = its.map(_.counts.getOrElse(name, 0L).toDouble)
        val msgs = its.map(i => (i.counts.getOrElse("calls", 0L) + i.counts.getOrElse("wakes", 0L)).toDouble)
        def pct(name: String): String = {
          val xs = its.map { i =>
            val m = i.counts.getOrElse("calls", 0L) + i.counts.getOrElse("wakes", 0L)
            if (m == 0) Double.NaN else 100.0 * i.counts.getOrElse(name, 0L) / m
          }.filterNot(_.isNaN)
          if (xs.isEmpty) "-" else fmt(med(xs), 1)
        }
        def perBatch(name: String): String = {
          val xs = its.flatMap { i => val bt = i.counts.getOrElse("batches", 0L); if (bt == 0) None else Some(i.counts.getOrElse(name, 0L).toDouble / bt) }
          if (xs.isEmpty) "-" else fmt(med(xs), 2)
        }
        val st = samples.filter(s => s.benchmark == b && s.runtime == "cogs" && s.jvm == jvm && s.phase == "measure")
        val (ms, cores) = if (st.isEmpty) ("-", "-") else { val x = Stats.ofSamples(st); (fmt(x.median), x.cores.map(fmt(_)).getOrElse("-")) }
        sb ++= s"| $b | $jvm | $ms | $cores | ${med(msgs).toLong} | ${pct("toSelf")} | ${pct("toSlot")} | ${pct("toIdle")} | ${pct("toApart")} | ${pct("toQueued")} | " +
          s"${perBatch("handOffs")} | ${perBatch("slices")} | ${med(c("forks")).toLong} | ${med(c("flushes")).toLong} | ${med(c("steals")).toLong} |\n"
      }
    }
    sb.toString
  }

  private def esc(s: String): String = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")

  /**
   * A horizontal bar per benchmark (its ratio), the geometric mean last, on a logarithmic axis
   * centred on 1.0: bars to the left (green) are benchmarks where Cogs was faster, to the right
   * (red) where it was slower; 0.5 and 2 are the same distance from the centre.
   */
  def svg(rows: List[Row], subtitle: String): String = {
    val bars: List[(String, Double)] = {
      val rs = rows.flatMap(r => r.ratio.map(r.benchmark -> _))
      if (rs.isEmpty) Nil else rs :+ ("geometric mean" -> Stats.geometricMean(rs.map(_._2)))
    }
    val labelW = 150
    val plotW = 520
    val rightW = 70
    val barH = 20
    val gap = 6
    val top = 56
    val width = labelW + plotW + rightW
    val rowsH = math.max(1, bars.size) * (barH + gap)
    val height = top + rowsH + 44
    // Symmetric range in log2 around 1.0, at least 0.5 .. 2, in whole powers of two.
    val extent = math.max(1, bars.map(b => math.ceil(math.abs(math.log(b._2) / math.log(2)) + 0.05).toInt).foldLeft(1)(math.max))
    def x(r: Double): Double = labelW + plotW / 2.0 + (math.log(r) / math.log(2)) / extent * (plotW / 2.0 - 30)
    val sb = new StringBuilder
    sb ++= s"""<svg xmlns="http://www.w3.org/2000/svg" width="$width" height="$height" viewBox="0 0 $width $height" font-family="sans-serif" font-size="12">\n"""
    sb ++= s"""<rect width="$width" height="$height" fill="white"/>\n"""
    sb ++= s"""<text x="${width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">Savina: Cogs time / Pekko time (left of 1: Cogs faster)</text>\n"""
    sb ++= s"""<text x="${width / 2}" y="38" text-anchor="middle" fill="#555">${esc(subtitle)}</text>\n"""
    if (bars.isEmpty)
      sb ++= s"""<text x="${width / 2}" y="${top + 14}" text-anchor="middle">no ratios: both runtimes must run</text>\n"""
    val axisY = top + rowsH
    // Grid lines at the powers of two.
    for (e <- -extent to extent) {
      val r = math.pow(2, e)
      val gx = fmt(x(r), 1)
      val label = if (e >= 0) fmt(r, 0) else s"1/${fmt(1 / r, 0)}"
      sb ++= s"""<line x1="$gx" y1="${top - 4}" x2="$gx" y2="$axisY" stroke="${if (e == 0) "black" else "#ddd"}"${if (e == 0) "" else " stroke-dasharray=\"3,3\""}/>\n"""
      sb ++= s"""<text x="$gx" y="${axisY + 16}" text-anchor="middle">$label</text>\n"""
    }
    sb ++= s"""<text x="${fmt(x(1.0), 1)}" y="${axisY + 32}" text-anchor="middle" fill="#555">ratio (log scale)</text>\n"""
    bars.zipWithIndex.foreach { case ((name, r), i) =>
      val y = top + i * (barH + gap)
      val last = name == "geometric mean" && i == bars.size - 1
      val colour = if (r <= 1.0) "#3a7d44" else "#c0504d"
      val (x0, x1) = if (r <= 1.0) (x(r), x(1.0)) else (x(1.0), x(r))
      val weight = if (last) " font-weight=\"bold\"" else ""
      sb ++= s"""<text x="${labelW - 8}" y="${y + barH - 6}" text-anchor="end"$weight>${esc(name)}</text>\n"""
      sb ++= s"""<rect x="${fmt(x0, 1)}" y="$y" width="${fmt(math.max(1.0, x1 - x0), 1)}" height="$barH" fill="$colour"${if (last) " stroke=\"black\"" else ""}/>\n"""
      val (tx, anchor) = if (r <= 1.0) (x(r) - 5, "end") else (x(r) + 5, "start")
      sb ++= s"""<text x="${fmt(tx, 1)}" y="${y + barH - 6}" text-anchor="$anchor"$weight>${fmt(r, 3)}</text>\n"""
    }
    sb ++= "</svg>\n"
    sb.toString
  }

  def write(file: Path, text: String): Unit = {
    val path = file.toAbsolutePath
    Files.createDirectories(path.getParent)
    val tmp = path.resolveSibling(path.getFileName.toString + ".tmp")
    Files.write(tmp, text.getBytes(UTF_8))
    Files.move(tmp, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE)
  }
}
