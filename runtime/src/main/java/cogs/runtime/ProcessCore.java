package cogs.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The concurrent half of a process: its run state. A process is parked by its own COG and woken
 * by whoever resolves a future it waits for, possibly on another thread, and possibly while its
 * COG is re-checking its guard. Both sides move the state with a CAS out of PARKED, so exactly one
 * of them takes the process: the waker pushes it into the inbox (at most once, which is the
 * invariant of the intrusive inbox), or the COG makes it ready. A wake that finds the process in
 * any other state is stale and does nothing.
 *
 * <p>A process is also the future of its call (it extends {@link Fut}): that future's word
 * ({@link FutCore}) and this run-state word are two fields with two independent protocols. A
 * caller registering on the future races only with the resolution (FutCore's argument); a waker
 * of the process races only with its COG's park (the argument above). The one point where they
 * meet is the end of the process: its COG resolves the future word, then sets DONE here; a
 * waker's CAS out of PARKED fails on DONE as on any state but PARKED, so a process woken as a
 * waiter on some other future after it ended is never queued again
 * ({@code JcstressProcessCore.FutureOfEndingProcess}).
 */
abstract class ProcessCore extends Fut<Object> {
    static final int RUNNING = 0;  // owned by its COG: running, ready, or about to park
    static final int PARKED = 1;   // waiting for a guard; only a CAS may take it out
    static final int QUEUED = 2;   // in (or on its way into) the COG's inbox
    static final int DONE = 3;

    private static final VarHandle STATE;
    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ProcessCore.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state;

    ProcessCore(int initial) { STATE.set(this, initial); }

    final int state() { return state; }

    /** Set by the owning COG only (the process is RUNNING or about to be). A full fence: see park. */
    final void setState(int s) { state = s; }

    /**
     * RUNNING or DONE, set by the owning COG without a full fence (a plain store on x86). No hand-off
     * depends on when these become visible: a waker only acts on PARKED, and a stale QUEUED or
     * RUNNING fails its CAS just as RUNNING or DONE would. Only the store of PARKED, which is
     * followed by a re-read of the future (the Dekker pair of Cog.sleep, the PARKED hand-off), needs
     * {@link #setState}. Saves two fences per call.
     */
    final void setStateRelaxed(int s) { STATE.setRelease(this, s); }

    final boolean casState(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }
}
