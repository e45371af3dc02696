package cogs.bench;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
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
 * The seed paper's cooperative-scheduling benchmark (its Listing 1 in ABS, Listing 5 in Scala,
 * Figure 5), on Cogs and on the designs the paper compares it with, plus virtual threads and Pekko:
 *
 * <pre>
 * class A { Int result = 0;
 *   Int recursive_m(Int i, Int id) {
 *     if (i > 0) { this.recursive_m(i - 1, id); }        // synchronous self-call
 *     else { Fut&lt;Int&gt; f = this ! compute(); await f?; }  // suspends the whole chain of calls
 *     return 1; }
 *   Int compute() { result = result + 1; return result; } }
 * { A master = new A(); N times: futures += master ! recursive_m(5, i); then get every future }
 * </pre>
 *
 * One invocation is one run of the main block with a fresh object (created before the clock
 * starts): N calls, each a chain of six frames that suspends at its bottom until its own
 * {@code compute} (queued behind it on the same object) has run. Every variant checks that the
 * calls returned N in total and that the counter is exactly N.
 *
 * <p>The variants ({@code -p variant=...}):
 * <ul>
 *   <li>{@code cogs}: Cogs; the suspended chain is data on the heap.
 *   <li>{@code thread-per-call}: the paper's Figure 1: every asynchronous call (including
 *       {@code compute}) is a new platform thread; the object is a lock; {@code await} releases
 *       the lock while the thread waits for the future.
 *   <li>{@code executor-per-object}: Figure 2: every object owns an executor; calls are tasks on it,
 *       and a started task competes for the object's lock as above.
 *   <li>{@code shared-pool}: Figure 3: one system pool; each object has a queue and a main task
 *       that runs its calls on the pool; a call that awaits parks its pool thread and hands the
 *       queue to a new main task.
 *   <li>{@code virtual-threads}: {@code thread-per-call} with virtual threads (JDK 21+).
 *   <li>{@code async}: Cogs with every method an {@code async} block (module proc-async):
 *       scalac's async phase ({@code -Xasync}) makes one state machine per method in place of
 *       {@code cogs}'s closures (issue 13, target 5; {@link AsyncChain}).
 *   <li>{@code cogs-scala}: {@code cogs} written in Scala with closures, as absc emits it: the
 *       baseline for {@code async} in the same DSL.
 *   <li>{@code cogs-frames}: Cogs with {@code recursive_m} and {@code compute} written by hand in
 *       the runtime's frame form (issue 26, step 4; {@link FrameChain}): plain Java calls for the
 *       synchronous levels, a frame per level only because the chain suspends.
 *   <li>{@code pekko}: a classic actor; the chain is written in continuation-passing style,
 *       {@code compute} and its reply are messages to itself.
 *   <li>{@code absc}: Cogs running what absc generates from {@code benchmarks/abs/AwaitChain.abs}
 *       ({@link AbscChain}; needs the model packaged first, else skipped).
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
// Room for a million suspended chains: virtual threads need about 2 GB of stacks at N = 1,000,000.
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx6g"})
public class AwaitChainBench extends WorkloadState {

    /** Depth of the chain: {@code recursive_m(5, id)}, as in the paper. */
    static final int DEPTH = 5;

    @Param({"500", "10000", "100000", "1000000"})
    public int n;

    @Param({"cogs", "thread-per-call", "executor-per-object", "shared-pool", "virtual-threads", "pekko", "absc", "async", "cogs-scala", "cogs-frames"})
    public String variant;

    @Override
    protected Workload create() {
        return workload(variant, n);
    }

    @Benchmark
    public long listing5() throws Exception {
        return workload.run();
    }

    /** The variants' names, in the order of the paper's sections. */
    static final List<String> VARIANTS = List.of(
            "cogs", "thread-per-call", "executor-per-object", "shared-pool", "virtual-threads", "pekko", "absc", "async", "cogs-scala",
            "cogs-frames");

    /** Variant {@code variant} with {@code n} calls per run; throws {@link Skipped} where it cannot run. */
    public static Workload workload(String variant, int n) {
        switch (variant) {
            case "cogs":
                return new CogsChain(n);
            case "cogs-frames":
                return new FrameChain(n);
            case "thread-per-call": {
                // Worst case: every call and every compute alive at once, if the main thread
                // starts them faster than the object serves them.
                Threads.requirePlatform(variant, 2L * n, "one per call and one per compute");
                ThreadFactory threads = Threads.platform("call");
                return new ThreadChain(variant, n, () -> new ThreadPerCallA(threads), () -> {});
            }
            case "executor-per-object":
                // The object's pool grows as needed (a cached pool): with a bound below N + 1 it
                // deadlocks, because the first N calls park their threads before any compute runs.
                Threads.requirePlatform(variant, 2L * n, "one per started call and compute, all in the object's pool");
                return new ThreadChain(variant, n, ExecutorPerObjectA::new, () -> {});
            case "shared-pool": {
                // At most N calls are parked at once (all of them, when every recursive_m runs
                // before the first compute), plus one thread for the object's main task: N + 1
                // threads suffice and fewer can deadlock. Started before the clock runs: the system
                // pool exists before the program.
                Threads.requirePlatform(variant, n + 1L, "a system pool of N + 1 threads: N parked awaits plus the main task");
                ThreadPoolExecutor pool = new ThreadPoolExecutor(n + 1, n + 1, 0, TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(), Threads.platform("system-pool"));
                pool.prestartAllCoreThreads();
                return new ThreadChain(variant, n, () -> new SharedPoolA(pool), pool::shutdownNow);
            }
            case "virtual-threads": {
                ThreadFactory virtual = Threads.virtualOrNull();
                if (virtual == null) {
                    throw new Skipped("virtual-threads needs JDK 21 or newer; this is JDK " + Runtime.version()
                            + " (run with JAVA_HOME=/path/to/jdk21+)");
                }
                return new ThreadChain(variant, n, () -> new ThreadPerCallA(virtual), () -> {});
            }
            case "pekko":
                return new PekkoChain(n);
            case "absc":
                return AbscChain.apply(n);
            case "async":
            case "cogs-scala":
                return new AsyncChain(variant, n);
            default:
                throw new IllegalArgumentException("unknown variant '" + variant + "'; one of " + VARIANTS);
        }
    }

    // ------------------------------------------------------------------------------------ Cogs

    public interface A extends Active {
        Proc<Integer> recursiveM(int i, int id);

        Proc<Integer> compute();

        Proc<Integer> counter();
    }

    public static final class AImpl extends ActiveObject implements A {
        private int result;

        @Override
        public Proc<Integer> recursiveM(int i, int id) {
            if (i > 0) {
                // Same COG: runs at once as part of this process; if it suspends, the whole
                // chain of frames suspends with it.
                return Proc.sync(this, "recursive_m", a -> a.recursiveM(i - 1, id)).map(r -> 1);
            }
            Fut<Integer> f = Cogs.send(this, "compute", A::compute);
            return Proc.await(f).map(r -> 1);
        }

        @Override
        public Proc<Integer> compute() {
            return Proc.delay(() -> ++result);
        }

        @Override
        public Proc<Integer> counter() {
            return Proc.delay(() -> result);
        }
    }

    static final class CogsChain implements Workload {
        private final int n;
        private final CogRuntime rt = CogRuntime.create();
        private A master;
        private long sum;

        CogsChain(int n) {
            this.n = n;
        }

        @Override
        public void prepare() {
            master = rt.spawn(AImpl::new);
        }

        @Override
        public long run() {
            A m = master;
            int calls = n;
            // The main block is a process, as in the seed; run returns once the program is quiescent.
            sum = rt.run(() -> mainBlock(m, calls));
            return sum;
        }

        private static Proc<Long> mainBlock(A master, int n) {
            List<Fut<Integer>> futures = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int id = i;
                futures.add(Cogs.send(master, "recursive_m", a -> a.recursiveM(DEPTH, id)));
            }
            long[] sum = {0};
            // Newest first, as the seed's main block gets them (it conses them onto a list).
            return Proc.repeat(n, k -> Proc.get(futures.get(n - 1 - k)).map(r -> {
                sum[0] += r;
                return null;
            })).map(u -> sum[0]);
        }

        @Override
        public void check() {
            Workload.expect("cogs: sum of the calls' results", n, sum);
            Workload.expect("cogs: counter", n, Cogs.send(master, "counter", A::counter).join());
        }

        @Override
        public void close() {
            rt.close();
        }
    }

    // --------------------------------------------------------------------- thread-based designs

    /**
     * The object of the thread-based designs: its state is guarded by one lock, which the call
     * running on the object holds. Synchronous self-calls are plain Java calls: the chain's frames
     * live on the calling thread's stack, which is why a suspended chain costs a thread.
     */
    abstract static class LockedA {
        final ReentrantLock lock = new ReentrantLock();
        private int result; // guarded by lock

        /** {@code this ! m()}: start an asynchronous call; {@code body} will run holding the lock. */
        abstract <T> CompletableFuture<T> send(Supplier<T> body);

        /**
         * {@code await f?} by a call that holds the lock: release the object while waiting, as a
         * condition wait does. No wake-up can be lost: the future keeps its outcome, and join
         * returns at once if it was completed before this thread got to wait.
         */
        void await(CompletableFuture<?> f) {
            lock.unlock();
            try {
                f.join();
            } finally {
                lock.lock();
            }
        }

        final int recursiveM(int i, int id) {
            if (i > 0) {
                recursiveM(i - 1, id);
            } else {
                CompletableFuture<Integer> f = send(this::compute);
                await(f);
            }
            return 1;
        }

        final int compute() {
            return ++result;
        }

        final int counter() {
            lock.lock();
            try {
                return result;
            } finally {
                lock.unlock();
            }
        }

        /** The object is done with: release what it owns. */
        void shutdown() {}

        /** Run a call on its own thread: take the object, run, let go, then resolve the call's future. */
        final <T> void runCall(Supplier<T> body, CompletableFuture<T> f) {
            T value;
            lock.lock();
            try {
                value = body.get();
            } catch (Throwable e) {
                f.completeExceptionally(e);
                return;
            } finally {
                lock.unlock();
            }
            // After unlocking, so that the caller it wakes finds the object free.
            f.complete(value);
        }
    }

    /** Figure 1 (and, with a virtual-thread factory, the virtual-threads variant): a thread per call. */
    static final class ThreadPerCallA extends LockedA {
        private final ThreadFactory threads;

        ThreadPerCallA(ThreadFactory threads) {
            this.threads = threads;
        }

        @Override
        <T> CompletableFuture<T> send(Supplier<T> body) {
            CompletableFuture<T> f = new CompletableFuture<>();
            threads.newThread(() -> runCall(body, f)).start();
            return f;
        }
    }

    /** Figure 2: the object owns an executor; its calls are tasks that take a pool thread, then the lock. */
    static final class ExecutorPerObjectA extends LockedA {
        private final ExecutorService pool = Executors.newCachedThreadPool(Threads.platform("object-pool"));

        @Override
        <T> CompletableFuture<T> send(Supplier<T> body) {
            CompletableFuture<T> f = new CompletableFuture<>();
            pool.execute(() -> runCall(body, f));
            return f;
        }

        @Override
        void shutdown() {
            pool.shutdown();
        }
    }

    /**
     * Figure 3: calls wait in the object's own queue, not in a pool; one main task at a time takes
     * them in order and runs them on the shared system pool, holding the object's lock. A call that
     * awaits hands the queue over to a new main task (on another pool thread), releases the lock and
     * parks its thread; when its future is resolved it competes for the lock again.
     */
    static final class SharedPoolA extends LockedA {
        private final ThreadPoolExecutor pool;
        private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
        // True while a main task is queued on the pool or running: at most one exists at a time.
        private final AtomicBoolean scheduled = new AtomicBoolean();
        // The thread that is the main task now, or null; guarded by lock.
        private Thread mainTask;

        SharedPoolA(ThreadPoolExecutor pool) {
            this.pool = pool;
        }

        @Override
        <T> CompletableFuture<T> send(Supplier<T> body) {
            CompletableFuture<T> f = new CompletableFuture<>();
            queue.add(() -> {
                T value;
                try {
                    value = body.get();
                } catch (Throwable e) {
                    f.completeExceptionally(e);
                    return;
                }
                f.complete(value);
            });
            if (scheduled.compareAndSet(false, true)) {
                pool.execute(this::mainTask);
            }
            return f;
        }

        private void mainTask() {
            lock.lock();
            try {
                mainTask = Thread.currentThread();
                for (;;) {
                    Runnable call = queue.poll();
                    if (call == null) {
                        scheduled.set(false);
                        // A sender that added after our poll saw `scheduled` still true and started
                        // no task: look again. Both sides write before they read (volatile), so at
                        // least one of them sees the other: the call is never left in the queue.
                        if (queue.isEmpty() || !scheduled.compareAndSet(false, true)) {
                            mainTask = null;
                            return;
                        }
                        continue;
                    }
                    call.run();
                    if (mainTask != Thread.currentThread()) {
                        return; // the call awaited: a new main task owns the queue now
                    }
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        void await(CompletableFuture<?> f) {
            if (mainTask == Thread.currentThread()) {
                // `scheduled` stays true: the role passes to the new task, which starts once we unlock.
                mainTask = null;
                pool.execute(this::mainTask);
            }
            super.await(f);
        }
    }

    /** The main block of the thread-based designs, on the benchmark's thread. */
    static final class ThreadChain implements Workload {
        private final String variant;
        private final int n;
        private final Supplier<LockedA> make;
        private final Runnable onClose;
        private LockedA a;
        private long sum;

        ThreadChain(String variant, int n, Supplier<LockedA> make, Runnable onClose) {
            this.variant = variant;
            this.n = n;
            this.make = make;
            this.onClose = onClose;
        }

        @Override
        public void prepare() {
            a = make.get();
        }

        @Override
        public long run() throws Exception {
            LockedA obj = a;
            List<CompletableFuture<Integer>> futures = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int id = i;
                futures.add(obj.send(() -> obj.recursiveM(DEPTH, id)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Workload.timeoutSeconds());
            long s = 0;
            for (int k = n - 1; k >= 0; k--) { // newest first, as in the seed
                try {
                    s += futures.get(k).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    throw new IllegalStateException(variant + ": call " + k + " of " + n + " did not finish in "
                            + Workload.timeoutSeconds() + " s (deadlock?)");
                } catch (ExecutionException e) {
                    throw new IllegalStateException(variant + ": call " + k + " failed", e.getCause());
                }
            }
            sum = s;
            return s;
        }

        @Override
        public void check() {
            try {
                Workload.expect(variant + ": sum of the calls' results", n, sum);
                Workload.expect(variant + ": counter", n, a.counter());
            } finally {
                a.shutdown();
            }
        }

        @Override
        public void close() {
            if (a != null) {
                a.shutdown();
            }
            onClose.run();
        }
    }

    // ----------------------------------------------------------------------------------- Pekko

    /** {@code master ! recursive_m(depth, id)}, whose result goes to {@code replyTo}. */
    static final class Call {
        final int depth;
        final int id;
        final ActorRef replyTo;

        Call(int depth, int id, ActorRef replyTo) {
            this.depth = depth;
            this.id = id;
            this.replyTo = replyTo;
        }
    }

    /** {@code this ! compute()}; the result goes back to the call that awaits it, {@code reply}. */
    static final class Compute {
        final IntConsumer reply;

        Compute(IntConsumer reply) {
            this.reply = reply;
        }
    }

    /** A call's awaited result has come: run the rest of the call. */
    static final class Resume {
        final IntConsumer rest;
        final int value;

        Resume(IntConsumer rest, int value) {
            this.rest = rest;
            this.value = value;
        }
    }

    enum Query { COUNTER }

    /**
     * The object as an actor. An actor cannot suspend a handler, so the chain is written in
     * continuation-passing style: each frame passes "return 1 to my caller" down as a closure,
     * and the bottom frame sends {@code compute} to itself with the rest of the chain as its
     * reply address. As in Cogs, three messages per call pass through the object's queue: the call,
     * the compute, and the resumption of the suspended chain.
     */
    static final class PekkoA extends AbstractActor {
        private int result;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Call.class, c -> recursiveM(c.depth, c.id, r -> c.replyTo.tell(r, getSelf())))
                    .match(Compute.class, c -> {
                        result++;
                        getSelf().tell(new Resume(c.reply, result), getSelf());
                    })
                    .match(Resume.class, r -> r.rest.accept(r.value))
                    .matchEquals(Query.COUNTER, q -> getSender().tell(result, getSelf()))
                    .build();
        }

        private void recursiveM(int i, int id, IntConsumer ret) {
            if (i > 0) {
                recursiveM(i - 1, id, r -> ret.accept(1));
            } else {
                getSelf().tell(new Compute(v -> ret.accept(1)), getSelf());
            }
        }
    }

    /** The main block's side of the replies: counts and sums them, completes {@code done} at the last. */
    static final class Collector extends AbstractActor {
        private final int expected;
        private final CompletableFuture<Long> done;
        private int count;
        private long sum;

        Collector(int expected, CompletableFuture<Long> done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Integer.class, r -> {
                        sum += r;
                        if (++count == expected) {
                            done.complete(sum);
                        }
                    })
                    .build();
        }
    }

    static final class PekkoChain implements Workload {
        private final int n;
        private final ActorSystem system = PekkoSystems.create("await-chain");
        private ActorRef master;
        private ActorRef collector;
        private CompletableFuture<Long> done;
        private long sum;

        PekkoChain(int n) {
            this.n = n;
        }

        @Override
        public void prepare() {
            master = system.actorOf(Props.create(PekkoA.class, PekkoA::new));
            CompletableFuture<Long> d = new CompletableFuture<>();
            int expected = n;
            collector = system.actorOf(Props.create(Collector.class, () -> new Collector(expected, d)));
            done = d;
        }

        @Override
        public long run() throws Exception {
            for (int i = 0; i < n; i++) {
                master.tell(new Call(DEPTH, i, collector), ActorRef.noSender());
            }
            try {
                sum = done.get(Workload.timeoutSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("pekko: the calls did not finish in " + Workload.timeoutSeconds() + " s");
            }
            return sum;
        }

        @Override
        public void check() throws Exception {
            try {
                Workload.expect("pekko: sum of the calls' results", n, sum);
                Object counter = Patterns.ask(master, Query.COUNTER, PekkoSystems.ASK_TIMEOUT)
                        .toCompletableFuture().get();
                Workload.expect("pekko: counter", n, (Integer) counter);
            } finally {
                system.stop(master);
                system.stop(collector);
            }
        }

        @Override
        public void close() {
            PekkoSystems.terminate(system);
        }
    }
}
