package cogs.runtime;

import org.junit.jupiter.api.Test;

import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14, point 2: {@link SuspendedRegistry#sweep} against {@link SuspendedRegistry#publish} of a
 * COG that gets a suspended process again, with the COG's whole publish run at every operation the
 * sweep makes on the set (and the whole sweep at every operation the publish makes), one
 * interleaving per run, deterministically. The registry's set is the only shared structure besides
 * the COG's two volatile words, whose interleavings {@code JcstressRegistry} explores.
 *
 * <p>The protocol before the fix failed {@code aCogThatSuspendsAgainDuringASweepStaysRegistered}
 * at the sweep's second operation: the sweep had cleared the flag, the COG set it again and added
 * itself (already there: no effect), then the sweep removed it, and the COG was flagged but out
 * of the registry for good.
 */
class RegistryInterleavingTest {

    /** A set that runs {@code hook} (once) right before its {@code at}-th operation. */
    static final class HookedSet extends AbstractSet<CogCore> {
        final Set<CogCore> inner = ConcurrentHashMap.newKeySet();
        final int at;
        Runnable hook;
        int ops;
        final List<String> trace = new ArrayList<>();

        HookedSet(int at) { this.at = at; }

        private void step(String op) {
            trace.add(op);
            if (ops++ == at && hook != null) {
                Runnable h = hook;
                hook = null;
                trace.add("<hook>");
                h.run();
            }
        }

        boolean fired() { return hook == null; }

        @Override public boolean add(CogCore c) { step("add"); return inner.add(c); }
        @Override public boolean remove(Object c) { step("remove"); return inner.remove(c); }
        @Override public boolean contains(Object c) { return inner.contains(c); }
        @Override public int size() { return inner.size(); }
        @Override public Iterator<CogCore> iterator() { step("iterate"); return inner.iterator(); }
    }

    /** A COG that had suspended processes and has none now: registered, in the set, pending 0. */
    private static JcstressSupport.CountingCog idleButRegistered(SuspendedRegistry r, HookedSet set) {
        JcstressSupport.CountingCog c = new JcstressSupport.CountingCog();
        Runnable h = set.hook;
        set.hook = null;                     // setting up is not part of the interleaving
        r.publish(c, 1);
        r.publish(c, 0);
        set.ops = 0;
        set.trace.clear();
        set.hook = h;
        assertTrue(set.inner.contains(c));
        return c;
    }

    @Test
    void aCogThatSuspendsAgainDuringASweepStaysRegistered() {
        int fired = 0;
        for (int k = 0; k < 8; k++) {
            // The COG's publish runs inside the sweep, before the sweep's k-th set operation.
            HookedSet set = new HookedSet(k);
            SuspendedRegistry r = new SuspendedRegistry(set);
            JcstressSupport.CountingCog[] cog = new JcstressSupport.CountingCog[1];
            set.hook = () -> r.publish(cog[0], 1);
            cog[0] = idleButRegistered(r, set);
            r.sweep();
            if (set.fired()) fired++; else r.publish(cog[0], 1); // k past the sweep's operations: after it
            assertTrue(set.inner.contains(cog[0]),
                    "publish inside the sweep at operation " + k + " " + set.trace + ": the COG holds a suspended "
                            + "process but is not in the registry (registered=" + cog[0].registeredState() + ")");
            assertEquals(1, r.snapshot().size());
        }
        assertTrue(fired >= 2, "the hook must have run inside the sweep at least at its iteration and its removal");
    }

    @Test
    void aSweepDuringTheCogsPublishLeavesItRegistered() {
        for (int k = 0; k < 4; k++) {
            // The whole sweep runs inside the COG's publish, before the publish's k-th set operation.
            HookedSet set = new HookedSet(k);
            SuspendedRegistry r = new SuspendedRegistry(set);
            set.hook = r::sweep;
            JcstressSupport.CountingCog c = idleButRegistered(r, set);
            r.publish(c, 1);
            if (!set.fired()) r.sweep();
            assertTrue(set.inner.contains(c), "sweep inside publish at operation " + k + " " + set.trace);
        }
    }

    @Test
    void aSweepDropsACogWithNothingSuspendedAndItComesBackWhenItSuspendsAgain() {
        HookedSet set = new HookedSet(-1);
        SuspendedRegistry r = new SuspendedRegistry(set);
        JcstressSupport.CountingCog c = idleButRegistered(r, set);
        r.sweep();
        assertTrue(!set.inner.contains(c), "the sweep must drop a COG with no suspended process");
        r.publish(c, 2);
        assertTrue(set.inner.contains(c));
    }
}
