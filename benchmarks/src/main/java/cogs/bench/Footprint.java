package cogs.bench;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
import cogs.javadsl.Guard;
import cogs.javadsl.Proc;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.AbstractActorWithStash;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;

/**
 * Bytes per idle object and per suspended call, on Cogs and on Pekko, side by side:
 *
 * <pre>
 * benchmarks/run footprint [N=1000000]
 * </pre>
 *
 * Each figure is measured in a fresh JVM (a child of this one, same JVM and options; a heap of
 * 6 GB unless the options set one): create the runtime and whatever the instances hang off, take
 * the used heap after full collections, create N instances, take it again; the difference over N,
 * less the reference this program keeps per instance where it keeps one. Rows:
 *
 * <ul>
 *   <li>idle object: Cogs, a minimal active object (one int field) with its own COG; Pekko, a
 *       minimal actor (one int field) created with {@code actorOf}: its cell, mailbox, reference,
 *       path and name, and its entry among its parent's children, started and idle.
 *   <li>call suspended on a pending future: Cogs, an asynchronous call whose process awaits a
 *       future that stays pending (its process, its own future, its continuation, its registration
 *       on the awaited future), N calls over 1,000 objects; Pekko, a message whose handler awaits
 *       the same way an actor does, {@code pipe(f.thenApply(v -> reply(v, sender)), ec).to(self)}:
 *       the continuation that remembers whom to answer and its registrations on the future, N
 *       messages over 1,000 actors.
 *   <li>call waiting for a condition: Cogs, an asynchronous call whose process awaits a condition
 *       that stays false (N calls over 10,000 objects); Pekko, an {@code ask} whose message the
 *       callee stashes until its state allows it (its temporary reply actor, promise and timeout
 *       task, its Java {@code CompletionStage}, the stashed envelope; N asks over 10,000 actors).
 *   <li>call waiting for time: Cogs, an asynchronous call whose process is in
 *       {@code await duration(..)} on the simulated clock, which is limited so that it never
 *       advances (N calls over 1,000 objects); Pekko, a message whose handler schedules a message
 *       to itself an hour later with the system scheduler's {@code scheduleOnce} (N messages over
 *       1,000 actors): Pekko has no simulated time, and a pending timer is its way to wait for time.
 * </ul>
 * The asynchronous-call rows include the call's own future on Cogs, which every call has; a
 * Pekko {@code tell} has none, which is why the Pekko side of the condition row is an ask.
 */
public final class Footprint {
    private Footprint() {}

    /** What is measured, in the order of the table. */
    enum Kind {
        COGS_OBJECT("idle object / actor", true),
        PEKKO_ACTOR("idle object / actor", false),
        COGS_AWAIT_FUTURE("call suspended on a pending future", true),
        PEKKO_PIPE_FUTURE("call suspended on a pending future", false),
        COGS_AWAIT_CONDITION("call waiting for a condition", true),
        PEKKO_STASHED_ASK("call waiting for a condition", false),
        COGS_AWAIT_DURATION("call waiting for (simulated) time", true),
        PEKKO_SCHEDULED_ONCE("call waiting for (simulated) time", false);

        final String row;
        final boolean cogs;

        Kind(String row, boolean cogs) {
            this.row = row;
            this.cogs = cogs;
        }

        String id() {
            return name().toLowerCase().replace('_', '-');
        }
    }

    private static final String USAGE = "usage: benchmarks/run footprint [N=1000000]";

    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && args[0].equals("--measure")) {
            Kind kind = Kind.valueOf(args[1].toUpperCase().replace('-', '_'));
            int n = Integer.parseInt(args[2]);
            double bytes = measure(kind, n);
            System.out.printf("footprint %s %.1f%n", kind.id(), bytes);
            System.exit(0); // Pekko's and Cogs's threads are not all daemons
        }
        if (args.length > 1 || (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help")))) {
            System.out.println(USAGE);
            return;
        }
        int n;
        try {
            n = args.length == 1 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
            if (n < 10_000) {
                throw new NumberFormatException("N must be at least 10000 (the instances are spread over 10,000 objects)");
            }
        } catch (NumberFormatException e) {
            System.err.println("footprint: bad N: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        table(n);
    }

    /** Measure every kind in a child JVM each and print the table. */
    private static void table(int n) throws Exception {
        Map<Kind, String> results = new LinkedHashMap<>();
        boolean failed = false;
        for (Kind kind : Kind.values()) {
            System.err.printf("footprint: measuring %s (N = %,d)...%n", kind.id(), n);
            try {
                results.put(kind, String.format("%.0f B", child(kind, n)));
            } catch (IOException | IllegalStateException e) {
                System.err.println("footprint: " + kind.id() + " failed: " + e.getMessage());
                results.put(kind, "failed");
                failed = true;
            }
        }
        System.out.printf("%nMemory per instance: heap difference over N = %,d instances, after full collections%n", n);
        System.out.printf("JVM: %s %s%n%n", System.getProperty("java.vm.name"), System.getProperty("java.version"));
        System.out.printf("%-38s %12s %12s%n", "", "Cogs", "Pekko");
        for (Kind k : Kind.values()) {
            if (k.cogs) {
                Kind pekko = Kind.values()[k.ordinal() + 1];
                System.out.printf("%-38s %12s %12s%n", k.row, results.get(k), results.get(pekko));
            }
        }
        System.out.println();
        System.out.println("idle object: Cogs object + its COG; Pekko actor (cell, mailbox, ref, path, parent's entry)");
        System.out.println("future: Cogs call awaiting f? (process, its future, continuation, waiter); "
                + "Pekko pipe(f.thenApply(..)).to(self) with the sender kept");
        System.out.println("condition: Cogs call awaiting a false condition (process, its future, guard); "
                + "Pekko ask whose message the callee stashes");
        System.out.println("time: Cogs call in 'await duration(..)' on the simulated clock (process, which is its future, "
                + "its side object that the clock keeps, the Proc nodes); Pekko message scheduled to self with scheduleOnce (wall clock)");
        if (failed) {
            System.exit(1);
        }
    }

    private static double child(Kind kind, int n) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        List<String> jvmArgs = ManagementFactory.getRuntimeMXBean().getInputArguments();
        command.addAll(jvmArgs);
        if (jvmArgs.stream().noneMatch(a -> a.startsWith("-Xmx") || a.startsWith("-XX:MaxRAMPercentage"))) {
            command.add("-Xmx6g");
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Footprint.class.getName());
        command.add("--measure");
        command.add(kind.id());
        command.add(Integer.toString(n));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("footprint " + kind.id() + " ")) {
                    result = line.substring(line.lastIndexOf(' ') + 1);
                } else {
                    System.err.println("  " + line);
                }
            }
        }
        int status = p.waitFor();
        if (status != 0 || result == null) {
            throw new IllegalStateException("the measuring JVM exited with status " + status);
        }
        return Double.parseDouble(result);
    }

    // ------------------------------------------------------------------------------ measuring

    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Bytes of one reference in an array: 4 with compressed references, 8 without. */
    private static int referenceSize() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        return Boolean.parseBoolean(hotspot.getVMOption("UseCompressedOops").getValue()) ? 4 : 8;
    }

    static double measure(Kind kind, int n) throws Exception {
        switch (kind) {
            case COGS_OBJECT:
                return cogsObjects(n);
            case COGS_AWAIT_FUTURE:
                return cogsAwaitFuture(n);
            case COGS_AWAIT_CONDITION:
                return cogsAwaitCondition(n);
            case PEKKO_ACTOR:
                return pekkoActors(n);
            case PEKKO_PIPE_FUTURE:
                return pekkoPipeFuture(n);
            case PEKKO_STASHED_ASK:
                return pekkoStashedAsk(n);
            case COGS_AWAIT_DURATION:
                return cogsAwaitDuration(n);
            case PEKKO_SCHEDULED_ONCE:
                return pekkoScheduledOnce(n);
            default:
                throw new AssertionError(kind);
        }
    }

    // ------------------------------------------------------------------------------------ Cogs

    public interface Cell extends Active {
        Proc<Integer> get();
    }

    public static final class CellImpl extends ActiveObject implements Cell {
        private final int value;

        CellImpl(int value) {
            this.value = value;
        }

        @Override
        public Proc<Integer> get() {
            return Proc.done(value);
        }
    }

    public interface Gate extends Active {
        Proc<Integer> pass();

        Proc<Void> open();
    }

    public static final class GateImpl extends ActiveObject implements Gate {
        private boolean opened;

        @Override
        public Proc<Integer> pass() {
            return Proc.await(Guard.of(() -> opened)).map(u -> 1);
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
        @Override
        public Proc<Integer> waitFor(Fut<Integer> f) {
            return Proc.await(f);
        }
    }

    private static double cogsObjects(int n) throws Exception {
        CogRuntime rt = CogRuntime.create();
        try {
            Cell[] refs = new Cell[n];
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                int value = i;
                refs[i] = rt.spawn(() -> new CellImpl(value));
            }
            long after = usedHeap();
            Workload.expect("the last object's value", n - 1, Cogs.send(refs[n - 1], "get", Cell::get).join());
            Reference.reachabilityFence(refs);
            return (double) (after - before) / n - referenceSize();
        } finally {
            rt.close();
        }
    }

    private static double cogsAwaitFuture(int n) throws Exception {
        CogRuntime rt = CogRuntime.create();
        try {
            Gate gate = rt.spawn(GateImpl::new);
            Fut<Integer> pending = Cogs.send(gate, "pass", Gate::pass);
            Waiter[] waiters = new Waiter[1000];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = rt.spawn(WaiterImpl::new);
            }
            rt.awaitQuiescence();
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                Cogs.send(waiters[i % waiters.length], "waitFor", w -> w.waitFor(pending));
            }
            rt.awaitQuiescence(); // all started, all suspended
            long after = usedHeap();
            if (pending.isDone()) {
                throw new IllegalStateException("the awaited future was resolved");
            }
            Reference.reachabilityFence(waiters);
            return (double) (after - before) / n;
        } finally {
            rt.close();
        }
    }

    private static double cogsAwaitCondition(int n) throws Exception {
        CogRuntime rt = CogRuntime.create();
        try {
            // 10,000 objects: a COG re-checks its waiting conditions after each slice, so a COG
            // with 1,000 waiters would take a billion checks to fill.
            Gate[] gates = new Gate[10_000];
            for (int i = 0; i < gates.length; i++) {
                gates[i] = rt.spawn(GateImpl::new);
            }
            rt.awaitQuiescence();
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                Cogs.send(gates[i % gates.length], "pass", Gate::pass);
            }
            rt.awaitQuiescence();
            long after = usedHeap();
            Reference.reachabilityFence(gates);
            return (double) (after - before) / n;
        } finally {
            rt.close();
        }
    }

    // ----------------------------------------------------------------------------------- Pekko

    enum Signal { PING, QUESTION, ANSWER }

    static final class IdleActor extends AbstractActor {
        private int value;

        @Override
        public Receive createReceive() {
            return receiveBuilder().matchEquals(Signal.PING, m -> getSender().tell(value, getSelf())).build();
        }
    }

    /** Counts replies; completes {@code done} at the {@code expected}-th. */
    static final class Counter extends AbstractActor {
        private final int expected;
        private final CompletableFuture<Void> done;
        private int count;

        Counter(int expected, CompletableFuture<Void> done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().matchAny(m -> {
                if (++count == expected) {
                    done.complete(null);
                }
            }).build();
        }
    }

    public interface Sleeper extends Active {
        Proc<Integer> sleep();
    }

    public static final class SleeperImpl extends ActiveObject implements Sleeper {
        @Override
        public Proc<Integer> sleep() {
            cogs.runtime.SimTime hour = cogs.runtime.SimTime.of(3600);
            return Proc.awaitDuration(hour, hour).map(u -> 1);
        }
    }

    private static double cogsAwaitDuration(int n) throws Exception {
        CogRuntime rt = CogRuntime.create();
        try {
            // The clock stops at 0: every sleeper stays waiting for its time.
            rt.limitClock(cogs.runtime.SimTime.Zero());
            Sleeper[] sleepers = new Sleeper[1000];
            for (int i = 0; i < sleepers.length; i++) {
                sleepers[i] = rt.spawn(SleeperImpl::new);
            }
            rt.awaitQuiescence();
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                Cogs.send(sleepers[i % sleepers.length], "sleep", Sleeper::sleep);
            }
            rt.awaitQuiescence();
            long after = usedHeap();
            if (!rt.clockLimitReached()) {
                throw new IllegalStateException("the sleepers are not waiting for time");
            }
            Reference.reachabilityFence(sleepers);
            return (double) (after - before) / n;
        } finally {
            rt.close();
        }
    }

    private static double pekkoActors(int n) throws Exception {
        ActorSystem system = PekkoSystems.create("footprint");
        try {
            CompletableFuture<Void> started = new CompletableFuture<>();
            ActorRef counter = system.actorOf(Props.create(Counter.class, () -> new Counter(n, started)));
            Props props = Props.create(IdleActor.class, IdleActor::new); // one Props for all: not per actor
            ActorRef[] refs = new ActorRef[n];
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                refs[i] = system.actorOf(props);
            }
            // actorOf only queues the creation: a reply from every actor means all are built.
            for (ActorRef r : refs) {
                r.tell(Signal.PING, counter);
            }
            started.get(10, TimeUnit.MINUTES);
            long after = usedHeap();
            Reference.reachabilityFence(refs);
            return (double) (after - before) / n - referenceSize();
        } finally {
            leave(system);
        }
    }

    /**
     * The measuring JVM exits as soon as it has printed its figure: stopping a million actors
     * first would only take time (and Pekko's coordinated shutdown gives up after 10 s anyway).
     */
    @SuppressWarnings("unused")
    private static void leave(ActorSystem system) {
        // deliberately nothing
    }

    static final class WaitFor {
        final CompletableFuture<Integer> future;

        WaitFor(CompletableFuture<Integer> future) {
            this.future = future;
        }
    }

    static final class Reply {
        final int value;
        final ActorRef to;

        Reply(int value, ActorRef to) {
            this.value = value;
            this.to = to;
        }
    }

    static final class PipingActor extends AbstractActor {
        private final CountDownLatch registered;

        PipingActor(CountDownLatch registered) {
            this.registered = registered;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(WaitFor.class, w -> {
                        ActorRef replyTo = getSender();
                        Patterns.pipe(w.future.thenApply(v -> new Reply(v, replyTo)), getContext().getDispatcher())
                                .to(getSelf());
                        registered.countDown();
                    })
                    .match(Reply.class, r -> r.to.tell(r.value, getSelf()))
                    .build();
        }
    }

    private static double pekkoPipeFuture(int n) throws Exception {
        ActorSystem system = PekkoSystems.create("footprint");
        try {
            CountDownLatch registered = new CountDownLatch(n);
            CompletableFuture<Integer> pending = new CompletableFuture<>();
            ActorRef[] actors = new ActorRef[1000];
            for (int i = 0; i < actors.length; i++) {
                actors[i] = system.actorOf(Props.create(PipingActor.class, () -> new PipingActor(registered)));
            }
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                actors[i % actors.length].tell(new WaitFor(pending), ActorRef.noSender());
            }
            if (!registered.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the messages were not all handled");
            }
            long after = usedHeap();
            Reference.reachabilityFence(pending);
            return (double) (after - before) / n;
        } finally {
            leave(system);
        }
    }

    /** Waits an hour for each message: a timer per message, pending in the system's scheduler. */
    static final class SchedulingActor extends AbstractActor {
        private final CountDownLatch scheduled;

        SchedulingActor(CountDownLatch scheduled) {
            this.scheduled = scheduled;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .matchEquals(Signal.QUESTION, q -> {
                        getContext().getSystem().scheduler().scheduleOnce(Duration.ofHours(1), getSelf(), Signal.ANSWER,
                                getContext().getDispatcher(), getSelf());
                        scheduled.countDown();
                    })
                    .matchEquals(Signal.ANSWER, a -> { })
                    .build();
        }
    }

    private static double pekkoScheduledOnce(int n) throws Exception {
        ActorSystem system = PekkoSystems.create("footprint");
        try {
            CountDownLatch scheduled = new CountDownLatch(n);
            ActorRef[] actors = new ActorRef[1000];
            for (int i = 0; i < actors.length; i++) {
                actors[i] = system.actorOf(Props.create(SchedulingActor.class, () -> new SchedulingActor(scheduled)));
            }
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                actors[i % actors.length].tell(Signal.QUESTION, ActorRef.noSender());
            }
            if (!scheduled.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the messages were not all handled");
            }
            long after = usedHeap();
            return (double) (after - before) / n;
        } finally {
            leave(system);
        }
    }

    /** Serves a question only once it is open, which it never is here: every question stays stashed. */
    static final class StashingActor extends AbstractActorWithStash {
        private final CountDownLatch stashed;
        private boolean open;

        StashingActor(CountDownLatch stashed) {
            this.stashed = stashed;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .matchEquals(Signal.QUESTION, q -> {
                        if (open) {
                            getSender().tell(1, getSelf());
                        } else {
                            stash();
                            stashed.countDown();
                        }
                    })
                    .build();
        }
    }

    private static double pekkoStashedAsk(int n) throws Exception {
        ActorSystem system = PekkoSystems.create("footprint");
        try {
            CountDownLatch stashed = new CountDownLatch(n);
            ActorRef[] actors = new ActorRef[10_000];
            for (int i = 0; i < actors.length; i++) {
                actors[i] = system.actorOf(Props.create(StashingActor.class, () -> new StashingActor(stashed)));
            }
            Duration timeout = Duration.ofHours(1);
            long before = usedHeap();
            for (int i = 0; i < n; i++) {
                Patterns.ask(actors[i % actors.length], Signal.QUESTION, timeout);
            }
            if (!stashed.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the questions were not all stashed");
            }
            long after = usedHeap();
            Reference.reachabilityFence(actors);
            return (double) (after - before) / n;
        } finally {
            leave(system);
        }
    }
}
