package cogs.javadsl;

/**
 * Base class of Java active objects. Create instances with {@code rt.spawn(C::new)} (a new COG)
 * or, inside a process, {@link Cogs#spawn} / {@link Cogs#spawnLocal}; the constructor is the ABS
 * init block.
 */
public abstract class ActiveObject extends cogs.runtime.ActiveObject implements Active {}
