package cogs.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The producers' fields of a COG ({@code head}, {@code status}) are 64 bytes or more away from
 * every field the COG's own thread writes (those of {@code CogCore} and {@code Cog}): the
 * padding class exists for that, and a layout that put it elsewhere would silently bring back the
 * shared cache line (see {@code CogCoreProducerSide}). Offsets from {@code sun.misc.Unsafe}, the
 * only way to read them on a release JDK.
 */
class FieldLayoutTest {
    @SuppressWarnings({"deprecation", "removal"})
    private static long offset(sun.misc.Unsafe u, Field f) { return u.objectFieldOffset(f); }

    @Test
    void theProducersFieldsHaveACacheLineOfTheirOwn() throws Exception {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        sun.misc.Unsafe u = (sun.misc.Unsafe) theUnsafe.get(null);
        long head = offset(u, CogCoreProducerSide.class.getDeclaredField("head"));
        long status = offset(u, CogCoreProducerSide.class.getDeclaredField("status"));
        long producers = Math.max(head, status);
        int checked = 0;
        for (Class<?> c = Cog.class; c != CogCorePadding.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) continue;
                long o = offset(u, f);
                assertTrue(o - producers >= 64,
                    c.getSimpleName() + "." + f.getName() + " at " + o + " shares a cache line with head (" + head + ") or status (" + status + ")");
                checked++;
            }
        }
        assertTrue(checked >= 5, "the COG's own fields were found (" + checked + ")");
    }

    /**
     * The padding holds only fields that nothing touches at a poll or a slice (see
     * {@code CogCorePadding}): a field added there is a decision to make, not a place to fill.
     */
    @Test
    void thePaddingHoldsOnlyTheColdFields() {
        Set<String> found = new TreeSet<>();
        for (Field f : CogCorePadding.class.getDeclaredFields())
            if (!Modifier.isStatic(f.getModifiers()) && !f.getName().startsWith("pad") && !f.getName().equals("gap"))
                found.add(f.getName());
        assertEquals(new TreeSet<>(Set.of("dc", "owner", "blockedGet", "fatalWhere", "chosenNext", "forced", "clockWoken")), found);
    }
}
