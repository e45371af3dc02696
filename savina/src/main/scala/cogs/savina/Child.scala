package cogs.savina

/**
 * One benchmark on one runtime in this JVM: `iterations` timed iterations after `warmup` untimed
 * ones, every one verified. The harness starts one per benchmark and runtime, so that each
 * measures a JVM that ran nothing else (JIT profiles, heap and threads of its own).
 *
 * {{{
 * java -cp CLASSPATH cogs.savina.Child --bench NAME --runtime cogs|pekko [--iterations N] [--warmup N] [--quick] [--threads N]
 * }}}
 *
 * Standard output, one line per event, for the harness to read:
 * {{{
 * params <the parameters>
 * warmup <i> <nanoseconds> <answer>
 * measure <i> <nanoseconds> <answer>
 * monitor <phase> <i> <program nanoseconds> <events> <sound> <violations>   (with --monitor, on Cogs)
 * cpu <phase> <i> <cpu ns> <wall ns> <gc ms> <gc count> <steal ms>   (the JVM's CPU time, all threads,
 *                                      the wall time, the collectors' time and count, and the time the
 *                                      host's hypervisor ran something else on this machine's CPUs
 *                                      (/proc/stat's steal, -1 where there is none) over the same interval
 *                                      around the iteration; after its iteration line)
 * counters <phase> <i> <name>=<count> ...   (Cogs in a JVM started with -Dcogs.scheduler.counters=true: the
 *                                            scheduler's counts over the iteration, see savina/README.md)
 * error <message>          (then exit status 1)
 * }}}
 * Exit status: 0 when every iteration gave the right answer, 1 when one did not (or failed),
 * 2 on bad options.
 */
object Child {

  def main(args: Array[String]): Unit = {
    val opts =
      try Options.parse(args.toList, child = true)
      catch {
        case e: Options.UsageError =>
          System.err.println(s"savina child: ${e.getMessage}")
          sys.exit(2)
      }
    val bench = opts.benchmarks.head
    val runtime = opts.runtimes.head
    val out = System.out
    out.println(s"params ${bench.describe(opts.quick)}")
    out.flush()
    val env = new Runtimes(opts.threads, opts.monitor)
    val cpu = java.lang.management.ManagementFactory.getOperatingSystemMXBean match {
      case os: com.sun.management.OperatingSystemMXBean => Some(os)
      case _                                            => None
    }
    // The collectors' accumulated time and count (JVM-wide): a young collection that copies the
    // messages in flight is what separates a slow JVM from a fast one in count (sixteenth session).
    val collectors = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans
    def gcTotals(): (Long, Long) = {
      var ms, n = 0L
      collectors.forEach { c => ms += math.max(0L, c.getCollectionTime); n += math.max(0L, c.getCollectionCount) }
      (ms, n)
    }
    // The host's steal time, summed over this machine's CPUs (the first line of /proc/stat, its
    // eighth number, in ticks of 1/100 s: USER_HZ on Linux). A JVM that is slow because the
    // hypervisor gave its vCPUs to another guest shows it here, not in its own CPU time.
    def stealTicks(): Long =
      try {
        val line = java.nio.file.Files.readAllLines(java.nio.file.Paths.get("/proc/stat")).get(0).trim.split("\\s+")
        if (line.length > 8 && line(0) == "cpu") line(8).toLong else -1L
      } catch { case _: Exception => -1L }
    var counted: Map[String, Long] = Map.empty
    val status =
      try {
        var i = 0
        while (i < opts.warmup + opts.iterations) {
          val wallBefore = System.nanoTime()
          val cpuBefore = cpu.map(_.getProcessCpuTime).getOrElse(-1L)
          val (gcMsBefore, gcBefore) = gcTotals()
          val stealBefore = stealTicks()
          val r = bench.run(runtime, opts.quick, env)
          val cpuAfter = cpu.map(_.getProcessCpuTime).getOrElse(-1L)
          val (gcMsAfter, gcAfter) = gcTotals()
          val stealAfter = stealTicks()
          val stealMs = if (stealBefore >= 0 && stealAfter >= 0) (stealAfter - stealBefore) * 10 else -1L
          val wall = System.nanoTime() - wallBefore
          val phase = if (i < opts.warmup) "warmup" else "measure"
          val index = if (i < opts.warmup) i else i - opts.warmup
          out.println(s"$phase $index ${r.nanos} ${oneLine(r.answer)}")
          if (cpuBefore >= 0 && cpuAfter >= 0) out.println(s"cpu $phase $index ${cpuAfter - cpuBefore} $wall ${gcMsAfter - gcMsBefore} ${gcAfter - gcBefore} $stealMs")
          if (runtime == "cogs") {
            val now = env.cogs.schedulerCounters
            if (now.nonEmpty) {
              out.println(s"counters $phase $index " + now.toList.sortBy(_._1).map { case (k, v) =>
                s"$k=${if (k == "workers") v else v - counted.getOrElse(k, 0L)}"
              }.mkString(" "))
              counted = now
            }
          }
          r.monitor.foreach { m =>
            out.println(s"monitor $phase $index ${m.programNanos} ${m.events} ${m.sound} ${m.violations}")
            // A violation, or a trace that is not complete and in order, fails the run as a wrong answer does.
            if (!m.ok) {
              System.err.print(m.summary)
              throw new VerificationFailed(s"monitor: ${m.violations} violation(s), trace ${if (m.sound) "sound" else "NOT sound"}")
            }
          }
          out.flush()
          i += 1
        }
        0
      } catch {
        case e: Throwable =>
          out.println(s"error ${oneLine(String.valueOf(e.getMessage))}")
          out.flush()
          System.err.println(s"savina child: ${bench.name} on $runtime failed:")
          e.printStackTrace()
          1
      } finally {
        try env.close()
        catch { case e: Throwable => System.err.println(s"savina child: closing the runtimes: $e") }
      }
    sys.exit(status)
  }

  private def oneLine(s: String): String = {
    val flat = s.replaceAll("\\s+", " ").trim
    if (flat.length > 300) flat.take(300) + "..." else flat
  }
}
