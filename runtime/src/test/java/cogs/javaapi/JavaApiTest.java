package cogs.javaapi;

import static org.junit.jupiter.api.Assertions.*;

import cogs.runtime.*;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Java API, used as a Java programmer would, from outside the runtime's package. */
class JavaApiTest {
    interface Account extends Active {
        Proc<Void> deposit(int n);
        Proc<Integer> withdraw(int n);
        Proc<Integer> balance();
    }

    static final class AccountImpl extends ActiveObject implements Account {
        private int balance;
        public Proc<Void> deposit(int n) { return Proc.supply(() -> { balance += n; return null; }); }
        public Proc<Integer> withdraw(int n) {
            return Proc.await(Guard.of(() -> balance >= n)).thenApply(u -> balance -= n);
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
                .then(left -> Proc.await(Cogs.send(to, "deposit", a -> a.deposit(n))).thenApply(x -> left));
        }
    }

    private final CogRuntime rt = CogRuntime.create();

    @AfterEach
    void close() { rt.close(); }

    @Test
    void theReadmeExampleWorks() {
        Account acc = rt.spawnWith(AccountImpl::new);
        Fut<Integer> left = Cogs.send(acc, "withdraw", a -> a.withdraw(30));
        Cogs.send(acc, "deposit", a -> a.deposit(50));
        assertEquals(20, left.join());
    }

    @Test
    void oneWayCallsFromJava() {
        Account acc = rt.spawnWith(AccountImpl::new);
        for (int i = 0; i < 10; i++) Cogs.tell(acc, "deposit", a -> a.deposit(5));
        Cogs.tell(acc, "withdraw", a -> a.withdraw(20));
        assertEquals(30, Cogs.send(acc, "balance", Account::balance).join());
    }

    @Test
    void transfersAwaitFundsAndPreserveTheTotal() {
        Account a = rt.spawnWith(AccountImpl::new);
        Account b = rt.spawnWith(AccountImpl::new);
        Teller t = rt.spawnWith(TellerImpl::new);
        List<Fut<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 100; i++) fs.add(Cogs.send(t, "transfer", x -> x.transfer(a, b, 1)));
        Cogs.send(a, "deposit", x -> x.deposit(100));
        for (Fut<Integer> f : fs) f.join();
        assertEquals(0, Cogs.send(a, "balance", Account::balance).join());
        assertEquals(100, Cogs.send(b, "balance", Account::balance).join());
    }

    @Test
    void mainBlockLoopsAndFailures() {
        Account acc = rt.spawnWith(AccountImpl::new);
        int[] i = {0};
        Integer r = rt.runMain(() ->
            Proc.whileLoop(() -> i[0] < 10, () -> Proc.await(Cogs.send(acc, "deposit", a -> a.deposit(1))).thenApply(x -> { i[0]++; return null; }))
                .then(u -> Proc.await(Cogs.send(acc, "balance", Account::balance))));
        assertEquals(10, r);

        CallFailedException e = assertThrows(CallFailedException.class,
            () -> rt.runMain(() -> Proc.supply(() -> 1 / 0)));
        assertTrue(e.getMessage().contains("main"), e.getMessage());
        assertInstanceOf(ArithmeticException.class, e.getCause());
    }

    @Test
    void deadlocksAreReported() {
        Account acc = rt.spawnWith(AccountImpl::new);
        DeadlockException e = assertThrows(DeadlockException.class,
            () -> Cogs.send(acc, "withdraw", a -> a.withdraw(1)).join());
        assertTrue(e.waitingProcesses().stream().anyMatch(s -> s.contains("withdraw")), e.getMessage());
    }
}
