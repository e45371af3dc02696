package cogs.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Wall time, CPU time and allocation of the whole process per run of one {@code AwaitChain} variant, outside
 * JMH: {@code java -cp target/benchmarks.jar cogs.bench.CpuPerRun VARIANT N [WARMUP RUNS]}.
 *
 * <p>For a shared, loaded machine, where JMH's wall-clock scores of a 2-core program swing by
 * several times from one iteration to the next: the CPU time a run consumes (all threads, GC
 * and JIT included) changes much less with other people's load than its wall time, so comparing
 * two builds by it, run after run in turn, still says something. It is no substitute for JMH on a
 * quiet machine, and it favours nothing: a variant that waits costs no CPU, one that spins does.
 */
public final class CpuPerRun {
    private CpuPerRun() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: CpuPerRun VARIANT N [WARMUP RUNS]   (variants: " + AwaitChainBench.VARIANTS + ")");
            System.exit(2);
        }
        String variant = args[0];
        int n = Integer.parseInt(args[1]);
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int runs = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double[] wall = new double[runs];
        double[] cpu = new double[runs];
        long allocated = 0;
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Workload w = AwaitChainBench.workload(variant, n)) {
            for (int i = 0; i < warmup + runs; i++) {
                w.prepare();
                long a0 = allocatedBytes(threads);
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                w.run();
                long t1 = System.nanoTime();
                long c1 = os.getProcessCpuTime();
                long a1 = allocatedBytes(threads);
                w.check();
                if (i >= warmup) {
                    wall[i - warmup] = (t1 - t0) / 1e6;
                    cpu[i - warmup] = (c1 - c0) / 1e6;
                    allocated += a1 - a0;
                }
            }
        }
        // The process CPU clock may tick in 10 ms steps: per run only its mean means something.
        // Bytes allocated by the live platform threads: right for Cogs and Pekko (pools that live across
        // runs), not for the designs that start a thread per call.
        System.out.printf("%s n=%d runs=%d median wall %.3f ms, mean cpu %.3f ms, allocated %.0f bytes per call%n",
                variant, n, runs, median(wall), Arrays.stream(cpu).sum() / runs, allocated / (double) runs / n);
    }

    /** What the live platform threads have allocated so far (the pools' threads live across runs). */
    private static long allocatedBytes(com.sun.management.ThreadMXBean threads) {
        long sum = 0;
        for (long b : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            if (b > 0) sum += b;
        }
        return sum;
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
