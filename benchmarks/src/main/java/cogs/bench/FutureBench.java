package cogs.bench;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
import cogs.javadsl.Guard;
import cogs.javadsl.Proc;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Resolving one future that K suspended processes await, spread over a number of objects: the
 * time from resolving it until every waiting continuation has run. Set up before the clock starts:
 * the objects, and the K calls, each suspended on the pending future.
 *
 * <ul>
 *   <li>Cogs: the K calls {@code await f?}. Cogs has no promise to resolve from outside: {@code f}
 *       is the future of a call to a gate object that awaits a condition; the measured part
 *       starts with the call that opens the gate (one message more than Pekko's).
 *   <li>Pekko: the K messages each register the actor on a pending {@code CompletableFuture}
 *       with {@code Patterns.pipe(f, dispatcher).to(self)}, the way an actor awaits a result
 *       without blocking; the measured part starts with {@code complete}, which tells the K
 *       actors their messages.
 * </ul>
 * Each object counts its resumed continuations on its own and reports to a shared counter only
 * when all of its own have run, so the bookkeeping costs both runtimes the same.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g"})
public class FutureBench extends WorkloadState {

    /** K: continuations waiting on the future. */
    @Param({"1000", "100000"})
    public int waiters;

    /** The objects (actors) they are spread over, round robin. */
    @Param({"1", "100"})
    public int objects;

    @Param({"cogs", "pekko"})
    public String runtime;

    @Override
    protected Workload create() {
        return workload(runtime, waiters, objects);
    }

    @Benchmark
    public long resolve() throws Exception {
        return workload.run();
    }

    public static Workload workload(String runtime, int waiters, int objects) {
        if (waiters % objects != 0) {
            throw new IllegalArgumentException(waiters + " waiters do not split evenly over " + objects + " objects");
        }
        switch (runtime) {
            case "cogs":
                return new CogsFuture(waiters, objects);
            case "pekko":
                return new PekkoFuture(waiters, objects);
            default:
                throw new IllegalArgumentException("unknown runtime '" + runtime + "'; cogs or pekko");
        }
    }

    /** What every run shares: one count per object still waiting for continuations, and the end signal. */
    static final class Tally {
        final int perObject;
        final AtomicInteger objectsLeft;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final AtomicInteger excess = new AtomicInteger();

        Tally(int objects, int perObject) {
            this.perObject = perObject;
            this.objectsLeft = new AtomicInteger(objects);
        }

        /** One object's {@code resumed}-th continuation ran. */
        void resumed(int resumed) {
            if (resumed == perObject) {
                if (objectsLeft.decrementAndGet() == 0) {
                    done.complete(null);
                }
            } else if (resumed > perObject) {
                excess.incrementAndGet();
            }
        }

        void await(String what) throws Exception {
            try {
                done.get(Workload.timeoutSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException(what + ": " + objectsLeft.get() + " objects still wait after "
                        + Workload.timeoutSeconds() + " s");
            }
        }

        void check(String what) {
            if (!done.isDone()) {
                throw new IllegalStateException(what + ": the run ended before every continuation ran");
            }
            Workload.expect(what + ": continuations that ran more than once", 0, excess.get());
        }
    }

    // ------------------------------------------------------------------------------------ Cogs

    public interface Gate extends Active {
        Proc<Integer> pass();

        Proc<Void> open();
    }

    public static final class GateImpl extends ActiveObject implements Gate {
        private boolean opened;

        @Override
        public Proc<Integer> pass() {
            return Proc.await(Guard.of("gate open", () -> opened)).map(u -> 1);
        }

        @Override
        public Proc<Void> open() {
            opened = true;
            return Proc.done(null);
        }
    }

    public interface Waiter extends Active {
        Proc<Integer> waitFor(Fut<Integer> f);
    }

    public static final class WaiterImpl extends ActiveObject implements Waiter {
        private final Tally tally;
        private int resumed;

        WaiterImpl(Tally tally) {
            this.tally = tally;
        }

        @Override
        public Proc<Integer> waitFor(Fut<Integer> f) {
            return Proc.await(f).map(v -> {
                tally.resumed(++resumed);
                return v;
            });
        }
    }

    static final class CogsFuture implements Workload {
        private final CogRuntime rt = CogRuntime.create();
        private final int waiters;
        private final int objects;
        private Gate gate;
        private Tally tally;

        CogsFuture(int waiters, int objects) {
            this.waiters = waiters;
            this.objects = objects;
        }

        @Override
        public void prepare() {
            Tally t = new Tally(objects, waiters / objects);
            gate = rt.spawn(GateImpl::new);
            Fut<Integer> pending = Cogs.send(gate, "pass", Gate::pass);
            List<Waiter> ws = new ArrayList<>(objects);
            for (int i = 0; i < objects; i++) {
                ws.add(rt.spawn(() -> new WaiterImpl(t)));
            }
            for (int i = 0; i < waiters; i++) {
                Cogs.send(ws.get(i % objects), "waitFor", w -> w.waitFor(pending));
            }
            rt.awaitQuiescence(); // every call has started and suspended on `pending`
            if (pending.isDone() || t.done.isDone()) {
                throw new IllegalStateException("cogs: the gate opened by itself");
            }
            tally = t;
        }

        @Override
        public long run() throws Exception {
            Cogs.send(gate, "open", Gate::open);
            tally.await("cogs");
            return waiters;
        }

        @Override
        public void check() {
            tally.check("cogs");
        }

        @Override
        public void close() {
            rt.close();
        }
    }

    // ----------------------------------------------------------------------------------- Pekko

    static final class WaitFor {
        final CompletableFuture<Integer> future;

        WaitFor(CompletableFuture<Integer> future) {
            this.future = future;
        }
    }

    static final class WaiterActor extends AbstractActor {
        private final Tally tally;
        private final CountDownLatch registered;
        private int resumed;

        WaiterActor(Tally tally, CountDownLatch registered) {
            this.tally = tally;
            this.registered = registered;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(WaitFor.class, w -> {
                        Patterns.pipe(w.future, getContext().getDispatcher()).to(getSelf());
                        registered.countDown();
                    })
                    .match(Integer.class, v -> tally.resumed(++resumed))
                    .build();
        }
    }

    static final class PekkoFuture implements Workload {
        private final ActorSystem system = PekkoSystems.create("future");
        private final int waiters;
        private final int objects;
        private final List<ActorRef> actors = new ArrayList<>();
        private CompletableFuture<Integer> pending;
        private Tally tally;

        PekkoFuture(int waiters, int objects) {
            this.waiters = waiters;
            this.objects = objects;
        }

        @Override
        public void prepare() throws Exception {
            Tally t = new Tally(objects, waiters / objects);
            CountDownLatch registered = new CountDownLatch(waiters);
            CompletableFuture<Integer> f = new CompletableFuture<>();
            actors.clear();
            for (int i = 0; i < objects; i++) {
                actors.add(system.actorOf(Props.create(WaiterActor.class, () -> new WaiterActor(t, registered))));
            }
            WaitFor message = new WaitFor(f);
            for (int i = 0; i < waiters; i++) {
                actors.get(i % objects).tell(message, ActorRef.noSender());
            }
            if (!registered.await(Workload.timeoutSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("pekko: the waiters did not register in time");
            }
            pending = f;
            tally = t;
        }

        @Override
        public long run() throws Exception {
            pending.complete(1);
            tally.await("pekko");
            return waiters;
        }

        @Override
        public void check() {
            try {
                tally.check("pekko");
            } finally {
                actors.forEach(system::stop);
            }
        }

        @Override
        public void close() {
            PekkoSystems.terminate(system);
        }
    }
}
