package cogs.bench;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread factories and the limits of this machine on platform threads. */
final class Threads {
    private Threads() {}

    /** Daemon platform threads: a stuck baseline must not keep a fork's JVM alive. */
    static ThreadFactory platform(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * {@code Thread.ofVirtual().factory()} on JDK 21 and newer, null before. Looked up
     * reflectively because the module compiles with {@code --release 17}, which has no such API.
     */
    static ThreadFactory virtualOrNull() {
        if (Runtime.version().feature() < 21) {
            return null; // 19 and 20 have it only as a preview feature
        }
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Object factory = Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
            return (ThreadFactory) factory;
        } catch (ReflectiveOperationException e) {
            if (e instanceof InvocationTargetException && e.getCause() instanceof UnsupportedOperationException) {
                return null;
            }
            throw new IllegalStateException("JDK " + Runtime.version() + " should have virtual threads", e);
        }
    }

    /**
     * How many more platform threads this JVM may start without hitting a limit of the machine,
     * with a margin. A JVM that hits one gets {@code OutOfMemoryError: unable to create native
     * thread} in whichever thread tries next (the JIT, the GC, Pekko), which does not fail
     * cleanly, so the thread-based variants check this before they start.
     *
     * <p>On Linux the binding limits are the size of the PID space (every thread takes an id,
     * machine-wide), the kernel's thread limit, the per-user process limit, a cgroup's
     * {@code pids.max}, and the per-process count of memory mappings (each thread stack takes two).
     * Override with {@code -Dcogs.bench.maxPlatformThreads=N}.
     */
    static long platformLimit() {
        Long forced = Long.getLong("cogs.bench.maxPlatformThreads");
        if (forced != null) {
            return forced;
        }
        // Machine-wide limits, shared with every other process's threads.
        long shared = Math.min(Math.min(read("/proc/sys/kernel/pid_max"), read("/proc/sys/kernel/threads-max")),
                Math.min(Math.min(read("/sys/fs/cgroup/pids.max"), read("/sys/fs/cgroup/pids/pids.max")), // v2, v1
                        maxUserProcesses()));
        long mappings = read("/proc/sys/vm/max_map_count"); // per process
        if (shared == Long.MAX_VALUE && mappings == Long.MAX_VALUE) {
            return 10_000; // not Linux: a count that every desktop OS allows
        }
        long limit = shared == Long.MAX_VALUE ? Long.MAX_VALUE : shared - threadsOnMachine();
        if (mappings != Long.MAX_VALUE) {
            limit = Math.min(limit, mappings / 2 - 2_000); // the heap, the libraries, ... take mappings too
        }
        return Math.max(0, limit / 10 * 8); // the rest of the machine keeps starting threads meanwhile
    }

    /** The message of a variant that would need more platform threads than {@link #platformLimit}. */
    static void requirePlatform(String variant, long needed, String why) {
        long limit = platformLimit();
        if (needed > limit) {
            throw new Skipped(variant + " would need up to " + needed + " platform threads (" + why
                    + "), more than this machine allows (about " + limit
                    + "; override with -Dcogs.bench.maxPlatformThreads=N)");
        }
    }

    private static long read(String file) {
        try {
            // Not readString: it trusts the size that /proc reports, and reads one or two bytes.
            String s = String.join(" ", Files.readAllLines(Path.of(file))).trim();
            return s.equals("max") ? Long.MAX_VALUE : Long.parseLong(s);
        } catch (IOException | NumberFormatException | SecurityException e) {
            return Long.MAX_VALUE;
        }
    }

    /** RLIMIT_NPROC from /proc/self/limits ("Max processes  96365  96365  processes"). */
    private static long maxUserProcesses() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/limits"));
            for (String line : lines) {
                if (line.startsWith("Max processes")) {
                    String soft = line.substring("Max processes".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return Long.MAX_VALUE;
    }

    /** Threads that exist on the machine now: the fourth field of /proc/loadavg ("running/total"). */
    private static long threadsOnMachine() {
        try {
            String[] fields = String.join(" ", Files.readAllLines(Path.of("/proc/loadavg"))).trim().split("\\s+");
            return Long.parseLong(fields[3].substring(fields[3].indexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
