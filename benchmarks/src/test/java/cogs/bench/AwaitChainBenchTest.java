package cogs.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every variant of the Listing 5 benchmark, at a small N, computes the right result, twice in a row. */
class AwaitChainBenchTest {

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "thread-per-call", "executor-per-object", "shared-pool", "virtual-threads", "pekko", "async", "cogs-scala", "cogs-frames"})
    void everyCallRunsItsComputeOnceAndReturnsOne(String variant) throws Exception {
        int n = 300;
        Workload w;
        try {
            w = AwaitChainBench.workload(variant, n);
        } catch (Skipped skipped) {
            Assumptions.abort(skipped.getMessage());
            return;
        }
        try (w) {
            for (int run = 0; run < 2; run++) {
                w.prepare();
                assertEquals(n, w.run(), variant + ": sum of the results of run " + run);
                w.check(); // the counter is exactly n
            }
        }
    }

    @Test
    void theVariantsAreTheOnesTheBenchmarkDeclares() {
        assertEquals(10, AwaitChainBench.VARIANTS.size());
        assertThrows(IllegalArgumentException.class, () -> AwaitChainBench.workload("green-threads", 10));
    }

    @Test
    void platformThreadVariantsAreSkippedBeyondTheMachinesLimit() {
        for (String v : new String[] {"thread-per-call", "executor-per-object", "shared-pool"}) {
            Skipped s = assertThrows(Skipped.class, () -> AwaitChainBench.workload(v, 500_000_000));
            assertTrue(s.getMessage().startsWith("SKIPPED: " + v + " would need"), s.getMessage());
        }
    }

    @Test
    void virtualThreadsAreSkippedBeforeJdk21() {
        if (Runtime.version().feature() >= 21) {
            AwaitChainBench.workload("virtual-threads", 10).close();
        } else {
            Skipped s = assertThrows(Skipped.class, () -> AwaitChainBench.workload("virtual-threads", 10));
            assertTrue(s.getMessage().contains("JDK 21"), s.getMessage());
        }
    }

    @Test
    void aWrongResultFailsTheCheck() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Workload.expect("counter", 10, 9));
        assertEquals("counter is 9, expected 10", e.getMessage());
    }
}
