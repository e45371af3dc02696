package cogs.distributed

import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance, Timeout}

/** Three nodes in this JVM: a reference made by node A to an object on B is used by node C. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RefPassingTest {
  private var nodes: Vector[Node] = _
  @BeforeAll def up(): Unit = nodes = TestNodes.start(3)
  @AfterAll def down(): Unit = TestNodes.closeAll(nodes)
  private def j[A](f: cogs.runtime.Fut[A]): A = f.join(30, TimeUnit.SECONDS)

  @Test def aReferenceWorksOnAThirdNode(): Unit = {
    val Vector(a, b, c) = nodes
    val store = j(a.create(b.address, "store", 10))
    val relay = j(a.create(c.address, "relay"))
    assertEquals(15, j(relay.send[Int]("addVia", store, 5)))   // C calls B through A's reference
    assertEquals(15, j(store.send[Int]("total")))              // the same object, seen from A
    val back = j(relay.send[RemoteRef]("same", store))         // a reference as a result
    assertEquals(store, back)
    assertEquals(b.address, back.node)
    assertEquals(16, j(back.send[Int]("add", 1)))
  }

  @Test def anExportedLocalObjectIsCalledBack(): Unit = {
    val Vector(a, _, c) = nodes
    val local = a.runtime.spawn(new Store(100))
    val exported = a.export(local)
    assertEquals(a.address, exported.node)
    val relay = j(a.create(c.address, "relay"))
    assertEquals(103, j(relay.send[Int]("addVia", exported, 3))) // C calls back into A's object
    assertEquals(103, j(cogs.runtime.Cogs.send(local, "total", (s: Store) => s.total())))
  }
}
