package cogs.runtime;

/**
 * Whether the scheduler counts what it does (step 2 of docs/runtime-design.md, section 4: why a
 * JVM settles in a slow mode). Off unless the JVM starts with {@code -Dcogs.scheduler.counters=true}
 * ({@code savina/run --counters} does that for its Cogs children).
 *
 * A static final of a Java class, read once when the class loads, so that the JIT folds every
 * {@code if (SchedulerCounters.ON)} in the scheduler away when it is off: the counting costs
 * nothing on the normal path. (A Scala object's val would be an instance field of the module,
 * which the JIT does not treat as a constant.) So it cannot be switched per runtime: it is a
 * property of the JVM, as the measurement it serves is.
 *
 * The counts themselves live in each worker ({@code CogRuntime.Worker}), plain fields written only
 * by their worker; {@code CogRuntime.schedulerCounters} sums them. A sum read while workers run
 * may be a little stale; the harness reads it between iterations, when the runtime is quiescent
 * and the workers' last writes were published by the quiescence hand-off.
 */
final class SchedulerCounters {
    private SchedulerCounters() {}

    static final boolean ON = Boolean.getBoolean("cogs.scheduler.counters");

    /** One worker's counts (see CogRuntime.schedulerCounters for what each counts). */
    static final class Counts {
        long batches, slices, handOffs, slotFills, forks, flushes, resubmits;
        long calls, wakes, toSelf, toSlot, toIdle, toApart, toQueued;
        long defers, expired;

        long[] values() {
            return new long[] {batches, slices, handOffs, slotFills, forks, flushes, resubmits,
                calls, wakes, toSelf, toSlot, toIdle, toApart, toQueued, defers, expired};
        }
    }
}
