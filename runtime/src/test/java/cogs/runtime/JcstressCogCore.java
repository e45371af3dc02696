package cogs.runtime;

import cogs.runtime.JcstressSupport.CountingCog;
import cogs.runtime.JcstressSupport.Msg;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIIII_Result;
import org.openjdk.jcstress.infra.results.IIIIII_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.I_Result;

import static cogs.runtime.JcstressSupport.bit;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link CogCore}: the IDLE/SCHEDULED status word (no wake-up is lost, no COG is
 * submitted twice) and the intrusive MPSC inbox (nothing lost, nothing duplicated, FIFO per
 * producer). Run by {@code JcstressRunTest}; tests with three actors need three CPUs and are
 * skipped by jcstress on smaller machines ({@code StressHandOffTest} covers those cases there).
 */
public class JcstressCogCore {

    // ------------------------------------------------------------------ status word

    @JCStressTest
    @Description("Producer enqueueAndSchedule vs. the main task ending its batch (idleOrReschedule) on a "
            + "SCHEDULED COG with an empty inbox. r1 = producer activated the COG, r2 = consumer rescheduled, "
            + "r3 = submissions in total, r4 = final status (1 = SCHEDULED), r5 = nodes left in the inbox.")
    @Outcome(id = "1, 0, 1, 1, 1", expect = ACCEPTABLE,
            desc = "Consumer went idle first; the producer's CAS IDLE->SCHEDULED won and it submitted.")
    @Outcome(id = "0, 1, 1, 1, 1", expect = ACCEPTABLE,
            desc = "Producer saw SCHEDULED (or lost the CAS); the consumer saw the node and rescheduled.")
    @Outcome(id = "0, 0, 0, 0, 1", expect = FORBIDDEN,
            desc = "LOST WAKE-UP: node stranded in the inbox of an IDLE COG, nobody submitted it.")
    @Outcome(id = ".*, .*, 2, .*, .*", expect = FORBIDDEN,
            desc = "DOUBLE SUBMISSION: both the producer and the consumer submitted the COG.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else is inconsistent.")
    @State
    public static class StatusHandOff {
        final CountingCog cog = CountingCog.scheduled();
        final Msg m = new Msg(1);

        @Actor
        public void producer() {
            cog.enqueueAndSchedule(m);
        }

        @Actor
        public void consumer(IIIII_Result r) {
            r.r2 = bit(cog.idleOrReschedule());
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            r.r1 = cog.activations.get();
            r.r3 = cog.submits.get();
            r.r4 = bit(cog.isScheduled());
            r.r5 = cog.drainCount();
        }
    }

    @JCStressTest
    @Description("As StatusHandOff, but the consumer ends its batch the way Cog.runBatch does: poll until the inbox "
            + "is empty, then idleOrReschedule. r1 = producer activated the COG, r2 = nodes the consumer took, "
            + "r3 = consumer rescheduled, r4 = submissions, r5 = final status (1 = SCHEDULED), r6 = nodes left.")
    @Outcome(id = "0, 1, 0, 0, 0, 0", expect = ACCEPTABLE,
            desc = "Consumer took the node in its batch and went idle; the producer had seen SCHEDULED.")
    @Outcome(id = "1, 1, 0, 1, 1, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "Consumer took the node, then went idle; the producer's status read came later and "
                    + "scheduled the COG again: a spurious (harmless) activation with an empty inbox.")
    @Outcome(id = "1, 0, 0, 1, 1, 1", expect = ACCEPTABLE,
            desc = "Consumer found nothing and went idle; the producer's CAS scheduled the COG.")
    @Outcome(id = "0, 0, 1, 1, 1, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "Consumer's polls missed the node but idleOrReschedule saw it and rescheduled.")
    @Outcome(id = "0, 0, 0, 0, 0, 1", expect = FORBIDDEN,
            desc = "LOST WAKE-UP: node stranded in the inbox of an IDLE COG.")
    @Outcome(id = ".*, .*, .*, 2, .*, .*", expect = FORBIDDEN, desc = "DOUBLE SUBMISSION.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else is inconsistent (e.g. the node both taken and left).")
    @State
    public static class StatusHandOffAfterDrain {
        final CountingCog cog = CountingCog.scheduled();
        final Msg m = new Msg(1);

        @Actor
        public void producer() {
            cog.enqueueAndSchedule(m);
        }

        @Actor
        public void consumer(IIIIII_Result r) {
            r.r2 = cog.drainCount();
            r.r3 = bit(cog.idleOrReschedule());
        }

        @Arbiter
        public void arbiter(IIIIII_Result r) {
            r.r1 = cog.activations.get();
            r.r4 = cog.submits.get();
            r.r5 = bit(cog.isScheduled());
            r.r6 = cog.drainCount();
        }
    }

    @JCStressTest
    @Description("The simulated clock's wake chunk claims a COG (enqueueAndClaim: push, then the CAS IDLE->SCHEDULED "
            + "without submitting; the chunk runs what it claimed) vs. the main task ending its batch on a SCHEDULED "
            + "COG. r1 = the chunk claimed it, r2 = consumer rescheduled, r3 = submissions, r4 = final status "
            + "(1 = SCHEDULED), r5 = nodes left in the inbox.")
    @Outcome(id = "1, 0, 0, 1, 1", expect = ACCEPTABLE,
            desc = "Consumer went idle first; the chunk's CAS won: the COG is the chunk's to run, nobody submitted it.")
    @Outcome(id = "0, 1, 1, 1, 1", expect = ACCEPTABLE,
            desc = "The chunk saw SCHEDULED (or lost the CAS); the consumer saw the node and rescheduled.")
    @Outcome(id = "0, 0, 0, 0, 1", expect = FORBIDDEN,
            desc = "LOST WAKE-UP: node stranded in the inbox of an IDLE COG, neither claimed nor submitted.")
    @Outcome(id = "1, 1, .*, .*, .*", expect = FORBIDDEN,
            desc = "DOUBLE RUN: the chunk claimed the COG and the consumer rescheduled it.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else is inconsistent.")
    @State
    public static class ClaimVsBatchEnd {
        final CountingCog cog = CountingCog.scheduled();
        final Msg m = new Msg(1);

        @Actor
        public void chunk(IIIII_Result r) {
            r.r1 = bit(cog.enqueueAndClaim(m));
        }

        @Actor
        public void consumer(IIIII_Result r) {
            r.r2 = bit(cog.idleOrReschedule());
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            r.r3 = cog.submits.get();
            r.r4 = bit(cog.isScheduled());
            r.r5 = cog.drainCount();
        }
    }

    @JCStressTest
    @Description("A wake chunk's claim and an ordinary send reach an IDLE COG at once: exactly one of them takes "
            + "it. r1 = the chunk claimed it, r2 = the producer's activations, r3 = submissions, r4 = final "
            + "status (1 = SCHEDULED), r5 = inbox order.")
    @Outcome(id = {"1, 0, 0, 1, 12", "1, 0, 0, 1, 21"}, expect = ACCEPTABLE,
            desc = "The chunk's CAS won: the COG is the chunk's to run; both messages are in the inbox.")
    @Outcome(id = {"0, 1, 1, 1, 12", "0, 1, 1, 1, 21"}, expect = ACCEPTABLE,
            desc = "The producer's CAS won and it submitted the COG; both messages are in the inbox.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "DOUBLE RUN: both took the COG.")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "LOST WAKE-UP: nobody took the COG.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else is inconsistent.")
    @State
    public static class ClaimVsProducer {
        final CountingCog cog = new CountingCog();
        final Msg a = new Msg(1);
        final Msg b = new Msg(2);

        @Actor
        public void chunk(IIIII_Result r) {
            r.r1 = bit(cog.enqueueAndClaim(a));
        }

        @Actor
        public void producer() {
            cog.enqueueAndSchedule(b);
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            r.r2 = cog.activations.get();
            r.r3 = cog.submits.get();
            r.r4 = bit(cog.isScheduled());
            r.r5 = cog.drainDigits();
        }
    }

    @JCStressTest
    @Description("Two producers send to an IDLE COG at once: exactly one of them schedules it. "
            + "r1 = activations, r2 = submissions, r3 = final status (1 = SCHEDULED), r4 = inbox order.")
    @Outcome(id = {"1, 1, 1, 12", "1, 1, 1, 21"}, expect = ACCEPTABLE,
            desc = "One producer's CAS won; both messages are in the inbox.")
    @Outcome(id = "2, 2, .*", expect = FORBIDDEN, desc = "DOUBLE SUBMISSION: both producers won the CAS.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else is inconsistent.")
    @State
    public static class TwoProducersWakeIdleCog {
        final CountingCog cog = new CountingCog();
        final Msg a = new Msg(1);
        final Msg b = new Msg(2);

        @Actor
        public void producer1() {
            cog.enqueueAndSchedule(a);
        }

        @Actor
        public void producer2() {
            cog.enqueueAndSchedule(b);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = cog.activations.get();
            r.r2 = cog.submits.get();
            r.r3 = bit(cog.isScheduled());
            r.r4 = cog.drainDigits();
        }
    }

    @JCStressTest
    @Description("Three actors (needs 3 CPUs): two producers vs. the main task ending its batch on a SCHEDULED "
            + "COG. r1 = activations by producers, r2 = consumer rescheduled, r3 = submissions, r4 = nodes left.")
    @Outcome(id = {"1, 0, 1, 2", "0, 1, 1, 2"}, expect = ACCEPTABLE,
            desc = "Exactly one submission (a producer's CAS or the consumer's reschedule); both nodes queued.")
    @Outcome(id = "0, 0, 0, 2", expect = FORBIDDEN, desc = "LOST WAKE-UP.")
    @Outcome(expect = FORBIDDEN, desc = "Double submission or lost node.")
    @State
    public static class TwoProducersVsBatchEnd {
        final CountingCog cog = CountingCog.scheduled();
        final Msg a = new Msg(1);
        final Msg b = new Msg(2);

        @Actor
        public void producer1() {
            cog.enqueueAndSchedule(a);
        }

        @Actor
        public void producer2() {
            cog.enqueueAndSchedule(b);
        }

        @Actor
        public void consumer(IIII_Result r) {
            r.r2 = bit(cog.idleOrReschedule());
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = cog.activations.get();
            r.r3 = cog.submits.get();
            r.r4 = cog.drainCount();
        }
    }

    @JCStressTest
    @Description("A producer sends two messages to a SCHEDULED COG while its main task ends a batch the way "
            + "Cog.runBatch does: poll until poll gives null (which it also does on a node in transit, instead of "
            + "waiting for the producer's link store), then idleOrReschedule. The arbiter drains what is left. "
            + "r1 = nodes the consumer took, r2 = nodes left, r3 = verdict: 0 fine, 1 LOST WAKE-UP (nodes left "
            + "in an IDLE COG that nobody submitted), 2 DOUBLE SUBMISSION, 3 a node lost or duplicated, "
            + "4 the status does not match the submissions.")
    @Outcome(id = {"2, 0, 0", "1, 1, 0", "0, 2, 0"}, expect = ACCEPTABLE,
            desc = "Both messages delivered once; the COG is scheduled exactly when something is left.")
    @Outcome(id = ".*, .*, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP after giving up on a node in transit.")
    @Outcome(id = ".*, .*, 2", expect = FORBIDDEN, desc = "DOUBLE SUBMISSION.")
    @Outcome(expect = FORBIDDEN, desc = "Lost or duplicated node, or inconsistent status.")
    @State
    public static class GiveUpInTransitThenBatchEnd {
        final CountingCog cog = CountingCog.scheduled();
        final Msg a = new Msg(1);
        final Msg b = new Msg(2);
        int taken;

        @Actor
        public void producer() {
            cog.enqueueAndSchedule(a);
            cog.enqueueAndSchedule(b);
        }

        @Actor
        public void consumer() {
            taken = cog.drainCount();
            cog.idleOrReschedule();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            int subs = cog.submits.get();
            boolean scheduled = cog.isScheduled();
            int left = cog.drainCount();
            r.r1 = taken;
            r.r2 = left;
            if (taken + left != 2) r.r3 = 3;
            else if (subs > 1) r.r3 = 2;
            else if (left > 0 && (subs == 0 || !scheduled)) r.r3 = 1;
            else if ((subs == 1) != scheduled) r.r3 = 4;
            else r.r3 = 0;
        }
    }

    // ------------------------------------------------------------------ inbox

    @JCStressTest
    @Description("One producer pushes 1, 2, 3 while the consumer polls four times (poll never waits: it returns "
            + "null on an empty inbox and on a node in transit, which stays queued in order; taking the last node "
            + "re-pushes the stub, racing with the producer). The arbiter drains what is left. r1 = ids the consumer took, in order; "
            + "r2 = ids the arbiter drained; r3 = inbox empty afterwards.")
    @Outcome(id = "0, 123, 1", expect = ACCEPTABLE, desc = "Consumer polled before anything arrived.")
    @Outcome(id = "1, 23, 1", expect = ACCEPTABLE, desc = "Consumer took 1.")
    @Outcome(id = "12, 3, 1", expect = ACCEPTABLE_INTERESTING, desc = "Consumer took 1, 2.")
    @Outcome(id = "123, 0, 1", expect = ACCEPTABLE, desc = "Consumer took everything.")
    @Outcome(expect = FORBIDDEN, desc = "Lost, duplicated or reordered node.")
    @State
    public static class InboxProducerVsConsumer {
        final CountingCog cog = new CountingCog();
        final Msg m1 = new Msg(1);
        final Msg m2 = new Msg(2);
        final Msg m3 = new Msg(3);

        @Actor
        public void producer() {
            cog.push(m1);
            cog.push(m2);
            cog.push(m3);
        }

        @Actor
        public void consumer(III_Result r) {
            int seq = 0;
            for (int i = 0; i < 4; i++) {
                Node n = cog.poll();
                if (n != null) seq = seq * 10 + ((Msg) n).id;
            }
            r.r1 = seq;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r2 = cog.drainDigits();
            r.r3 = bit(cog.inboxEmpty());
        }
    }

    @JCStressTest
    @Description("Two producers push (1, 2) and (3, 4) at once; the arbiter drains. r1 = drained order.")
    @Outcome(id = {"1234", "3412"}, expect = ACCEPTABLE, desc = "One producer entirely before the other.")
    @Outcome(id = {"1324", "1342", "3124", "3142"}, expect = ACCEPTABLE_INTERESTING,
            desc = "Interleaved, FIFO per producer.")
    @Outcome(expect = FORBIDDEN, desc = "Lost, duplicated, or out of order for one producer.")
    @State
    public static class InboxTwoProducers {
        final CountingCog cog = new CountingCog();
        final Msg m1 = new Msg(1);
        final Msg m2 = new Msg(2);
        final Msg m3 = new Msg(3);
        final Msg m4 = new Msg(4);

        @Actor
        public void producerA() {
            cog.push(m1);
            cog.push(m2);
        }

        @Actor
        public void producerB() {
            cog.push(m3);
            cog.push(m4);
        }

        @Arbiter
        public void arbiter(I_Result r) {
            r.r1 = cog.drainDigits();
        }
    }

    @JCStressTest
    @Description("Three actors (needs 3 CPUs): producers push (1, 2) and (3, 4) while the consumer polls five "
            + "times; the arbiter drains the rest. r1 = nodes the consumer took, r2 = verdict "
            + "(0 ok, 1 lost, 2 duplicated, 3 FIFO per producer violated), r3 = inbox empty afterwards.")
    @Outcome(id = {"0, 0, 1", "1, 0, 1", "2, 0, 1", "3, 0, 1", "4, 0, 1"}, expect = ACCEPTABLE,
            desc = "Everything delivered once, FIFO per producer.")
    @Outcome(id = ".*, 1, .*", expect = FORBIDDEN, desc = "A node was lost.")
    @Outcome(id = ".*, 2, .*", expect = FORBIDDEN, desc = "A node was delivered twice.")
    @Outcome(id = ".*, 3, .*", expect = FORBIDDEN, desc = "FIFO order of one producer violated.")
    @Outcome(expect = FORBIDDEN, desc = "Inconsistent.")
    @State
    public static class InboxTwoProducersAndConsumer {
        final CountingCog cog = new CountingCog();
        final Msg m1 = new Msg(1);
        final Msg m2 = new Msg(2);
        final Msg m3 = new Msg(3);
        final Msg m4 = new Msg(4);
        int taken; // by the consumer, in order, as digits

        @Actor
        public void producerA() {
            cog.push(m1);
            cog.push(m2);
        }

        @Actor
        public void producerB() {
            cog.push(m3);
            cog.push(m4);
        }

        @Actor
        public void consumer(III_Result r) {
            int seq = 0, k = 0;
            for (int i = 0; i < 5; i++) {
                Node n = cog.poll();
                if (n != null) { seq = seq * 10 + ((Msg) n).id; k++; }
            }
            taken = seq;
            r.r1 = k;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            int rest = cog.drainDigits();
            r.r2 = verdict(taken, rest);
            r.r3 = bit(cog.inboxEmpty());
        }

        static int verdict(int first, int second) {
            String s = (first == 0 ? "" : Integer.toString(first)) + (second == 0 ? "" : Integer.toString(second));
            int[] seen = new int[5];
            for (char c : s.toCharArray()) seen[c - '0']++;
            for (int i = 1; i <= 4; i++) if (seen[i] > 1) return 2;
            for (int i = 1; i <= 4; i++) if (seen[i] == 0) return 1;
            if (s.length() != 4) return 2;
            if (s.indexOf('1') > s.indexOf('2') || s.indexOf('3') > s.indexOf('4')) return 3;
            return 0;
        }
    }
}
