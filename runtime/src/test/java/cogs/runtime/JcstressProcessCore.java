package cogs.runtime;

import cogs.runtime.JcstressSupport.CountingCog;
import cogs.runtime.JcstressSupport.RecordingWaiter;
import cogs.runtime.JcstressSupport.TFut;
import cogs.runtime.JcstressSupport.TProc;
import cogs.runtime.JcstressSupport.Value;
import cogs.runtime.JcstressSupport.WakeableProc;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIIII_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;

import static cogs.runtime.JcstressSupport.bit;
import static cogs.runtime.ProcessCore.DONE;
import static cogs.runtime.ProcessCore.PARKED;
import static cogs.runtime.ProcessCore.QUEUED;
import static cogs.runtime.ProcessCore.RUNNING;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link ProcessCore}: a parked process is taken by exactly one of its wakers
 * (PARKED to QUEUED) and its COG (PARKED to RUNNING); and, combining the three cores, the park
 * protocol of {@code Cog.sleep} (the PARKED hand-off of awaits and gets) never loses a process whose future resolves.
 */
public class JcstressProcessCore {

    @JCStressTest
    @Description("A waker (CAS PARKED->QUEUED) vs. the owning COG (CAS PARKED->RUNNING). "
            + "r1 = waker won, r2 = COG won, r3 = final state (0 RUNNING, 1 PARKED, 2 QUEUED).")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "The waker took it: it goes through the inbox.")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "The COG took it: it runs.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "BOTH took the process.")
    @Outcome(expect = FORBIDDEN, desc = "Nobody took it, or inconsistent state.")
    @State
    public static class WakerVsOwner {
        final TProc p = new TProc(PARKED);

        @Actor
        public void waker(III_Result r) {
            r.r1 = bit(p.casState(PARKED, QUEUED));
        }

        @Actor
        public void owner(III_Result r) {
            r.r2 = bit(p.casState(PARKED, RUNNING));
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = p.state();
        }
    }

    @JCStressTest
    @Description("Three actors (needs 3 CPUs): two wakers vs. the owning COG. "
            + "r1, r2 = waker 1, 2 won, r3 = COG won, r4 = final state (0 RUNNING, 2 QUEUED).")
    @Outcome(id = {"1, 0, 0, 2", "0, 1, 0, 2"}, expect = ACCEPTABLE, desc = "One waker took it.")
    @Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE, desc = "The COG took it.")
    @Outcome(expect = FORBIDDEN, desc = "Taken twice, or by nobody.")
    @State
    public static class TwoWakersVsOwner {
        final TProc p = new TProc(PARKED);

        @Actor
        public void waker1(IIII_Result r) {
            r.r1 = bit(p.casState(PARKED, QUEUED));
        }

        @Actor
        public void waker2(IIII_Result r) {
            r.r2 = bit(p.casState(PARKED, QUEUED));
        }

        @Actor
        public void owner(IIII_Result r) {
            r.r3 = bit(p.casState(PARKED, RUNNING));
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r4 = p.state();
        }
    }

    @JCStressTest
    @Description("The whole park hand-off, as Cog.sleep does it for a simple guard or a get, against a resolver. "
            + "COG (SCHEDULED, running a batch): publish PARKED, register the process on the future, re-check "
            + "the future and CAS PARKED->RUNNING if resolved; then drain the inbox (accept) and end the batch: "
            + "submit if it has local work, else idleOrReschedule. Resolver: complete the future, whose waiter "
            + "is Process.wake (CAS PARKED->QUEUED, then enqueueAndSchedule). "
            + "r1 = COG's re-check took it, r2 = COG drained it from the inbox, r3 = COG rescheduled at batch end, "
            + "r4 = resolver's wake activated the COG, r5 = submissions, r6 = process left in the inbox, "
            + "r7 = times the process was enqueued.")
    @Outcome(id = "1, 0, 0, 0, 1, 0, 0", expect = ACCEPTABLE,
            desc = "The COG's re-check saw the outcome and won the CAS: the process is ready at once.")
    @Outcome(id = "0, 1, 0, 0, 1, 0, 1", expect = ACCEPTABLE,
            desc = "The waker won and queued the process before the COG drained its inbox.")
    @Outcome(id = "0, 0, 1, 0, 1, 1, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "Queued after the drain; the COG saw it when going idle and rescheduled itself.")
    @Outcome(id = "0, 0, 0, 1, 1, 1, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "Queued after the COG went idle; the wake scheduled the COG.")
    @Outcome(id = "0, 0, 0, 0, 0, 0, 0", expect = FORBIDDEN,
            desc = "LOST PROCESS: parked forever although its future resolved.")
    @Outcome(id = "0, 0, 0, 0, 0, 1, 1", expect = FORBIDDEN,
            desc = "LOST WAKE-UP: the woken process is stranded in the inbox of an IDLE COG.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "The process was made ready twice.")
    @Outcome(expect = FORBIDDEN, desc = "Double submission or inconsistent state.")
    @State
    public static class ParkVsResolve {
        final CountingCog cog = CountingCog.scheduled();
        final TFut f = new TFut();
        final WakeableProc p = new WakeableProc(cog);

        @Actor
        public void cogTask(IIIIIII_Result r) {
            // Cog.sleep: publish PARKED before registering and re-reading the future.
            p.setState(PARKED);
            f.register(p);
            boolean local = f.isResolved() && p.casState(PARKED, RUNNING);
            // pickNext: accept what the inbox holds.
            int drained = 0;
            Node n;
            while ((n = cog.poll()) != null) {
                ((ProcessCore) n).setStateRelaxed(RUNNING); // as Cog.accept: no fence
                drained++;
            }
            // End of the batch (Cog.runBatch): a ready process is local work.
            if (local || drained > 0) cog.resubmit();
            else r.r3 = bit(cog.idleOrReschedule());
            r.r1 = bit(local);
            r.r2 = drained;
        }

        @Actor
        public void resolver() {
            f.complete(new Value(7));
        }

        @Arbiter
        public void arbiter(IIIIIII_Result r) {
            r.r4 = cog.activations.get();
            r.r5 = cog.submits.get();
            r.r6 = cog.drainCount();
            r.r7 = p.enqueued.get();
        }
    }

    @JCStressTest
    @Description("A process is the future of its call: a caller registers on the process's future word while "
            + "the process's COG ends it (resolves that word, then sets DONE on the run-state word); the caller's "
            + "thread then fires a stale wake-up of the process. "
            + "r1 = times the caller learnt of the outcome (woken as a waiter, or saw it resolved and went on), "
            + "r2 = times the process was queued again, r3 = final run state (3 DONE).")
    @Outcome(id = "1, 0, 3", expect = ACCEPTABLE, desc = "The caller learnt of the outcome once; the ended process stayed DONE.")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "LOST WAKE-UP: the caller registered and was never woken.")
    @Outcome(id = "2, .*", expect = FORBIDDEN, desc = "The caller was woken twice.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "An ended process was queued again.")
    @Outcome(expect = FORBIDDEN, desc = "Inconsistent state.")
    @State
    public static class FutureOfEndingProcess {
        final CountingCog cog = CountingCog.scheduled();
        final WakeableProc p = new WakeableProc(cog); // RUNNING: its COG runs it
        final RecordingWaiter caller = new RecordingWaiter(1, new StringBuffer());
        volatile int proceeded;

        @Actor
        public void callerAwaits() {
            if (!p.register(caller)) proceeded = 1; // already resolved: the caller reads it at once
            // Then, on the same thread (two actors fit 2 CPUs), a stale wake-up of the process
            // (it once awaited some other future): Process.wake acts only on PARKED.
            p.onResolved(null);
        }

        @Actor
        public void cogEndsProcess() {
            // Cog.runSlice then Process.ended: the future word first, then DONE (no fence needed for DONE).
            p.complete(new Value(7));
            p.setStateRelaxed(DONE);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = caller.calls.get() + proceeded;
            r.r2 = p.enqueued.get();
            r.r3 = p.state();
        }
    }
    @JCStressTest
    @Description("A process waiting in the simulated clock (await duration), as Cog.parkTime parks it, against "
            + "the clock's wake-up (SimClock.wake): the COG publishes PARKED, then re-reads timeUp and takes the "
            + "process back with a CAS if it is set; the clock sets timeUp, then CASes PARKED->QUEUED. "
            + "r1 = the COG took it, r2 = the clock took it, r3 = final state (0 RUNNING, 2 QUEUED).")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "The COG's re-read saw timeUp and won: it runs at once.")
    @Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "The clock took it: it goes through the inbox.")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "LOST WAKE-UP: nobody took the process although its time is up.")
    @Outcome(expect = FORBIDDEN, desc = "Taken twice, or inconsistent state.")
    @State
    public static class TimeWaitVsClock {
        final TProc p = new TProc(RUNNING);
        volatile boolean timeUp;

        @Actor
        public void cog(III_Result r) {
            p.setState(PARKED);                                   // 1 (handing it to the clock comes after)
            r.r1 = bit(timeUp && p.casState(PARKED, RUNNING));    // 3
        }

        @Actor
        public void clock(III_Result r) {
            timeUp = true;
            r.r2 = bit(p.casState(PARKED, QUEUED));
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = p.state();
        }
    }

    @JCStressTest
    @Description("The same, after a stale waker took the process out of PARKED first (it is QUEUED, in the "
            + "inbox): the COG accepts it (RUNNING, a plain release store, as Cog.accept), checks timeUp "
            + "(checkGuard) and, if not set, parks it again (PARKED, re-read timeUp, CAS back). The clock sets "
            + "timeUp and CASes PARKED->QUEUED, which fails unless the COG re-parked first. "
            + "r1 = the COG's check saw timeUp (the process resumes), r2 = the COG's re-park took it back, "
            + "r3 = the clock took it, r4 = final state.")
    @Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "The check saw timeUp: it resumes.")
    @Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "Re-parked, and the re-read saw timeUp: taken back.")
    @Outcome(id = "0, 0, 1, 2", expect = ACCEPTABLE_INTERESTING, desc = "Re-parked before the clock's CAS: the clock took it.")
    @Outcome(id = "0, 0, 0, .*", expect = FORBIDDEN, desc = "LOST WAKE-UP: parked again with its time up and nobody took it.")
    @Outcome(expect = FORBIDDEN, desc = "Taken twice, or inconsistent state.")
    @State
    public static class TimeWaitAfterStaleWake {
        final TProc p = new TProc(QUEUED);
        volatile boolean timeUp;

        @Actor
        public void cog(IIII_Result r) {
            p.setStateRelaxed(RUNNING);                           // Cog.accept
            if (timeUp) { r.r1 = 1; return; }                     // Cog.checkGuard: Holds
            p.setState(PARKED);                                   // Cog.parkTime, not fresh
            r.r2 = bit(timeUp && p.casState(PARKED, RUNNING));
        }

        @Actor
        public void clock(IIII_Result r) {
            timeUp = true;
            r.r3 = bit(p.casState(PARKED, QUEUED));
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r4 = p.state();
        }
    }
}
