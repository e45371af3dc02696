package cogs.javadsl;

import cogs.runtime.JavaSupport$;
import java.util.function.BooleanSupplier;

/**
 * What {@link Proc#await(Guard)} waits for: a condition over the object's state, a future
 * ({@link #future}), or a conjunction or disjunction of guards. Every guard of the runtime
 * (Scala's {@code cogs.runtime.Guard}) is one; there are no others.
 */
public interface Guard {

    /** A condition over the object's state, e.g. {@code Guard.of(() -> count > 0)}. */
    static Guard of(BooleanSupplier condition) { return JavaSupport$.MODULE$.cond(null, condition); }

    /** A condition with a name that deadlock reports and traces show. */
    static Guard of(String name, BooleanSupplier condition) { return JavaSupport$.MODULE$.cond(name, condition); }

    /** The guard {@code f?}: {@code f} is resolved. */
    static Guard future(Fut<?> f) { return JavaSupport$.MODULE$.future(f); }

    /** Both guards (ABS {@code g1 & g2}). */
    static Guard and(Guard a, Guard b) { return JavaSupport$.MODULE$.and(a, b); }

    /** Either guard. */
    static Guard or(Guard a, Guard b) { return JavaSupport$.MODULE$.or(a, b); }
}
