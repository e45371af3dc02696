package cogs.bench;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Proc;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Message throughput into one receiver, from one sender or from many: Cogs against Pekko.
 *
 * <p>Each sender is an object (a COG) or an actor of its own; the benchmark's thread tells each
 * to send its share of {@value #MESSAGES} messages to the receiver, which counts them and signals
 * the benchmark's thread at the last one. The score is messages per second.
 *
 * <p>On Cogs a message is an asynchronous call, {@code receiver ! inc()}, which also allocates the
 * call's future (nobody reads it here); on Pekko it is a {@code tell} of a constant.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(ThroughputBench.MESSAGES)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g"})
public class ThroughputBench extends WorkloadState {

    /** Messages per invocation, over all senders. */
    static final int MESSAGES = 1_000_000;

    @Param({"1", "8"})
    public int senders;

    @Param({"cogs", "pekko"})
    public String runtime;

    @Override
    protected Workload create() {
        return workload(runtime, senders, MESSAGES);
    }

    @Benchmark
    public long messages() throws Exception {
        return workload.run();
    }

    /** {@code messages} in all, split evenly over {@code senders}. */
    public static Workload workload(String runtime, int senders, int messages) {
        if (messages % senders != 0) {
            throw new IllegalArgumentException(messages + " messages do not split evenly over " + senders + " senders");
        }
        switch (runtime) {
            case "cogs":
                return new CogsThroughput(senders, messages / senders);
            case "pekko":
                return new PekkoThroughput(senders, messages / senders);
            default:
                throw new IllegalArgumentException("unknown runtime '" + runtime + "'; cogs or pekko");
        }
    }

    static long await(CompletableFuture<Long> done, String what) throws Exception {
        try {
            return done.get(Workload.timeoutSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": not all messages arrived in " + Workload.timeoutSeconds() + " s");
        }
    }

    // ------------------------------------------------------------------------------------ Cogs

    public interface Sink extends Active {
        Proc<Void> inc();

        Proc<Long> count();
    }

    public static final class SinkImpl extends ActiveObject implements Sink {
        private final long expected;
        private final CompletableFuture<Long> done;
        private long count;

        SinkImpl(long expected, CompletableFuture<Long> done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        public Proc<Void> inc() {
            // The body of a method runs when its process starts, on the receiver's COG.
            if (++count == expected) {
                done.complete(count);
            }
            return Proc.done(null);
        }

        @Override
        public Proc<Long> count() {
            return Proc.done(count);
        }
    }

    public interface Source extends Active {
        Proc<Void> burst(Sink to, int messages);
    }

    public static final class SourceImpl extends ActiveObject implements Source {
        @Override
        public Proc<Void> burst(Sink to, int messages) {
            for (int i = 0; i < messages; i++) {
                Cogs.send(to, "inc", Sink::inc);
            }
            return Proc.done(null);
        }
    }

    static final class CogsThroughput implements Workload {
        private final CogRuntime rt = CogRuntime.create();
        private final int perSender;
        private final List<Source> sources = new ArrayList<>();
        private Sink sink;
        private CompletableFuture<Long> done;
        private long received;

        CogsThroughput(int senders, int perSender) {
            this.perSender = perSender;
            for (int i = 0; i < senders; i++) {
                sources.add(rt.spawn(SourceImpl::new));
            }
        }

        private long total() {
            return (long) perSender * sources.size();
        }

        @Override
        public void prepare() {
            CompletableFuture<Long> d = new CompletableFuture<>();
            long expected = total();
            sink = rt.spawn(() -> new SinkImpl(expected, d));
            done = d;
        }

        @Override
        public long run() throws Exception {
            Sink to = sink;
            int each = perSender;
            for (Source s : sources) {
                Cogs.send(s, "burst", src -> src.burst(to, each));
            }
            received = await(done, "cogs");
            return received;
        }

        @Override
        public void check() {
            Workload.expect("cogs: messages counted at the last one", total(), received);
            rt.awaitQuiescence();
            Workload.expect("cogs: messages counted in the end", total(), Cogs.send(sink, "count", Sink::count).join());
        }

        @Override
        public void close() {
            rt.close();
        }
    }

    // ----------------------------------------------------------------------------------- Pekko

    enum Signal { INC, COUNT }

    static final class Burst {
        final ActorRef to;
        final int messages;

        Burst(ActorRef to, int messages) {
            this.to = to;
            this.messages = messages;
        }
    }

    static final class SinkActor extends AbstractActor {
        private final long expected;
        private final CompletableFuture<Long> done;
        private long count;

        SinkActor(long expected, CompletableFuture<Long> done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .matchEquals(Signal.INC, m -> {
                        if (++count == expected) {
                            done.complete(count);
                        }
                    })
                    .matchEquals(Signal.COUNT, m -> getSender().tell(count, getSelf()))
                    .build();
        }
    }

    static final class SourceActor extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Burst.class, b -> {
                        for (int i = 0; i < b.messages; i++) {
                            b.to.tell(Signal.INC, getSelf());
                        }
                    })
                    .build();
        }
    }

    static final class PekkoThroughput implements Workload {
        private final ActorSystem system = PekkoSystems.create("throughput");
        private final int perSender;
        private final List<ActorRef> sources = new ArrayList<>();
        private ActorRef sink;
        private CompletableFuture<Long> done;
        private long received;

        PekkoThroughput(int senders, int perSender) {
            this.perSender = perSender;
            for (int i = 0; i < senders; i++) {
                sources.add(system.actorOf(Props.create(SourceActor.class, SourceActor::new)));
            }
        }

        private long total() {
            return (long) perSender * sources.size();
        }

        @Override
        public void prepare() {
            CompletableFuture<Long> d = new CompletableFuture<>();
            long expected = total();
            sink = system.actorOf(Props.create(SinkActor.class, () -> new SinkActor(expected, d)));
            done = d;
        }

        @Override
        public long run() throws Exception {
            Burst burst = new Burst(sink, perSender);
            for (ActorRef s : sources) {
                s.tell(burst, ActorRef.noSender());
            }
            received = await(done, "pekko");
            return received;
        }

        @Override
        public void check() throws Exception {
            try {
                Workload.expect("pekko: messages counted at the last one", total(), received);
                Object count = Patterns.ask(sink, Signal.COUNT, PekkoSystems.ASK_TIMEOUT).toCompletableFuture().get();
                Workload.expect("pekko: messages counted in the end", total(), (Long) count);
            } finally {
                system.stop(sink);
            }
        }

        @Override
        public void close() {
            PekkoSystems.terminate(system);
        }
    }
}
