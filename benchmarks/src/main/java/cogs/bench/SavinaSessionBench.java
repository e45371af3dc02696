package cogs.bench;

import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import cogs.session.javadsl.Sessions;
import cogs.session.monitor.MessageRef;
import cogs.session.monitor.ProtocolViolation;
import cogs.session.monitor.Session;
import cogs.session.monitor.SessionReport;
import cogs.session.monitor.SessionType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Two Savina benchmarks written as session protocols, each run with every protocol message
 * checked and without sessions, side by side (issue 11; docs/sessions.md). The protocols are
 * {@code savina-count.scr} and {@code savina-banking.scr} next to this class's resources. One
 * operation is one whole run of the benchmark with fresh objects (and, checked, fresh sessions),
 * as in {@code savina/}; the score is milliseconds per run, and checked/unchecked is the overhead.
 *
 * <p>After every run (not timed) the answer is compared with the one computed without either
 * runtime, and, checked, every session must have ended complete with no violation: a run that
 * measured refusals or a wrong answer fails.
 */
public class SavinaSessionBench {

    static SessionType sessionType(String resource, String protocol) {
        try (InputStream in = SavinaSessionBench.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("no resource " + resource + " next to " + SavinaSessionBench.class.getName());
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Sessions.sessionType(Sessions.parse(resource, text).protocol(protocol), "reject");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every session ended complete, or an exception naming what went wrong in the first that did not. */
    static void requireComplete(List<Session> sessions) {
        int bad = 0;
        String first = null;
        for (Session s : sessions) {
            SessionReport r = s.end();
            if (!r.complete()) {
                bad++;
                if (first == null) first = r.render();
            }
        }
        if (bad > 0) throw new IllegalStateException(bad + " of " + sessions.size() + " sessions did not end complete (the session refused messages or stopped early); the first:\n" + first);
    }

    /**
     * Savina's {@code count}: a producer sends {@code messages} one-way increments to a counter,
     * then asks for the total (its reply is protocol message {@code sum}, the future's value).
     * Checked: one session per run, every increment checked at the send and when the counter's
     * process starts.
     */
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
    @State(Scope.Benchmark)
    public static class Count {
        /** Savina's default size. */
        @Param({"1000000"})
        public int messages;

        @Param({"checked", "unchecked"})
        public String mode;

        public static final class Counter extends ActiveObject {
            long count;
            Proc<Void> increment() { count++; return Proc.done(null); }
            Proc<Long> total() { return Proc.done(count); }
        }

        public static final class Producer extends ActiveObject {
            Proc<Long> produce(Counter counter, int n, Session s, Count b) {
                return Proc.defer(() -> {
                    for (int i = 0; i < n; i++) {
                        if (s != null) Sessions.tell(s, b.increment, (Counter c) -> c.increment());
                        else Cogs.tell(counter, "increment", (Counter c) -> c.increment());
                    }
                    Fut<Long> f = s != null
                        ? Sessions.request(s, b.total, b.sum, (Counter c) -> c.total())
                        : Cogs.send(counter, "total", (Counter c) -> c.total());
                    if (s != null && b.incrementAfterTotalForTest) Sessions.tell(s, b.increment, (Counter c) -> c.increment());
                    return Proc.await(f);
                });
            }
        }

        private SessionType st;
        MessageRef increment;
        MessageRef total;
        MessageRef sum;
        private CogRuntime rt;
        private boolean checked;
        private Session session;
        private long answer;
        /** Tests only: the producer sends one increment after the total, which the protocol forbids. */
        boolean incrementAfterTotalForTest;

        @Setup(Level.Trial)
        public void setUp() {
            st = sessionType("savina-count.scr", "Count");
            increment = st.message("P", "C", "increment");
            total = st.message("P", "C", "total");
            sum = st.message("C", "P", "sum");
            checked = mode.equals("checked");
            rt = CogRuntime.create();
        }

        @Benchmark
        public long run() {
            answer = rt.run(() -> {
                Counter counter = Cogs.spawn(Counter::new);
                Producer producer = Cogs.spawn(Producer::new);
                Session s = checked ? Sessions.start(st, Map.of("P", producer, "C", counter)) : null;
                session = s;
                return Proc.await(Cogs.send(producer, "produce", (Producer p) -> p.produce(counter, messages, s, this)));
            });
            return answer;
        }

        /** Not timed: the answer, and the session's report. */
        @TearDown(Level.Invocation)
        public void check() {
            if (checked) requireComplete(List.of(session));
            if (answer != messages) throw new IllegalStateException("the counter counted " + answer + " of " + messages + " increments");
        }

        @TearDown(Level.Trial)
        public void tearDown() { rt.close(); }
    }

    /**
     * Savina's {@code banking}: a teller sends {@code transactions} random transfers between
     * {@code accounts} accounts (sources below destinations, as in Savina and in {@code savina/}),
     * then awaits every one and reads every balance. A transfer: the source takes the amount and
     * awaits the destination's deposit; both returns are replies. Checked: one session of
     * {@code Transfer(T, S, D)} per transfer, started by the teller (so the cost of starting
     * sessions is part of the checked score), four checked messages per transfer; an account
     * plays S and D in many sessions at once.
     */
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
    @State(Scope.Benchmark)
    public static class Banking {
        /** Savina's default sizes. */
        @Param({"1000"})
        public int accounts;

        @Param({"50000"})
        public int transactions;

        @Param({"checked", "unchecked"})
        public String mode;

        static final long INITIAL = 1_000_000_000L;

        public static final class Account extends ActiveObject {
            long money = INITIAL;

            Proc<Void> transfer(long amount, Account to, Session s, Banking b) {
                return Proc.defer(() -> {
                    money -= amount;
                    if (s != null && b.skipDepositForTest) return Proc.done(null);
                    Fut<Void> f = s != null
                        ? Sessions.request(s, b.deposit, b.deposited, (Account d) -> d.deposit(amount), amount)
                        : Cogs.send(to, "deposit", (Account d) -> d.deposit(amount));
                    return Proc.await(f);
                });
            }

            Proc<Void> deposit(long amount) { money += amount; return Proc.done(null); }

            Proc<Long> balance() { return Proc.done(money); }
        }

        public static final class Teller extends ActiveObject {
            Proc<long[]> serve(Account[] accounts, Banking b) {
                return Proc.defer(() -> {
                    SplittableRandom random = new SplittableRandom(123456);
                    List<Fut<Void>> futs = new ArrayList<>(b.transactions);
                    for (int i = 0; i < b.transactions; i++) {
                        int src = random.nextInt((b.accounts / 10) * 8);
                        int dst = src + Math.max(1, random.nextInt(b.accounts - src));
                        long amount = random.nextInt(1000) + 1;
                        Account from = accounts[src];
                        Account to = accounts[dst];
                        if (b.checked) {
                            Session s = Sessions.start(b.st, Map.of("T", this, "S", from, "D", to));
                            b.sessions.add(s);
                            futs.add(Sessions.request(s, b.transfer, b.transferred, (Account a) -> a.transfer(amount, to, s, b), amount));
                        } else {
                            futs.add(Cogs.send(from, "transfer", (Account a) -> a.transfer(amount, to, null, b)));
                        }
                    }
                    List<Fut<Long>> balances = new ArrayList<>(accounts.length);
                    return Proc.foreach(futs, Proc::await)
                        .flatMap(x -> {
                            for (Account a : accounts) balances.add(Cogs.send(a, "balance", Account::balance));
                            return Proc.awaitAll(balances);
                        })
                        .map(bs -> bs.stream().mapToLong(Long::longValue).toArray());
                });
            }
        }

        private SessionType st;
        MessageRef transfer;
        MessageRef deposit;
        MessageRef deposited;
        MessageRef transferred;
        private CogRuntime rt;
        boolean checked;
        final List<Session> sessions = new ArrayList<>();
        private long[] expected;
        private long[] answer;
        /** Tests only: every source account returns without asking its destination to deposit. */
        boolean skipDepositForTest;

        /** The balances after the same transfers, replayed in order without a runtime. */
        static long[] expectedBalances(int accounts, int transactions) {
            long[] bal = new long[accounts];
            java.util.Arrays.fill(bal, INITIAL);
            SplittableRandom random = new SplittableRandom(123456);
            for (int i = 0; i < transactions; i++) {
                int src = random.nextInt((accounts / 10) * 8);
                int dst = src + Math.max(1, random.nextInt(accounts - src));
                long amount = random.nextInt(1000) + 1;
                bal[src] -= amount;
                bal[dst] += amount;
            }
            return bal;
        }

        @Setup(Level.Trial)
        public void setUp() {
            if (accounts < 10) throw new IllegalArgumentException("at least 10 accounts (sources are drawn from the first 80%)");
            st = sessionType("savina-banking.scr", "Transfer");
            transfer = st.message("T", "S", "transfer");
            deposit = st.message("S", "D", "deposit");
            deposited = st.message("D", "S", "deposited");
            transferred = st.message("S", "T", "transferred");
            checked = mode.equals("checked");
            expected = expectedBalances(accounts, transactions);
            rt = CogRuntime.create();
        }

        @Benchmark
        public long[] run() {
            sessions.clear();
            answer = rt.run(() -> {
                Account[] as = new Account[accounts];
                for (int i = 0; i < accounts; i++) as[i] = Cogs.spawn(Account::new);
                Teller teller = Cogs.spawn(Teller::new);
                return Proc.await(Cogs.send(teller, "serve", (Teller t) -> t.serve(as, this)));
            });
            return answer;
        }

        /** Not timed: every balance, and every session's report. */
        @TearDown(Level.Invocation)
        public void check() {
            if (checked) {
                if (sessions.size() != transactions) throw new IllegalStateException(sessions.size() + " sessions for " + transactions + " transfers");
                requireComplete(sessions);
            }
            if (!java.util.Arrays.equals(expected, answer)) throw new IllegalStateException("wrong balances after " + transactions + " transfers");
        }

        @TearDown(Level.Trial)
        public void tearDown() { rt.close(); }

        /** Tests only: the violations the sessions of the last run recorded. */
        List<ProtocolViolation> violationsForTest() {
            List<ProtocolViolation> vs = new ArrayList<>();
            for (Session s : sessions) vs.addAll(scala.jdk.javaapi.CollectionConverters.asJava(s.violations()));
            return vs;
        }
    }
}
