package cogs.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Cogs-against-Pekko benchmarks, at small sizes: each computes the right result on both, twice in a row. */
class CogsVsPekkoBenchTest {

    private static void twice(Workload w, long expected) throws Exception {
        try (w) {
            for (int run = 0; run < 2; run++) {
                w.prepare();
                assertEquals(expected, w.run(), "run " + run);
                w.check();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "pekko"})
    void throughputFromOneSender(String runtime) throws Exception {
        twice(ThroughputBench.workload(runtime, 1, 20_000), 20_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "pekko"})
    void throughputFromManySenders(String runtime) throws Exception {
        twice(ThroughputBench.workload(runtime, 8, 20_000), 20_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "pekko"})
    void futureWithWaitersOnOneObject(String runtime) throws Exception {
        twice(FutureBench.workload(runtime, 500, 1), 500);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "pekko"})
    void futureWithWaitersOnManyObjects(String runtime) throws Exception {
        twice(FutureBench.workload(runtime, 500, 50), 500);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "pekko"})
    void conditionWakesEveryWaiter(String runtime) throws Exception {
        twice(ConditionBench.WakeAll.workload(runtime, 500), 500);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "pekko"})
    void conditionTurnsRunInOrder(String runtime) throws Exception {
        twice(ConditionBench.Turns.workload(runtime, 100), 100);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cogs", "pekko"})
    void creationCallsEveryObject(String runtime) throws Exception {
        twice(CreationBench.workload(runtime, 1_000), CreationBench.expectedSum(1_000));
    }
}
