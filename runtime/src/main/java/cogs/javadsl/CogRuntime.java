package cogs.javadsl;

import cogs.runtime.JavaSupport$;
import com.typesafe.config.Config;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A runtime instance for Java code: a thin handle on Scala's {@code cogs.runtime.CogRuntime}
 * ({@link #asScala()}); made once per runtime, never on a call's path.
 *
 * <pre>{@code
 * try (CogRuntime rt = CogRuntime.create()) {
 *     Account acc = rt.spawn(AccountImpl::new);
 *     System.out.println(Cogs.send(acc, "balance", Account::balance).join());
 * }
 * }</pre>
 */
public final class CogRuntime implements AutoCloseable {
    private final cogs.runtime.CogRuntime rt;

    private CogRuntime(cogs.runtime.CogRuntime rt) { this.rt = rt; }

    /** A runtime configured from {@code application.conf} / {@code reference.conf} (section {@code cogs}). */
    public static CogRuntime create() { return new CogRuntime(cogs.runtime.CogRuntime.apply()); }

    /** A runtime configured from {@code config} (with the reference configuration as fallback). */
    public static CogRuntime create(Config config) { return new CogRuntime(cogs.runtime.CogRuntime.apply(config)); }

    /** A runtime that emits trace events to {@code tracing} (see {@code cogs.trace.Tracing}). */
    public static CogRuntime withTracing(cogs.trace.Tracing tracing, Config config) {
        return new CogRuntime(cogs.runtime.CogRuntime.withTracing(tracing, config));
    }

    /** The Java handle of a runtime made in Scala. */
    public static CogRuntime of(cogs.runtime.CogRuntime rt) {
        if (rt == null) throw new NullPointerException("runtime is null");
        return new CogRuntime(rt);
    }

    /** The Scala runtime this handle stands for. */
    public cogs.runtime.CogRuntime asScala() { return rt; }

    /**
     * Create an active object in a new COG: {@code rt.spawn(AccountImpl::new)} or
     * {@code rt.spawn(() -> new Account(100))}. The constructor runs now, on this thread.
     */
    public <T extends cogs.runtime.ActiveObject> T spawn(Supplier<T> make) { return JavaSupport$.MODULE$.spawnIn(rt, make); }

    /**
     * {@link #spawn} with a user-defined scheduling policy for the new COG, made from the new object
     * when the COG first picks a process: {@code rt.spawnScheduled(s -> byPriority(s), Server::new)}.
     */
    public <T extends cogs.runtime.ActiveObject> T spawnScheduled(
            java.util.function.Function<T, cogs.runtime.SchedulingPolicy> policy, Supplier<T> make) {
        return JavaSupport$.MODULE$.spawnScheduledIn(rt, policy, make);
    }

    /** Record this runtime's scheduling decisions, or replay recorded ones; before the first spawn. */
    public void useSchedule(cogs.runtime.ScheduleTrace schedule) { rt.useSchedule(schedule); }

    /**
     * Run a main block: start the process {@code main} makes in a COG of its own, wait until the
     * program is quiescent and give the block's value. Throws {@code DeadlockException} (naming
     * every waiting process) if it cannot finish, {@code CallFailedException} if it failed.
     */
    public <A> A run(Supplier<? extends Proc<A>> main) { return JavaSupport$.MODULE$.run(rt, main); }

    /** The simulated time (Timed ABS); zero until some process waits for time. */
    public cogs.runtime.SimTime now() { return rt.now(); }

    /** Stop the simulation at {@code limit}: the clock never advances beyond it. */
    public void limitClock(cogs.runtime.SimTime limit) { rt.limitClock(limit); }

    /** True if the clock stopped at its limit with processes still waiting for time. */
    public boolean clockLimitReached() { return rt.clockLimitReached(); }

    /**
     * A deployment component with resources per time unit, by name: {@code "Speed"},
     * {@code "Bandwidth"}, {@code "Cores"}, {@code "Memory"} (left out: unlimited).
     */
    public cogs.runtime.DeploymentComponent deploymentComponent(String name, java.util.Map<String, cogs.runtime.SimTime> resources) {
        scala.collection.immutable.Map<cogs.runtime.Resource, cogs.runtime.SimTime> m = scala.collection.immutable.Map$.MODULE$.empty();
        for (java.util.Map.Entry<String, cogs.runtime.SimTime> e : resources.entrySet()) {
            cogs.runtime.Resource r = cogs.runtime.Resource$.MODULE$.byName(e.getKey()).getOrElse(() -> {
                throw new IllegalArgumentException("unknown resource '" + e.getKey() + "' (Speed, Bandwidth, Cores or Memory)");
            });
            m = m.updated(r, e.getValue());
        }
        return rt.deploymentComponent(name, m);
    }

    /** Create an active object in a new COG on deployment component {@code dc}. */
    public <T extends cogs.runtime.ActiveObject> T spawnOn(cogs.runtime.DeploymentComponent dc, Supplier<T> make) {
        return JavaSupport$.MODULE$.spawnOnIn(rt, dc, make);
    }

    /** Wait until no COG has work (processes may still wait: see {@link #deadlockReport()}). */
    public void awaitQuiescence() { rt.awaitQuiescence(); }

    /**
     * {@link #awaitQuiescence()} with a time limit; false if it ran out. An interrupt of the
     * waiting thread throws {@code InterruptedException}.
     */
    public boolean awaitQuiescence(long timeout, TimeUnit unit) throws InterruptedException {
        return rt.awaitQuiescence(timeout, unit);
    }

    public boolean isQuiescent() { return rt.isQuiescent(); }

    /** The processes waiting now, one line each. */
    public List<String> deadlockReport() { return scala.jdk.javaapi.CollectionConverters.asJava(rt.deadlockReport()); }

    /** Number of processes that ended with an exception (observed or not, one-way calls included). */
    public long failedProcesses() { return rt.failedProcesses(); }

    /**
     * The processes that failed and whose failure nobody read (a one-way {@code Cogs.tell} to a
     * method that threw, a future nobody joined or awaited), one line each; {@code close()} logs
     * them as a warning unless {@code cogs.report-unobserved-failures = off}.
     */
    public List<String> unobservedFailures() { return scala.jdk.javaapi.CollectionConverters.asJava(rt.unobservedFailures()); }

    /** The failures nobody read, then the processes still waiting, for a report at the end of a run. */
    public List<String> endReport() { return scala.jdk.javaapi.CollectionConverters.asJava(rt.endReport()); }

    /** The first process that ended with an exception, and the exception ({@code Calc.div failed: ...}). */
    public Optional<String> firstFailure() { return Optional.ofNullable(rt.firstFailure().getOrElse(() -> null)); }

    /** Why the runtime halted after a fatal error, if it did. */
    public Optional<String> haltReport() { return Optional.ofNullable(rt.haltReport().getOrElse(() -> null)); }

    /** Emit a user trace event from outside every process, attributed to {@code outside#0}. */
    public boolean emit(String name, Object... payload) { return JavaSupport$.MODULE$.emitOutside(rt, name, payload); }

    /** Stop the runtime's threads (processes still waiting are dropped). */
    @Override public void close() { rt.close(); }

    @Override public String toString() { return rt.toString(); }
}
