package cogs.session.monitor

import java.util.concurrent.{ConcurrentHashMap, ConcurrentLinkedQueue, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger

import scala.jdk.CollectionConverters._

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.runtime._
import cogs.session.Expected

/**
 * Discovery through a [[Directory]]: registered objects are invited to roles by join calls that
 * run on their own COGs, round-robin across sessions; declines and failed joins pass the role on;
 * a role nobody takes fails the start with a message naming it; cancelled registrations are not
 * offered; the sessions it makes check messages like any other; and a stress test of many
 * concurrent starts.
 */
class DirectoryTest {
  private val rt = CogRuntime()
  @AfterEach def close(): Unit = rt.close()

  final class Peer(name: String) extends ActiveObject {
    val log = new ConcurrentLinkedQueue[String]
    // Written only by this object's processes: a join that reads it runs on this object's COG.
    var busy = 0
    def on(label: String): Proc[Unit] = Proc.delay { log.add(label); () }
    def work(): Proc[Unit] = Proc.delay { busy += 1 }
    def join(o: Offer, answer: Boolean): Proc[Boolean] = Proc.delay {
      log.add(s"join ${o.role} of ${o.sessionId}")
      answer
    }
    override def toString: String = name
  }

  private val st = new SessionType(Expected.module(
    "global protocol Three(role A, role B, role C) { go() from A to B; done() from B to C; }").protocol("Three"), Policy.Reject)

  private def started(f: Fut[Session]): Session = f.join(10, TimeUnit.SECONDS)

  @Test def aSessionIsMadeFromRegisteredObjects(): Unit = {
    val dir = new Directory(rt)
    val a = rt.spawn(new Peer("a")); val b = rt.spawn(new Peer("b")); val c = rt.spawn(new Peer("c"))
    dir.register(st, "A", a)
    dir.register[Peer](st, "B", b, (p, o) => p.join(o, answer = true))
    dir.register(st, "C", c)
    val s = started(dir.start(st, "s1"))
    assertEquals("s1", s.id)
    assertSame(a, s.role("A")); assertSame(b, s.role("B")); assertSame(c, s.role("C"))
    assertEquals(List("join B of s1"), b.log.asScala.toList)
    // Its messages are checked like those of any session.
    val early = s.send[Peer, Unit](st.message("B", "C", "done"))(_.on("done"))
    rt.awaitQuiescence()
    assertTrue(early.poll.exists(_.isFailure), "done before go is refused")
    s.send[Peer, Unit](st.message("A", "B", "go"))(_.on("go"))
    rt.awaitQuiescence()
    s.send[Peer, Unit](st.message("B", "C", "done"))(_.on("done"))
    rt.awaitQuiescence()
    assertTrue(s.end().roles.forall(_.isFinal))
  }

  @Test def rolesGoRoundRobinAcrossSessions(): Unit = {
    val dir = new Directory(rt)
    val servers = (0 until 3).map(i => rt.spawn(new Peer(s"b$i")))
    servers.foreach(dir.register(st, "B", _))
    dir.register(st, "A", rt.spawn(new Peer("a")))
    dir.register(st, "C", rt.spawn(new Peer("c")))
    assertEquals(3, dir.registered(st, "B"))
    val chosen = (0 until 6).map(i => started(dir.start(st, s"s$i")).role("B"))
    assertEquals(servers ++ servers, chosen, "successive sessions go to successive objects")
  }

  @Test def aDeclineOrAFailedJoinPassesTheRoleOn(): Unit = {
    val dir = new Directory(rt)
    val no = rt.spawn(new Peer("no")); val broken = rt.spawn(new Peer("broken")); val yes = rt.spawn(new Peer("yes"))
    dir.register[Peer](st, "B", no, (p, o) => p.join(o, answer = false))
    dir.register[Peer](st, "B", broken, (_, _) => Proc.raise(new IllegalStateException("out of order")))
    dir.register[Peer](st, "B", yes, (p, o) => p.join(o, answer = true))
    dir.register(st, "A", rt.spawn(new Peer("a")))
    dir.register(st, "C", rt.spawn(new Peer("c")))
    val s = started(dir.start(st, "s1"))
    assertSame(yes, s.role("B"))
    assertEquals(List("join B of s1"), no.log.asScala.toList, "the first candidate was asked and declined")
  }

  @Test def aRoleNobodyTakesFailsTheStartNamingIt(): Unit = {
    val dir = new Directory(rt)
    val no = rt.spawn(new Peer("no"))
    dir.register[Peer](st, "B", no, (p, o) => p.join(o, answer = false))
    dir.register[Peer](st, "B", rt.spawn(new Peer("broken")), (_, _) => Proc.raise(new IllegalStateException("out of order")))
    dir.register(st, "A", rt.spawn(new Peer("a")))
    dir.register(st, "C", rt.spawn(new Peer("c")))
    val e = assertThrows(classOf[CallFailedException], () => dir.start(st, "s9").join(10, TimeUnit.SECONDS))
    val cause = e.getCause
    assertTrue(cause.isInstanceOf[NoParticipantException], String.valueOf(cause))
    val m = cause.getMessage
    assertTrue(m.startsWith("session s9 of Three: no object took role B ("), m)
    assertTrue(m.contains("no declined"), m)
    assertTrue(m.contains("the join of broken failed: java.lang.IllegalStateException: out of order"), m)

    val none = new Directory(rt)
    none.register(st, "A", rt.spawn(new Peer("a2")))
    val e2 = assertThrows(classOf[CallFailedException], () => none.start(st, "s10").join(10, TimeUnit.SECONDS))
    assertEquals("session s10 of Three: no object is registered for role B", e2.getCause.getMessage)
    rt.awaitQuiescence() // the failed starts left no outstanding work behind
  }

  @Test def aCancelledRegistrationIsNotOffered(): Unit = {
    val dir = new Directory(rt)
    val gone = rt.spawn(new Peer("gone")); val stays = rt.spawn(new Peer("stays"))
    val r = dir.register(st, "B", gone)
    dir.register(st, "B", stays)
    dir.register(st, "A", rt.spawn(new Peer("a")))
    dir.register(st, "C", rt.spawn(new Peer("c")))
    assertTrue(r.cancel())
    assertFalse(r.cancel(), "a second cancel says it was already cancelled")
    for (i <- 0 until 3) assertSame(stays, started(dir.start(st, s"s$i")).role("B"))
  }

  @Test def oneObjectMayPlaySeveralRolesAndSessions(): Unit = {
    val dir = new Directory(rt)
    val p = rt.spawn(new Peer("p")); val c = rt.spawn(new Peer("c"))
    dir.register(st, "A", p); dir.register(st, "B", p); dir.register(st, "C", c)
    val s1 = started(dir.start(st)); val s2 = started(dir.start(st))
    assertNotEquals(s1.id, s2.id)
    for (s <- List(s1, s2)) { assertSame(p, s.role("A")); assertSame(p, s.role("B")); assertSame(c, s.role("C")) }
  }

  @Test def badRegistrationsAreRefused(): Unit = {
    val dir = new Directory(rt)
    val e = assertThrows(classOf[NoSuchElementException], () => dir.register(st, "D", rt.spawn(new Peer("d"))))
    assertEquals("protocol Three has no role 'D' (its roles: A, B, C)", e.getMessage)
    assertThrows(classOf[NullPointerException], () => dir.register[Peer](st, "A", null))
  }

  /** A join waits its turn behind the object's other calls: the object is not interrupted. */
  @Test def aJoinIsQueuedBehindTheObjectsCalls(): Unit = {
    val dir = new Directory(rt)
    val b = rt.spawn(new Peer("b"))
    val seen = new AtomicInteger(-1)
    dir.register[Peer](st, "B", b, (p, _) => Proc.delay { seen.set(p.busy); true })
    dir.register(st, "A", rt.spawn(new Peer("a")))
    dir.register(st, "C", rt.spawn(new Peer("c")))
    for (_ <- 0 until 100) b ! (_.work())
    started(dir.start(st))
    assertEquals(100, seen.get, "the join ran after the 100 calls queued before it")
  }

  /**
   * Threads start sessions at once, while every role has four candidates that accept or decline
   * at random. Every start must complete with a session whose roles are bound to registered
   * objects that accepted, each join must have been answered once, and nothing may be left
   * outstanding (a lost offer would leave a start's future pending and the runtime busy).
   */
  @Test def concurrentStarts(): Unit = {
    val dir = new Directory(rt)
    val joins = new ConcurrentHashMap[String, AtomicInteger]
    val accepted = new ConcurrentHashMap[(String, String), Peer]
    for (r <- List("A", "B", "C"); i <- 0 until 4) {
      val p = rt.spawn(new Peer(s"$r$i"))
      dir.register[Peer](st, r, p, (peer, o) => Proc.delay {
        joins.computeIfAbsent(s"${o.sessionId}/${o.role}/$peer", _ => new AtomicInteger).incrementAndGet()
        // The last candidate always accepts, so every start can succeed; others toss a coin.
        val yes = i == 3 || java.util.concurrent.ThreadLocalRandom.current().nextBoolean()
        if (yes) accepted.put((o.sessionId, o.role), peer)
        yes
      })
    }
    val threads = 4; val perThread = 200
    val sessions = new ConcurrentLinkedQueue[Session]
    val go = new CountDownLatch(1)
    val ts = (0 until threads).map { t =>
      new Thread(() => {
        go.await()
        val fs = (0 until perThread).map(i => dir.start(st, s"t$t-$i"))
        fs.foreach(f => sessions.add(started(f)))
      })
    }
    ts.foreach(_.start()); go.countDown(); ts.foreach(_.join(60000))
    assertEquals(threads * perThread, sessions.size, "every start completed")
    for (s <- sessions.asScala; r <- List("A", "B", "C"))
      assertSame(accepted.get((s.id, r)), s.role(r), s"${s.id}: role $r went to the object that accepted it")
    assertTrue(joins.values.asScala.forall(_.get == 1), "no object was asked twice for one role of one session")
    rt.awaitQuiescence()
  }
}
