package cogs.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;

/**
 * Pekko actor systems configured as savina/ configures them (cogs.savina.PekkoSupport), so that the
 * two sets of numbers are comparable: a fork-join dispatcher with exactly as many threads as the
 * Cogs runtime has by default (one per core), the single-consumer unbounded mailbox (Pekko's
 * fastest), Pekko's default throughput (5 messages per actor per turn; Cogs's default batch is 32
 * slices), and quiet logging.
 *
 * <p>System properties override this, as they override the Cogs runtime's configuration: e.g.
 * {@code -Dpekko.actor.default-dispatcher.throughput=32} and {@code -Dcogs.throughput=5} (with
 * JMH: {@code -jvmArgsAppend "-D..."}).
 */
final class PekkoSystems {
    private PekkoSystems() {}

    static ActorSystem create(String name) {
        int threads = Runtime.getRuntime().availableProcessors();
        Config config = ConfigFactory.parseString(String.join("\n",
                "pekko {",
                "  loglevel = WARNING",
                "  stdout-loglevel = WARNING",
                "  log-dead-letters = off",
                "  log-dead-letters-during-shutdown = off",
                "  jvm-exit-on-fatal-error = off",
                "  actor {",
                "    default-dispatcher {",
                "      executor = \"fork-join-executor\"",
                "      fork-join-executor {",
                "        parallelism-min = " + threads,
                "        parallelism-max = " + threads,
                "        parallelism-factor = 1.0",
                "      }",
                "    }",
                "    default-mailbox {",
                "      mailbox-type = \"org.apache.pekko.dispatch.SingleConsumerOnlyUnboundedMailbox\"",
                "    }",
                "  }",
                "}"));
        // load(): system properties first, then this, then the reference.conf of Pekko.
        return ActorSystem.create(name, ConfigFactory.load(config));
    }

    static void terminate(ActorSystem system) {
        try {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("pekko: the actor system did not terminate in 30 s: " + e);
        }
    }

    /** Time limit of the asks the workloads make outside the measured part. */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(60);
}
