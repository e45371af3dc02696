package cogs.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cogs.session.monitor.ProtocolViolation;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Savina benchmarks written as protocols, at small sizes: both variants give the right
 * answer twice in a row (fresh objects and sessions each run), the checked runs end with every
 * session complete, and a deliberately wrong message is caught by its session.
 */
class SavinaSessionBenchTest {

    @ParameterizedTest
    @ValueSource(strings = {"checked", "unchecked"})
    void countCountsEveryIncrement(String mode) {
        SavinaSessionBench.Count b = new SavinaSessionBench.Count();
        b.messages = 2000;
        b.mode = mode;
        b.setUp();
        try {
            for (int i = 0; i < 2; i++) {
                assertEquals(2000, b.run());
                b.check(); // throws if the session did not end complete
            }
        } finally {
            b.tearDown();
        }
    }

    @Test
    void countCatchesAnIncrementAfterTheTotal() {
        SavinaSessionBench.Count b = new SavinaSessionBench.Count();
        b.messages = 100;
        b.mode = "checked";
        b.setUp();
        try {
            b.incrementAfterTotalForTest = true;
            assertEquals(100, b.run()); // refused at the send: the counter never counts it
            IllegalStateException e = assertThrows(IllegalStateException.class, b::check);
            assertTrue(e.getMessage().contains("role P in state 1 sent C!increment(); expected C?sum(Long)"), e.getMessage());
        } finally {
            b.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"checked", "unchecked"})
    void bankingBalancesAreExact(String mode) {
        SavinaSessionBench.Banking b = new SavinaSessionBench.Banking();
        b.accounts = 20;
        b.transactions = 500;
        b.mode = mode;
        b.setUp();
        try {
            for (int i = 0; i < 2; i++) {
                long[] balances = b.run();
                assertEquals(20, balances.length);
                assertEquals(20 * SavinaSessionBench.Banking.INITIAL, java.util.Arrays.stream(balances).sum());
                b.check(); // every balance against the replay; checked: 500 sessions, each complete
                if (mode.equals("checked")) assertTrue(b.violationsForTest().isEmpty());
            }
        } finally {
            b.tearDown();
        }
    }

    /** The check above can fail: sources that skip the deposit are refused at their reply. */
    @Test
    void bankingCatchesATransferWithoutDeposit() {
        SavinaSessionBench.Banking b = new SavinaSessionBench.Banking();
        b.accounts = 20;
        b.transactions = 50;
        b.mode = "checked";
        b.setUp();
        try {
            b.skipDepositForTest = true;
            // The teller's await of a refused reply fails the run, with the violation as the cause.
            Throwable e0 = assertThrows(cogs.runtime.CallFailedException.class, b::run);
            while (e0.getCause() != null) e0 = e0.getCause();
            assertTrue(e0 instanceof ProtocolViolation, String.valueOf(e0));
            List<ProtocolViolation> vs = b.violationsForTest();
            assertEquals(50, vs.size(), vs.toString());
            for (ProtocolViolation v : vs)
                assertTrue(v.getMessage().contains("role S in state 1 sent T!transferred() (the reply); expected D!deposit(Long)"), v.getMessage());
            IllegalStateException e = assertThrows(IllegalStateException.class, b::check);
            assertTrue(e.getMessage().startsWith("50 of 50 sessions did not end complete"), e.getMessage());
        } finally {
            b.tearDown();
        }
    }
}
