package cogs.javadsl;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of an asynchronous call, for Java: the same object as Scala's
 * {@code cogs.runtime.Fut}. Inside a process, read it with {@link Proc#await(Fut)} (suspends the
 * process) or {@link Proc#get(Fut)} (blocks its COG); outside every process, with {@link #join()}.
 */
public interface Fut<A> {

    /** True once resolved (with a value or a failure). */
    boolean isDone();

    /**
     * Block the calling thread until resolved; only outside every process. Throws
     * {@code cogs.runtime.DeadlockException} if the runtime becomes quiescent first, and
     * {@code cogs.runtime.CallFailedException} (naming object and method) if the call failed.
     */
    A join();

    /**
     * {@link #join()} with a time limit. A future still pending after {@code timeout} throws
     * {@code TimeoutException}, declared (it is checked) so that callers can catch it.
     */
    A join(long timeout, TimeUnit unit) throws TimeoutException;
}
