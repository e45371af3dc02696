package cogs.runtime;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Regression test of a fixed bug (fixed by counting an activation before the status CAS, see
 * {@code CogCore.activate}). The bug: the
 * runtime's count of active COGs drops to zero for a moment while a COG is SCHEDULED with a
 * message in its inbox, and {@link Fut#join} then throws a spurious {@link DeadlockException}
 * when another thread outside the runtime sends to the same COG at the same time.
 *
 * <p>Interleaving (COG A is the only active COG, active = 1; thread J has sent m1 to A and waits in
 * join; thread S sends m2 to A):
 * <pre>
 *   A's main task, end of batch           S: enqueueAndSchedule(m2)            J: join(f1)
 *   C1 status = IDLE
 *                                         P1 push m2; P2 CAS IDLE->SCHEDULED ok
 *   C2 inbox not empty; C3 CAS fails
 *   idleOrReschedule() == false
 *   runtime.cogIdle(): active 1 -> 0,
 *     unparks the joiners  ------------------------------------------------&gt; active == 0 and f1 pending:
 *                                                                            throws DeadlockException
 *                                         onActivated(): active 0 -> 1; submit(); A runs, resolves f1
 * </pre>
 * The producer counts the activation only after its CAS, while the main task that lost the CAS
 * has already counted itself idle. {@code awaitQuiescence} can return early the same way. Worse,
 * join then builds the deadlock report ({@code Cog.waitingReport}, meant for idle COGs only) while
 * the COG runs on a worker, and can fail with a NullPointerException from the COG's ready deque.
 */
class StressJoinRaceTest {
    public interface Echo extends Active {
        Proc<Integer> echo(int x);
    }

    public static final class EchoImpl extends ActiveObject implements Echo {
        @Override public Proc<Integer> echo(int x) { return Proc.delay(() -> x); }
    }

    @Test
    void joinIsNotFooledWhileAnotherThreadSends() throws Exception {
        CogRuntime rt = CogRuntime.create();
        try {
            Echo e = rt.spawn(EchoImpl::new);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong spurious = new AtomicLong();
            AtomicReference<String> first = new AtomicReference<>();
            long joins = 0;
            Thread[] senders = new Thread[3];
            for (int t = 0; t < senders.length; t++) {
                senders[t] = new Thread(() -> {
                    int i = 0;
                    while (!stop.get()) {
                        Fut<Integer> f = Cogs.send(e, "echo", o -> o.echo(1));
                        if ((++i & 63) == 0) while (!f.isDone()) Thread.yield();
                    }
                }, "sender-" + t);
                senders[t].start();
            }
            long end = System.nanoTime() + Long.getLong("cogs.stress.seconds", 4L) * 1_000_000_000L;
            while (System.nanoTime() < end) {
                try {
                    Cogs.send(e, "echo", o -> o.echo(2)).join();
                    joins++;
                } catch (RuntimeException d) {
                    // A DeadlockException, or worse: the deadlock report then reads the COG's private
                    // state while the COG runs on a worker (NullPointerException from its ready deque).
                    spurious.incrementAndGet();
                    first.compareAndSet(null, d.toString());
                }
            }
            stop.set(true);
            for (Thread t : senders) t.join();
            System.out.println("StressJoinRaceTest: " + joins + " joins, " + spurious + " spurious failures, first: " + first.get());
            assertEquals(0, spurious.get(), "join failed spuriously: " + first.get());
        } finally {
            rt.close();
        }
    }
}
