package cogs.bench;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Creating M objects (each in a COG of its own) or M actors, from inside an object or actor,
 * and calling each once: the run ends when the creator has all M replies (their sum is checked).
 *
 * <p>The one call per object is there because the two runtimes create differently: Cogs runs
 * the constructor at once, on the creating thread, while Pekko's {@code actorOf} only sends the
 * new actor a message to create itself. A first message answered means a created object on both.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g"})
public class CreationBench extends WorkloadState {

    @Param({"1000", "100000"})
    public int objects;

    @Param({"cogs", "pekko"})
    public String runtime;

    @Override
    protected Workload create() {
        return workload(runtime, objects);
    }

    @Benchmark
    public long createAndCall() throws Exception {
        return workload.run();
    }

    public static Workload workload(String runtime, int objects) {
        switch (runtime) {
            case "cogs":
                return new CogsCreation(objects);
            case "pekko":
                return new PekkoCreation(objects);
            default:
                throw new IllegalArgumentException("unknown runtime '" + runtime + "'; cogs or pekko");
        }
    }

    /** 0 + 1 + ... + (m - 1): what the m replies add up to. */
    static long expectedSum(int m) {
        return (long) m * (m - 1) / 2;
    }

    // ------------------------------------------------------------------------------------ Cogs

    public interface Cell extends Active {
        Proc<Integer> get();
    }

    public static final class CellImpl extends ActiveObject implements Cell {
        private final int value;

        CellImpl(int value) {
            this.value = value;
        }

        @Override
        public Proc<Integer> get() {
            return Proc.done(value);
        }
    }

    public interface Creator extends Active {
        Proc<Long> create(int m);
    }

    public static final class CreatorImpl extends ActiveObject implements Creator {
        @Override
        public Proc<Long> create(int m) {
            List<Fut<Integer>> replies = new ArrayList<>(m);
            for (int i = 0; i < m; i++) {
                int value = i;
                Cell cell = Cogs.spawn(() -> new CellImpl(value)); // ABS: new Cell(value)
                replies.add(Cogs.send(cell, "get", Cell::get));
            }
            long[] sum = {0};
            return Proc.repeat(m, i -> Proc.await(replies.get(i)).map(v -> {
                sum[0] += v;
                return null;
            })).map(u -> sum[0]);
        }
    }

    static final class CogsCreation implements Workload {
        private final CogRuntime rt = CogRuntime.create();
        private final int objects;
        private Creator creator;
        private long sum;

        CogsCreation(int objects) {
            this.objects = objects;
        }

        @Override
        public void prepare() {
            creator = rt.spawn(CreatorImpl::new);
        }

        @Override
        public long run() throws Exception {
            int m = objects;
            sum = Cogs.send(creator, "create", c -> c.create(m)).join(Workload.timeoutSeconds(), TimeUnit.SECONDS);
            return sum;
        }

        @Override
        public void check() {
            Workload.expect("cogs: sum of the replies", expectedSum(objects), sum);
        }

        @Override
        public void close() {
            rt.close();
        }
    }

    // ----------------------------------------------------------------------------------- Pekko

    enum Get { GET }

    static final class CellActor extends AbstractActor {
        private final int value;

        CellActor(int value) {
            this.value = value;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().matchEquals(Get.GET, m -> getSender().tell(value, getSelf())).build();
        }
    }

    static final class Create {
        final int m;

        Create(int m) {
            this.m = m;
        }
    }

    static final class CreatorActor extends AbstractActor {
        private final CompletableFuture<Long> done;
        private int expected;
        private int replies;
        private long sum;

        CreatorActor(CompletableFuture<Long> done) {
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Create.class, c -> {
                        expected = c.m;
                        for (int i = 0; i < c.m; i++) {
                            int value = i;
                            ActorRef cell = getContext().actorOf(Props.create(CellActor.class, () -> new CellActor(value)));
                            cell.tell(Get.GET, getSelf());
                        }
                    })
                    .match(Integer.class, v -> {
                        sum += v;
                        if (++replies == expected) {
                            done.complete(sum);
                        }
                    })
                    .build();
        }
    }

    static final class PekkoCreation implements Workload {
        private final ActorSystem system = PekkoSystems.create("creation");
        private final int objects;
        private ActorRef creator;
        private CompletableFuture<Long> done;
        private long sum;

        PekkoCreation(int objects) {
            this.objects = objects;
        }

        @Override
        public void prepare() {
            CompletableFuture<Long> d = new CompletableFuture<>();
            creator = system.actorOf(Props.create(CreatorActor.class, () -> new CreatorActor(d)));
            done = d;
        }

        @Override
        public long run() throws Exception {
            creator.tell(new Create(objects), ActorRef.noSender());
            try {
                sum = done.get(Workload.timeoutSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("pekko: the actors did not all answer in " + Workload.timeoutSeconds() + " s");
            }
            return sum;
        }

        @Override
        public void check() throws Exception {
            Workload.expect("pekko: sum of the replies", expectedSum(objects), sum);
            // Stop the creator with its children before the next run, so that no run pays for the last one's cleanup.
            Patterns.gracefulStop(creator, PekkoSystems.ASK_TIMEOUT).toCompletableFuture().get();
        }

        @Override
        public void close() {
            PekkoSystems.terminate(system);
        }
    }
}
