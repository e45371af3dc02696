package cogs.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ForkJoinTask;

/**
 * The concurrent half of a COG: its inbox (an intrusive multi-producer single-consumer queue)
 * and its status word. Everything else about a COG is touched only by the COG's own main task
 * and lives in {@link Cog}.
 *
 * <p>The COG is itself the task that runs on the shared executor (as Pekko's mailbox is), so
 * scheduling a COG allocates nothing. It is a {@link ForkJoinTask} so a fork-join pool takes it
 * without wrapping, and a {@link Runnable} for any other executor.
 *
 * <h2>The inbox</h2>
 * Dmitry Vyukov's intrusive MPSC node queue. Producers serialise on one atomic exchange of
 * {@code head}; the single consumer (the main task) walks from {@code tail}. A permanent stub
 * node lets the consumer detach the last real node. Between a producer's exchange and its link
 * store the queue is "in transit": the new node is reachable from {@code head} but not yet from
 * {@code tail}. {@link #poll} does not wait for the link: it returns null, as for an empty inbox,
 * and leaves the node (and every node pushed behind it) to a later poll. {@link #inboxEmpty}
 * counts a node in transit as present, so the batch that gave up on it does not go idle: the
 * status-word argument below makes it reschedule itself (see "The node in transit").
 *
 * <h2>The status word and why no wake-up is lost</h2>
 * {@code status} is IDLE or SCHEDULED. Whoever moves it IDLE to SCHEDULED with a CAS submits the
 * task; only the task moves it back to IDLE. Two actors race:
 * <pre>
 *   producer (enqueue)                    consumer (main task, end of a batch)
 *   P1 head.getAndSet(node)   [volatile]   C1 status = IDLE            [volatile]
 *   P2 read status; if IDLE CAS to SCHED   C2 read head (inboxEmpty)   [volatile]
 *                                          C3 if non-empty, CAS IDLE to SCHED
 * </pre>
 * All four accesses are volatile, hence totally ordered (sequential consistency for volatiles).
 * If P2 comes before C1 the producer saw SCHEDULED and leaves the node to the consumer, but then
 * P1 also comes before C2, so C2 sees the node and C3 reschedules. If P2 comes after C1 the
 * producer sees IDLE and its CAS races only with C3: exactly one of them wins and submits, so the
 * task is neither lost nor submitted twice. The pairs P1/C2 and C1/P2 are the classic Dekker
 * shape, which is why neither side may use a weaker (release/acquire only) access there.
 *
 * <h2>The node in transit, and why giving up on it loses no wake-up</h2>
 * The link store is one store after the exchange, but a producer whose thread is descheduled in
 * between (a loaded machine does that all the time) keeps the consumer waiting for a whole time
 * slice: a consumer that spun there was the largest item of the Savina profiles. So poll returns
 * null instead and the batch carries on with what it has, then ends. Nothing new is needed for
 * the hand-off: a node in transit is already a node in the inbox for C2, which reads {@code head}
 * (written by P1), not the link. So the consumer that gave up either sees the node at C2 and
 * reschedules itself (C3), or loses C3 to a producer that saw IDLE at P2 and submitted the COG;
 * either way the COG runs again, polls again and, once the link is stored, takes the node. The
 * COG never goes IDLE with a node in transit, so the producer's obligation stays what it was (P2
 * after its link store) and its path gets no fence. The other design, a consumer that goes idle
 * and leaves the COG to the producer, would need the producer to read the consumer's state after
 * its link store: a StoreLoad fence (or an atomic link) on every send, to save a rare wait. The
 * price here: while the producer stays descheduled, the COG goes round the pool (other COGs run
 * in between) instead of spinning on its worker.
 *
 * The jcstress tests {@code JcstressCogCore} and the stress tests {@code StressHandOffTest},
 * {@code StressInboxTest} and {@code StressJoinRaceTest} check this.
 */
abstract class CogCore extends CogCorePadding implements Runnable {
    static final int IDLE = 0;
    static final int SCHEDULED = 1;

    private static final VarHandle HEAD;
    private static final VarHandle STATUS;
    private static final VarHandle NEXT;
    private static final VarHandle REGISTERED;
    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(CogCoreProducerSide.class, "head", Node.class);
            STATUS = l.findVarHandle(CogCoreProducerSide.class, "status", int.class);
            NEXT = l.findVarHandle(Node.class, "next", Node.class);
            REGISTERED = l.findVarHandle(CogCore.class, "registered", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final class Stub extends Node {}

    private final Node stub = new Stub();
    /** Consumer end: owned by the main task. */
    private Node tail = stub;

    // head starts at the stub (a volatile store, as the field's initialiser was); status starts IDLE (0).
    CogCore() { HEAD.setVolatile(this, stub); }

    /**
     * Membership in the runtime's registry of COGs that hold suspended processes: REG_OUT,
     * REG_IN, or REG_LEAVING while a sweeper removes the COG. The protocol and why it loses no
     * entry are in {@link SuspendedRegistry}.
     */
    @SuppressWarnings("unused") // accessed through REGISTERED
    private volatile int registered;
    /** Number of suspended processes, as last published by the main task. */
    volatile int pending;
    /**
     * Number of processes waiting for a condition, as last published by the main task: after
     * the simulated clock advanced, COGs with such processes get a {@link Tick} so that
     * conditions over the time are checked again.
     */
    volatile int conds;

    /**
     * An inbox node that is not a process: "the simulated clock moved, check your conditions".
     * Fresh for every use (a node is in at most one inbox, once).
     */
    static final class Tick extends Node {}

    /** Queue a {@link Tick} and schedule the COG; any thread. */
    final void tick() { enqueueAndSchedule(new Tick()); }

    static final int REG_OUT = 0;
    static final int REG_IN = 1;
    static final int REG_LEAVING = 2;

    final boolean casRegistered(int expect, int update) {
        return REGISTERED.compareAndSet(this, expect, update);
    }

    final void setRegistered(int s) { REGISTERED.setVolatile(this, s); }

    final int registeredState() { return (int) REGISTERED.getVolatile(this); }

    /** Append a node; any thread. Does not schedule: see {@link #enqueueAndSchedule}. */
    final void push(Node n) {
        NEXT.set(n, null);
        // The exchange is the linearisation point among producers and a full fence (P1 above).
        Node prev = (Node) HEAD.getAndSet(this, n);
        // Publishes n and everything written to it before push (release pairs with poll's acquire).
        NEXT.setRelease(prev, n);
    }

    /** Append a node and make sure the main task will see it. Any thread. */
    final void enqueueAndSchedule(Node n) {
        push(n);
        // P2: a plain volatile read first keeps the common "already scheduled" case free of a CAS.
        if ((int) STATUS.getVolatile(this) == IDLE) activate();
    }

    /**
     * IDLE to SCHEDULED, counted. The activation is counted BEFORE the CAS and uncounted if the CAS
     * loses: the runtime's count of active COGs must never be lower than the number of COGs that
     * are SCHEDULED, or a thread waiting for quiescence could see zero while this COG is about to
     * run. (Counting after the CAS lost exactly that: the batch that lost the C3 race counts itself
     * idle before the winning producer counted its activation; StressJoinRaceTest caught it.)
     */
    private boolean activate() {
        onActivated();
        if (STATUS.compareAndSet(this, IDLE, SCHEDULED)) {
            submit();
            return true;
        }
        onActivationLost();
        return false;
    }

    /**
     * {@link #enqueueAndSchedule} for a waker that counts and runs the COG itself (the simulated
     * clock's wake chunks, {@code SimClock.WakeChunk}): true if this call moved the COG from IDLE
     * to SCHEDULED, and the caller must now count it and run or submit it; false if the COG was
     * already scheduled (its main task takes the node, exactly as for enqueueAndSchedule) or
     * another producer won the CAS (and counts and submits it). The producer's side of the
     * hand-off is P1 and P2 as above, unchanged. Unlike {@link #activate}, the count comes after
     * the CAS: that is safe only for a caller that holds a count of its own in the runtime's
     * {@code active} until it has counted what it claimed (a wake chunk does), so that nobody can
     * see zero while the claimed COG is SCHEDULED and uncounted. A claimed COG is SCHEDULED:
     * producers leave their nodes to it, and nobody else submits it; the caller runs it, or submits
     * it in a {@code finally}.
     */
    final boolean enqueueAndClaim(Node n) {
        push(n);
        return (int) STATUS.getVolatile(this) == IDLE && STATUS.compareAndSet(this, IDLE, SCHEDULED);
    }

    /** Called by the main task when its batch ends. Returns true if it rescheduled itself. */
    final boolean idleOrReschedule() {
        STATUS.setVolatile(this, IDLE);                                          // C1
        if (!inboxEmpty() && STATUS.compareAndSet(this, IDLE, SCHEDULED)) {       // C2, C3
            resubmit();
            return true;
        }
        return false;
    }

    /** Try to move IDLE to SCHEDULED without a message, e.g. to start a COG. */
    final boolean trySchedule() {
        return activate();
    }

    final boolean isScheduled() {
        return (int) STATUS.getVolatile(this) == SCHEDULED;
    }

    /** Consumer only. Counts a node in transit as present. */
    final boolean inboxEmpty() {
        return tail == stub && (Node) HEAD.getVolatile(this) == stub;   // C2
    }

    /**
     * Consumer only: the next node, or null if none can be taken now: the inbox is empty, or the
     * next node is in transit (its producer exchanged {@code head} but has not stored the link).
     * Never waits. A node in transit stays in the queue with everything behind it, in order, for a
     * later poll; {@link #inboxEmpty} counts it, so the batch reschedules instead of going idle.
     */
    final Node poll() {
        Node t = tail;
        Node n = (Node) NEXT.getAcquire(t);
        if (t == stub) {
            if (n == null) {
                if ((Node) HEAD.getVolatile(this) == stub) return null; // empty
                // The first node after the stub is in transit.
                if ((n = briefly(t)) == null) return null;
            }
            tail = n;
            t = n;
            n = (Node) NEXT.getAcquire(t);
        }
        if (n == null) {
            if ((Node) HEAD.getVolatile(this) != t) {
                // A producer's link behind t is in transit.
                if ((n = briefly(t)) == null) return null;
                return leave(t, n);
            }
            // t is the last node: put the stub behind it so that t can leave the queue. Unless
            // another producer exchanged head first: then that producer links behind t, and t
            // stays (at tail) until it did. The stub is never pushed twice: it is pushed only when
            // head == t, i.e. nothing, the stub included, is queued behind t.
            push(stub);
            n = (Node) NEXT.getAcquire(t);
            if (n == null && (n = briefly(t)) == null) return null;
        }
        return leave(t, n);
    }

    /**
     * {@code t} leaves the queue, {@code n} is the new tail. t's link is cleared: a node that
     * left still pointed at the one behind it, and once one such node had been promoted to the
     * old generation (a long inbox, as Counting's), it kept every node queued after it alive
     * through young collections, which then copied the whole stream of calls (every call of
     * Counting survived; Pekko's node queue clears its links for the same reason). No producer
     * writes t's link any more: producers link only behind the node they exchanged out of
     * {@code head}, and head has moved past t. When t is queued again (a process woken later),
     * its waker's push writes the link afresh, and that push happens after this store: the
     * process is re-queued only after its COG published PARKED (a volatile store) and the waker
     * took it with a CAS.
     */
    private Node leave(Node t, Node n) {
        tail = n;
        NEXT.set(t, null);
        return t;
    }

    /**
     * The link behind {@code t} if it appears within a few re-reads, else null. A producer that is
     * running stores it within nanoseconds, and a trip round the pool costs more than that; one
     * that was descheduled stores it only when it runs again, which is what the consumer must not
     * wait for.
     */
    private static Node briefly(Node t) {
        for (int i = TRANSIT_SPINS; i > 0; i--) {
            Thread.onSpinWait();
            Node n = (Node) NEXT.getAcquire(t);
            if (n != null) return n;
        }
        return null;
    }

    static final int TRANSIT_SPINS = Integer.getInteger("cogs.inbox.spins", 32);

    /** Hand this task to the executor: it was idle and a producer woke it. */
    abstract void submit();

    /** Hand this task to the executor again at the back of the line: it ran and has more to do. */
    abstract void resubmit();

    /** A producer is about to move the COG from idle to scheduled (bookkeeping for quiescence). */
    abstract void onActivated();

    /** That producer lost the CAS: someone else scheduled the COG and counted it. */
    abstract void onActivationLost();

    // ForkJoinTask plumbing: exec returns false so the task can be forked again and again.
    @Override public final Void getRawResult() { return null; }
    @Override protected final void setRawResult(Void v) {}
    @Override protected final boolean exec() { run(); return false; }
}

/**
 * The two fields of a COG that producers touch at every call ({@code head}, exchanged;
 * {@code status}, read; see {@link CogCore}), first in the object, followed by 64 bytes of
 * padding ({@link CogCorePadding}), so that they share no cache line with the fields the COG's
 * main task writes at every poll and slice ({@code tail}, and those of {@code Cog}). Sharing one
 * made each call queued while the COG runs move that line between the producer's and the
 * consumer's cores twice. Before them come only the object header and ForkJoinTask's status.
 * The price: 36 bytes more per COG (the rest of those 64 are fields of {@code Cog} that no poll
 * or slice touches).
 *
 * Why two classes: HotSpot lays out a superclass's fields before a subclass's, but within one
 * class it puts longs before ints and references last; pads declared beside {@code head} would
 * come before it and leave it next to {@code CogCore}'s own fields. A class of its own for the
 * padding puts it after them. Checked with field offsets ({@code FieldLayoutTest}).
 */
abstract class CogCoreProducerSide extends ForkJoinTask<Void> {
    /** Producer end of the inbox: the most recently pushed node (see CogCore). */
    volatile Node head;
    /** IDLE or SCHEDULED (see CogCore); IDLE (0) at first. */
    volatile int status;
}

/**
 * The padding after {@link CogCoreProducerSide}'s fields (see there): 64 bytes in which the main
 * task writes nothing at a poll or a slice. Part of it is real fields of {@code Cog} that nothing
 * reads or writes on those paths (a COG's component, read by a {@code cost}; its first object,
 * for reports; the blocked {@code get}, written when a {@code get} blocks the whole COG; where a
 * fatal error was raised; a controlled run's choices; the clock's wake node, written by the
 * clock's token holder), so that the padding is not all dead bytes: they were 28 of the 216 bytes
 * of a {@code Cog} (an idle object was 254 bytes, issue 26's target 150). A field read or written
 * at every slice must not come here ({@code fatal}, {@code pick}, the recorded schedule read by
 * every frame {@code get}): the producers' CAS on {@code head} would take its line from the main
 * task's core. The int comes first in the layout: HotSpot fills a gap left by a superclass's
 * fields (here, after {@code head} up to the longs' alignment) with a subclass's smaller fields,
 * and without it the first int of {@code CogCore} would go there, beside {@code head}.
 * {@code FieldLayoutTest} checks both: the hot fields 64 bytes away, and only these fields here.
 */
abstract class CogCorePadding extends CogCoreProducerSide {
    @SuppressWarnings("unused") private long pad0, pad1, pad2, pad3;
    @SuppressWarnings("unused") private int gap;

    /**
     * The deployment component this COG runs on, or null (unlimited). Written before the COG's
     * first process is queued (the inbox CAS publishes it), never changed afterwards.
     */
    DeploymentComponent dc;
    /** The first object placed in this COG: names the COG in reports. */
    volatile Active owner;
    /**
     * The blocked {@code get} as other threads may see it (CogRuntime.inspectBlocked): written by
     * the main task only when a get blocks the COG and when it unblocks.
     */
    volatile BlockedGet blockedGet;
    /** Where the fatal error of this batch was raised (with {@code Cog.fatal}). */
    String fatalWhere;
    /**
     * A controlled run ({@code ControlledRun}): the process its controller chose for this COG's
     * next slice, set only around {@code Cog.runChosen}. Null otherwise (always, outside
     * controlled runs).
     */
    Process chosenNext;
    /**
     * A controlled run: a process that must run next, whatever the controller would like: one
     * whose guard raised when {@code Cog.offer} checked it (it only raises), or the pick of the
     * COG's scheduling policy (ABS {@code [Scheduler: ..]}, which the exploration respects). Taken
     * out of the ready queue. Offered alone from then on, so the next step of this COG runs it: it
     * is never left set when a batch ends, and {@code hasLocalWork} need not look at it.
     */
    Process forced;
    /**
     * The processes of this COG woken by the clock advance in progress, as the inbox node being
     * built for them (one process, or a SimClock.Wakes); null outside {@code SimClock.wake}.
     * Touched only by the holder of the clock's token (one thread at a time; successive holders
     * are ordered by the token's atomic hand-off), never by the COG's main task.
     */
    Node clockWoken;
}
