package cogs.javaapi;

import static org.junit.jupiter.api.Assertions.*;

import cogs.javadsl.*;
import cogs.runtime.Promise;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, item 7: the checked exceptions of the Java API are declared, so that Java code can
 * catch them by name (javac rejects a catch of a checked exception that nothing in the try
 * declares, so this file compiling is half the test): {@code Fut.join(long, TimeUnit)} throws
 * {@code TimeoutException}, {@code CogRuntime.awaitQuiescence(long, TimeUnit)} throws
 * {@code InterruptedException}. A pending promise keeps the runtime from being quiescent, so the
 * waits cannot end as a deadlock instead.
 */
class CheckedExceptionsTest {

    @Test
    void joinWithATimeLimitThrowsACatchableTimeoutException() {
        try (CogRuntime rt = CogRuntime.create()) {
            Promise<Integer> late = Promise.apply(rt.asScala(), "a reply that comes late");
            Fut<Integer> f = late.future();
            String outcome;
            try {
                outcome = "joined " + f.join(10, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                outcome = "timed out: " + e.getMessage();
            }
            assertEquals("timed out: a reply that comes late did not resolve in time", outcome);
            late.success(1);
            try {
                assertEquals(1, f.join(30, TimeUnit.SECONDS));
            } catch (TimeoutException e) {
                fail("the promise was completed: " + e);
            }
        }
    }

    @Test
    void awaitQuiescenceWithATimeLimitThrowsACatchableInterruptedException() {
        try (CogRuntime rt = CogRuntime.create()) {
            Promise<Integer> pending = Promise.apply(rt.asScala(), "outstanding work");
            Thread.currentThread().interrupt();
            boolean interrupted;
            try {
                rt.awaitQuiescence(30, TimeUnit.SECONDS);
                interrupted = false;
            } catch (InterruptedException e) {
                interrupted = true;
            }
            assertTrue(interrupted, "an interrupted wait throws InterruptedException");
            assertFalse(Thread.interrupted(), "the interrupt was consumed by the throw");
            pending.success(0);
        }
    }
}
