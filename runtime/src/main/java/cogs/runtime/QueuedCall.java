package cogs.runtime;

import scala.Function1;

/**
 * A one-way call waiting in its COG's inbox, before it is a process: what the call needs to start
 * and nothing else (the link, the object, the label, the method), 32 bytes against a process's 80.
 * Made by {@code CogRuntime.tellArgs} on its common path (no clock, no recording, no tracing, not
 * a self-call: each of those needs the process at once); its COG turns it into a {@code Process}
 * when it takes it from the inbox ({@code Cog.acceptInbox}, one node per pick), so calls that pile
 * up behind a slow consumer are copied by young collections at 32 bytes each.
 *
 * <p>It is pushed once, by its sender, and taken once, by its COG's main task. It has no run state
 * and nothing can wake it (only processes are woken), so the inbox's invariant (a node in at most
 * one inbox, at most once) holds without one. Its fields are final: the inbox's exchange publishes
 * them with the node, as it does a process's.
 */
final class QueuedCall extends Node {
    final Active target;
    final String label;
    final Function1<Active, Proc<Object>> call;

    QueuedCall(Active target, String label, Function1<Active, Proc<Object>> call) {
        this.target = target;
        this.label = label;
        this.call = call;
    }
}
