package cogs.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The runtime's own worker pool ({@code cogs.scheduler.pool = own}; issue 26, fix 4 of
 * docs/runtime-design.md, section 4): N threads, a bounded ring of tasks per worker, one shared
 * injection queue, and a park/unpark protocol with a count of searching workers, after Go's
 * scheduler and Tokio's.
 *
 * <p>Why not the fork-join pool: it signals a sleeping worker only when a push finds the queue
 * empty, so a worker whose queue never runs dry (filterbank's pipeline) carries everything while
 * the other stays parked ("slow mode"). Here every push (from a worker into its ring, or from
 * outside into the injection queue) that sees no worker searching and some worker parked wakes
 * one; the woken worker searches (steals) and, once it finds a task and was the last searcher,
 * wakes the next parked one. So a worker with a non-empty queue keeps a second worker coming,
 * while at most one worker at a time enters the search from running (others park at once) and a
 * searcher spins a bounded number of rounds before it parks: an idle pool uses no CPU.
 *
 * <h2>Representation</h2>
 * <ul>
 *   <li>{@link Ring}: per worker, {@value #RING} slots; the owner pushes at the tail, the owner and
 *   thieves take from the head with a CAS (FIFO, as the fork-join pool's async mode, so a COG
 *   resubmitted after a full batch goes behind the others). A full ring overflows into the
 *   injection queue.</li>
 *   <li>{@code injector}: a {@link ConcurrentLinkedQueue} for tasks from threads that are not
 *   workers of this pool (and overflow). Workers look at it first every {@value #INJECTOR_EVERY}th
 *   task so that a busy worker's ring cannot starve it.</li>
 *   <li>{@code state}: one atomic int, searching workers in the low 16 bits, idle (parked or about
 *   to park) workers in the high 16 bits. Pushers read it without a lock; it changes only by
 *   atomic read-modify-writes.</li>
 *   <li>the idle stack ({@code idle}, {@code idleCount}) and each worker's {@code notified} flag,
 *   under {@code lock} (the slow path only).</li>
 * </ul>
 *
 * <h2>Why no wake-up is lost</h2>
 * All accesses below are volatile (or atomic read-modify-writes), so they lie in one total order
 * (the JMM's synchronization order); "before" means before in it.
 * <ol>
 *   <li><b>A push racing a worker going to park.</b> A pusher (a) publishes the task (the ring's
 *   volatile tail store, or the injector's CAS), then (b) reads {@code state}. A worker that goes
 *   to park (1) adds itself to the idle stack and counts itself idle, dropping its searching count
 *   in the same atomic add, then (2) looks at every ring and the injector, and parks only if all
 *   are empty. If (b) saw no idle worker, (b) is before that worker's (1), so (a) is before its
 *   (2): it finds the task and goes back to searching instead of parking. If (b) saw an idle
 *   worker and no searcher, the pusher wakes one ({@code wakeOne}, which re-reads {@code state}
 *   under the lock: if a searcher appeared meanwhile, case 2 applies).</li>
 *   <li><b>The searching hand-off.</b> If (b) saw k &gt; 0 searchers, the pusher relies on them.
 *   Each searcher at (b) ends its search later by one atomic decrement: either going to park, and
 *   then its look (2) comes after (a) and finds the task, or having found a task
 *   ({@code stopSearching}), and then the searcher whose decrement brings the count to zero wakes a
 *   parked worker if any is idle. If none is idle at that read, every worker that parks later does
 *   its (1) after that read, hence after (a), and finds the task in its (2). A woken worker is
 *   counted as a searcher by its waker, under the lock, before it is unparked: a worker is never
 *   idle and searching at once, so two pushers cannot both rely on a worker that is being woken
 *   for the other.</li>
 *   <li><b>A worker that finds work in its look (2)</b> takes itself off the idle stack under the
 *   lock and counts itself searching, unless a waker already took it (then the waker counted it
 *   searching). Either way it searches again and the counts stay exact.</li>
 *   <li><b>Parking</b> uses the worker's own {@code notified} flag, set under the lock before
 *   {@link LockSupport#unpark}: an unpark that comes before the park is kept by the flag (and by the
 *   permit), a spurious return re-parks, and an interrupt left on the thread by user code is cleared
 *   rather than turned into a spin.</li>
 *   <li><b>Shutdown.</b> {@link #shutdown()} sets the state and unparks every worker; a worker that
 *   finds no work anywhere and sees the pool shut down ends, one that finds work runs it (tasks
 *   queued before the shutdown run; a worker never ends with tasks in its own ring, since it looks
 *   there first). {@link #shutdownNow()} makes every worker end after its current task, drops the
 *   queued ones and interrupts the workers. A submission from outside after the shutdown is
 *   rejected, as the fork-join pool's is; one that passed the check just before a shutdown may
 *   land after the last worker looked and is then dropped (the fork-join pool would run it):
 *   the runtime submits from outside only while it is open, so this only affects calls racing
 *   {@code close()}.</li>
 * </ol>
 * The ring's own argument is at {@link Ring}. Tested by {@code JcstressWorkerPool} (the ring's
 * push/take/steal race; park against a submission) and {@code StressOwnPoolTest}.
 *
 * <p>A task that throws hands the throwable to the worker's uncaught-exception handler and the
 * worker goes on (the runtime's COG tasks catch what their processes throw; what reaches here is
 * the runtime's own failure).
 */
public final class WorkerPool {

    /** Makes the pool's worker threads (the runtime names them and sets the daemon flag and the handler). */
    public interface Factory {
        WorkerThread newWorker(WorkerPool pool, int index);
    }

    /** Slots of a worker's ring (a power of two). */
    public static final int RING = 256;
    /**
     * Rounds a searching worker sweeps the other rings and the injector before it parks
     * ({@code -Dcogs.scheduler.own.search-rounds}, default 64: a first guess, for the A/B runs to tune).
     */
    static final int SEARCH_ROUNDS = Math.max(0, Integer.getInteger("cogs.scheduler.own.search-rounds", 64));
    /** Spin-wait hints between two rounds ({@code -Dcogs.scheduler.own.spins}, default 16). */
    static final int SPINS = Math.max(0, Integer.getInteger("cogs.scheduler.own.spins", 16));
    /** A worker polls the injector first once in this many tasks (as Go's scheduler, 61). */
    static final int INJECTOR_EVERY = 61;

    private static final int ONE_SEARCHING = 1, ONE_IDLE = 1 << 16, MASK = 0xFFFF;
    private static final int RUNNING = 0, SHUTDOWN = 1, STOP = 2;

    private final int parallelism;
    private final Factory factory;
    private final ConcurrentLinkedQueue<Runnable> injector = new ConcurrentLinkedQueue<>();
    private final AtomicInteger state = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final WorkerThread[] idle;
    private int idleCount; // under lock
    // Written once under lock before `started` is set; read by workers (started after) and by
    // threads that read `started` first.
    private WorkerThread[] workers;
    private volatile boolean started;
    private volatile int runState = RUNNING;

    public WorkerPool(int parallelism, Factory factory) {
        if (parallelism < 1 || parallelism > MASK) throw new IllegalArgumentException("parallelism " + parallelism);
        this.parallelism = parallelism;
        this.factory = factory;
        this.idle = new WorkerThread[parallelism];
    }

    public int parallelism() { return parallelism; }

    // ------------------------------------------------------------------ submission

    /**
     * Queue {@code task}: into the calling worker's ring (the injector when it is full), or, from any
     * other thread, into the injector (the first such call starts the workers). Then wake a parked
     * worker if none is searching (see the class comment, point 1).
     */
    public void execute(Runnable task) {
        Thread t = Thread.currentThread();
        if (t instanceof WorkerThread && ((WorkerThread) t).pool == this) {
            if (!((WorkerThread) t).ring.push(task)) injector.offer(task);
        } else {
            if (runState != RUNNING) throw new RejectedExecutionException("the worker pool is shut down");
            if (!started) start();
            injector.offer(task);
        }
        signalWork();
    }

    /** Whether the calling worker's ring or the injector holds a task (a hint, for the affinity experiment). */
    public boolean hasQueuedHere() {
        Thread t = Thread.currentThread();
        if (t instanceof WorkerThread && ((WorkerThread) t).pool == this && !((WorkerThread) t).ring.isEmpty()) return true;
        return !injector.isEmpty();
    }

    /** Tasks workers took from other workers' rings (a statistic: racy sums of plain counters). */
    public long stealCount() {
        WorkerThread[] ws = started ? workers : null;
        long n = 0;
        if (ws != null) for (WorkerThread w : ws) n += w.steals;
        return n;
    }

    private void start() {
        lock.lock();
        try {
            if (started || runState != RUNNING) return;
            WorkerThread[] ws = new WorkerThread[parallelism];
            for (int i = 0; i < parallelism; i++) ws[i] = factory.newWorker(this, i);
            workers = ws;
            started = true;
            for (WorkerThread w : ws) w.start();
        } finally {
            lock.unlock();
        }
    }

    private void signalWork() {
        int s = state.get();
        if ((s & MASK) == 0 && (s >>> 16) != 0) wakeOne();
    }

    /** Wake one idle worker, counted as searching, unless a worker searches already (point 2). */
    private void wakeOne() {
        WorkerThread w;
        lock.lock();
        try {
            int s = state.get();
            if ((s & MASK) != 0 || idleCount == 0) return;
            w = idle[--idleCount];
            idle[idleCount] = null;
            w.notified = true;
            state.addAndGet(ONE_SEARCHING - ONE_IDLE);
        } finally {
            lock.unlock();
        }
        LockSupport.unpark(w);
    }

    // ------------------------------------------------------------------ the workers' loop

    void runWorker(WorkerThread w) {
        boolean searching = false;
        int tick = 0;
        while (runState != STOP) {
            Runnable r = null;
            if (++tick >= INJECTOR_EVERY) { tick = 0; r = injector.poll(); }
            if (r == null) r = w.ring.take();
            if (r == null) r = injector.poll();
            if (r == null) {
                if (!searching) searching = tryStartSearching();
                if (searching) r = search(w);
                if (r == null) {
                    int next = goIdle(w, searching);
                    if (next < 0) return;
                    searching = true;
                    continue;
                }
            }
            if (searching) { searching = false; stopSearching(); }
            try {
                r.run();
            } catch (Throwable e) {
                Thread.UncaughtExceptionHandler h = w.getUncaughtExceptionHandler();
                try { if (h != null) h.uncaughtException(w, e); } catch (Throwable ignored) { }
            }
        }
    }

    /** At most one worker enters the search from running; the others park at once (they still look, point 1). */
    private boolean tryStartSearching() {
        for (;;) {
            int s = state.get();
            if ((s & MASK) != 0) return false;
            if (state.compareAndSet(s, s + ONE_SEARCHING)) return true;
        }
    }

    /** A searcher found a task: if it was the last one, it wakes the next idle worker (point 2). */
    private void stopSearching() {
        int s = state.addAndGet(-ONE_SEARCHING);
        if ((s & MASK) == 0 && (s >>> 16) != 0) wakeOne();
    }

    private Runnable search(WorkerThread w) {
        WorkerThread[] ws = workers;
        int n = ws.length;
        for (int round = 0; round < SEARCH_ROUNDS; round++) {
            for (int i = 1; i < n; i++) {
                Runnable r = ws[(w.index + round + i) % n].ring.take();
                if (r != null) { w.steals++; return r; }
            }
            Runnable r = injector.poll();
            if (r != null) return r;
            if (runState != RUNNING) return null;
            for (int i = 0; i < SPINS; i++) Thread.onSpinWait();
        }
        return null;
    }

    /**
     * Count `w` idle (dropping its search), look for work once more, and park until woken.
     * Returns 1 when `w` comes back as a searcher, -1 when it is to end (points 1, 3, 4, 5).
     */
    private int goIdle(WorkerThread w, boolean searching) {
        if (!prepareIdle(w, searching)) return runState == STOP ? -1 : 1;
        for (;;) {
            while (!w.notified && runState == RUNNING) {
                LockSupport.park(this);
                Thread.interrupted(); // user code's leftover interrupt: not a reason to spin
            }
            if (w.notified) return 1;
            // Shut down: run what is still queued anywhere, else end.
            if (runState != STOP && workVisible()) { unIdle(w); return 1; }
            unIdle(w);
            return -1;
        }
    }

    /**
     * Steps (1) and (2) of the class comment: count `w` idle (dropping its search) and look at every
     * queue once more. True: nothing found, `w` may park (it is on the idle stack, a waker will set
     * its `notified`). False: `w` found work (or the pool stops) and is a searcher again.
     */
    boolean prepareIdle(WorkerThread w, boolean searching) {
        lock.lock();
        try {
            w.notified = false;
            idle[idleCount++] = w;
            state.addAndGet(ONE_IDLE - (searching ? ONE_SEARCHING : 0));
        } finally {
            lock.unlock();
        }
        // The add above is a volatile read-modify-write: the reads below come after it in the
        // synchronization order, which is what point 1 needs.
        if (runState == STOP || workVisible()) { unIdle(w); return false; }
        return true; // shut down with nothing queued: goIdle's loop ends the worker
    }

    /** Take `w` off the idle stack as a searcher, unless a waker did so already. */
    private void unIdle(WorkerThread w) {
        lock.lock();
        try {
            if (w.notified) return;
            for (int i = 0; i < idleCount; i++) {
                if (idle[i] == w) {
                    idle[i] = idle[--idleCount];
                    idle[idleCount] = null;
                    break;
                }
            }
            w.notified = true;
            state.addAndGet(ONE_SEARCHING - ONE_IDLE);
        } finally {
            lock.unlock();
        }
    }

    private boolean workVisible() {
        if (!injector.isEmpty()) return true;
        for (WorkerThread o : workers) if (!o.ring.isEmpty()) return true;
        return false;
    }

    // ------------------------------------------------------------------ shutdown

    /** Accept no more tasks from outside; workers end once no queued task is left. */
    public void shutdown() {
        advance(SHUTDOWN);
    }

    /** Workers end after their current task; queued tasks are dropped; workers are interrupted. */
    public void shutdownNow() {
        advance(STOP);
        injector.clear();
        WorkerThread[] ws = started ? workers : null;
        if (ws != null) for (WorkerThread w : ws) if (w != Thread.currentThread()) w.interrupt();
    }

    private void advance(int to) {
        lock.lock();
        try {
            if (runState < to) runState = to;
        } finally {
            lock.unlock();
        }
        WorkerThread[] ws = started ? workers : null;
        if (ws != null) for (WorkerThread w : ws) LockSupport.unpark(w);
    }

    public boolean isShutdown() { return runState != RUNNING; }

    /** Shut down and every worker ended (or none was ever started). */
    public boolean isTerminated() {
        if (runState == RUNNING) return false;
        WorkerThread[] ws = started ? workers : null;
        if (ws != null) for (WorkerThread w : ws) if (w.isAlive()) return false;
        return true;
    }

    /** Wait for the workers to end; false if some did not within the time (or the caller is one of them). */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        if (runState == RUNNING) {
            while (runState == RUNNING) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                Thread.sleep(Math.min(10, Math.max(1, left / 1_000_000)));
            }
        }
        WorkerThread[] ws = started ? workers : null;
        if (ws == null) return true;
        boolean all = true;
        for (WorkerThread w : ws) {
            if (w == Thread.currentThread()) { all = false; continue; }
            long left = deadline - System.nanoTime();
            if (left > 0) TimeUnit.NANOSECONDS.timedJoin(w, left);
            if (w.isAlive()) all = false;
        }
        return all;
    }

    // ------------------------------------------------------------------ threads and rings

    /** A thread of a {@link WorkerPool}: the runtime's worker class extends it. */
    public abstract static class WorkerThread extends Thread {
        final WorkerPool pool;
        final int index;
        final Ring ring = new Ring();
        /** Set (under the pool's lock) by whoever takes this worker off the idle stack. */
        volatile boolean notified;
        /** Tasks this worker stole (written by this worker only). */
        long steals;

        protected WorkerThread(WorkerPool pool, int index) {
            this.pool = pool;
            this.index = index;
        }

        @Override
        public final void run() {
            try {
                pool.runWorker(this);
            } finally {
                exited();
            }
        }

        /** Called on this thread when it ends. */
        protected void exited() { }
    }

    /**
     * A bounded ring with one producer (its worker) and many consumers (its worker and thieves).
     *
     * <p>Why a task is taken exactly once and never lost: {@code tail} is written only by the owner,
     * after the slot (a volatile store publishes the slot's plain write); {@code head} moves only by
     * a CAS from h to h + 1, and the taker that wins it owns the task it read at slot h. The slot it
     * read may have been overwritten meanwhile only by the push of index h + RING, which the owner
     * makes only after reading {@code head} &gt; h; then the taker's CAS from h fails and it discards
     * what it read. A taker that read a stale (smaller) head fails its CAS likewise. The owner's
     * fullness check uses a head that can only be smaller than the true one, so it never overwrites
     * a slot not yet taken; a full ring makes the owner put the task in the injector instead. Slots
     * are not cleared after a take (a clear could race the owner's next write there), so a ring
     * keeps at most RING references to tasks that ran (COGs: long-lived anyway).
     */
    static final class Ring {
        private static final VarHandle HEAD;
        private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Runnable[].class);
        static {
            try {
                HEAD = MethodHandles.lookup().findVarHandle(Ring.class, "head", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Runnable[] slots = new Runnable[RING];
        volatile int head;
        volatile int tail;

        /** Owner only. False when full. */
        boolean push(Runnable r) {
            int t = tail;
            if (t - head >= RING) return false;
            SLOT.setRelease(slots, t & (RING - 1), r);
            tail = t + 1;
            return true;
        }

        /** Owner or thief: the oldest task, or null if none. */
        Runnable take() {
            for (;;) {
                int h = head;
                int t = tail;
                if (t - h <= 0) return null;
                Runnable r = (Runnable) SLOT.getAcquire(slots, h & (RING - 1));
                if (HEAD.compareAndSet(this, h, h + 1)) return r;
            }
        }

        boolean isEmpty() {
            return tail - head <= 0;
        }

        int size() {
            int n = tail - head;
            return Math.max(0, n);
        }
    }

    /** For tests: a ring on its own. */
    static Ring newRing() { return new Ring(); }

    /** For tests: a pool whose `n` workers exist but never start (their loop is driven by hand). */
    static WorkerPool unstarted(int n) {
        WorkerPool p = new WorkerPool(n, (pool, i) -> new WorkerThread(pool, i) { });
        WorkerThread[] ws = new WorkerThread[n];
        for (int i = 0; i < n; i++) ws[i] = p.factory.newWorker(p, i);
        p.workers = ws;
        p.started = true;
        return p;
    }

    WorkerThread worker(int i) { return workers[i]; }
    int searchingCount() { return state.get() & MASK; }
    int idleCounted() { return state.get() >>> 16; }
    int idleListed() { lock.lock(); try { return idleCount; } finally { lock.unlock(); } }
    boolean tryStartSearchingForTest() { return tryStartSearching(); }
    static boolean notified(WorkerThread w) { return w.notified; }
    static Ring ring(WorkerThread w) { return w.ring; }
    Runnable pollInjector() { return injector.poll(); }
}
