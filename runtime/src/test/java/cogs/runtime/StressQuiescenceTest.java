package cogs.runtime;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Proc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stress of the quiescence count with the idles a worker holds until its chain of hand-offs ends
 * ({@code CogRuntime.cogIdleOn}): chains of one-way calls and of awaited calls among a few COGs,
 * which go idle and are woken again on every hop, mostly through the hand-off slot of the same
 * worker. Nobody waits for the calls but {@code awaitQuiescence}, so quiescence seen too early
 * shows as calls not yet made when it returns, and quiescence missed shows as a wait that times
 * out. The timed variant makes the clock on first use in the middle of the run, after workers
 * already hold idles: the clock must still advance (the last uncount goes through the clock).
 */
class StressQuiescenceTest {

    public interface Relay extends Active {
        /** One-way: count, then pass on to another relay until {@code left} is zero. */
        Proc<?> hop(int left, int seed);

        /** Awaited: call the next relay and await its answer, down to zero. */
        Proc<Integer> ask(int left, int seed);

        /** One-way, timed: wait one time unit, then count. */
        Proc<?> later();
    }

    public static final class RelayImpl extends ActiveObject implements Relay {
        private final Relay[] all;
        private final AtomicLong count;

        public RelayImpl(Relay[] all, AtomicLong count) { this.all = all; this.count = count; }

        private Relay next(int seed) { return all[Math.floorMod(seed * 31 + 7, all.length)]; }

        @Override public Proc<?> hop(int left, int seed) {
            return Proc.delay(() -> {
                count.incrementAndGet();
                if (left > 0) Cogs.tell(next(seed), "hop", r -> r.hop(left - 1, seed * 31 + 7));
                return null;
            });
        }

        @Override public Proc<Integer> ask(int left, int seed) {
            count.incrementAndGet();
            if (left == 0) return Proc.done(0);
            return Proc.await(Cogs.send(next(seed), "ask", r -> r.ask(left - 1, seed * 31 + 7))).map(v -> v + 1);
        }

        @Override public Proc<?> later() {
            return Proc.awaitDuration(cogs.runtime.SimTime.apply(1), cogs.runtime.SimTime.apply(1))
                    .andThen(Proc.delay(() -> { count.incrementAndGet(); return null; }));
        }
    }

    private static Relay[] relays(CogRuntime rt, int n, AtomicLong count) {
        Relay[] all = new Relay[n];
        for (int i = 0; i < n; i++) all[i] = rt.spawn(() -> new RelayImpl(all, count));
        return all;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void quiescenceIsSeenWhenAndOnlyWhenEveryChainEnded() throws InterruptedException {
        final int rounds = 3_000, chains = 6, length = 40;
        AtomicLong count = new AtomicLong();
        CogRuntime rt = CogRuntime.create();
        try {
            Relay[] all = relays(rt, 5, count);
            long expected = 0;
            for (int r = 0; r < rounds; r++) {
                for (int c = 0; c < chains; c++) {
                    final int seed = r * chains + c;
                    if ((c & 1) == 0) Cogs.tell(all[c % all.length], "hop", x -> x.hop(length, seed));
                    else Cogs.tell(all[c % all.length], "ask", x -> x.ask(length, seed));
                }
                expected += (long) chains * (length + 1);
                assertTrue(rt.awaitQuiescence(30, TimeUnit.SECONDS), "round " + r + ": quiescence never seen");
                assertEquals(expected, count.get(), "round " + r + ": quiescence seen before every call was made");
                assertTrue(rt.isQuiescent());
            }
            assertEquals(0, rt.failedProcesses(), rt.firstFailure().orElse(""));
        } finally {
            rt.close();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aClockMadeWhileWorkersHoldIdlesStillAdvances() throws InterruptedException {
        final int rounds = 150, chains = 4, length = 30;
        for (int r = 0; r < rounds; r++) {
            AtomicLong count = new AtomicLong();
            CogRuntime rt = CogRuntime.create();
            try {
                Relay[] all = relays(rt, 4, count);
                for (int c = 0; c < chains; c++) {
                    final int seed = r * chains + c;
                    Cogs.tell(all[c], "hop", x -> x.hop(length, seed));
                }
                // Sent while the chains run: its process makes the clock.
                Cogs.tell(all[r % all.length], "later", Relay::later);
                assertTrue(rt.awaitQuiescence(30, TimeUnit.SECONDS), "round " + r + ": quiescence never seen");
                assertEquals((long) chains * (length + 1) + 1, count.get(),
                        "round " + r + ": the clock did not advance, or quiescence was seen early");
                assertEquals(cogs.runtime.SimTime.apply(1), rt.now());
            } finally {
                rt.close();
            }
        }
    }
}
