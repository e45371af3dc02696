package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * Synchronous calls `o.m(..)` as session protocol messages (issue 11, point 6): a mapped method
 * called synchronously is checked like an asynchronous call (the request before the callee runs,
 * a `reply-to` reply against the return value), through another COG, from the main block, and on
 * `this` where the effect analysis compiles the call to a plain value; refusals fail the caller
 * with the violation and the run with exit status 3.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionSyncCallTest {

  private var dir: Path = _
  private var cache: Path = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-session-sync")
    cache = dir.resolve("cache")
  }

  private def abs(args: String*): AbscResult = absc(AbsBackend, args: _*)
  /** A model's path as absc names it in positions (as it was given: absolute here). */
  private def path(name: String): String = dir.resolve(name).toString
  private def file(name: String, text: String): String = {
    val f = dir.resolve(name)
    Files.writeString(f, text, UTF_8)
    f.toString
  }

  // ------------------------------------------------------------------ client and server

  private val rpcScr =
    """module rpc;
      |type <java> "cogs.absc.lib.AbsInt" from "cogs" as Int;
      |global protocol Rpc(role C, role S) {
      |  hello() from C to S;
      |  rec L {
      |    choice at C {
      |      req(Int) from C to S;
      |      res(Int) from S to C;
      |      continue L;
      |    } or {
      |      quit() from C to S;
      |    }
      |  }
      |}
      |""".stripMargin

  private def rpcConf(name: String, client: String = "Client", policy: String = "reject"): String = {
    file("rpc.scr", rpcScr)
    file(name,
      s"""cogs.monitor {
         |  observe.classes = []
         |  sessions = [{
         |    file = "rpc.scr"
         |    protocol = Rpc
         |    policy = $policy
         |    roles { C = $client, S = Server }
         |    messages { hello = hello, req = square, res = { reply-to = req }, quit = quit }
         |  }]
         |}
         |""".stripMargin)
  }

  /** A client whose `play` makes the calls `body` (synchronous calls on `s`), and a server. */
  private def rpcModel(name: String, body: String, mainBlock: String = "  S s = new Server();\n  C c = new Client(s);\n  c!play();"): String =
    file(name,
      s"""module Rpc;
         |interface S { Unit hello(); Int square(Int n); Unit quit(); }
         |interface C { Unit play(); }
         |class Server implements S {
         |  Int served = 0;
         |  Unit hello() { }
         |  Int square(Int n) { served = served + 1; return n * n; }
         |  Unit quit() { println("served " + toString(served)); }
         |}
         |class Client(S s) implements C {
         |  Unit play() {
         |$body
         |  }
         |}
         |{
         |$mainBlock
         |}
         |""".stripMargin)

  private val goodPlay = "    s.hello();\n    Int a = s.square(3);\n    Int b = s.square(4);\n    s.quit();\n    println(\"sum \" + toString(a + b));"

  @Test def synchronousRequestsAndRepliesPass(): Unit = {
    val m = rpcModel("RpcOk.abs", goodPlay)
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", rpcConf("rpc-ok.conf"), m)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("served 2\nsum 25\n", r.programOut)
    assertTrue(r.err.contains("cogs sessions: 1 session, 0 violations, 0 roles not finished"), r.err)
    assertTrue(r.err.contains("session Rpc#1 (Rpc): complete"), r.err)
    // The four calls are instrumented as synchronous messages, each with its ABS position; the
    // asynchronous start is not a message.
    val out = dir.resolve("rpc-gen")
    assertEquals(Exit.Ok, abs("compile", "--monitor", rpcConf("rpc-gen.conf"), "-d", out.toString, m).status)
    val gen = Files.readString(out.resolve("Rpc.scala"), UTF_8)
    assertEquals(4, "AbsSessions.sync\\(this, this.s, ".r.findAllIn(gen).size, gen)
    // The instrument pass names the arguments it evaluates first sent$1, sent$2, .. through the program.
    val numbered = gen.replaceAll("sent\\$\\d+", "sent\\$N")
    assertTrue(numbered.contains("cogs.absc.monitoring.AbsSessions.sync(this, this.s, List[Any](sent$N), \"" +
      path("RpcOk.abs") + ":13:15\")(S.square(sent$N))"), gen)
    assertFalse(gen.contains("AbsSessions.send("), gen)
    assertFalse(gen.contains("Proc.sync("), gen)
    // Without the monitor, the same calls are the runtime's plain synchronous calls.
    val plainOut = dir.resolve("rpc-plain")
    assertEquals(Exit.Ok, abs("compile", "-d", plainOut.toString, m).status)
    val plain = Files.readString(plainOut.resolve("Rpc.scala"), UTF_8)
    assertEquals(4, "sync\\(this.s, \"".r.findAllIn(plain).size, plain)
    assertFalse(plain.contains("AbsSessions"), plain)
  }

  @Test def aServerOnTheClientsCogPasses(): Unit = {
    // Server and client on the main block's COG: each callee runs inline in the caller's process; checked all the same.
    val m = rpcModel("RpcLocal.abs", goodPlay, "  S s = new local Server();\n  C c = new local Client(s);\n  c!play();")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", rpcConf("rpc-local.conf"), m)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("served 2\nsum 25\n", r.programOut)
    assertTrue(r.err.contains("session Rpc#1 (Rpc): complete"), r.err)
  }

  @Test def aSynchronousCallOutOfTurnIsRefused(): Unit = {
    // The client skips hello: its first request is refused before the server runs it.
    val m = rpcModel("RpcBad.abs", "    Int a = s.square(3);\n    println(\"unreachable \" + toString(a));")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", rpcConf("rpc-bad.conf"), m)
    assertEquals(Exit.Monitor, r.status, r.err)
    assertEquals("", r.programOut)
    // The violation names the call's ABS position; the caller's process fails with it (nobody reads its future).
    assertTrue(r.err.contains("protocol violation in session Rpc#1: role C in state 0 sent S!req(Int) (at " + path("RpcBad.abs") + ":12:15); expected S!hello()"), r.err)
    assertTrue(r.err.contains("C (Client created at "), r.err)
    assertTrue(r.err.contains("not finished, stopped in state 0 waiting for S!hello()"), r.err)
    assertTrue(r.err.contains("sessions verdict: 1 violation(s)"), r.err)
    assertFalse(r.err.contains("\tat "), r.err)

    // Under policy log, the call goes through and its value comes back; the violation is still reported.
    val l = abs("run", "--cache-dir", cache.toString, "--monitor", rpcConf("rpc-log.conf", policy = "log"), m)
    assertEquals(Exit.Monitor, l.status, l.err)
    assertEquals("unreachable 9\n", l.programOut)
    assertTrue(l.err.contains("role C in state 0 sent S!req(Int) (at " + path("RpcBad.abs") + ":12:15); expected S!hello()"), l.err)
  }

  @Test def aWrongReplyIsRefusedWhenTheCalleeReturns(): Unit = {
    // The reply must be an Int: a server whose square's value is not one (an ABS Rat) is refused
    // after it ran, and the caller gets the violation instead of the value.
    val m = file("RpcReply.abs",
      """module RpcReply;
        |interface S { Unit hello(); Rat square(Int n); Unit quit(); }
        |interface C { Unit play(); }
        |class Server implements S {
        |  Unit hello() { }
        |  Rat square(Int n) { println("squaring"); return n / 2; }
        |  Unit quit() { }
        |}
        |class Client(S s) implements C {
        |  Unit play() {
        |    s.hello();
        |    Rat a = s.square(3);
        |    println("unreachable " + toString(a));
        |  }
        |}
        |{
        |  S s = new Server();
        |  C c = new Client(s);
        |  c!play();
        |}
        |""".stripMargin)
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", rpcConf("rpc-reply.conf"), m)
    assertEquals(Exit.Monitor, r.status, r.err)
    assertEquals("squaring\n", r.programOut)
    assertTrue(r.err.contains("role S in state 3 sent C!res(Int) (the reply is a cogs.absc.lib.AbsFrac, not a Int (cogs.absc.lib.AbsInt), " +
      "at " + path("RpcReply.abs") + ":12:15); expected C!res(Int)"), r.err)
  }

  @Test def theMainBlockMakesSynchronousMessages(): Unit = {
    val conf = rpcConf("rpc-main.conf", client = "main")
    val ok = rpcModel("RpcMain.abs", "", "  S s = new Server();\n  s.hello();\n  Int a = s.square(5);\n  s.quit();\n  println(\"got \" + toString(a));")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", conf, ok)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("served 1\ngot 25\n", r.programOut)
    assertTrue(r.err.contains("C (main): finished"), r.err)
    // A request after the quit: refused at the main block, which fails with it.
    val late = rpcModel("RpcMainLate.abs", "", "  S s = new Server();\n  s.hello();\n  s.quit();\n  Int a = s.square(5);\n  println(\"got \" + toString(a));")
    val l = abs("run", "--cache-dir", cache.toString, "--monitor", conf, late)
    assertEquals(Exit.Monitor, l.status, l.err)
    assertEquals("served 0\n", l.programOut)
    assertTrue(l.err.contains("absc: the main block failed: uncaught exception cogs.session.monitor.ProtocolViolation: " +
      "protocol violation in session Rpc#1: role C in state 2 sent S!req(Int) (at " + path("RpcMainLate.abs") + ":19:13); expected nothing (the role has finished)"), l.err)
  }

  // ------------------------------------------------------------------ calls on `this`

  private val selfScr =
    """module selfish;
      |type <java> "cogs.absc.lib.AbsInt" from "cogs" as Int;
      |global protocol Inner(role A, role B) {
      |  ping(Int) from A to B;
      |  pong(Int) from B to A;
      |  done() from A to B;
      |}
      |""".stripMargin

  private def selfConf(name: String): String = {
    file("self.scr", selfScr)
    file(name,
      """cogs.monitor {
        |  observe.classes = []
        |  sessions = [{
        |    file = "self.scr"
        |    protocol = Inner
        |    roles { A = Both, B = Both }
        |    messages { ping = ping, pong = { reply-to = ping }, done = done }
        |  }]
        |}
        |""".stripMargin)
  }

  /** One object plays both roles; `go` talks to itself with synchronous calls on `this`. `ping` and `done` cannot suspend. */
  private def selfModel(name: String, body: String): String = file(name,
    s"""module Selfish;
       |interface I { Unit go(); }
       |class Both implements I {
       |  Int n = 0;
       |  Int ping(Int x) { n = n + 1; return x + 1; }
       |  Unit done() { println("done after " + toString(n)); }
       |  Unit go() {
       |$body
       |  }
       |}
       |{
       |  I b = new Both();
       |  b!go();
       |}
       |""".stripMargin)

  @Test def callsOnThisThatTheEffectAnalysisMakesDirectAreStillChecked(): Unit = {
    val ok = selfModel("SelfOk.abs", "    Int y = this.ping(41);\n    this.done();\n    println(\"pong \" + toString(y));")
    // Without the monitor these calls are plain JVM calls (the effect analysis: ping and done cannot suspend).
    val plainOut = dir.resolve("self-plain")
    assertEquals(Exit.Ok, abs("compile", "-d", plainOut.toString, ok).status)
    val plain = Files.readString(plainOut.resolve("Selfish.scala"), UTF_8)
    assertTrue(plain.contains("this.ping$now(AbsInt(41))") && plain.contains("this.done$now()"), plain)
    // With it, each is the checked step, run now (no scheduling point), and the direct forms are unused.
    val genOut = dir.resolve("self-gen")
    assertEquals(Exit.Ok, abs("compile", "--monitor", selfConf("self-gen.conf"), "-d", genOut.toString, ok).status)
    val gen = Files.readString(genOut.resolve("Selfish.scala"), UTF_8)
    assertTrue(gen.contains("val y: AbsInt = Proc.now({ val sent$1 = AbsInt(41); " +
      "cogs.absc.monitoring.AbsSessions.sync(this, this, List[Any](sent$1), \"" + path("SelfOk.abs") + ":8:18\")(Both.ping(sent$1)) })"), gen)
    assertTrue(gen.contains("Proc.now({ cogs.absc.monitoring.AbsSessions.sync(this, this, List[Any](), \"" + path("SelfOk.abs") + ":9:10\")(Both.done()) })"), gen)
    assertFalse(gen.contains("this.ping$now(") || gen.contains("this.done$now("), gen)

    val r = abs("run", "--cache-dir", cache.toString, "--monitor", selfConf("self-ok.conf"), ok)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("done after 1\npong 42\n", r.programOut)
    assertTrue(r.err.contains("session Inner#1 (Inner): complete"), r.err)

    // Out of turn: done before ping. Refused (the method does not run), the violation names the role, state and expected message.
    val bad = selfModel("SelfBad.abs", "    this.done();\n    Int y = this.ping(41);\n    println(\"pong \" + toString(y));")
    val b = abs("run", "--cache-dir", cache.toString, "--monitor", selfConf("self-bad.conf"), bad)
    assertEquals(Exit.Monitor, b.status, b.err)
    assertEquals("", b.programOut)
    assertTrue(b.err.contains("protocol violation in session Inner#1: role A in state 0 sent B!done() (at " + path("SelfBad.abs") + ":8:10); expected B!ping(Int)"), b.err)
    assertTrue(b.err.contains("sessions verdict: 1 violation(s)"), b.err)
  }
}
