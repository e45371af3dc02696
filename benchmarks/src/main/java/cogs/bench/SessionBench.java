package cogs.bench;

import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Proc;
import cogs.session.ProtocolModule;
import cogs.session.javadsl.Sessions;
import cogs.session.monitor.MessageRef;
import cogs.session.monitor.Session;
import cogs.session.monitor.SessionType;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What checking protocol messages costs (issue 11; docs/sessions.md).
 *
 * <p>{@link #messages}: a sender object sends {@value #MESSAGES} one-way calls to a receiver in
 * another COG, in one process, and the benchmark waits until the receiver has run them all. The
 * protocol is a cycle of {@code states} distinct messages ({@code rec L { m0() from A to B; ...
 * continue L; }}), so each role's machine has exactly {@code states} states and every message is
 * a step of both. {@code checked}: the calls go through a session (sender's machine checked at
 * the send, receiver's when the callee's process starts); {@code unchecked}: the same calls with
 * {@code Cogs.tell}. The score is time per message; checked/unchecked is the overhead, and the
 * checked score across {@code states} shows whether the check's cost depends on the machine's size.
 *
 * <p>{@link PingPong#rounds}: request/reply rounds between two objects, the reply being the
 * resolution of the call's future ({@code ping(Int) from A to B; pong(Int) from B to A;} with
 * {@code Session.request}); the sender awaits each reply before the next request.
 *
 * <p>A run in which the session refused a message would measure the refusals: teardown fails it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(SessionBench.MESSAGES)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@State(Scope.Benchmark)
public class SessionBench {

    static final int MESSAGES = 100_000;

    @Param({"10", "100", "1000", "10000"})
    public int states;

    @Param({"checked", "unchecked"})
    public String mode;

    public static final class Receiver extends ActiveObject {
        long count;
        Proc<Void> hit() { count++; return Proc.done(null); }
    }

    public static final class Sender extends ActiveObject {
        Session session;
        MessageRef[] msgs;
        Receiver receiver;
        boolean checked;
        int next; // position in the cycle: the machines' state

        Proc<Void> burst(int n) {
            return Proc.delay(() -> {
                for (int k = 0; k < n; k++) {
                    if (checked) {
                        Sessions.tell(session, msgs[next], (Receiver r) -> r.hit());
                        next = next + 1 == msgs.length ? 0 : next + 1;
                    } else {
                        Cogs.tell(receiver, "m", (Receiver r) -> r.hit());
                    }
                }
                return null;
            });
        }
    }

    private CogRuntime rt;
    private Sender sender;
    private Receiver receiver;
    private Session session;

    /** A cycle of n messages from A to B: each role's minimal machine has n states. */
    static String cycle(int n) {
        StringBuilder sb = new StringBuilder("module bench;\nglobal protocol Cycle(role A, role B) {\n  rec L {\n");
        for (int i = 0; i < n; i++) sb.append("    m").append(i).append("() from A to B;\n");
        return sb.append("    continue L;\n  }\n}\n").toString();
    }

    @Setup(Level.Trial)
    public void setUp() {
        SessionType st = Sessions.sessionType(ProtocolModule.parse("cycle.scr", cycle(states)).protocol("Cycle"), "reject");
        rt = CogRuntime.create();
        receiver = rt.spawn(Receiver::new);
        sender = rt.spawn(Sender::new);
        session = Sessions.start(st, Map.of("A", sender, "B", receiver));
        MessageRef[] msgs = new MessageRef[states];
        for (int i = 0; i < states; i++) msgs[i] = st.message("A", "B", "m" + i);
        sender.session = session;
        sender.msgs = msgs;
        sender.receiver = receiver;
        sender.checked = mode.equals("checked");
    }

    /** Tests only: the sender skips a message of the cycle, so the session refuses the next one. */
    void breakCycleForTest() { sender.next = 1; }

    @Benchmark
    public long messages() {
        Cogs.tell(sender, "burst", (Sender s) -> s.burst(MESSAGES));
        rt.asScala().awaitQuiescence();
        return receiver.count;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (!session.violations().isEmpty())
                throw new IllegalStateException("the session refused messages: " + session.violations().head().getMessage());
        } finally {
            rt.close();
        }
    }

    /** Request/reply rounds, the reply a protocol event; checked or not. */
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(PingPong.ROUNDS)
    @State(Scope.Benchmark)
    public static class PingPong {
        static final int ROUNDS = 20_000;

        @Param({"checked", "unchecked"})
        public String mode;

        static final String PROTOCOL = String.join("\n",
            "module pp;",
            "type <java> \"java.lang.Integer\" from \"rt.jar\" as Int;",
            "global protocol PingPong(role A, role B) {",
            "  rec L { ping(Int) from A to B; pong(Int) from B to A; continue L; }",
            "}");

        public static final class Ponger extends ActiveObject {
            Proc<Integer> ping(int i) { return Proc.done(i); }
        }

        public static final class Pinger extends ActiveObject {
            Session session;
            MessageRef ping;
            MessageRef pong;
            Ponger ponger;
            boolean checked;
            long sum;

            Proc<?> play(int n) {
                return Proc.repeat(n, i -> {
                    Integer ball = i;
                    cogs.javadsl.Fut<Integer> f = checked
                        ? Sessions.request(session, ping, pong, (Ponger p) -> p.ping(ball), ball)
                        : Cogs.send(ponger, "ping", (Ponger p) -> p.ping(ball));
                    return Proc.await(f).map(v -> { sum += v; return null; });
                });
            }
        }

        private CogRuntime rt;
        private Pinger pinger;
        private Session session;

        @Setup(Level.Trial)
        public void setUp() {
            SessionType st = Sessions.sessionType(ProtocolModule.parse("pp.scr", PROTOCOL).protocol("PingPong"), "reject");
            rt = CogRuntime.create();
            Ponger ponger = rt.spawn(Ponger::new);
            pinger = rt.spawn(Pinger::new);
            session = Sessions.start(st, Map.of("A", pinger, "B", ponger));
            pinger.session = session;
            pinger.ping = st.message("A", "B", "ping");
            pinger.pong = st.message("B", "A", "pong");
            pinger.ponger = ponger;
            pinger.checked = mode.equals("checked");
        }

        @Benchmark
        public long rounds() {
            Cogs.tell(pinger, "play", (Pinger p) -> p.play(ROUNDS));
            rt.asScala().awaitQuiescence();
            return pinger.sum;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            try {
                if (!session.violations().isEmpty())
                    throw new IllegalStateException("the session refused messages: " + session.violations().head().getMessage());
            } finally {
                rt.close();
            }
        }
    }
}
