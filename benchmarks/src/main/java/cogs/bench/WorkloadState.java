package cogs.bench;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The JMH side of a {@link Workload}: created once per trial (one set of parameters in one fork),
 * prepared before and checked after every measured invocation. Per-invocation hooks are fine
 * here: every invocation is a whole program run of a millisecond or (much) more.
 */
@State(Scope.Benchmark)
public abstract class WorkloadState {
    protected Workload workload;

    /** The workload for this trial's parameters; may throw {@link Skipped}. */
    protected abstract Workload create() throws Exception;

    @Setup(Level.Trial)
    public final void createWorkload() throws Exception {
        workload = create();
    }

    @Setup(Level.Invocation)
    public final void prepareRun() throws Exception {
        workload.prepare();
    }

    @TearDown(Level.Invocation)
    public final void checkRun() throws Exception {
        workload.check();
    }

    @TearDown(Level.Trial)
    public final void closeWorkload() {
        if (workload != null) {
            workload.close();
        }
    }
}
