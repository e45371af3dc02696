package cogs.runtime;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.TestInfo;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.TestGrading;
import org.openjdk.jcstress.infra.runners.TestList;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the jcstress tests of the lock-free hand-offs ({@code JcstressCogCore}, {@code JcstressFutCore},
 * {@code JcstressRegistry}, {@code cogs.runtime.internal.JcstressWorkerPool},
 * {@code JcstressProcessCore}) inside {@code mvn verify}, and fails if any outcome marked FORBIDDEN
 * was observed, if any test ended in an error (VM crash, timeout, exception), or if a test that this
 * machine can schedule did not run.
 *
 * <p>jcstress runs each test in forked JVMs started with this JVM's class path
 * ({@code java.class.path}: surefire's manifest-only booter jar, whose Class-Path names the test
 * classes and every dependency) and its input arguments. Its annotation processor (configured in
 * runtime/pom.xml) generated the runners and {@code META-INF/TestList} at test-compile time.
 *
 * <p>Knobs (system properties, e.g. {@code mvn verify -Dcogs.jcstress.mode=tough}):
 * <ul>
 *   <li>{@code cogs.jcstress.mode}: jcstress preset, default {@code quick} (200 ms x 5 iterations per
 *       fork); {@code sanity} only checks the tests run, {@code default}/{@code tough}/{@code stress}
 *       run much longer.</li>
 *   <li>{@code cogs.jcstress.forks}: forks per test and VM configuration, default 2 (1 on JDK 17,
 *       where jcstress doubles every configuration with and without biased locking).</li>
 *   <li>{@code cogs.jcstress.jvmArgs}: the single VM configuration of the forks, default
 *       {@link #C2_RANDOMIZED}; {@code auto} lets jcstress use every configuration it detects
 *       (interpreter, C1, C2, C2 randomised; on JDK 17 each with and without biased locking, so
 *       8 forks per test: about 4 times longer).</li>
 *   <li>{@code cogs.jcstress.args}: extra jcstress options, space separated, e.g.
 *       {@code -sc true} for per-actor split compilation (9 compile modes per 2-actor test).</li>
 *   <li>{@code cogs.jcstress.tests}: regexp of test names, default all of ours.</li>
 *   <li>{@code cogs.jcstress.skip=true}: skip.</li>
 * </ul>
 * The default (about a minute on 2 CPUs) is sized for every {@code mvn verify}; raise the mode or
 * the forks for a soak. Console output goes to {@code target/jcstress/console.log}, the HTML
 * report and the binary results to {@code target/jcstress/}.
 */
class JcstressRunTest {

    private static final String OUR_TESTS = "^cogs\\.runtime\\.(internal\\.)?Jcstress";

    /**
     * The one VM configuration of the default run: tiered compilation (so each fork runs the actors
     * interpreted, then C1-, then C2-compiled) with C2's randomising stress flags, which reorder
     * what C2 may legally reorder differently in every fork. Ignored where unrecognised.
     */
    private static final String C2_RANDOMIZED = "-XX:+IgnoreUnrecognizedVMOptions -XX:+UnlockDiagnosticVMOptions "
            + "-XX:+StressLCM -XX:+StressGCM -XX:+StressIGVN -XX:+StressCCP";

    @Test
    void lockFreeHandOffsPassJcstress() throws Exception {
        Assumptions.assumeFalse(Boolean.getBoolean("cogs.jcstress.skip"), "cogs.jcstress.skip=true");

        Path base = Paths.get(System.getProperty("basedir", "")).toAbsolutePath(); // surefire sets basedir
        Path dir = base.resolve("target").resolve("jcstress");
        Files.createDirectories(dir);
        String filter = System.getProperty("cogs.jcstress.tests", OUR_TESTS);
        List<String> args = new ArrayList<>(Arrays.asList(
                "-m", System.getProperty("cogs.jcstress.mode", "quick"),
                "-t", filter,
                "-r", dir + File.separator,
                "-sc", "false",
                "-f", System.getProperty("cogs.jcstress.forks", defaultForks())));
        String jvmArgs = System.getProperty("cogs.jcstress.jvmArgs", C2_RANDOMIZED).trim();
        if (!jvmArgs.equals("auto")) args.addAll(Arrays.asList("-jvmArgs", jvmArgs));
        String extra = System.getProperty("cogs.jcstress.args", "").trim();
        if (!extra.isEmpty()) args.addAll(Arrays.asList(extra.split("\\s+")));

        // Which of our tests exist (from the generated META-INF/TestList).
        Pattern p = Pattern.compile(filter);
        TreeMap<String, Integer> declared = new TreeMap<>();
        for (String t : TestList.tests()) if (p.matcher(t).find()) declared.put(t, TestList.getInfo(t).threads());
        assertTrue(!declared.isEmpty(), "no jcstress test matches " + filter
                + ": was the jcstress annotation processor run at test-compile time (META-INF/TestList)?");

        // Run, with jcstress's chatty console sent to a file.
        Path console = dir.resolve("console.log");
        PrintStream realOut = System.out;
        String runFailure = null;
        Options opts = new Options(args.toArray(new String[0]));
        InProcessCollector collector = new InProcessCollector();
        long t0 = System.nanoTime();
        try (PrintStream log = new PrintStream(new FileOutputStream(console.toFile()), true, "UTF-8")) {
            System.setOut(log);
            if (!opts.parse()) fail("jcstress rejected the options " + args + "; see " + console);
            try {
                new JCStress(opts).run();
            } catch (AssertionError e) {
                // JCStress.run's own verdict (ExceptionReportPrinter); we grade the results below too.
                runFailure = e.getMessage();
            }
        } finally {
            System.setOut(realOut);
            // jcstress writes its binary results to the working directory: read them, and keep them
            // under target/ whatever happened, so that no stray file is left in the module.
            String name = opts.getResultFile();
            File resultFile = name == null ? null : new File(name);
            if (resultFile != null && resultFile.exists()) {
                try {
                    DiskReadCollector reader = new DiskReadCollector(resultFile.getPath(), collector);
                    try {
                        reader.dump();
                    } finally {
                        reader.close();
                    }
                } finally {
                    Files.move(resultFile.toPath(), dir.resolve(resultFile.getName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;

        // Aggregate over forks and VM configurations, test by test.
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        Map<String, Integer> runs = new TreeMap<>();
        for (TestResult r : collector.getTestResults()) {
            String name = r.getName();
            String config = String.valueOf(r.getConfig().jvmArgs);
            runs.merge(name, 1, Integer::sum);
            Map<String, Long> c = counts.computeIfAbsent(name, k -> new TreeMap<>());
            for (String s : r.getStateKeys()) c.merge(s, r.getCount(s), Long::sum);
            if (r.status() != Status.NORMAL) {
                problems.add(name + " " + config + ": " + r.status() + " " + r.getMessages() + " " + r.getVmErr());
            } else {
                TestGrading g = r.grading();
                if (!g.isPassed) for (String m : g.failureMessages) problems.add(name + " " + config + ": " + m);
            }
        }

        // Report.
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("jcstress (%s, %d s, %d CPUs, results in %s):%n", args, seconds, opts.getCPUCount(), dir));
        sb.append(String.format("  %-70s %s%n", "test", "forked runs; then outcome, samples, grading"));
        for (Map.Entry<String, Integer> e : declared.entrySet()) {
            String name = e.getKey();
            Map<String, Long> c = counts.get(name);
            if (c == null) {
                sb.append(String.format("  %-70s NOT RUN (%d actors)%n", shortName(name), e.getValue()));
                continue;
            }
            TestInfo info = TestList.getInfo(name);
            sb.append(String.format("  %-70s %d%n", shortName(name), runs.get(name)));
            for (Map.Entry<String, Long> s : c.entrySet()) {
                String expect = info.cases().stream().filter(sc -> sc.matchesExactly(s.getKey())).findFirst()
                        .or(() -> info.cases().stream().filter(sc -> sc.matches(s.getKey())).findFirst())
                        .map(sc -> sc.expect().toString()).orElse("UNMATCHED");
                sb.append(String.format("      %-28s %,15d  %s%n", s.getKey(), s.getValue(), expect));
            }
        }
        realOut.print(sb);

        // Verdict.
        if (runFailure != null) problems.add("jcstress: " + runFailure.trim());
        TreeSet<String> missing = new TreeSet<>();
        TreeSet<String> unschedulable = new TreeSet<>();
        for (Map.Entry<String, Integer> e : declared.entrySet()) {
            if (counts.containsKey(e.getKey()) && counts.get(e.getKey()).values().stream().mapToLong(Long::longValue).sum() > 0) continue;
            // jcstress runs a test only if it can give each actor a CPU (and core) of its own; this
            // project's machines have 2, so tests with more actors are a bonus on bigger machines.
            if (e.getValue() <= 2 && e.getValue() <= opts.getCPUCount()) missing.add(shortName(e.getKey()));
            else unschedulable.add(shortName(e.getKey()));
        }
        if (!unschedulable.isEmpty())
            realOut.println("jcstress: not scheduled on " + opts.getCPUCount() + " CPUs (needs one per actor): "
                    + unschedulable + "; StressHandOffTest covers these hand-offs with plain threads.");
        if (!missing.isEmpty()) problems.add("jcstress tests that did not run: " + missing + "; see " + console);
        if (counts.isEmpty()) problems.add("jcstress ran no test at all; see " + console + "\n" + tail(console));
        if (!problems.isEmpty()) fail(String.join("\n", problems) + "\n\n" + sb);
    }

    /**
     * Two forks per test in all: where {@code UseBiasedLocking} still exists (JDK 17 and older)
     * jcstress runs every VM configuration twice, with and without it, so one fork each suffices.
     */
    private static String defaultForks() {
        return Runtime.version().feature() < 18 ? "1" : "2";
    }

    private static String shortName(String test) {
        return test.startsWith("cogs.runtime.") ? test.substring("cogs.runtime.".length()) : test;
    }

    private static String tail(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
