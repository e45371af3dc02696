package cogs.bench;

/**
 * One benchmark case, runnable outside JMH: the JMH classes drive it (see {@link WorkloadState}),
 * and the tests drive the same code at small sizes, so what is measured is what is checked.
 *
 * <p>A run is prepared (fresh objects, not timed), run (timed), then checked (not timed): the
 * check throws if the run computed anything but the expected result, so a broken variant fails
 * loudly instead of producing a fast, meaningless score.
 */
public interface Workload extends AutoCloseable {

    /** Before each run, not timed. */
    void prepare() throws Exception;

    /** The measured part. Returns a value derived from the run's results (JMH consumes it). */
    long run() throws Exception;

    /** After each run, not timed: throws {@link IllegalStateException} when the result is wrong. */
    void check() throws Exception;

    /** Release threads, pools, actor systems. */
    @Override
    void close();

    /** Seconds a run may take before it is declared stuck (system property {@code cogs.bench.timeout}). */
    static long timeoutSeconds() {
        return Long.getLong("cogs.bench.timeout", 600L);
    }

    /** Throws with {@code what} unless {@code actual == expected}. */
    static void expect(String what, long expected, long actual) {
        if (actual != expected) {
            throw new IllegalStateException(what + " is " + actual + ", expected " + expected);
        }
    }
}
