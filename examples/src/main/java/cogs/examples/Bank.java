package cogs.examples;

import cogs.javadsl.Active;
import cogs.javadsl.ActiveObject;
import cogs.runtime.CallFailedException;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Cogs;
import cogs.runtime.DeadlockException;
import cogs.javadsl.Fut;
import cogs.javadsl.Guard;
import cogs.javadsl.Proc;
import java.util.ArrayList;
import java.util.List;

/**
 * Bank accounts as active objects, written in plain Java.
 *
 * <p>Accounts stand in a ring: customer {@code i} pays account {@code i + 1} from account {@code i},
 * again and again. Only some accounts hold money at the start, so most withdrawals have to wait:
 * {@code withdraw} awaits the condition "balance covers the amount", which suspends the call and
 * leaves the account free to take the deposit that will cover it. A transfer is two asynchronous
 * calls, each awaited: first the withdrawal, then the deposit.
 *
 * <p>Money is neither created nor lost: the total is the same at the end as at the start, and
 * since every account pays out as much as it receives, every account ends with its opening
 * balance. (The ring cannot deadlock: an account whose payer has finished can only be owed
 * money, never wait for it.)
 */
public final class Bank {

    /** A bank account. Its methods run one at a time, in the account's own COG. */
    public interface Account extends Active {
        /** Add {@code amount}; returns the new balance. */
        Proc<Integer> deposit(int amount);

        /** Take {@code amount} out, waiting until the balance covers it; returns the new balance. */
        Proc<Integer> withdraw(int amount);

        Proc<Integer> balance();

        /** How many withdrawals found too little money and had to wait. */
        Proc<Integer> waitedWithdrawals();
    }

    public static final class AccountImpl extends ActiveObject implements Account {
        private final String name;
        private int balance;
        private int waited;

        public AccountImpl(String name, int openingBalance) {
            this.name = name;
            this.balance = openingBalance;
        }

        @Override
        public Proc<Integer> deposit(int amount) {
            return Proc.delay(() -> {
                balance += amount;
                return balance;
            });
        }

        @Override
        public Proc<Integer> withdraw(int amount) {
            if (balance < amount) {
                waited++;
            }
            // ABS: await balance >= amount; balance = balance - amount; return balance;
            return Proc.await(Guard.of("funds in " + name + " cover " + amount, () -> balance >= amount))
                    .map(ready -> {
                        balance -= amount;
                        return balance;
                    });
        }

        @Override
        public Proc<Integer> balance() {
            return Proc.delay(() -> balance);
        }

        @Override
        public Proc<Integer> waitedWithdrawals() {
            return Proc.delay(() -> waited);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Someone who pays from one account into another. */
    public interface Customer extends Active {
        /** Make {@code times} transfers of {@code amount}, one after the other; returns how many were made. */
        Proc<Integer> payRepeatedly(int times, int amount);
    }

    public static final class CustomerImpl extends ActiveObject implements Customer {
        private final String name;
        private final Account from;
        private final Account to;

        public CustomerImpl(String name, Account from, Account to) {
            this.name = name;
            this.from = from;
            this.to = to;
        }

        @Override
        public Proc<Integer> payRepeatedly(int times, int amount) {
            return payFrom(0, times, amount);
        }

        /** The loop: transfer number {@code done}, then the rest. Each step waits for its transfer. */
        private Proc<Integer> payFrom(int done, int times, int amount) {
            if (done == times) {
                return Proc.done(done);
            }
            return transfer(amount).flatMap(newBalance -> payFrom(done + 1, times, amount));
        }

        /**
         * ABS: {@code Fut<Int> w = from!withdraw(amount); await w?; Fut<Int> d = to!deposit(amount); await d?;}
         * Returns the balance of {@code to} after the deposit.
         */
        private Proc<Integer> transfer(int amount) {
            Fut<Integer> withdrawn = Cogs.send(from, "withdraw", account -> account.withdraw(amount));
            return Proc.await(withdrawn).flatMap(fromBalance -> {
                Fut<Integer> deposited = Cogs.send(to, "deposit", account -> account.deposit(amount));
                return Proc.await(deposited);
            });
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** What a run of the bank saw, and which checks failed (none if it worked). */
    public static final class Result {
        private final int accounts;
        private final int transfersPerCustomer;
        private final int amount;
        private final long transfersMade;
        private final long totalBefore;
        private final long totalAfter;
        private final long waitedWithdrawals;
        private final long elapsedNanos;
        private final List<String> problems;

        Result(int accounts, int transfersPerCustomer, int amount, long transfersMade, long totalBefore,
               long totalAfter, long waitedWithdrawals, long elapsedNanos, List<String> problems) {
            this.accounts = accounts;
            this.transfersPerCustomer = transfersPerCustomer;
            this.amount = amount;
            this.transfersMade = transfersMade;
            this.totalBefore = totalBefore;
            this.totalAfter = totalAfter;
            this.waitedWithdrawals = waitedWithdrawals;
            this.elapsedNanos = elapsedNanos;
            this.problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty();
        }

        public List<String> problems() {
            return problems;
        }

        public long transfersMade() {
            return transfersMade;
        }

        public long expectedTransfers() {
            return (long) accounts * transfersPerCustomer;
        }

        public long totalBefore() {
            return totalBefore;
        }

        public long totalAfter() {
            return totalAfter;
        }

        public long waitedWithdrawals() {
            return waitedWithdrawals;
        }

        public long elapsedNanos() {
            return elapsedNanos;
        }

        public String report() {
            return String.format(
                    "bank: %d accounts in a ring, %d transfers of %d made (%d expected), total %d before and %d after, "
                            + "%d withdrawals waited for funds, time %d ms",
                    accounts, transfersMade, amount, expectedTransfers(), totalBefore, totalAfter,
                    waitedWithdrawals, elapsedNanos / 1_000_000);
        }
    }

    /** The opening balance of account {@code i}: every third account starts with two transfers' worth. */
    static int openingBalance(int i, int amount) {
        return i % 3 == 0 ? 2 * amount : 0;
    }

    /**
     * Open {@code accounts} accounts, let one customer per account make {@code transfers} transfers
     * of {@code amount} to the next account in the ring, and check the books.
     */
    public static Result simulate(CogRuntime rt, int accounts, int transfers, int amount) {
        if (accounts < 2 || transfers < 0 || amount <= 0) {
            throw new IllegalArgumentException("need at least 2 accounts, transfers >= 0 and amount > 0");
        }
        long start = System.nanoTime();

        // Each account and each customer in a COG of its own.
        List<Account> ring = new ArrayList<>();
        long totalBefore = 0;
        for (int i = 0; i < accounts; i++) {
            int opening = openingBalance(i, amount);
            String name = "account-" + i;
            ring.add(rt.spawn(() -> new AccountImpl(name, opening)));
            totalBefore += opening;
        }

        List<Fut<Integer>> payments = new ArrayList<>();
        for (int i = 0; i < accounts; i++) {
            Account from = ring.get(i);
            Account to = ring.get((i + 1) % accounts);
            String name = "customer-" + i;
            Customer customer = rt.spawn(() -> new CustomerImpl(name, from, to));
            payments.add(Cogs.send(customer, "payRepeatedly", c -> c.payRepeatedly(transfers, amount)));
        }

        // This thread is outside every COG: join() blocks it until the future is resolved.
        long transfersMade = 0;
        for (Fut<Integer> payment : payments) {
            transfersMade += payment.join();
        }

        List<String> problems = new ArrayList<>();
        long totalAfter = 0;
        long waited = 0;
        for (int i = 0; i < accounts; i++) {
            Account account = ring.get(i);
            int balance = Cogs.send(account, "balance", Account::balance).join();
            totalAfter += balance;
            waited += Cogs.send(account, "waitedWithdrawals", Account::waitedWithdrawals).join();
            if (balance != openingBalance(i, amount)) {
                problems.add(account + " ends with " + balance + ", expected its opening balance "
                        + openingBalance(i, amount) + " (it paid and received " + transfers + " transfers)");
            }
        }
        long elapsed = System.nanoTime() - start;

        if (transfersMade != (long) accounts * transfers) {
            problems.add(0, transfersMade + " transfers were made, expected " + (long) accounts * transfers);
        }
        if (totalAfter != totalBefore) {
            problems.add(0, "the total changed from " + totalBefore + " to " + totalAfter);
        }
        return new Result(accounts, transfers, amount, transfersMade, totalBefore, totalAfter, waited, elapsed,
                problems);
    }

    private static final String USAGE = "usage: examples/run bank [ACCOUNTS=10] [TRANSFERS_PER_CUSTOMER=100000] [AMOUNT=25]";

    public static void main(String[] args) {
        int accounts;
        int transfers;
        int amount;
        try {
            if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
                System.out.println(USAGE);
                return;
            }
            accounts = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 10;
            transfers = args.length > 1 ? Integer.parseInt(args[1].replace("_", "")) : 100_000;
            amount = args.length > 2 ? Integer.parseInt(args[2].replace("_", "")) : 25;
            if (accounts < 2 || transfers < 1 || amount < 1) {
                throw new NumberFormatException("ACCOUNTS must be at least 2, TRANSFERS and AMOUNT at least 1");
            }
        } catch (NumberFormatException e) {
            System.err.println("bank: bad arguments: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }

        int status;
        CogRuntime rt = CogRuntime.create();
        try {
            Result result = simulate(rt, accounts, transfers, amount);
            System.out.println(result.report());
            if (result.ok()) {
                System.out.println("bank: OK");
                status = 0;
            } else {
                for (String problem : result.problems()) {
                    System.err.println("bank: CHECK FAILED: " + problem);
                }
                status = 1;
            }
        } catch (DeadlockException | CallFailedException e) {
            System.err.println("bank: FAILED: " + e.getMessage());
            status = 1;
        } finally {
            rt.close();
        }
        System.exit(status);
    }
}
