package cogs.bench;

import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import cogs.runtime.Active;
import cogs.runtime.internal.Frame;
import cogs.runtime.internal.FrameCall;
import cogs.runtime.internal.Process;
import java.util.ArrayList;
import java.util.List;

/**
 * Listing 5 ({@link AwaitChainBench}, variant {@code cogs-frames}) with {@code recursive_m} and
 * {@code compute} written by hand in the runtime's frame form (docs/runtime-design.md, section 3):
 * what absc is to emit in step 7. A method takes the process and returns its value or
 * {@link Frame#Suspended()}; a synchronous self-call is a plain Java call; a frame is linked per
 * level only because the chain does suspend at its bottom (one shared frame object: no local lives
 * across the suspension). The main block is the same
 * {@code Proc} main block as variant {@code cogs}.
 */
final class FrameChain implements Workload {
    private final int n;
    private final CogRuntime rt = CogRuntime.create();
    private FA master;
    private long sum;

    FrameChain(int n) {
        this.n = n;
    }

    /** The class A of Listing 1, in frame form. */
    static final class FA extends ActiveObject {
        private int result;

        Object recursiveM(Process p, int i, int id) {
            if (i > 0) {
                Object r;
                if (p.enter()) {
                    try {
                        r = recursiveM(p, i - 1, id);
                    } finally {
                        p.exit();
                    }
                } else {
                    r = p.pendingCall(this, new RecursiveM(i - 1, id));
                }
                if (r == Frame.Suspended()) {
                    return p.suspendedIn(RESUMES);
                }
            } else {
                cogs.runtime.Fut<Object> f = cogs.runtime.Cogs$.MODULE$.send(this, "compute", COMPUTE);
                if (!f.isDone()) {
                    p.awaitFut(f);
                    return p.suspendedIn(RESUMES);
                }
            }
            return 1;
        }

        Object compute(Process p) {
            return ++result;
        }
    }

    /**
     * The frame of recursive_m: nothing lives across its scheduling points and both return 1, so
     * one shared instance serves every suspension (a frame with no fields has no state to keep
     * apart; what a code generator emits for a method with no live locals). A frame that holds
     * locals is allocated per suspension.
     */
    static final Frame RESUMES = new Resumes();

    static final class Resumes extends Frame {
        @Override
        public Object resume(Process p, Object in) {
            return 1;
        }
    }

    /** A call of recursive_m as data: the process's entry, or a pending call of the trampoline. */
    static final class RecursiveM extends FrameCall {
        private final int i;
        private final int id;

        RecursiveM(int i, int id) {
            this.i = i;
            this.id = id;
        }

        @Override
        public Object run(Process p, Active self) {
            return ((FA) self).recursiveM(p, i, id);
        }
    }

    static final FrameCall COMPUTE = new FrameCall() {
        @Override
        public Object run(Process p, Active self) {
            return ((FA) self).compute(p);
        }
    };

    static final FrameCall COUNTER = new FrameCall() {
        @Override
        public Object run(Process p, Active self) {
            return ((FA) self).result;
        }
    };

    @Override
    public void prepare() {
        master = rt.spawn(FA::new);
    }

    @Override
    public long run() {
        FA m = master;
        int calls = n;
        sum = rt.run(() -> mainBlock(m, calls));
        return sum;
    }

    @SuppressWarnings("unchecked")
    private static Proc<Long> mainBlock(FA master, int n) {
        List<Fut<Object>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            futures.add((Fut<Object>) (Fut<?>) cogs.runtime.Cogs$.MODULE$.send(master, "recursive_m", new RecursiveM(AwaitChainBench.DEPTH, i)));
        }
        long[] sum = {0};
        return Proc.repeat(n, k -> Proc.get(futures.get(n - 1 - k)).map(r -> {
            sum[0] += (Integer) r;
            return null;
        })).map(u -> sum[0]);
    }

    @Override
    public void check() {
        Workload.expect("cogs-frames: sum of the calls' results", n, sum);
        Object c = cogs.runtime.Cogs$.MODULE$.send(master, "counter", COUNTER).join();
        Workload.expect("cogs-frames: counter", n, (Integer) c);
    }

    @Override
    public void close() {
        rt.close();
    }
}
