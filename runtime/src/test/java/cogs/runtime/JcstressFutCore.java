package cogs.runtime;

import cogs.runtime.JcstressSupport.RecordingWaiter;
import cogs.runtime.JcstressSupport.TFut;
import cogs.runtime.JcstressSupport.Value;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static cogs.runtime.JcstressSupport.bit;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link FutCore}: a waiter registered concurrently with the resolution is either
 * woken exactly once (and then sees the outcome) or told by {@code register} that the future is
 * already resolved; never neither, never twice.
 */
public class JcstressFutCore {

    @JCStressTest
    @Description("register(w) vs complete(o) on a pending future with no waiter. r1 = register returned true, "
            + "r2 = complete returned true, r3 = times w was called, r4 = w saw the outcome when called.")
    @Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "Registered first; the resolver woke it once.")
    @Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE,
            desc = "Resolved first; register returned false and the caller proceeds itself.")
    @Outcome(id = "1, 1, 0, 0", expect = FORBIDDEN, desc = "LOST WAITER: registered, never woken.")
    @Outcome(id = "0, 1, 1, .*", expect = FORBIDDEN, desc = "register said resolved but the waiter was called too.")
    @Outcome(id = ".*, .*, 2, .*", expect = FORBIDDEN, desc = "Woken twice.")
    @Outcome(expect = FORBIDDEN, desc = "Inconsistent.")
    @State
    public static class RegisterVsComplete {
        final TFut f = new TFut();
        final RecordingWaiter w = new RecordingWaiter(1, new StringBuffer());

        @Actor
        public void waiter(IIII_Result r) {
            r.r1 = bit(f.register(w));
        }

        @Actor
        public void resolver(IIII_Result r) {
            r.r2 = bit(f.complete(new Value(7)));
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r3 = w.calls.get();
            r.r4 = w.calls.get() > 0 && w.sawValue == 7 ? 1 : 0;
        }
    }

    @JCStressTest
    @Description("A waiter w1 is already registered (state = single Waiter); register(w2) (which turns the state "
            + "into a WaitList) races with complete. r1 = register(w2) returned true, r2 = complete returned true, "
            + "r3 = calls of w1, r4 = calls of w2, r5 = order in which they were woken (digits of their ids).")
    @Outcome(id = "1, 1, 1, 1, 12", expect = ACCEPTABLE, desc = "Both registered; woken once each, in registration order.")
    @Outcome(id = "0, 1, 1, 0, 1", expect = ACCEPTABLE, desc = "w2 came too late and was told so; w1 woken once.")
    @Outcome(id = "1, 1, 1, 0, .*", expect = FORBIDDEN, desc = "LOST WAITER: w2 registered, never woken.")
    @Outcome(id = "1, 1, 1, 1, 21", expect = FORBIDDEN, desc = "Woken out of registration order.")
    @Outcome(expect = FORBIDDEN, desc = "Lost or duplicated wake-up.")
    @State
    public static class RegisterSecondVsComplete {
        final TFut f = new TFut();
        final StringBuffer order = new StringBuffer();
        final RecordingWaiter w1 = new RecordingWaiter(1, order);
        final RecordingWaiter w2 = new RecordingWaiter(2, order);

        public RegisterSecondVsComplete() {
            if (!f.register(w1)) throw new AssertionError();
        }

        @Actor
        public void waiter(IIIII_Result r) {
            r.r1 = bit(f.register(w2));
        }

        @Actor
        public void resolver(IIIII_Result r) {
            r.r2 = bit(f.complete(new Value(7)));
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            r.r3 = w1.calls.get();
            r.r4 = w2.calls.get();
            r.r5 = order.length() == 0 ? 0 : Integer.parseInt(order.toString());
        }
    }

    @JCStressTest
    @Description("Two waiters register at once (CAS retries, WaitList built under contention); the arbiter "
            + "then completes. r1, r2 = register results, r3, r4 = calls of w1, w2.")
    @Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "Both registered, each woken exactly once.")
    @Outcome(expect = FORBIDDEN, desc = "A registration was lost or a waiter woken twice.")
    @State
    public static class TwoRegistersThenComplete {
        final TFut f = new TFut();
        final StringBuffer order = new StringBuffer();
        final RecordingWaiter w1 = new RecordingWaiter(1, order);
        final RecordingWaiter w2 = new RecordingWaiter(2, order);

        @Actor
        public void waiter1(IIII_Result r) {
            r.r1 = bit(f.register(w1));
        }

        @Actor
        public void waiter2(IIII_Result r) {
            r.r2 = bit(f.register(w2));
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            if (!f.complete(new Value(7))) throw new AssertionError("already resolved");
            r.r3 = w1.calls.get();
            r.r4 = w2.calls.get();
        }
    }

    @JCStressTest
    @Description("Two resolvers race on a future with one waiter. r1, r2 = complete(1), complete(2) returned "
            + "true, r3 = calls of the waiter, r4 = the value the future holds, r5 = the value the waiter saw.")
    @Outcome(id = "1, 0, 1, 1, 1", expect = ACCEPTABLE, desc = "The first resolver won; the waiter saw its value.")
    @Outcome(id = "0, 1, 1, 2, 2", expect = ACCEPTABLE, desc = "The second resolver won; the waiter saw its value.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "RESOLVED TWICE.")
    @Outcome(expect = FORBIDDEN, desc = "Lost or duplicated wake-up, or the waiter saw another value.")
    @State
    public static class TwoCompleters {
        final TFut f = new TFut();
        final RecordingWaiter w = new RecordingWaiter(1, new StringBuffer());

        public TwoCompleters() {
            if (!f.register(w)) throw new AssertionError();
        }

        @Actor
        public void resolver1(IIIII_Result r) {
            r.r1 = bit(f.complete(new Value(1)));
        }

        @Actor
        public void resolver2(IIIII_Result r) {
            r.r2 = bit(f.complete(new Value(2)));
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            r.r3 = w.calls.get();
            FutCore.Outcome o = f.outcome();
            r.r4 = o instanceof Value ? ((Value) o).v : -1;
            r.r5 = w.sawValue;
        }
    }
}
