package cogs.runtime;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stress of the whole message path through the public runtime: many threads outside the runtime
 * (and processes inside it) send to active objects at once; every message must be delivered
 * exactly once and, per sender, in sending order (an object's COG serves its inbox FIFO and a
 * process that never suspends runs to completion before the next starts).
 *
 * <p>{@link #manyCogsGoingIdleBetweenBursts} makes COGs go idle and get re-activated hundreds of
 * thousands of times, so that a producer's IDLE to SCHEDULED CAS races with the COG's main task
 * ending its batch ({@link CogCore#idleOrReschedule}) as often as possible.
 */
class StressInboxTest {

    static final int SENDERS = 8;

    /** An object that checks, per sender, that sequence numbers arrive strictly increasing. */
    public interface Sink extends Active {
        Proc<Integer> hit(int sender, int seq);

        /** The per-sender message counts, then the number of order violations (last slot). */
        Proc<long[]> snapshot();
    }

    public static final class SinkImpl extends ActiveObject implements Sink {
        private final int[] last = new int[SENDERS];
        private final long[] counts = new long[SENDERS + 1];
        private final Sink forwardTo;

        public SinkImpl(Sink forwardTo) {
            java.util.Arrays.fill(last, -1);
            this.forwardTo = forwardTo;
        }

        @Override public Proc<Integer> hit(int sender, int seq) {
            return Proc.delay(() -> {
                if (seq <= last[sender]) counts[SENDERS]++; // duplicated or out of order
                last[sender] = seq;
                counts[sender]++;
                // Inside a process: the producer is a pool thread, the target another COG.
                if (forwardTo != null) Cogs.send(forwardTo, "hit", o -> o.hit(sender, seq));
                return seq;
            });
        }

        @Override public Proc<long[]> snapshot() {
            return Proc.delay(counts::clone);
        }
    }

    private final CogRuntime rt = CogRuntime.create();

    @AfterEach
    void close() {
        rt.close();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void eightSendersTwoMillionMessagesToFourObjects() throws Exception {
        eightSendersToFourObjects(rt, 250_000);
    }

    /**
     * One slice per batch: every batch of a busy object ends with calls left in its inbox (a pick
     * takes one inbox node at a time), so the batch end that resubmits the COG without going IDLE
     * (Cog.runBatch) races with the senders' status reads at nearly every call. A lost wake-up
     * leaves calls unserved (the counts, or the quiescence wait, fail); a COG submitted twice runs
     * two batches at once and breaks the per-sender order.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void oneSliceABatchLeavesCallsInTheInboxAtEveryBatchEnd() throws Exception {
        CogRuntime one = CogRuntime.of(cogs.runtime.CogRuntime.withOverrides("cogs.throughput = 1"));
        try {
            eightSendersToFourObjects(one, 100_000);
        } finally {
            one.close();
        }
    }

    private static void eightSendersToFourObjects(CogRuntime rt, int perSender) throws Exception {
        final int objects = 4;
        Sink[] sinks = new Sink[objects];
        for (int i = 0; i < objects; i++) sinks[i] = rt.spawn(() -> new SinkImpl(null));

        runSenders(s -> {
            Fut<Integer> last = null;
            for (int i = 0; i < perSender; i++) {
                final int seq = i;
                last = Cogs.send(sinks[i % objects], "hit", o -> o.hit(s, seq));
                // Back-pressure without join: keep at most ~20,000 messages of this sender in flight.
                if ((i & 0x3FFF) == 0x3FFF) awaitDone(last);
            }
            awaitDone(last);
        });
        rt.awaitQuiescence();

        long total = 0;
        for (int o = 0; o < objects; o++) {
            long[] c = snapshot(sinks[o]);
            assertEquals(0, c[SENDERS], "order violations (duplicated or reordered messages) at object " + o);
            for (int s = 0; s < SENDERS; s++) {
                assertEquals(perSender / objects, c[s], "messages of sender " + s + " at object " + o);
                total += c[s];
            }
        }
        assertEquals((long) SENDERS * perSender, total);
        assertEquals(0, rt.failedProcesses());
        assertTrue(rt.deadlockReport().isEmpty(), rt.deadlockReport().toString());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void manyCogsGoingIdleBetweenBursts() throws Exception {
        final int perSender = 150_000;
        final int workers = 64;
        final int collectors = 4;
        Sink[] colls = new Sink[collectors];
        for (int i = 0; i < collectors; i++) colls[i] = rt.spawn(() -> new SinkImpl(null));
        Sink[] ws = new Sink[workers];
        for (int i = 0; i < workers; i++) {
            Sink c = colls[i % collectors];
            ws[i] = rt.spawn(() -> new SinkImpl(c));
        }
        long[][] sent = new long[SENDERS][workers];

        runSenders(s -> {
            SplittableRandom rnd = new SplittableRandom(42 + s);
            int seq = 0, sinceWait = 0;
            Fut<Integer> last = null;
            while (seq < perSender) {
                // A burst of 1..6 messages to random objects, then a pause long enough for the
                // COGs to drain their inboxes and go idle, short enough to catch them doing so.
                int burst = 1 + rnd.nextInt(6);
                for (int b = 0; b < burst && seq < perSender; b++, seq++) {
                    int w = rnd.nextInt(workers);
                    final int q = seq;
                    last = Cogs.send(ws[w], "hit", o -> o.hit(s, q));
                    sent[s][w]++;
                    sinceWait++;
                }
                int pause = rnd.nextInt(100);
                if (pause < 60) {
                    for (int k = rnd.nextInt(2_000); k > 0; k--) Thread.onSpinWait();
                } else if (pause < 95) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(20_000);
                }
                if (sinceWait >= 4_096) { awaitDone(last); sinceWait = 0; }
            }
        });
        rt.awaitQuiescence();

        // Each worker got exactly what was sent to it, in order per sender; the collectors together
        // got everything the workers forwarded (a collector hears a sender through several workers,
        // so its own order check does not apply: only its counts are checked).
        long[] perSenderAtCollectors = new long[SENDERS];
        for (int w = 0; w < workers; w++) {
            long[] c = snapshot(ws[w]);
            assertEquals(0, c[SENDERS], "order violations at worker " + w);
            for (int s = 0; s < SENDERS; s++) assertEquals(sent[s][w], c[s], "messages of sender " + s + " at worker " + w);
        }
        for (int i = 0; i < collectors; i++) {
            long[] c = snapshot(colls[i]);
            for (int s = 0; s < SENDERS; s++) perSenderAtCollectors[s] += c[s];
        }
        long[] expected = new long[SENDERS];
        java.util.Arrays.fill(expected, perSender);
        assertArrayEquals(expected, perSenderAtCollectors, "forwarded messages per sender");
        assertEquals(0, rt.failedProcesses());
        // The snapshots above were calls: join returns when their futures resolve, possibly
        // before those COGs have ended their batch. Quiescence must follow, not hold already.
        assertTrue(rt.awaitQuiescence(10, TimeUnit.SECONDS), "the runtime becomes quiescent");
    }

    // ------------------------------------------------------------------ helpers

    interface SenderBody {
        void run(int sender) throws Exception;
    }

    /** Start SENDERS threads together, wait for all, rethrow the first failure. */
    private static void runSenders(SenderBody body) throws Exception {
        CyclicBarrier start = new CyclicBarrier(SENDERS);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            final int sender = s;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    body.run(sender);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "sender-" + s);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) t.join();
        if (failure.get() != null) throw new AssertionError("a sender failed", failure.get());
    }

    /**
     * Wait for a future without {@code join()}: join's deadlock check can fire spuriously while other
     * threads outside the runtime are sending (see {@code StressJoinRaceTest}); this test is about
     * delivery, so it waits by polling.
     */
    private static void awaitDone(Fut<?> f) {
        while (f != null && !f.isDone()) Thread.yield();
    }

    private static long[] snapshot(Sink s) {
        return Cogs.send(s, "snapshot", Sink::snapshot).join();
    }
}
