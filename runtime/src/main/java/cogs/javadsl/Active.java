package cogs.javadsl;

/**
 * The interface side of an active object: Java interfaces that describe active objects extend it,
 * so that a reference typed by the interface can be called asynchronously ({@link Cogs#send}).
 */
public interface Active extends cogs.runtime.Active {}
