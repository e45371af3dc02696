package cogs.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The timed benchmark at a small size: every variant takes every step and ends at the expected simulated time, twice. */
class TimedBenchTest {

    @ParameterizedTest
    @ValueSource(strings = {"await", "suspend", "cost"})
    void everyObjectTakesEveryStep(String variant) throws Exception {
        try (Workload w = TimedBench.workload(variant, 200, 30)) {
            for (int run = 0; run < 2; run++) {
                w.prepare();
                assertEquals(200L * 30, w.run(), "run " + run);
                w.check();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sleep", ""})
    void anUnknownVariantIsRejected(String variant) {
        assertThrows(IllegalArgumentException.class, () -> TimedBench.workload(variant, 100, 1));
    }
}
