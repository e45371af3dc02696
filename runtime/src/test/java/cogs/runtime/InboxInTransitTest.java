package cogs.runtime;

import cogs.runtime.JcstressSupport.CountingCog;
import cogs.runtime.JcstressSupport.Msg;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The inbox's node in transit, made deterministic: a producer stopped between its exchange of
 * {@code head} and its link store (as a descheduled thread is) is played by doing the two halves
 * of {@link CogCore#push} by hand. The consumer must neither wait for the link (a consumer that
 * spins never returns, and the preemptive timeout fails the test) nor go idle with the node in
 * its inbox (a lost wake-up: the COG would be IDLE with nobody left to submit it).
 */
class InboxInTransitTest {

    private static final VarHandle HEAD;
    private static final VarHandle NEXT;
    static {
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(CogCore.class, MethodHandles.lookup());
            HEAD = l.findVarHandle(CogCore.class, "head", Node.class);
            NEXT = MethodHandles.lookup().findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The first half of push: the exchange (P1). Returns the node the link must go behind. */
    private static Node exchangeOnly(CogCore cog, Node n) {
        NEXT.set(n, null);
        return (Node) HEAD.getAndSet(cog, n);
    }

    /** The second half of push (the link), then enqueueAndSchedule's status read (P2). */
    private static void linkAndSchedule(CogCore cog, Node prev, Node n) {
        NEXT.setRelease(prev, n);
        if (!cog.isScheduled()) cog.trySchedule();
    }

    /** The consumer's calls, on another thread so that a consumer that spins fails instead of hanging. */
    private static <T> T consumer(org.junit.jupiter.api.function.ThrowingSupplier<T> body) {
        return assertTimeoutPreemptively(Duration.ofSeconds(20), body,
                "the consumer waited for a producer's link store (it must give up on a node in transit)");
    }

    @Test
    void aNodeInTransitBehindTheStubIsLeftAndTheBatchReschedules() {
        CountingCog cog = CountingCog.scheduled();
        Msg m = new Msg(1);
        Node prev = exchangeOnly(cog, m);

        assertNull(consumer(cog::poll), "nothing can be taken while the only node is in transit");
        assertFalse(cog.inboxEmpty(), "a node in transit counts as present");
        // The batch ends: it must not go idle, since the producer already saw SCHEDULED or will see
        // it after rescheduling; here it reschedules itself.
        assertTrue(consumer(cog::idleOrReschedule), "the batch that gave up reschedules its COG");
        assertEquals(1, cog.submits.get());
        assertTrue(cog.isScheduled());

        linkAndSchedule(cog, prev, m);
        assertEquals(0, cog.activations.get(), "the producer found the COG scheduled");
        assertEquals(1, cog.submits.get(), "submitted once in all");
        assertSame(m, consumer(cog::poll), "the next batch takes the node once it is linked");
        assertNull(consumer(cog::poll));
        assertTrue(cog.inboxEmpty());
    }

    @Test
    void aNodeInTransitBehindTheLastRealNodeHoldsItBackInOrder() {
        CountingCog cog = CountingCog.scheduled();
        Msg m1 = new Msg(1), m2 = new Msg(2), m3 = new Msg(3);
        cog.push(m1);
        Node prev = exchangeOnly(cog, m2);
        assertSame(m1, prev);
        cog.push(m3); // a third producer completes behind the one in transit

        // m1 cannot leave before its successor is linked: the consumer would lose the queue's end.
        assertNull(consumer(cog::poll));
        assertNull(consumer(cog::poll), "polling again does not change the state (nor push the stub twice)");
        assertFalse(cog.inboxEmpty());
        assertTrue(consumer(cog::idleOrReschedule));

        linkAndSchedule(cog, prev, m2);
        assertEquals(1, cog.submits.get());
        assertEquals(123, consumer(cog::drainDigits), "every node, once, in order");
        assertTrue(cog.inboxEmpty());
    }

    @Test
    void theStubPushedBehindTheLastNodeRacesWithAProducerInTransit() {
        // The consumer takes the last node: it pushes the stub behind it. A producer that exchanged
        // head just before makes the stub land behind the producer's node, and the link behind the
        // last node is that producer's, still in transit.
        CountingCog cog = CountingCog.scheduled();
        Msg m1 = new Msg(1), m2 = new Msg(2);
        cog.push(m1);
        assertSame(m1, consumer(cog::poll)); // the ordinary case: stub pushed and linked by the consumer
        cog.push(m1 = new Msg(4));
        Node prev = exchangeOnly(cog, m2);
        assertSame(m1, prev);
        assertNull(consumer(cog::poll));
        linkAndSchedule(cog, prev, m2);
        assertEquals(42, consumer(cog::drainDigits));
        assertTrue(cog.inboxEmpty());
        assertNull(consumer(cog::poll));
    }

    @Test
    void aCogThatWentIdleIsScheduledByTheProducerAfterItsLink() {
        // The other order of the hand-off: the batch ended (idle) before the exchange, so the
        // producer's status read after its link finds IDLE and submits the COG.
        CountingCog cog = CountingCog.scheduled();
        assertFalse(consumer(cog::idleOrReschedule));
        Msg m = new Msg(1);
        Node prev = exchangeOnly(cog, m);
        assertFalse(cog.isScheduled());
        linkAndSchedule(cog, prev, m);
        assertEquals(1, cog.activations.get());
        assertEquals(1, cog.submits.get());
        assertSame(m, consumer(cog::poll));
    }

    @Test
    void aNodeThatLeftTheQueueNoLongerPointsAtTheNext() {
        // A node that left kept its link: once promoted to the old generation, it kept every node
        // queued behind it alive through young collections (Counting's million calls all
        // survived). Each node poll returns must have its link cleared, in every branch of poll.
        CountingCog cog = CountingCog.scheduled();
        Msg m1 = new Msg(1), m2 = new Msg(2), m3 = new Msg(3);
        cog.push(m1);
        cog.push(m2);
        cog.push(m3);
        assertSame(m1, consumer(cog::poll));
        assertNull(NEXT.get(m1), "a node taken from the middle of the queue");
        assertSame(m2, consumer(cog::poll));
        assertNull(NEXT.get(m2));
        assertSame(m3, consumer(cog::poll)); // the last node: the stub goes behind it
        assertNull(NEXT.get(m3), "the last node");
        // A node behind a link that was in transit.
        Msg m4 = new Msg(4), m5 = new Msg(5);
        cog.push(m4);
        Node prev = exchangeOnly(cog, m5);
        assertNull(consumer(cog::poll));
        linkAndSchedule(cog, prev, m5);
        assertSame(m4, consumer(cog::poll));
        assertNull(NEXT.get(m4), "a node whose successor was in transit");
        // A node queued again after it left is linked afresh.
        cog.push(m1);
        assertSame(m5, consumer(cog::poll));
        assertSame(m1, consumer(cog::poll));
        assertNull(consumer(cog::poll));
        assertTrue(cog.inboxEmpty());
    }
}
