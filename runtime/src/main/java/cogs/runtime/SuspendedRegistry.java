package cogs.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's registry of COGs that hold suspended processes, for deadlock reports. A COG joins
 * it at the end of a batch that left processes suspended ({@link #publish}); {@link #sweep} drops
 * COGs that no longer hold any, so that the set does not grow with every COG that ever waited.
 *
 * <h2>Why no COG with suspended processes is left out</h2>
 * Each COG has a flag, {@code registered}: OUT, IN, or LEAVING. Only the thread that moves it OUT
 * to IN (a CAS) adds the COG to the set; only the sweeper removes it, and only while it holds the
 * flag at LEAVING (taken with a CAS from IN). While the flag is LEAVING nobody can move it OUT to
 * IN, so no add of a COG ever overlaps a remove of it: an add always comes after the last remove,
 * and a COG whose flag is IN is in the set (or about to be added by the thread that set it).
 * <pre>
 *   COG (end of a batch)                    sweeper, for a COG with pending == 0
 *   C1 pending = n               [volatile]  S1 CAS registered IN to LEAVING
 *   C2 read registered           [volatile]  S2 remove from the set
 *   C3 if OUT and n > 0: CAS OUT to IN, add  S3 registered = OUT          [volatile]
 *                                            S4 read pending; if > 0: CAS OUT to IN, add
 * </pre>
 * C1/C2 against S3/S4 is the Dekker shape: all volatile, so in the total order of these accesses
 * either C2 comes after S3 and the COG sees OUT and adds itself (after S2), or S4 comes after C1
 * and the sweeper sees the new {@code pending} and adds it back. If both do, the CAS OUT to IN lets
 * exactly one add. If C2 sees LEAVING, S3 and S4 are still to come, and S4 then sees C1. If C2
 * sees IN (before S1), the sweeper's S4 comes later still and sees C1 too.
 *
 * <p>The protocol before this one had two states: the sweeper moved the flag IN to OUT and then
 * removed the COG. A COG that published in between moved the flag back to IN and added itself
 * (already there: no effect), and the remove that followed left it flagged IN but out of the set
 * for good: it vanished from every later deadlock report. {@code RegistryInterleavingTest} (every
 * interleaving of the two at the set's operations) and {@code JcstressRegistry} caught it.
 */
final class SuspendedRegistry {
    private final Set<CogCore> cogs;
    private final AtomicLong sweepAt = new AtomicLong(1024);

    SuspendedRegistry() { this(ConcurrentHashMap.newKeySet()); }

    /** With a set of the test's choice (the interleaving test hooks its operations). */
    SuspendedRegistry(Set<CogCore> cogs) { this.cogs = cogs; }

    /**
     * Called by a COG's main task at the end of a batch with its number of suspended processes.
     * Only that task calls it for that COG, so {@code pending} has one writer.
     */
    void publish(CogCore c, int n) {
        if (n != c.pending) c.pending = n;                                       // C1 (when equal, an earlier publish wrote it)
        if (n > 0 && c.registeredState() == CogCore.REG_OUT && c.casRegistered(CogCore.REG_OUT, CogCore.REG_IN)) {
            cogs.add(c);
            if (cogs.size() >= sweepAt.get()) sweep();
        }
    }

    /** Drop COGs that no longer hold suspended processes. */
    synchronized void sweep() {
        for (CogCore c : cogs) {
            if (c.pending == 0 && c.casRegistered(CogCore.REG_IN, CogCore.REG_LEAVING)) {   // S1
                cogs.remove(c);                                                              // S2
                c.setRegistered(CogCore.REG_OUT);                                            // S3
                if (c.pending > 0 && c.casRegistered(CogCore.REG_OUT, CogCore.REG_IN)) {     // S4
                    cogs.add(c);
                }
            }
        }
        sweepAt.set(Math.max(1024L, cogs.size() * 2L));
    }

    boolean contains(CogCore c) { return cogs.contains(c); }

    /** A snapshot, after a sweep. */
    java.util.List<CogCore> snapshot() {
        sweep();
        return new java.util.ArrayList<>(cogs);
    }
}
