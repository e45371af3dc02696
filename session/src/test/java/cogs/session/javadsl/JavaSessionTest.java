package cogs.session.javadsl;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import cogs.javadsl.ActiveObject;
import cogs.javadsl.CogRuntime;
import cogs.javadsl.Fut;
import cogs.javadsl.Proc;
import cogs.runtime.CallFailedException;
import cogs.session.ProtocolModule;
import cogs.session.monitor.MessageRef;
import cogs.session.monitor.ProtocolViolation;
import cogs.session.monitor.Session;
import cogs.session.monitor.SessionReport;
import cogs.session.monitor.SessionType;

/** The Java API: a ping-pong session from Java, a correct run and a rejected message. */
class JavaSessionTest {
  static final String PROTOCOL = String.join("\n",
      "module pp;",
      "type <java> \"java.lang.Integer\" from \"rt.jar\" as Int;",
      "global protocol PingPong(role A, role B) {",
      "  rec L { choice at A { ping(Int) from A to B; pong(Int) from B to A; continue L; } or { bye() from A to B; } }",
      "}");

  static final class Player extends ActiveObject {
    final AtomicInteger pongs = new AtomicInteger();
    Session session;
    SessionType st;

    Proc<Void> ping(int n) {
      return Proc.delay(() -> {
        Sessions.tell(session, st.message("B", "A", "pong"), (Player a) -> a.pong(n), n);
        return null;
      });
    }

    Proc<Void> pong(int n) {
      return Proc.delay(() -> {
        pongs.incrementAndGet();
        if (n > 0) Sessions.tell(session, st.message("A", "B", "ping"), (Player b) -> b.ping(n - 1), n - 1);
        else Sessions.tell(session, st.message("A", "B", "bye"), (Player b) -> Proc.done(null));
        return null;
      });
    }
  }

  @Test
  void pingPongFromJava() {
    ProtocolModule m = Sessions.parse("pp.scr", PROTOCOL);
    SessionType st = Sessions.sessionType(m.protocol("PingPong"), "reject");
    CogRuntime rt = CogRuntime.create();
    try {
      Player a = rt.spawn(Player::new);
      Player b = rt.spawn(Player::new);
      Session s = Sessions.start(st, Map.of("A", a, "B", b));
      a.session = s; b.session = s; a.st = st; b.st = st;
      Sessions.tell(s, st.message("A", "B", "ping"), (Player p) -> p.ping(5), 5);
      rt.awaitQuiescence();
      assertEquals(6, a.pongs.get());
      SessionReport r = s.end();
      assertTrue(r.complete(), r.render());

      // A second session: B answers before being asked.
      Session s2 = Sessions.start(st, "second", Map.of("A", a, "B", b));
      MessageRef pong = st.message("B", "A", "pong");
      Fut<Void> f = Sessions.send(s2, pong, (Player p) -> Proc.done(null), 1);
      CallFailedException e = assertThrows(CallFailedException.class, f::join);
      ProtocolViolation v = (ProtocolViolation) e.getCause();
      assertEquals("second", v.session());
      assertEquals("B", v.role());
      assertEquals(java.util.List.of("A?bye()", "A?ping(Int)"), v.expectedList());

      // Request and reply: the future's value is the pong.
      Session s3 = Sessions.start(st, "third", Map.of("A", a, "B", b));
      Fut<Integer> g = Sessions.request(s3, st.message("A", "B", "ping"), pong, (Player p) -> Proc.done(41 + 1), 7);
      assertEquals(42, g.join());
      assertTrue(s3.violations().isEmpty());

      // The invitation step: A accepted, then B; the session starts with the second accept.
      cogs.session.monitor.Invitation inv = Sessions.invite(st);
      java.util.List<Session> started = new java.util.ArrayList<>();
      Sessions.whenStarted(inv, started::add);
      assertTrue(inv.accept("A", a));
      assertTrue(Sessions.sessionOf(inv).isEmpty());
      assertFalse(inv.accept("A", b));
      assertTrue(inv.accept("B", b));
      assertEquals(1, started.size());
      assertSame(started.get(0), Sessions.sessionOf(inv).get());
      Fut<Integer> h = Sessions.request(started.get(0), st.message("A", "B", "ping"), pong, (Player p) -> Proc.done(1), 0);
      assertEquals(1, h.join());

      // Synchronous calls from a process of A's: a request whose return value is the pong, then bye.
      Session s4 = Sessions.start(st, "fourth", Map.of("A", a, "B", b));
      MessageRef ping = st.message("A", "B", "ping");
      MessageRef bye = st.message("A", "B", "bye");
      Fut<Integer> k = cogs.javadsl.Cogs.send(a, "play", (Player p) ->
          Sessions.syncRequest(s4, ping, pong, (Player q) -> Proc.done(2 * 21), 21)
              .flatMap(w -> Sessions.sync(s4, bye, (Player q) -> Proc.done(null)).map(x -> w)));
      assertEquals(42, k.join());
      assertTrue(s4.end().complete(), s4.report().render());
      // After bye, A has finished: a synchronous ping is refused and fails A's process.
      Session s5 = Sessions.start(st, "fifth", Map.of("A", a, "B", b));
      Fut<Object> l = cogs.javadsl.Cogs.send(a, "play", (Player p) ->
          Sessions.sync(s5, bye, (Player q) -> Proc.done(null)).flatMap(x -> Sessions.sync(s5, ping, (Player q) -> Proc.done(null), 1)));
      ProtocolViolation v5 = (ProtocolViolation) assertThrows(CallFailedException.class, l::join).getCause();
      assertEquals("fifth", v5.session());
      assertEquals("sent", v5.side());

      // A binding that leaves a role open gets the same error as from Scala.
      IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> Sessions.start(st, Map.of("A", a)));
      assertTrue(bad.getMessage().contains("no object plays role(s) B"), bad.getMessage());

      // Discovery: a directory offers roles to registered objects; c declines, d takes B.
      cogs.session.monitor.Directory dir = Sessions.directory(rt);
      Player c = rt.spawn(Player::new);
      Player d = rt.spawn(Player::new);
      Sessions.register(dir, st, "A", a);
      Sessions.register(dir, st, "B", c, (Player p, cogs.session.monitor.Offer o) -> Proc.done(false));
      Sessions.register(dir, st, "B", d, (Player p, cogs.session.monitor.Offer o) -> Proc.done(o.role().equals("B")));
      Session found = Sessions.start(dir, st).join();
      assertSame(a, found.role("A"));
      assertSame(d, found.role("B"));
    } finally {
      rt.close();
    }
  }
}
