package cogs.bench;

/**
 * Thrown from a benchmark's setup when a variant cannot run at the requested size on this
 * machine or JVM (too many platform threads, no virtual threads on JDK 17). JMH has no way to
 * skip a benchmark: it reports the exception as that benchmark's failure, prints the message,
 * and goes on with the next one. No stack trace: the message says everything.
 */
public final class Skipped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Skipped(String message) {
        super("SKIPPED: " + message, null, false, false);
    }
}
