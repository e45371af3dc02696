package cogs.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The one-word state of a future: {@code null} (pending, nobody waits), a single {@link Waiter}
 * (pending, the common case: no list node is allocated), a {@link WaitList} (pending, several
 * waiters, two per node), or an {@link Outcome} (resolved; final).
 *
 * <p>Why a waiter is never lost: registration and resolution both change the same word with a
 * compare-and-set. A registration either lands before the resolving CAS, and then the resolver
 * takes it out of the old state and wakes it, or it reads the outcome and the registering side
 * proceeds at once without parking. There is no third state in between.
 *
 * <p>It extends {@link Node} because a process is its call's future (see {@code Process}) and
 * also its own inbox node. A future that is not a process (a promise's, a timer's) carries the
 * unused link: four bytes, on the rare kind of future, for one object less per call.
 */
abstract class FutCore extends Node {
    private static final VarHandle STATE;
    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(FutCore.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Object state;

    /** Something to tell when a future resolves. Called once, on the resolving thread. */
    interface Waiter {
        void onResolved(FutCore f);
    }

    /**
     * Waiters of a future, newest node first, two per node: a node of three references is 24
     * bytes, as one of two is, so a future that many processes await (a barrier) keeps 12 bytes
     * per waiter instead of 24. Immutable: the second waiter of a node is added by replacing the
     * node (the replaced one is garbage at once), so every change is still one CAS of the state
     * word, and the argument above is unchanged.
     */
    static final class WaitList {
        final Waiter first;
        /** Registered after {@code first}; null while the node holds one waiter. */
        final Waiter second;
        /** The waiters registered before this node's. */
        final WaitList next;
        WaitList(Waiter first, Waiter second, WaitList next) { this.first = first; this.second = second; this.next = next; }
    }

    /** The resolved state. Subclasses carry a value or a failure. */
    static abstract class Outcome {}

    final Object rawState() { return state; }

    final boolean isResolved() { return state instanceof Outcome; }

    /** Null while pending. */
    final Outcome outcome() {
        Object s = state;
        return s instanceof Outcome ? (Outcome) s : null;
    }

    /**
     * Register a waiter. Returns false, without registering, if the future is already resolved:
     * the caller must then proceed itself.
     */
    final boolean register(Waiter w) {
        for (;;) {
            Object s = state;
            if (s instanceof Outcome) return false;
            Object n;
            if (s == null) n = w;
            else if (s instanceof WaitList) {
                WaitList l = (WaitList) s;
                n = l.second == null ? new WaitList(l.first, w, l.next) : new WaitList(w, null, l);
            } else n = new WaitList((Waiter) s, w, null);
            if (STATE.compareAndSet(this, s, n)) return true;
        }
    }

    /** Resolve once. Returns false if the future was already resolved. Wakes every waiter. */
    final boolean complete(Outcome o) {
        for (;;) {
            Object s = state;
            if (s instanceof Outcome) return false;
            if (STATE.compareAndSet(this, s, o)) {
                if (s instanceof WaitList) {
                    // Registration order is reversed in the list; wake in registration order.
                    wakeReversed((WaitList) s);
                } else if (s != null) {
                    ((Waiter) s).onResolved(this);
                }
                return true;
            }
        }
    }

    private void wakeReversed(WaitList l) {
        int n = 0;
        for (WaitList x = l; x != null; x = x.next) n += x.second == null ? 1 : 2;
        Waiter[] inOrder = new Waiter[n];
        for (WaitList x = l; x != null; x = x.next) {
            if (x.second != null) inOrder[--n] = x.second;
            inOrder[--n] = x.first;
        }
        for (Waiter w : inOrder) w.onResolved(this);
    }
}
