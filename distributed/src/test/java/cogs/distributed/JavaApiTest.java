package cogs.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import scala.collection.immutable.Vector;

/** The module as a Java user writes it: register, create, send, join. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JavaApiTest {

    public static final class Counter extends ActiveObject {
        private int n;
        public Counter(int start) { n = start; }
        public Proc<Integer> add(int k) { return Proc.delay(() -> { n += k; return n; }); }
    }

    @Test
    void javaCallersCreateAndCallRemoteObjects() throws Exception {
        Vector<Node> nodes = TestNodes.start(2, "");
        try {
            Node a = nodes.apply(0);
            Node b = nodes.apply(1);
            CogRuntime rtB = CogRuntime.of(b.runtime());
            b.register("jcounter", (List<Object> args) -> rtB.spawn(() -> new Counter((Integer) args.get(0))));
            assertEquals(2, a.memberList().size());
            RemoteRef ref = a.create(b.address(), "jcounter", 40).join(30, TimeUnit.SECONDS);
            Fut<Integer> f = ref.send("add", 2);
            assertEquals(42, f.join(30, TimeUnit.SECONDS));
            // One-way calls from Java (varargs), then a call that starts after them.
            ref.tell("add", 3);
            ref.tell("add", 5);
            Fut<Integer> g = ref.send("add", 0);
            assertEquals(50, g.join(30, TimeUnit.SECONDS));
        } finally {
            TestNodes.closeAll(nodes);
        }
    }
}
