package cogs.runtime;

/**
 * A link of the intrusive inbox of a COG ({@link CogCore}). A process is its own queue node,
 * so sending a message or waking a process allocates nothing besides the process itself.
 *
 * <p>Invariant the queue relies on: a node is in at most one inbox at a time, and at most once.
 * Processes guarantee it with their wake-up state (see {@code Process.wake}).
 */
abstract class Node {
    /** Written by the producer that links the next node (release), read by the consumer (acquire). */
    volatile Node next;
}
