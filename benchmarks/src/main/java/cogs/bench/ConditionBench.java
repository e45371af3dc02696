package cogs.bench;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Guard;
import cogs.javadsl.Proc;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.AbstractActorWithStash;
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
 * Condition awaits: processes of one object that wait for a condition on its fields
 * ({@code await b}), which calls to the object make true. On Pekko, an actor that cannot serve a
 * message in its current state stashes it and unstashes everything when its state changes, which
 * is the idiomatic equivalent.
 *
 * <ul>
 *   <li>{@link WakeAll}: K calls wait for {@code opened}; the measured part is one call that sets
 *       it, until all K have run.
 *   <li>{@link Turns}: K calls, call i waiting for {@code turn == i} and then advancing {@code turn}
 *       (queued in a shuffled order); the measured part is the call that sets {@code turn = 0},
 *       until the last turn. Each step changes the state, so each step re-examines the waiting
 *       calls: Cogs re-checks the conditions of the suspended processes, Pekko re-delivers its
 *       stash. Both are quadratic in K; this measures the constant.
 * </ul>
 */
public class ConditionBench {

    static void await(CompletableFuture<Integer> done, String what) throws Exception {
        try {
            done.get(Workload.timeoutSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": the waiting calls did not all run in " + Workload.timeoutSeconds() + " s");
        }
    }

    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 3, time = 5)
    @Measurement(iterations = 5, time = 5)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g"})
    public static class WakeAll extends WorkloadState {
        @Param({"1000", "100000"})
        public int waiters;

        @Param({"cogs", "pekko"})
        public String runtime;

        @Override
        protected Workload create() {
            return workload(runtime, waiters);
        }

        @Benchmark
        public long open() throws Exception {
            return workload.run();
        }

        public static Workload workload(String runtime, int waiters) {
            switch (runtime) {
                case "cogs":
                    return new CogsWakeAll(waiters);
                case "pekko":
                    return new PekkoWakeAll(waiters);
                default:
                    throw new IllegalArgumentException("unknown runtime '" + runtime + "'; cogs or pekko");
            }
        }
    }

    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 3, time = 5)
    @Measurement(iterations = 5, time = 5)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g"})
    public static class Turns extends WorkloadState {
        @Param({"100", "1000"})
        public int waiters;

        @Param({"cogs", "pekko"})
        public String runtime;

        @Override
        protected Workload create() {
            return workload(runtime, waiters);
        }

        @Benchmark
        public long start() throws Exception {
            return workload.run();
        }

        public static Workload workload(String runtime, int waiters) {
            switch (runtime) {
                case "cogs":
                    return new CogsTurns(waiters);
                case "pekko":
                    return new PekkoTurns(waiters);
                default:
                    throw new IllegalArgumentException("unknown runtime '" + runtime + "'; cogs or pekko");
            }
        }
    }

    /** 0 .. n-1 in an order that favours no scan order of either runtime, the same in every run. */
    static List<Integer> shuffled(int n) {
        List<Integer> order = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(42));
        return order;
    }

    // ------------------------------------------------------------------------------------ Cogs

    public interface Door extends Active {
        Proc<Void> pass();

        Proc<Void> open();
    }

    public static final class DoorImpl extends ActiveObject implements Door {
        private final int expected;
        private final CompletableFuture<Integer> done;
        private boolean opened;
        private int passed;

        DoorImpl(int expected, CompletableFuture<Integer> done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        public Proc<Void> pass() {
            return Proc.await(Guard.of("door open", () -> opened)).map(u -> {
                if (++passed == expected) {
                    done.complete(passed);
                }
                return null;
            });
        }

        @Override
        public Proc<Void> open() {
            opened = true;
            return Proc.done(null);
        }
    }

    static final class CogsWakeAll implements Workload {
        private final CogRuntime rt = CogRuntime.create();
        private final int waiters;
        private Door door;
        private CompletableFuture<Integer> done;

        CogsWakeAll(int waiters) {
            this.waiters = waiters;
        }

        @Override
        public void prepare() {
            CompletableFuture<Integer> d = new CompletableFuture<>();
            int expected = waiters;
            door = rt.spawn(() -> new DoorImpl(expected, d));
            for (int i = 0; i < waiters; i++) {
                Cogs.send(door, "pass", Door::pass);
            }
            rt.awaitQuiescence(); // all suspended on the condition
            done = d;
        }

        @Override
        public long run() throws Exception {
            Cogs.send(door, "open", Door::open);
            await(done, "cogs");
            return waiters;
        }

        @Override
        public void check() {
            rt.awaitQuiescence();
            Workload.expect("cogs: calls that passed the door", waiters, done.getNow(-1));
        }

        @Override
        public void close() {
            rt.close();
        }
    }

    public interface Turnstile extends Active {
        Proc<Void> take(int turn);

        Proc<Void> start();

        Proc<Integer> turn();
    }

    public static final class TurnstileImpl extends ActiveObject implements Turnstile {
        private final int last;
        private final CompletableFuture<Integer> done;
        private int turn = -1;

        TurnstileImpl(int turns, CompletableFuture<Integer> done) {
            this.last = turns;
            this.done = done;
        }

        @Override
        public Proc<Void> take(int mine) {
            return Proc.await(Guard.of(() -> turn == mine)).map(u -> {
                if (++turn == last) {
                    done.complete(turn);
                }
                return null;
            });
        }

        @Override
        public Proc<Void> start() {
            turn = 0;
            return Proc.done(null);
        }

        @Override
        public Proc<Integer> turn() {
            return Proc.done(turn);
        }
    }

    static final class CogsTurns implements Workload {
        private final CogRuntime rt = CogRuntime.create();
        private final int waiters;
        private final List<Integer> order;
        private Turnstile turnstile;
        private CompletableFuture<Integer> done;

        CogsTurns(int waiters) {
            this.waiters = waiters;
            this.order = shuffled(waiters);
        }

        @Override
        public void prepare() {
            CompletableFuture<Integer> d = new CompletableFuture<>();
            int turns = waiters;
            turnstile = rt.spawn(() -> new TurnstileImpl(turns, d));
            for (int mine : order) {
                Cogs.send(turnstile, "take", t -> t.take(mine));
            }
            rt.awaitQuiescence();
            done = d;
        }

        @Override
        public long run() throws Exception {
            Cogs.send(turnstile, "start", Turnstile::start);
            await(done, "cogs");
            return waiters;
        }

        @Override
        public void check() {
            rt.awaitQuiescence();
            Workload.expect("cogs: final turn", waiters, Cogs.send(turnstile, "turn", Turnstile::turn).join());
        }

        @Override
        public void close() {
            rt.close();
        }
    }

    // ----------------------------------------------------------------------------------- Pekko

    enum Signal { PASS, OPEN, START, PING }

    static final class DoorActor extends AbstractActorWithStash {
        private final int expected;
        private final CompletableFuture<Integer> done;
        private boolean opened;
        private int passed;

        DoorActor(int expected, CompletableFuture<Integer> done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .matchEquals(Signal.PASS, m -> {
                        if (!opened) {
                            stash();
                        } else if (++passed == expected) {
                            done.complete(passed);
                        }
                    })
                    .matchEquals(Signal.OPEN, m -> {
                        opened = true;
                        unstashAll();
                    })
                    .matchEquals(Signal.PING, m -> getSender().tell(passed, getSelf()))
                    .build();
        }
    }

    /** Wait until {@code actor} has handled everything this thread sent it before. */
    static Object ping(ActorRef actor) throws Exception {
        return Patterns.ask(actor, Signal.PING, PekkoSystems.ASK_TIMEOUT).toCompletableFuture().get();
    }

    static final class PekkoWakeAll implements Workload {
        private final ActorSystem system = PekkoSystems.create("condition");
        private final int waiters;
        private ActorRef door;
        private CompletableFuture<Integer> done;

        PekkoWakeAll(int waiters) {
            this.waiters = waiters;
        }

        @Override
        public void prepare() throws Exception {
            CompletableFuture<Integer> d = new CompletableFuture<>();
            int expected = waiters;
            door = system.actorOf(Props.create(DoorActor.class, () -> new DoorActor(expected, d)));
            for (int i = 0; i < waiters; i++) {
                door.tell(Signal.PASS, ActorRef.noSender());
            }
            ping(door); // all stashed
            done = d;
        }

        @Override
        public long run() throws Exception {
            door.tell(Signal.OPEN, ActorRef.noSender());
            await(done, "pekko");
            return waiters;
        }

        @Override
        public void check() throws Exception {
            try {
                Workload.expect("pekko: calls that passed the door", waiters, (Integer) ping(door));
            } finally {
                system.stop(door);
            }
        }

        @Override
        public void close() {
            PekkoSystems.terminate(system);
        }
    }

    static final class Take {
        final int turn;

        Take(int turn) {
            this.turn = turn;
        }
    }

    static final class TurnstileActor extends AbstractActorWithStash {
        private final int last;
        private final CompletableFuture<Integer> done;
        private int turn = -1;

        TurnstileActor(int turns, CompletableFuture<Integer> done) {
            this.last = turns;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Take.class, t -> {
                        if (t.turn != turn) {
                            stash();
                            return;
                        }
                        if (++turn == last) {
                            done.complete(turn);
                        }
                        unstashAll();
                    })
                    .matchEquals(Signal.START, m -> {
                        turn = 0;
                        unstashAll();
                    })
                    .matchEquals(Signal.PING, m -> getSender().tell(turn, getSelf()))
                    .build();
        }
    }

    static final class PekkoTurns implements Workload {
        private final ActorSystem system = PekkoSystems.create("condition");
        private final int waiters;
        private final List<Integer> order;
        private ActorRef turnstile;
        private CompletableFuture<Integer> done;

        PekkoTurns(int waiters) {
            this.waiters = waiters;
            this.order = shuffled(waiters);
        }

        @Override
        public void prepare() throws Exception {
            CompletableFuture<Integer> d = new CompletableFuture<>();
            int turns = waiters;
            turnstile = system.actorOf(Props.create(TurnstileActor.class, () -> new TurnstileActor(turns, d)));
            for (int mine : order) {
                turnstile.tell(new Take(mine), ActorRef.noSender());
            }
            ping(turnstile);
            done = d;
        }

        @Override
        public long run() throws Exception {
            turnstile.tell(Signal.START, ActorRef.noSender());
            await(done, "pekko");
            return waiters;
        }

        @Override
        public void check() throws Exception {
            try {
                Workload.expect("pekko: final turn", waiters, (Integer) ping(turnstile));
            } finally {
                system.stop(turnstile);
            }
        }

        @Override
        public void close() {
            PekkoSystems.terminate(system);
        }
    }
}
