package cogs.runtime;

import cogs.runtime.JcstressSupport.CountingCog;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static cogs.runtime.JcstressSupport.bit;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link SuspendedRegistry}: a sweep racing with a COG that publishes its number
 * of suspended processes never leaves a COG with suspended processes out of the registry, and
 * leaves a COG's flag and its membership in agreement. {@code RegistryInterleavingTest} runs the
 * same race at every operation on the set, deterministically.
 */
public class JcstressRegistry {

    /** A COG that had suspended processes and has none now: flagged, in the registry, pending 0. */
    static CountingCog idleButRegistered(SuspendedRegistry r) {
        CountingCog c = new CountingCog();
        r.publish(c, 1);
        r.publish(c, 0);
        return c;
    }

    @JCStressTest
    @Description("A registered COG with nothing suspended gets a suspended process again while a sweep runs. "
            + "r1 = the COG is in the registry, r2 = its flag says registered.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Registered, whichever side came first.")
    @Outcome(id = "0, 1", expect = FORBIDDEN,
            desc = "LOST ENTRY: flagged but out of the registry; it would vanish from every deadlock report.")
    @Outcome(expect = FORBIDDEN, desc = "A COG with a suspended process is not registered.")
    @State
    public static class SweepVsSuspendAgain {
        final SuspendedRegistry registry = new SuspendedRegistry();
        final CountingCog cog = idleButRegistered(registry);

        @Actor
        public void cogPublishes() {
            registry.publish(cog, 1);
        }

        @Actor
        public void sweeper() {
            registry.sweep();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = bit(registry.contains(cog));
            r.r2 = bit(cog.registeredState() == CogCore.REG_IN);
        }
    }

    @JCStressTest
    @Description("A COG publishes 1 then 0 suspended processes while a sweep runs. "
            + "r1 = the COG is in the registry, r2 = its flag says registered.")
    @Outcome(id = {"1, 1", "0, 0"}, expect = ACCEPTABLE, desc = "Flag and membership agree.")
    @Outcome(expect = FORBIDDEN, desc = "Flag and membership disagree: a later publish would not fix it.")
    @State
    public static class SweepVsSuspendAndResume {
        final SuspendedRegistry registry = new SuspendedRegistry();
        final CountingCog cog = idleButRegistered(registry);

        @Actor
        public void cogPublishes() {
            registry.publish(cog, 1);
            registry.publish(cog, 0);
        }

        @Actor
        public void sweeper() {
            registry.sweep();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = bit(registry.contains(cog));
            r.r2 = bit(cog.registeredState() == CogCore.REG_IN);
        }
    }
}
