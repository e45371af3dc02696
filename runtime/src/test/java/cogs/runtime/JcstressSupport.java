package cogs.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tiny concrete subclasses of the lock-free cores, shared by the jcstress tests
 * ({@code Jcstress*.java}) and the plain stress tests ({@code Stress*.java}). Not a test itself.
 */
final class JcstressSupport {
    private JcstressSupport() {}

    /**
     * A COG whose main task is never executed: {@link #submit}, {@link #resubmit} and
     * {@link #onActivated} only count. {@code submits} counts every hand-over to the executor
     * (either kind), so a double submission shows as 2. The counters are atomic so that a double
     * submission from two threads cannot hide as one.
     */
    static final class CountingCog extends CogCore {
        final AtomicInteger submits = new AtomicInteger();
        final AtomicInteger resubmits = new AtomicInteger();
        final AtomicInteger activations = new AtomicInteger();

        @Override void submit() { submits.incrementAndGet(); }

        @Override void resubmit() { resubmits.incrementAndGet(); submits.incrementAndGet(); }

        @Override void onActivated() { activations.incrementAndGet(); }

        /** A lost activation is undone, as the runtime's count is. */
        @Override void onActivationLost() { activations.decrementAndGet(); }

        @Override public void run() { throw new AssertionError("a CountingCog is never executed"); }

        /** A COG in the middle of a batch: SCHEDULED, empty inbox, counters at zero. */
        static CountingCog scheduled() {
            CountingCog c = new CountingCog();
            if (!c.trySchedule()) throw new AssertionError("a fresh COG must be IDLE");
            c.submits.set(0);
            c.resubmits.set(0);
            c.activations.set(0);
            return c;
        }

        /** Consumer only: poll until empty; the ids taken, as decimal digits in order (0 if none). */
        int drainDigits() {
            int seq = 0;
            Node n;
            while ((n = poll()) != null) seq = seq * 10 + ((Msg) n).id;
            return seq;
        }

        /** Consumer only: poll until empty; how many nodes were taken. */
        int drainCount() {
            int k = 0;
            while (poll() != null) k++;
            return k;
        }
    }

    /** An inbox message with an id (1..9 in the jcstress tests, so sequences print as digits). */
    static final class Msg extends Node {
        final int id;
        Msg(int id) { this.id = id; }
    }

    /** A future with nothing but the state word. */
    static final class TFut extends FutCore {}

    /** An outcome that carries an int. */
    static final class Value extends FutCore.Outcome {
        final int v;
        Value(int v) { this.v = v; }
    }

    /**
     * A waiter that counts its calls, records in which order it was called relative to the other
     * waiters sharing {@code order}, and whether the future was already resolved when it was called.
     */
    static final class RecordingWaiter implements FutCore.Waiter {
        final int id;
        final StringBuffer order;
        final AtomicInteger calls = new AtomicInteger();
        volatile int sawResolved;   // 1 if, when called, the future already showed an outcome
        volatile int sawValue = -1; // the outcome's value seen when called

        RecordingWaiter(int id, StringBuffer order) { this.id = id; this.order = order; }

        @Override public void onResolved(FutCore f) {
            calls.incrementAndGet();
            order.append(id);
            FutCore.Outcome o = f.outcome();
            sawResolved = o != null ? 1 : 0;
            sawValue = o instanceof Value ? ((Value) o).v : -1;
        }
    }

    /** A bare process state word (and, as every process is, the future of its call). */
    static final class TProc extends ProcessCore {
        TProc(int initial) { super(initial); }
        @Override public CogRuntime runtime() { return null; }
        @Override public Process producer() { return null; }
    }

    /**
     * A process as {@code Process} wires it: its own waiter on a future and its own inbox node.
     * {@link #onResolved} is {@code Process.wake}: take it out of PARKED with a CAS, then enqueue.
     */
    static final class WakeableProc extends ProcessCore implements FutCore.Waiter {
        final CogCore cog;
        final AtomicInteger enqueued = new AtomicInteger();

        WakeableProc(CogCore cog) { super(RUNNING); this.cog = cog; }

        @Override public CogRuntime runtime() { return null; }
        @Override public Process producer() { return null; }

        @Override public void onResolved(FutCore f) {
            if (casState(PARKED, QUEUED)) {
                enqueued.incrementAndGet();
                cog.enqueueAndSchedule(this);
            }
        }
    }

    static int bit(boolean b) { return b ? 1 : 0; }
}
