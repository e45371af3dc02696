package cogs.bench;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import cogs.runtime.DeploymentComponent;
import cogs.runtime.SimTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Timed ABS on the simulated clock: N objects each take S steps, side by side with the same
 * steps without the clock.
 *
 * <ul>
 *   <li>{@code await}: each step is {@code await duration(1, 1)}: every object sleeps one time
 *       unit, so each of the S clock advances wakes all N processes (N x S wake-ups). The time
 *       per advance is the score over S.
 *   <li>{@code suspend} (the baseline): each step is {@code suspend}, the same number of
 *       scheduling points with no clock; {@code await} over {@code suspend} is the price of the
 *       clock per wake-up.
 *   <li>{@code cost}: the objects sit on 10 deployment components of Speed N/10 and each step is
 *       {@code [Cost: 1]}: every component is exhausted in each time unit, so each step also
 *       costs one advance, through resource accounting instead of durations.
 * </ul>
 * Each run has a fresh runtime (its clock starts at 0), made before the run is timed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g"})
public class TimedBench extends WorkloadState {

    /** N: objects. */
    @Param({"10000"})
    public int objects;

    /** S: steps per object. */
    @Param({"1000"})
    public int steps;

    @Param({"await", "suspend", "cost"})
    public String variant;

    @Override
    protected Workload create() {
        return workload(variant, objects, steps);
    }

    @Benchmark
    public long run() throws Exception {
        return workload.run();
    }

    public static Workload workload(String variant, int objects, int steps) {
        if (!variant.equals("await") && !variant.equals("suspend") && !variant.equals("cost")) {
            throw new IllegalArgumentException("unknown variant '" + variant + "'; await, suspend or cost");
        }
        if (variant.equals("cost") && objects % 10 != 0) {
            throw new IllegalArgumentException("cost: the objects split over 10 components: N must be a multiple of 10");
        }
        return new Steps(variant, objects, steps);
    }

    public interface Stepper extends Active {
        Proc<Integer> go(int steps);
    }

    public static final class StepperImpl extends ActiveObject implements Stepper {
        // The variant as an int: a switch on its name hashed the string at every step (6% of the
        // await variant's JFR samples), a cost of the harness, not of the runtime.
        private static final int AWAIT = 0, COST = 1, SUSPEND = 2;
        private final int variant;

        StepperImpl(String variant) {
            this.variant = variant.equals("await") ? AWAIT : variant.equals("cost") ? COST : SUSPEND;
        }

        @Override
        public Proc<Integer> go(int steps) {
            int[] done = {0};
            return Proc.loopWhile(() -> done[0] < steps, () -> step().map(u -> done[0]++)).map(u -> done[0]);
        }

        private Proc<?> step() {
            switch (variant) {
                case AWAIT:
                    // Whole units, as absc calls it for an Int duration: no SimTime per wait.
                    return Proc.awaitDuration(1L, 1L);
                case COST:
                    return Proc.cost(SimTime.One());
                default:
                    return Proc.suspend();
            }
        }
    }

    static final class Steps implements Workload {
        final String variant;
        final int objects;
        final int steps;
        CogRuntime rt;
        final List<Stepper> steppers = new ArrayList<>();
        long total;

        Steps(String variant, int objects, int steps) {
            this.variant = variant;
            this.objects = objects;
            this.steps = steps;
        }

        @Override
        public void prepare() {
            if (rt != null) {
                rt.close();
            }
            rt = CogRuntime.create();
            steppers.clear();
            List<DeploymentComponent> dcs = new ArrayList<>();
            if (variant.equals("cost")) {
                for (int i = 0; i < 10; i++) {
                    dcs.add(rt.deploymentComponent("dc" + i, Map.of("Speed", SimTime.of(objects / 10))));
                }
            }
            for (int i = 0; i < objects; i++) {
                steppers.add(dcs.isEmpty() ? rt.spawn(() -> new StepperImpl(variant))
                        : rt.spawnOn(dcs.get(i % 10), () -> new StepperImpl(variant)));
            }
        }

        @Override
        public long run() {
            total = rt.run(() -> {
                List<Fut<Integer>> fs = new ArrayList<>();
                for (Stepper s : steppers) {
                    fs.add(Cogs.send(s, "go", x -> x.go(steps)));
                }
                return Proc.awaitAll(fs).map(rs -> {
                    long sum = 0;
                    for (int r : rs) {
                        sum += r;
                    }
                    return sum;
                });
            });
            return total;
        }

        @Override
        public void check() {
            Workload.expect(variant + ": steps taken", (long) objects * steps, total);
            // await: one advance per step. cost: N/10 objects pay 1 each on a component of Speed
            // N/10, which the first step uses up at time 0: step k is paid in unit k - 1.
            long expectedTime = variant.equals("suspend") ? 0 : variant.equals("cost") ? steps - 1 : steps;
            Workload.expect(variant + ": the simulated time at the end", expectedTime, rt.now().toLongExact());
        }

        @Override
        public void close() {
            if (rt != null) {
                rt.close();
            }
        }
    }
}
