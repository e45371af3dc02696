package cogs.runtime;

import cogs.runtime.JcstressSupport.CountingCog;
import cogs.runtime.JcstressSupport.Msg;
import cogs.runtime.JcstressSupport.RecordingWaiter;
import cogs.runtime.JcstressSupport.TFut;
import cogs.runtime.JcstressSupport.TProc;
import cogs.runtime.JcstressSupport.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

import static cogs.runtime.ProcessCore.PARKED;
import static cogs.runtime.ProcessCore.QUEUED;
import static cogs.runtime.ProcessCore.RUNNING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Plain-thread stress tests of the three-party hand-offs. jcstress gives each actor a CPU of its
 * own, so on this project's 2-CPU machines it does not run its three-actor tests
 * ({@code JcstressCogCore.TwoProducersVsBatchEnd}, {@code InboxTwoProducersAndConsumer},
 * {@code JcstressProcessCore.TwoWakersVsOwner}); these tests check the same properties with three
 * oversubscribed threads, jcstress-style: each round every thread runs its side of the race on
 * an array of fresh instances (so the threads meet on many of them), and a barrier action checks
 * each instance afterwards. Plus a streaming test of the MPSC inbox and a miniature COG on a
 * fork-join pool that exercises the full status-word life cycle.
 */
class StressHandOffTest {

    private static final int N = 2_000;      // instances per round
    private static final int ROUNDS = 1_500; // 3,000,000 races per test, a few seconds each

    // ------------------------------------------------------------------ status word

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoProducersVsBatchEndSubmitExactlyOnce() throws Exception {
        AtomicReference<CountingCog[]> cogs = new AtomicReference<>();
        AtomicReference<int[]> resched = new AtomicReference<>();
        TreeMap<String, Long> outcomes = new TreeMap<>();
        Msg[][] msgs = new Msg[2][];
        runRounds(3, round -> {
            CountingCog[] c = new CountingCog[N];
            for (int i = 0; i < N; i++) c[i] = CountingCog.scheduled();
            cogs.set(c);
            resched.set(new int[N]);
            for (int p = 0; p < 2; p++) {
                msgs[p] = new Msg[N];
                for (int i = 0; i < N; i++) msgs[p][i] = new Msg(p + 1);
            }
        }, actor -> round -> {
            CountingCog[] c = cogs.get();
            if (actor < 2) {
                Msg[] m = msgs[actor];
                for (int i = 0; i < N; i++) c[i].enqueueAndSchedule(m[i]);
            } else {
                int[] r = resched.get();
                // Odd rounds the consumer walks backwards, so it crosses the producers.
                if ((round & 1) == 0) for (int i = 0; i < N; i++) r[i] = c[i].idleOrReschedule() ? 1 : 0;
                else for (int i = N - 1; i >= 0; i--) r[i] = c[i].idleOrReschedule() ? 1 : 0;
            }
        }, round -> {
            CountingCog[] c = cogs.get();
            int[] r = resched.get();
            for (int i = 0; i < N; i++) {
                int act = c[i].activations.get(), sub = c[i].submits.get(), left = c[i].drainCount();
                String o = "activations=" + act + " rescheduled=" + r[i] + " submits=" + sub + " left=" + left
                        + " scheduled=" + c[i].isScheduled();
                outcomes.merge(o, 1L, Long::sum);
                if (sub != 1 || act + r[i] != 1 || left != 2 || !c[i].isScheduled())
                    fail("round " + round + ", instance " + i + ": " + o);
            }
        });
        System.out.println("StressHandOffTest two producers vs batch end: " + outcomes);
    }

    // ------------------------------------------------------------------ inbox

    /** A message that knows its producer and its place in that producer's sequence. */
    static final class SeqMsg extends Node {
        final int producer;
        final int seq;
        SeqMsg(int producer, int seq) { this.producer = producer; this.seq = seq; }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void inboxTwoProducersAndConsumerStream() throws Exception {
        final int producers = 2, perProducer = 4_000_000;
        CountingCog cog = new CountingCog();
        int[] next = new int[producers];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        CyclicBarrier start = new CyclicBarrier(producers + 1);
        for (int p = 0; p < producers; p++) {
            final int id = p;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    SplittableRandom rnd = new SplittableRandom(id);
                    for (int i = 0; i < perProducer; i++) {
                        cog.push(new SeqMsg(id, i));
                        // Now and then let the consumer catch up, so it takes the last node (and
                        // re-pushes the stub) while this producer pushes again.
                        if (rnd.nextInt(64) == 0) for (int k = rnd.nextInt(500); k > 0; k--) Thread.onSpinWait();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "producer-" + p));
        }
        for (Thread t : threads) t.start();
        start.await();
        long total = (long) producers * perProducer, got = 0, empties = 0, inTransit = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        while (got < total) {
            Node n = cog.poll();
            if (n == null) {
                empties++;
                if (!cog.inboxEmpty()) inTransit++;
                if (failure.get() != null) break;
                if (System.nanoTime() > deadline) fail("lost messages: got " + got + " of " + total);
                Thread.onSpinWait();
                continue;
            }
            SeqMsg m = (SeqMsg) n;
            if (m.seq != next[m.producer])
                fail("producer " + m.producer + ": expected " + next[m.producer] + ", got " + m.seq
                        + (m.seq < next[m.producer] ? " (duplicate)" : " (lost or reordered)"));
            next[m.producer]++;
            got++;
        }
        for (Thread t : threads) t.join();
        if (failure.get() != null) throw new AssertionError(failure.get());
        assertEquals(total, got);
        assertTrue(cog.inboxEmpty(), "inbox must be empty");
        assertEquals(null, cog.poll());
        System.out.println("StressHandOffTest inbox stream: " + got + " messages, poll gave null " + empties + " times, "
                + inTransit + " of them on a node in transit");
    }

    // ------------------------------------------------------------------ futures

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoRegistrationsVsCompleteNeverLoseAWaiter() throws Exception {
        AtomicReference<TFut[]> futs = new AtomicReference<>();
        AtomicReference<RecordingWaiter[][]> waiters = new AtomicReference<>();
        AtomicReference<int[][]> registered = new AtomicReference<>();
        TreeMap<String, Long> outcomes = new TreeMap<>();
        runRounds(3, round -> {
            TFut[] f = new TFut[N];
            RecordingWaiter[][] w = new RecordingWaiter[2][N];
            for (int i = 0; i < N; i++) {
                f[i] = new TFut();
                StringBuffer order = new StringBuffer();
                w[0][i] = new RecordingWaiter(1, order);
                w[1][i] = new RecordingWaiter(2, order);
            }
            futs.set(f);
            waiters.set(w);
            registered.set(new int[2][N]);
        }, actor -> round -> {
            TFut[] f = futs.get();
            if (actor < 2) {
                RecordingWaiter[] w = waiters.get()[actor];
                int[] reg = registered.get()[actor];
                for (int i = 0; i < N; i++) reg[i] = f[i].register(w[i]) ? 1 : 0;
            } else {
                if ((round & 1) == 0) for (int i = 0; i < N; i++) f[i].complete(new Value(i));
                else for (int i = N - 1; i >= 0; i--) f[i].complete(new Value(i));
            }
        }, round -> {
            TFut[] f = futs.get();
            RecordingWaiter[][] w = waiters.get();
            int[][] reg = registered.get();
            for (int i = 0; i < N; i++) {
                StringBuilder o = new StringBuilder();
                for (int k = 0; k < 2; k++) {
                    RecordingWaiter x = w[k][i];
                    int calls = x.calls.get();
                    o.append("w").append(k + 1).append(reg[k][i] == 1 ? " registered" : " too late")
                            .append(reg[k][i] == 1 ? " woken " + calls : "").append("; ");
                    if (calls != reg[k][i]) fail("round " + round + ", future " + i + ": waiter " + (k + 1)
                            + " register=" + reg[k][i] + " but called " + calls + " time(s)");
                    if (calls == 1 && x.sawValue != i) fail("waiter saw " + x.sawValue + " instead of " + i);
                }
                if (!f[i].isResolved()) fail("future " + i + " not resolved");
                outcomes.merge(o.toString(), 1L, Long::sum);
            }
        });
        System.out.println("StressHandOffTest two registrations vs complete: " + outcomes);
    }

    // ------------------------------------------------------------------ process state

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoWakersVsOwnerExactlyOneWins() throws Exception {
        AtomicReference<TProc[]> procs = new AtomicReference<>();
        AtomicReference<int[][]> won = new AtomicReference<>();
        long[] wins = new long[3];
        runRounds(3, round -> {
            TProc[] p = new TProc[N];
            for (int i = 0; i < N; i++) p[i] = new TProc(PARKED);
            procs.set(p);
            won.set(new int[3][N]);
        }, actor -> round -> {
            TProc[] p = procs.get();
            int[] w = won.get()[actor];
            int target = actor < 2 ? QUEUED : RUNNING;
            if (actor == 2 && (round & 1) == 1) for (int i = N - 1; i >= 0; i--) w[i] = p[i].casState(PARKED, target) ? 1 : 0;
            else for (int i = 0; i < N; i++) w[i] = p[i].casState(PARKED, target) ? 1 : 0;
        }, round -> {
            TProc[] p = procs.get();
            int[][] w = won.get();
            for (int i = 0; i < N; i++) {
                int n = w[0][i] + w[1][i] + w[2][i];
                if (n != 1) fail("round " + round + ", process " + i + ": " + n + " winners");
                int expected = w[2][i] == 1 ? RUNNING : QUEUED;
                if (p[i].state() != expected) fail("process " + i + " in state " + p[i].state());
                for (int a = 0; a < 3; a++) wins[a] += w[a][i];
            }
        });
        System.out.println("StressHandOffTest two wakers vs owner: waker1 " + wins[0] + ", waker2 " + wins[1] + ", owner " + wins[2]);
        assertTrue(wins[2] > 0 && wins[0] + wins[1] > 0, "both sides should win sometimes");
    }

    // ------------------------------------------------------------------ a miniature COG

    /**
     * The status-word life cycle of {@code Cog.runBatch} on a real fork-join pool, without the process
     * machinery: a batch takes at most {@link #BATCH} messages; a full batch resubmits while staying
     * SCHEDULED (local work), otherwise it ends with idleOrReschedule. Checks that two batches of
     * one COG never overlap, the task is never queued twice, no message is lost or duplicated, and
     * per-producer order holds.
     */
    static final class MiniCog extends CogCore {
        static final int BATCH = 8;
        final ForkJoinPool pool;
        final AtomicInteger active;
        final AtomicInteger queued = new AtomicInteger();
        final AtomicInteger inBatch = new AtomicInteger();
        final AtomicLong received = new AtomicLong(); // written by batches only, read by the test
        /** Batches that ended short with a node in the inbox: poll gave up on a node in transit. */
        final AtomicLong gaveUp = new AtomicLong();
        final int[] next;
        volatile String error;

        MiniCog(ForkJoinPool pool, AtomicInteger active, int producers) {
            this.pool = pool;
            this.active = active;
            this.next = new int[producers];
        }

        @Override void onActivated() { active.incrementAndGet(); }

        @Override void onActivationLost() { active.decrementAndGet(); }

        @Override void submit() {
            if (queued.incrementAndGet() > 1) error = "task queued twice";
            if (Thread.currentThread() instanceof ForkJoinWorkerThread
                    && ((ForkJoinWorkerThread) Thread.currentThread()).getPool() == pool) fork();
            else pool.execute((Runnable) this);
        }

        @Override void resubmit() { submit(); }

        @Override public void run() {
            queued.decrementAndGet();
            if (inBatch.getAndIncrement() != 0) error = "two batches of one COG overlap";
            int n = 0;
            Node x;
            while (n < BATCH && (x = poll()) != null) {
                SeqMsg m = (SeqMsg) x;
                if (m.seq != next[m.producer]) error = "producer " + m.producer + ": expected " + next[m.producer] + ", got " + m.seq;
                next[m.producer] = m.seq + 1;
                n++;
            }
            received.addAndGet(n);
            if (n < BATCH && !inboxEmpty()) gaveUp.incrementAndGet(); // (or a node that arrived just after)
            inBatch.decrementAndGet();  // after C1 (in idleOrReschedule) another batch may start
            if (n == BATCH) resubmit();
            else if (!idleOrReschedule()) active.decrementAndGet();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void miniCogsOnAForkJoinPoolNeverLoseOrDoubleSchedule() throws Exception {
        runMiniCogs(4, 400_000, 6, "mini COGs");
    }

    /**
     * Eight producers (four times the CPUs of this project's machines) on two COGs: producers are
     * descheduled between their exchange and their link store often, so batches give up on nodes in
     * transit and must reschedule rather than go idle (CogCore, "The node in transit"). A lost
     * wake-up there leaves messages unreceived with the COG idle, which the test reports as stuck.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oversubscribedProducersOnTwoCogsGiveUpOnNodesInTransitWithoutLosingAWakeUp() throws Exception {
        runMiniCogs(8, 200_000, 2, "in transit");
    }

    private static void runMiniCogs(int producers, int perProducer, int cogCount, String label) throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
        try {
            AtomicInteger active = new AtomicInteger();
            MiniCog[] cogs = new MiniCog[cogCount];
            for (int i = 0; i < cogCount; i++) cogs[i] = new MiniCog(pool, active, producers);
            // Each producer uses its own sequence per COG, so that per-producer order can be checked.
            long[][] sent = new long[producers][cogCount];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(producers);
            for (int p = 0; p < producers; p++) {
                final int id = p;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        SplittableRandom rnd = new SplittableRandom(100 + id);
                        int[] seq = new int[cogCount];
                        for (int i = 0; i < perProducer; ) {
                            int burst = 1 + rnd.nextInt(BURST_MAX);
                            for (int b = 0; b < burst && i < perProducer; b++, i++) {
                                int c = rnd.nextInt(cogCount);
                                cogs[c].enqueueAndSchedule(new SeqMsg(id, seq[c]++));
                                sent[id][c]++;
                            }
                            int pause = rnd.nextInt(100);
                            if (pause < 70) for (int k = rnd.nextInt(1_000); k > 0; k--) Thread.onSpinWait();
                            else Thread.yield();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "producer-" + p));
            }
            for (Thread t : threads) t.start();
            for (Thread t : threads) t.join();
            if (failure.get() != null) throw new AssertionError(failure.get());

            long total = (long) producers * perProducer;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                long got = 0;
                for (MiniCog c : cogs) got += c.received.get();
                boolean idle = active.get() == 0;
                for (MiniCog c : cogs) idle &= !c.isScheduled();
                if (got == total && idle) break;
                if (System.nanoTime() > deadline)
                    fail("stuck: received " + got + " of " + total + ", active=" + active.get() + " (lost wake-up?)");
                Thread.sleep(1);
            }
            for (int c = 0; c < cogCount; c++) {
                assertEquals(null, cogs[c].error, "COG " + c);
                long expected = 0;
                for (int p = 0; p < producers; p++) expected += sent[p][c];
                assertEquals(expected, cogs[c].received.get(), "messages received by COG " + c);
                assertFalse(cogs[c].isScheduled());
            }
            assertEquals(0, active.get(), "activations and idlings must balance");
            long gaveUp = 0;
            for (MiniCog c : cogs) gaveUp += c.gaveUp.get();
            System.out.println("StressHandOffTest " + label + ": " + total + " messages, batches that gave up on a node in transit: " + gaveUp);
        } finally {
            pool.shutdownNow();
        }
    }

    private static final int BURST_MAX = 12;

    // ------------------------------------------------------------------ harness

    /**
     * jcstress-like rounds: {@code setup} prepares round r; then every actor runs its side on the
     * same instances; then {@code check} verifies round r. All three run under one barrier, whose
     * action checks the previous round and sets up the next, so the actors are released together.
     */
    private static void runRounds(int actors, IntConsumer setup, IntFunction<IntConsumer> actor, IntConsumer check)
            throws Exception {
        AtomicInteger round = new AtomicInteger(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CyclicBarrier barrier = new CyclicBarrier(actors, () -> {
            try {
                int r = round.get();
                if (r >= 0) check.accept(r);
                if (r + 1 < ROUNDS) setup.accept(r + 1);
                round.set(r + 1);
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                round.set(ROUNDS); // stop everybody
            }
        });
        List<Thread> threads = new ArrayList<>();
        for (int a = 0; a < actors; a++) {
            IntConsumer body = actor.apply(a);
            threads.add(new Thread(() -> {
                try {
                    while (true) {
                        barrier.await();
                        int r = round.get();
                        if (r >= ROUNDS) return;
                        body.accept(r);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    barrier.reset();
                }
            }, "actor-" + a));
        }
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
        if (failure.get() != null) {
            Throwable e = failure.get();
            if (e instanceof AssertionError) throw (AssertionError) e;
            throw new AssertionError(e);
        }
    }
}
