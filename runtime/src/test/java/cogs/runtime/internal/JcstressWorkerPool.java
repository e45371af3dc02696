package cogs.runtime.internal;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link WorkerPool}: the ring's push/take race between its owner and a thief
 * (every task taken exactly once), and a worker going to park against a submission (no wake-up
 * lost), both with a plain idle worker and with the last searcher handing its search over. The
 * workers' threads are never started: the actors run the pool's own steps ({@code prepareIdle},
 * {@code execute}) on jcstress's threads; a worker that "would park" is one whose
 * {@code prepareIdle} said so and whom nobody notified. Run by {@code JcstressRunTest}.
 */
public class JcstressWorkerPool {

    private static final Runnable A = () -> { }, B = () -> { }, C = () -> { };

    private static int id(Runnable r) {
        return r == null ? 0 : r == A ? 1 : r == B ? 2 : r == C ? 4 : 8;
    }

    @JCStressTest
    @Description("Owner pushes A and B, then takes one; a thief takes one; the arbiter takes what is left. "
            + "r1 = owner's, r2 = thief's (0: none), r3 = tasks taken in all, r4 = the set taken (A = 1, B = 2).")
    @Outcome(id = "1, 2, 2, 3", expect = ACCEPTABLE, desc = "Owner took A, thief B.")
    @Outcome(id = "2, 1, 2, 3", expect = ACCEPTABLE, desc = "Thief took A first, owner B.")
    @Outcome(id = "1, 0, 2, 3", expect = ACCEPTABLE, desc = "Thief came before the pushes; the arbiter took B.")
    @Outcome(id = "1, 1, .*, .*", expect = FORBIDDEN, desc = "A TAKEN TWICE.")
    @Outcome(expect = FORBIDDEN, desc = "A task lost, taken twice, or out of order.")
    @State
    public static class RingTakeSteal {
        final WorkerPool.Ring ring = WorkerPool.newRing();

        @Actor
        public void owner(IIII_Result r) {
            ring.push(A);
            ring.push(B);
            r.r1 = id(ring.take());
        }

        @Actor
        public void thief(IIII_Result r) {
            r.r2 = id(ring.take());
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            int n = (r.r1 != 0 ? 1 : 0) + (r.r2 != 0 ? 1 : 0), set = r.r1 | r.r2;
            Runnable x;
            while ((x = ring.take()) != null) { n++; set |= id(x); }
            r.r3 = n;
            r.r4 = set;
        }
    }

    @JCStressTest
    @Description("The ring at the wrap: RING - 1 tasks were pushed and taken, one (A) waits in the last slot; the "
            + "owner pushes B (into slot 0, whose stale content is a task that ran) and takes one; a thief takes "
            + "one. r1 = owner's, r2 = thief's, r3 = tasks taken in all, r4 = the set taken.")
    @Outcome(id = "1, 2, 2, 3", expect = ACCEPTABLE, desc = "Owner took A, thief B.")
    @Outcome(id = "2, 1, 2, 3", expect = ACCEPTABLE, desc = "Thief took A, owner B.")
    @Outcome(expect = FORBIDDEN, desc = "A task lost, taken twice, or a stale slot read as a task.")
    @State
    public static class RingWrap {
        final WorkerPool.Ring ring = WorkerPool.newRing();

        public RingWrap() {
            for (int i = 0; i < WorkerPool.RING - 1; i++) { ring.push(C); ring.take(); }
            ring.push(A);
        }

        @Actor
        public void owner(IIII_Result r) {
            ring.push(B);
            r.r1 = id(ring.take());
        }

        @Actor
        public void thief(IIII_Result r) {
            r.r2 = id(ring.take());
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            int n = (r.r1 != 0 ? 1 : 0) + (r.r2 != 0 ? 1 : 0), set = r.r1 | r.r2;
            Runnable x;
            while ((x = ring.take()) != null) { n++; set |= id(x); }
            r.r3 = n;
            r.r4 = set;
        }
    }

    @JCStressTest
    @Description("Worker 0 (not searching, nothing queued) goes to park while a thread outside the pool submits a "
            + "task. r1 = worker 0 would sleep (prepareIdle said park and nobody notified it), r2 = it was woken "
            + "(notified: by the submitter, or by itself after finding the task), r3 = the state's counts agree "
            + "with the idle stack.")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The worker saw the task itself, or the submitter woke it.")
    @Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "LOST WAKE-UP: the worker sleeps with a task queued.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else is inconsistent.")
    @State
    public static class ParkVsSubmit {
        final WorkerPool pool = WorkerPool.unstarted(2);
        final WorkerPool.WorkerThread w0 = pool.worker(0);
        boolean parks;

        @Actor
        public void worker() {
            parks = pool.prepareIdle(w0, false);
        }

        @Actor
        public void submitter() {
            pool.execute(A);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            boolean woken = WorkerPool.notified(w0);
            r.r1 = parks && !woken ? 1 : 0;
            r.r2 = woken ? 1 : 0;
            r.r3 = pool.idleCounted() == pool.idleListed() && pool.searchingCount() == (woken ? 1 : 0) ? 1 : 0;
        }
    }

    @JCStressTest
    @Description("Worker 1 is parked; worker 0, the only searcher, found nothing and goes to park while a thread "
            + "outside the pool submits a task (which then sees a searcher and relies on it). r1 = both would "
            + "sleep, r2 = workers woken (notified), r3 = the state's counts agree with the idle stack.")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Worker 0 found the task itself, or the submitter woke one worker.")
    @Outcome(id = "1, .*, .*", expect = FORBIDDEN, desc = "LOST WAKE-UP: both workers sleep with a task queued.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else is inconsistent (two woken: the searching count broke).")
    @State
    public static class SearcherParksVsSubmit {
        final WorkerPool pool = WorkerPool.unstarted(2);
        final WorkerPool.WorkerThread w0 = pool.worker(0), w1 = pool.worker(1);
        boolean parks0;

        public SearcherParksVsSubmit() {
            pool.prepareIdle(w1, false);      // worker 1 parked
            pool.tryStartSearchingForTest();   // worker 0 searches
        }

        @Actor
        public void worker() {
            parks0 = pool.prepareIdle(w0, true);
        }

        @Actor
        public void submitter() {
            pool.execute(A);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            boolean n0 = WorkerPool.notified(w0), n1 = WorkerPool.notified(w1);
            boolean sleeps0 = !parks0 || n0 ? false : true;
            r.r1 = sleeps0 && !n1 ? 1 : 0;
            r.r2 = (n0 ? 1 : 0) + (n1 ? 1 : 0);
            r.r3 = pool.idleCounted() == pool.idleListed() && pool.searchingCount() == r.r2 ? 1 : 0;
        }
    }
}
