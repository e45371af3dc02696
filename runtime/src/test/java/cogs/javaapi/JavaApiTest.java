package cogs.javaapi;

import static org.junit.jupiter.api.Assertions.*;

import cogs.javadsl.*;
import cogs.runtime.CallFailedException;
import cogs.runtime.DeadlockException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Java DSL ({@code cogs.javadsl}), used as a Java programmer would, from outside the runtime's packages. */
class JavaApiTest {
    interface Account extends Active {
        Proc<Void> deposit(int n);
        Proc<Integer> withdraw(int n);
        Proc<Integer> balance();
    }

    static final class AccountImpl extends ActiveObject implements Account {
        private int balance;
        public Proc<Void> deposit(int n) { return Proc.delay(() -> { balance += n; return null; }); }
        public Proc<Integer> withdraw(int n) {
            return Proc.await(Guard.of(() -> balance >= n)).map(u -> balance -= n);
        }
        public Proc<Integer> balance() { return Proc.done(balance); }
    }

    interface Teller extends Active {
        Proc<Integer> transfer(Account from, Account to, int n);
    }

    static final class TellerImpl extends ActiveObject implements Teller {
        public Proc<Integer> transfer(Account from, Account to, int n) {
            Fut<Integer> taken = Cogs.send(from, "withdraw", a -> a.withdraw(n));
            return Proc.await(taken)
                .flatMap(left -> Proc.await(Cogs.send(to, "deposit", a -> a.deposit(n))).map(x -> left));
        }
    }

    private final CogRuntime rt = CogRuntime.create();

    @AfterEach
    void close() { rt.close(); }

    @Test
    void theReadmeExampleWorks() {
        Account acc = rt.spawn(AccountImpl::new);
        Fut<Integer> left = Cogs.send(acc, "withdraw", a -> a.withdraw(30));
        Cogs.send(acc, "deposit", a -> a.deposit(50));
        assertEquals(20, left.join());
    }

    @Test
    void oneWayCallsFromJava() {
        Account acc = rt.spawn(AccountImpl::new);
        for (int i = 0; i < 10; i++) Cogs.tell(acc, "deposit", a -> a.deposit(5));
        Cogs.tell(acc, "withdraw", a -> a.withdraw(20));
        assertEquals(30, Cogs.send(acc, "balance", Account::balance).join());
    }

    @Test
    void transfersAwaitFundsAndPreserveTheTotal() {
        Account a = rt.spawn(AccountImpl::new);
        Account b = rt.spawn(AccountImpl::new);
        Teller t = rt.spawn(TellerImpl::new);
        List<Fut<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 100; i++) fs.add(Cogs.send(t, "transfer", x -> x.transfer(a, b, 1)));
        Cogs.send(a, "deposit", x -> x.deposit(100));
        for (Fut<Integer> f : fs) f.join();
        assertEquals(0, Cogs.send(a, "balance", Account::balance).join());
        assertEquals(100, Cogs.send(b, "balance", Account::balance).join());
    }

    @Test
    void mainBlockLoopsAndFailures() {
        Account acc = rt.spawn(AccountImpl::new);
        int[] i = {0};
        Integer r = rt.run(() ->
            Proc.loopWhile(() -> i[0] < 10, () -> Proc.await(Cogs.send(acc, "deposit", a -> a.deposit(1))).map(x -> { i[0]++; return null; }))
                .flatMap(u -> Proc.await(Cogs.send(acc, "balance", Account::balance))));
        assertEquals(10, r);

        CallFailedException e = assertThrows(CallFailedException.class,
            () -> rt.run(() -> Proc.delay(() -> 1 / 0)));
        assertTrue(e.getMessage().contains("main"), e.getMessage());
        assertInstanceOf(ArithmeticException.class, e.getCause());
    }

    @Test
    void deadlocksAreReported() {
        Account acc = rt.spawn(AccountImpl::new);
        DeadlockException e = assertThrows(DeadlockException.class,
            () -> Cogs.send(acc, "withdraw", a -> a.withdraw(1)).join());
        assertTrue(e.waitingProcesses().stream().anyMatch(s -> s.contains("withdraw")), e.getMessage());
    }

    interface Cell extends Active {
        Proc<Integer> read();
        Proc<Integer> countdown(int n);
        Proc<Integer> guarded(int n);
    }

    static final class CellImpl extends ActiveObject implements Cell {
        private int value = 7;
        public Proc<Integer> read() { return Proc.done(value); }
        // synchronous self-calls a thousand deep, each deferred: the recursion is data, not JVM stack
        public Proc<Integer> countdown(int n) {
            return n == 0 ? Proc.done(0) : Proc.defer(() -> Proc.sync(this, "countdown", c -> c.countdown(n - 1)).map(r -> r + 1));
        }
        // try/catch/finally in the Java spelling: the handler sees the raised exception, the finalizer runs once
        public Proc<Integer> guarded(int n) {
            int[] finalized = {0};
            return Proc.<Integer>raise(new IllegalArgumentException("no " + n))
                .recoverWith(e -> Proc.done(e.getMessage().length()))
                .guarantee(() -> Proc.delay(() -> finalized[0]++))
                .flatMap(len -> Proc.done(len * 100 + finalized[0]));
        }
    }

    @Test
    void javaSpellingsOfTheCombinators() {
        Cell c = rt.spawn(CellImpl::new);
        assertEquals(1000, Cogs.send(c, "countdown", x -> x.countdown(1000)).join());
        assertEquals(401, Cogs.send(c, "guarded", x -> x.guarded(5)).join());
        int[] n = {0};
        List<Integer> all = rt.run(() -> {
            List<Fut<Integer>> fs = new ArrayList<>();
            for (int i = 0; i < 3; i++) fs.add(Cogs.send(c, "read", Cell::read));
            // bodies and finalizers whose processes end with a value (dropped): no cast to Scala's unit
            return Proc.repeat(4, i -> Proc.delay(() -> n[0] += i))
                .andThen(Proc.foreach(List.of(10, 20), x -> Proc.delay(() -> n[0] += x)))
                .andThen(Proc.loopWhile(() -> n[0] < 40, () -> Proc.delay(() -> ++n[0])))
                .andThen(Proc.awaitResolved(fs.get(0)))
                .andThen(Proc.await(Guard.and(Guard.future(fs.get(1)), Guard.of("counted", () -> n[0] == 40))))
                .andThen(Proc.await(Guard.or(Guard.of(() -> false), Guard.future(fs.get(2)))))
                .andThen(Proc.awaitAll(fs));
        });
        assertEquals(List.of(7, 7, 7), all);
        assertEquals(40, n[0]); // 0+1+2+3, +10+20, then counted up to 40
        assertEquals(9, (int) rt.run(() -> Proc.<Integer>raise(new IllegalStateException()).recover(e -> 9)));
    }

    @Test
    void aProcessFromAnotherImplementationIsRejectedClearly() {
        Proc<Integer> foreign = new Proc<>() {
            public <B> Proc<B> flatMap(java.util.function.Function<? super Integer, ? extends Proc<B>> f) { return null; }
            public <B> Proc<B> map(java.util.function.Function<? super Integer, ? extends B> f) { return null; }
            public <B> Proc<B> andThen(Proc<B> next) { return null; }
            public Proc<Integer> recoverWith(java.util.function.Function<? super Throwable, ? extends Proc<Integer>> h) { return null; }
            public Proc<Integer> recover(java.util.function.Function<? super Throwable, ? extends Integer> h) { return null; }
            public Proc<Integer> guarantee(java.util.function.Supplier<? extends Proc<?>> f) { return null; }
        };
        CallFailedException e = assertThrows(CallFailedException.class, () -> rt.run(() -> foreign));
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("only processes built with Proc's factories"), e.getCause().getMessage());
    }

    interface Job extends Active {
        Proc<cogs.runtime.SimTime> work(long cost);
        Proc<cogs.runtime.SimTime> nap(long units);
    }

    static final class JobImpl extends ActiveObject implements Job {
        public Proc<cogs.runtime.SimTime> work(long cost) { return Proc.cost(cogs.runtime.SimTime.of(cost)).map(u -> Cogs.now()); }
        public Proc<cogs.runtime.SimTime> nap(long units) {
            return Proc.awaitDuration(cogs.runtime.SimTime.of(units), cogs.runtime.SimTime.of(units)).map(u -> Cogs.now());
        }
    }

    @Test
    void timedSimulationOnADeploymentComponent() {
        cogs.runtime.DeploymentComponent server = rt.deploymentComponent("server", java.util.Map.of("Speed", cogs.runtime.SimTime.of(3)));
        Job job = rt.spawnOn(server, JobImpl::new);
        Job other = rt.spawn(JobImpl::new);
        cogs.runtime.SimTime done = rt.run(() -> {
            Fut<cogs.runtime.SimTime> napped = Cogs.send(other, "nap", j -> j.nap(10));
            return Proc.await(Cogs.send(job, "work", j -> j.work(7))).flatMap(t -> Proc.await(napped).map(n -> t));
        });
        assertEquals(cogs.runtime.SimTime.of(2), done, "7 units at speed 3: 3 + 3 + 1");
        assertEquals(cogs.runtime.SimTime.of(10), rt.now());
        assertThrows(IllegalArgumentException.class, () -> rt.deploymentComponent("x", java.util.Map.of("Speeed", cogs.runtime.SimTime.of(1))));
    }
}
