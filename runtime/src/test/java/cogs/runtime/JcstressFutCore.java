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
    @Description("Three waiters are registered (state = a node holding w3 alone, then the pair w1, w2); "
            + "register(w4), which replaces the half-full head node by a full one, races with complete. "
            + "r1 = register(w4) returned true, r2 = complete returned true, r3 = calls of w1..w3 (111 once each), "
            + "r4 = calls of w4, r5 = order in which they were woken (digits of their ids).")
    @Outcome(id = "1, 1, 111, 1, 1234", expect = ACCEPTABLE, desc = "All four registered; woken once each, in registration order.")
    @Outcome(id = "0, 1, 111, 0, 123", expect = ACCEPTABLE, desc = "w4 came too late and was told so; the others woken once, in order.")
    @Outcome(id = "1, 1, .*, 0, .*", expect = FORBIDDEN, desc = "LOST WAITER: w4 registered, never woken.")
    @Outcome(expect = FORBIDDEN, desc = "A waiter lost, woken twice or out of order.")
    @State
    public static class RegisterIntoHalfNodeVsComplete {
        final TFut f = new TFut();
        final StringBuffer order = new StringBuffer();
        final RecordingWaiter w1 = new RecordingWaiter(1, order);
        final RecordingWaiter w2 = new RecordingWaiter(2, order);
        final RecordingWaiter w3 = new RecordingWaiter(3, order);
        final RecordingWaiter w4 = new RecordingWaiter(4, order);

        public RegisterIntoHalfNodeVsComplete() {
            if (!(f.register(w1) && f.register(w2) && f.register(w3))) throw new AssertionError();
        }

        @Actor
        public void waiter(IIIII_Result r) {
            r.r1 = bit(f.register(w4));
        }

        @Actor
        public void resolver(IIIII_Result r) {
            r.r2 = bit(f.complete(new Value(7)));
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            r.r3 = w1.calls.get() * 100 + w2.calls.get() * 10 + w3.calls.get();
            r.r4 = w4.calls.get();
            r.r5 = order.length() == 0 ? 0 : Integer.parseInt(order.toString());
        }
    }

    @JCStressTest
    @Description("Two waiters are registered (state = the full node w1, w2); w3 and w4 register at once (one "
            + "starts a new node, the other fills it or starts its own after a failed CAS), then the arbiter "
            + "completes. r1, r2 = register results of w3, w4; r3 = calls of w1, w2 (11 once each), r4 = calls of "
            + "w3, w4 (11), r5 = order of waking (w1, w2 first; w3 and w4 in the order their CASes won).")
    @Outcome(id = "1, 1, 11, 11, 1234", expect = ACCEPTABLE, desc = "All registered, each woken once; w3's CAS won first.")
    @Outcome(id = "1, 1, 11, 11, 1243", expect = ACCEPTABLE, desc = "All registered, each woken once; w4's CAS won first.")
    @Outcome(expect = FORBIDDEN, desc = "A registration was lost, a waiter woken twice, or w1, w2 not first.")
    @State
    public static class TwoRegistersPastAFullNode {
        final TFut f = new TFut();
        final StringBuffer order = new StringBuffer();
        final RecordingWaiter w1 = new RecordingWaiter(1, order);
        final RecordingWaiter w2 = new RecordingWaiter(2, order);
        final RecordingWaiter w3 = new RecordingWaiter(3, order);
        final RecordingWaiter w4 = new RecordingWaiter(4, order);

        public TwoRegistersPastAFullNode() {
            if (!(f.register(w1) && f.register(w2))) throw new AssertionError();
        }

        @Actor
        public void waiter3(IIIII_Result r) {
            r.r1 = bit(f.register(w3));
        }

        @Actor
        public void waiter4(IIIII_Result r) {
            r.r2 = bit(f.register(w4));
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            if (!f.complete(new Value(7))) throw new AssertionError("already resolved");
            r.r3 = w1.calls.get() * 10 + w2.calls.get();
            r.r4 = w3.calls.get() * 10 + w4.calls.get();
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
