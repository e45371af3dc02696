package cogs.distributed.abs

import com.typesafe.config.ConfigFactory
import cogs.absc.lib.{AbsInt, Just, Pair}
import cogs.runtime.{Active, ActiveObject, CogRuntime, Cogs, Fut, Proc}
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance, Timeout}

trait Echo extends Active {
  def echo(x: Any): Proc[Any]
  def node(): Proc[String]
  def callBack(other: Echo, x: AbsInt): Proc[AbsInt]
  def next(i: AbsInt): Proc[Unit]
  def hang(): Proc[Unit]
  def outOfOrder(): Proc[AbsInt]
  def refuse(reason: String): Proc[AbsInt]
  def refuseJvm(): Proc[AbsInt]
}

/** A stand-in for an absc-generated class: an ABS interface (a trait extending Active) and a class. */
final class EchoImpl(val where: String, val factor: AbsInt) extends ActiveObject with Echo {
  def echo(x: Any): Proc[Any] = Proc.done(x)
  def node(): Proc[String] = Proc.done(where)
  private var last = AbsInt(0)
  private var disordered = AbsInt(0)
  def next(i: AbsInt): Proc[Unit] = Proc.delay {
    if (i != last + AbsInt(1)) disordered = disordered + AbsInt(1)
    last = i
  }
  def outOfOrder(): Proc[AbsInt] = Proc.delay(disordered)
  def hang(): Proc[Unit] = Proc.awaitUntil(false)
  def refuse(reason: String): Proc[AbsInt] = Proc.delay(throw absmodel.Refused(s"$reason on $where"))
  def refuseJvm(): Proc[AbsInt] = Proc.delay(throw new IllegalStateException(s"not on $where"))
  def callBack(other: Echo, x: AbsInt): Proc[AbsInt] =
    Proc.await(Cogs.send(other, "echo", (e: Echo) => e.echo(x * factor))).map(_.asInstanceOf[AbsInt])
}

trait Maker extends Active {
  /** Where the objects made by the init block and by a method of this object are, as text. */
  def where(): Proc[String]
}

/**
 * A stand-in for a generated class whose init block (its constructor) and a method create objects
 * with `new local` and `new` (`Cogs.spawnLocal`/`Cogs.spawn`, as absc lowers them). Created on
 * another node, the init block runs there outside every process (on the thread that serves the
 * creation); the objects must still be made there, the `new local` one in this object's COG.
 */
final class MakerImpl(val name: String) extends ActiveObject with Maker {
  private val initLocal: EchoImpl = Cogs.spawnLocal(new EchoImpl(s"$name init local", AbsInt(1)))
  private val initNew: EchoImpl = Cogs.spawn(new EchoImpl(s"$name init new", AbsInt(1)))
  private def describe(o: EchoImpl): String = {
    import cogs.runtime.CogsOf._
    val rt = if (runtimeOf(o) eq runtimeOf(this)) "this node" else "another runtime"
    s"${o.where}: ${if (sameCog(o, this)) "this COG" else "a new COG"} on $rt"
  }
  def where(): Proc[String] = Proc.delay {
    val local = Cogs.spawnLocal(new EchoImpl(s"$name method local", AbsInt(1)))
    val fresh = Cogs.spawn(new EchoImpl(s"$name method new", AbsInt(1)))
    List(initLocal, initNew, local, fresh).map(describe).mkString("; ")
  }
}

/**
 * The placement of objects on nodes, in one JVM: two nodes (`a` and `b`, two actor systems on
 * loopback), `[DC: R] new EchoImpl(..)` from `a` with `R` mapped to `b`. The object is created on
 * b (it reports b's name, given as its constructor argument there), ABS values go and come back
 * equal, a reference passed to b is called back on a, a reference that comes home is the local
 * object again, a constructor argument that cannot travel fails at the `new`, naming the class
 * and the value's class, and a call waiting on a third node (`c`, component `Q`) fails when c
 * leaves, naming the node and the call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AbsPlacementTest {
  private var rtA, rtB, rtC: CogRuntime = _
  private var a, b, c: AbsPlacement = _

  private def conf(name: String, seedPort: Int, port: Int) = ConfigFactory.parseString(
    s"""cogs.distributed.node-name = "$name"
       |cogs.distributed.deployment { R = "b", L = "a", Q = "c" }
       |cogs.distributed.lost-after = 2s
       |cogs.distributed.join-timeout = 60s
       |pekko.loglevel = WARNING
       |pekko.remote.artery.canonical { hostname = "127.0.0.1", port = $port }
       |pekko.cluster.seed-nodes = ["pekko://cogs@127.0.0.1:$seedPort"]
       |""".stripMargin).withFallback(ConfigFactory.load())

  @BeforeAll def start(): Unit = {
    val Seq(pa, pb, pc) = cogs.distributed.Launcher.freePorts(3)
    rtA = CogRuntime(); rtB = CogRuntime(); rtC = CogRuntime()
    val loader = getClass.getClassLoader
    // b first: a (the main node) waits at start until a member named b is up.
    b = AbsPlacement.start(rtB, conf("b", pa, pb), loader, main = false)
    c = AbsPlacement.start(rtC, conf("c", pa, pc), loader, main = false)
    a = AbsPlacement.start(rtA, conf("a", pa, pa), loader, main = true)
  }

  @AfterAll def stop(): Unit = {
    Option(a).foreach(_.close()); Option(b).foreach(_.close()); Option(c).foreach(_.close())
    Option(rtA).foreach(_.close()); Option(rtB).foreach(_.close()); Option(rtC).foreach(_.close())
  }

  private def echo(o: Echo, x: Any): Any = Cogs.send(o, "echo", (e: Echo) => e.echo(x)).join(60, TimeUnit.SECONDS)

  @Test def createdOnTheMappedNodeAndCalled(): Unit = {
    assertTrue(a.isRemote("R")); assertFalse(a.isRemote("L")); assertFalse(a.isRemote("unmapped"))
    val o = a.create("R", classOf[EchoImpl], Seq("made on b", AbsInt(2)), "t.abs:1:1").asInstanceOf[Echo]
    // Calls sent before the creation was answered wait for it, in order.
    val f1 = Cogs.send(o, "node", (e: Echo) => e.node())
    val f2 = Cogs.send(o, "echo", (e: Echo) => e.echo(AbsInt(41)))
    assertEquals("made on b", f1.join(60, TimeUnit.SECONDS))
    assertEquals(AbsInt(41), f2.join(60, TimeUnit.SECONDS))
    assertTrue(b.node.objects.values().stream().anyMatch(x => x.isInstanceOf[EchoImpl] && x.asInstanceOf[EchoImpl].where == "made on b"))
    val v = Pair(List(AbsInt(1), AbsInt(BigInt("123456789012345678901234567890").bigInteger)), Just("x"))
    assertEquals(v, echo(o, v))
  }

  @Test def callsKeepTheirOrderAcrossTheCreation(): Unit = {
    // Sent at once after the `new`: the first ones wait in the proxy's queue for the creation's
    // answer, the later ones go straight out; all must arrive in the order they were sent.
    for (round <- 1 to 5) {
      val o = a.create("R", classOf[EchoImpl], Seq("b", AbsInt(1)), "t.abs:4:1").asInstanceOf[Echo]
      val fs = (1 to 400).map(i => Cogs.send(o, "next", (e: Echo) => e.next(AbsInt(i))))
      fs.foreach(_.join(60, TimeUnit.SECONDS))
      assertEquals(AbsInt(0), Cogs.send(o, "outOfOrder", (e: Echo) => e.outOfOrder()).join(60, TimeUnit.SECONDS), s"round $round")
    }
  }

  @Test def aStatementCallIsSentOneWayInItsPlace(): Unit = {
    // `o!next(i);` as absc lowers it (its future unused): Cogs.tell on the proxy. The first ones
    // wait for the creation in the proxy's queue; all arrive, in order, with the awaited call last.
    val o = a.create("R", classOf[EchoImpl], Seq("b", AbsInt(1)), "t.abs:12:1").asInstanceOf[Echo]
    (1 to 400).foreach(i => Cogs.tell(o, "next", (e: Echo) => e.next(AbsInt(i))))
    Cogs.send(o, "next", (e: Echo) => e.next(AbsInt(401))).join(60, TimeUnit.SECONDS)
    assertEquals(AbsInt(0), Cogs.send(o, "outOfOrder", (e: Echo) => e.outOfOrder()).join(60, TimeUnit.SECONDS))
    // Nothing waits for a one-way call's answer: a one-way call that never ends leaves no entry.
    Cogs.tell(o, "hang", (e: Echo) => e.hang())
    assertEquals("b", Cogs.send(o, "node", (e: Echo) => e.node()).join(60, TimeUnit.SECONDS))
    assertEquals(0, a.node.pendingCalls)
  }

  @Test def referencesTravelAndComeHome(): Unit = {
    val remote = a.create("R", classOf[EchoImpl], Seq("b", AbsInt(3)), "t.abs:2:1").asInstanceOf[Echo]
    val local: Echo = rtA.spawn(new EchoImpl("a", AbsInt(1)))
    // b calls back the object of a that it was given.
    assertEquals(AbsInt(21), Cogs.send(remote, "callBack", (e: Echo) => e.callBack(local, AbsInt(7))).join(60, TimeUnit.SECONDS))
    // A reference to a's own object comes back as that object; one to b's object as the same proxy.
    assertSame(local, echo(remote, local))
    assertSame(remote, echo(remote, remote))
  }

  @Test def aNodeLostWhileACallWaitsFailsTheCall(): Unit = {
    val o = a.create("Q", classOf[EchoImpl], Seq("c", AbsInt(1)), "t.abs:5:1").asInstanceOf[Echo]
    assertEquals("c", Cogs.send(o, "node", (e: Echo) => e.node()).join(60, TimeUnit.SECONDS))
    val waiting = Cogs.send(o, "hang", (e: Echo) => e.hang())
    // The call is on c (it answered the one before); c leaves the cluster.
    c.close()
    val e = assertThrows(classOf[Exception], () => waiting.join(60, TimeUnit.SECONDS))
    val m = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ ne null).map(_.getMessage).mkString(" / ")
    assertTrue(m.contains("was lost") && m.contains("EchoImpl.hang"), m)
    // Later calls fail at once, naming the node.
    val later = assertThrows(classOf[Exception], () => Cogs.send(o, "node", (x: Echo) => x.node()).join(60, TimeUnit.SECONDS))
    assertTrue(String.valueOf(later.getMessage).contains("was lost"), later.getMessage)
  }

  @Test def anArgumentThatCannotTravelFailsAtTheNew(): Unit = {
    val fut: Fut[Int] = Cogs.send(rtA.spawn(new EchoImpl("a", AbsInt(1))), "node", (e: Echo) => e.node()).asInstanceOf[Fut[Int]]
    val e = assertThrows(classOf[IllegalArgumentException], () => a.create("R", classOf[EchoImpl], Seq(fut, AbsInt(1)), "t.abs:3:7"))
    assertTrue(e.getMessage.contains("cannot create an object of class EchoImpl on node 'b' (deployment component 'R', new at t.abs:3:7)"), e.getMessage)
    assertTrue(e.getMessage.contains("cogs.runtime.Fut"), e.getMessage)
  }

  @Test def anAbsExceptionThrownOnAnotherNodeArrivesAsItselfAndIsCaughtByItsType(): Unit = {
    val remote = a.create("R", classOf[EchoImpl], Seq("b", AbsInt(1)), "t.abs:9:1").asInstanceOf[Echo]
    val e = assertThrows(classOf[Throwable], () => Cogs.send(remote, "refuse", (x: Echo) => x.refuse("no")).join(60, TimeUnit.SECONDS))
    val chain = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ ne null).toList
    // The value made on b, equal as ABS data: what an ABS catch Refused(r) => .. matches.
    assertEquals(Some(absmodel.Refused("no on b")), chain.collectFirst { case r: absmodel.Refused => r }, chain.mkString(" / "))
    assertEquals(absmodel.Refused("no on b"), cogs.absc.lib.AbsException.liftAbs(chain.find(_.isInstanceOf[absmodel.Refused]).get))
    // From a process on a, as generated code sees it: the await of the remote call raises it.
    val caught = Cogs.send(rtA.spawn(new EchoImpl("a", AbsInt(1))), "echo", (_: Echo) =>
      Proc.await(Cogs.send(remote, "refuse", (x: Echo) => x.refuse("twice"))).map(_ => "no exception": Any)
        .recover { case absmodel.Refused(r) => s"caught Refused($r)" }).join(60, TimeUnit.SECONDS)
    assertEquals("caught Refused(twice on b)", caught)
  }

  @Test def objectsCreatedByARemoteObjectsCodeAreOnItsNode(): Unit = {
    val expected = "m init local: this COG on this node; m init new: a new COG on this node; " +
      "m method local: this COG on this node; m method new: a new COG on this node"
    // The same class created here first (in a process and outside one), then on node b.
    val here: Maker = rtA.spawn(new MakerImpl("m"))
    assertEquals(expected, Cogs.send(here, "where", (m: Maker) => m.where()).join(60, TimeUnit.SECONDS))
    // Made by a process of another COG: the init block's `new local` joins the new object's COG, not the creator's.
    val byProcess = Cogs.send(rtA.spawn(new EchoImpl("a", AbsInt(1))), "echo", (_: Echo) =>
      Proc.delay(Cogs.spawn(new MakerImpl("m")): Any)).join(60, TimeUnit.SECONDS).asInstanceOf[Maker]
    assertEquals(expected, Cogs.send(byProcess, "where", (m: Maker) => m.where()).join(60, TimeUnit.SECONDS))
    val remote = a.create("R", classOf[MakerImpl], Seq("m"), "t.abs:13:1").asInstanceOf[Maker]
    assertEquals(expected, Cogs.send(remote, "where", (m: Maker) => m.where()).join(60, TimeUnit.SECONDS))
    // On b: the remote object and the four objects it made are b's.
    val onB = b.node.objects.values().stream().filter(_.isInstanceOf[MakerImpl]).count()
    assertEquals(1L, onB)
    assertSame(rtB, cogs.runtime.CogsOf.runtimeOf(b.node.objects.values().stream().filter(_.isInstanceOf[MakerImpl]).findFirst().get))
  }

  @Test def aJvmExceptionWithoutASerializerArrivesAsText(): Unit = {
    val remote = a.create("R", classOf[EchoImpl], Seq("b", AbsInt(1)), "t.abs:10:1").asInstanceOf[Echo]
    val e = assertThrows(classOf[Throwable], () => Cogs.send(remote, "refuseJvm", (x: Echo) => x.refuseJvm()).join(60, TimeUnit.SECONDS))
    val chain = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ ne null).toList
    val text = chain.collectFirst { case r: cogs.distributed.RemoteCallException => r }
    assertTrue(text.isDefined, chain.mkString(" / "))
    assertEquals("java.lang.IllegalStateException", text.get.remoteClass)
    assertEquals("not on b", text.get.remoteMessage)
  }

  @Test def aSynchronousCallOnARemoteObjectIsASendAndAGetOfTheCallersCog(): Unit = {
    val remote = a.create("R", classOf[EchoImpl], Seq("b", AbsInt(3)), "t.abs:11:1").asInstanceOf[Echo]
    val local = rtA.spawn(new EchoImpl("a", AbsInt(1)))
    // x = remote.callBack(local, 7) inside a process on a: b calls back into a (another COG of a,
    // so the blocked caller's COG is not in the way) and the value comes back.
    val r = Cogs.send(rtA.spawn(new EchoImpl("a2", AbsInt(1))), "echo", (_: Echo) =>
      Proc.sync(remote, "callBack")((e: Echo) => e.callBack(local, AbsInt(7))).map(x => x: Any)).join(60, TimeUnit.SECONDS)
    assertEquals(AbsInt(21), r)
    // An ABS exception of a synchronous remote call is raised in the caller, caught by its type.
    val caught = Cogs.send(local, "echo", (_: Echo) =>
      Proc.sync(remote, "refuse")((e: Echo) => e.refuse("sync")).map(_ => "no exception": Any)
        .recover { case absmodel.Refused(m) => s"caught Refused($m)" }).join(60, TimeUnit.SECONDS)
    assertEquals("caught Refused(sync on b)", caught)
  }
}
