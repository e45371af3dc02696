package cogs.javadsl;

import cogs.runtime.JavaSupport$;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The operations of the ABS object layer for Java code: asynchronous and one-way calls, object
 * creation inside a process, {@code destiny}, user trace events.
 *
 * <pre>{@code
 * Fut<Integer> f = Cogs.send(counter, "inc", c -> c.inc());
 * }</pre>
 */
public final class Cogs {
    private Cogs() {}

    /**
     * ABS {@code o!m(..)}: queue a call of {@code method} at {@code target}'s COG and return its
     * future at once. The call runs on the callee's COG: capture values, not fields.
     */
    public static <T extends cogs.runtime.Active, A> Fut<A> send(T target, String method, Function<? super T, ? extends Proc<A>> call) {
        return JavaSupport$.MODULE$.send(target, method, call);
    }

    /**
     * A one-way call: ABS {@code o!m(..);} whose future nobody reads. Allocates no future; a
     * failure is counted by the runtime ({@code failedProcesses}).
     */
    public static <T extends cogs.runtime.Active> void tell(T target, String method, Function<? super T, ? extends Proc<?>> call) {
        JavaSupport$.MODULE$.tell(target, method, call);
    }

    /** ABS {@code new C(..)} inside a process: the object gets a new COG in the caller's runtime. */
    public static <T extends cogs.runtime.ActiveObject> T spawn(Supplier<T> make) { return JavaSupport$.MODULE$.spawn(make); }

    /** ABS {@code new local C(..)}: the object joins the caller's COG. */
    public static <T extends cogs.runtime.ActiveObject> T spawnLocal(Supplier<T> make) { return JavaSupport$.MODULE$.spawnLocal(make); }

    /** The simulated time of the running process's runtime (Timed ABS {@code now()}). */
    public static cogs.runtime.SimTime now() { return JavaSupport$.MODULE$.now(); }

    /** ABS {@code [DC: dc] new C(..)} inside a process: the object gets a new COG on deployment component {@code dc}. */
    public static <T extends cogs.runtime.ActiveObject> T spawnOn(cogs.runtime.DeploymentComponent dc, Supplier<T> make) {
        return JavaSupport$.MODULE$.spawnOn(dc, make);
    }

    /** The object whose process is running (ABS {@code this}; only inside a process). */
    public static cogs.runtime.Active self() { return cogs.runtime.Cogs$.MODULE$.self(); }

    /** ABS {@code destiny}: the future of the running process (only inside a process). */
    public static Fut<Object> destiny() { return JavaSupport$.MODULE$.destiny(); }

    /**
     * Emit a user event ({@code cogs.trace.TraceEvent.User}) from the running process's object;
     * false (nothing emitted) when it is not traced. From outside every process use
     * {@link CogRuntime#emit}.
     */
    public static boolean emit(String name, Object... payload) { return JavaSupport$.MODULE$.emit(name, payload); }
}
