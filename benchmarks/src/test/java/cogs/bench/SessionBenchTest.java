package cogs.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The session benchmark's bodies at their real sizes, twice each: every message arrives, the
 * session accepts all of them (teardown would throw otherwise), and a broken cycle is caught.
 */
class SessionBenchTest {

    @ParameterizedTest
    @CsvSource({"10,checked", "100,checked", "1000,checked", "10,unchecked"})
    void everyMessageArrivesAndIsAccepted(int states, String mode) {
        SessionBench b = new SessionBench();
        b.states = states;
        b.mode = mode;
        b.setUp();
        try {
            assertEquals(SessionBench.MESSAGES, b.messages());
            assertEquals(2L * SessionBench.MESSAGES, b.messages());
        } finally {
            b.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"checked", "unchecked"})
    void pingPongRoundsAreAnswered(String mode) {
        SessionBench.PingPong b = new SessionBench.PingPong();
        b.mode = mode;
        b.setUp();
        try {
            long n = SessionBench.PingPong.ROUNDS;
            assertEquals(n * (n - 1) / 2, b.rounds());
        } finally {
            b.tearDown();
        }
    }

    /** The teardown check can fail: a cycle of 10 driven as if it had 11 messages is refused. */
    @ParameterizedTest
    @ValueSource(ints = {10})
    void aRefusedMessageFailsTheTeardown(int states) {
        SessionBench b = new SessionBench();
        b.states = states;
        b.mode = "checked";
        b.setUp();
        b.breakCycleForTest();
        b.messages();
        IllegalStateException e = assertThrows(IllegalStateException.class, b::tearDown);
        assertTrue(e.getMessage().contains("the session refused messages"), e.getMessage());
    }
}
