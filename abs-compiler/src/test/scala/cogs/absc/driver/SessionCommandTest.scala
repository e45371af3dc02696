package cogs.absc.driver

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * `absc run/compile --monitor` with a `sessions` section (issue 11, point 6): the Purchase example
 * of examples/sessions run end to end (the fixed model passes, the buggy one is caught, exit 3,
 * summary and JSON lines), only mapped calls instrumented, sessions made as objects are created,
 * and every configuration error located in the configuration or the protocol file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionCommandTest {

  private var dir: Path = _
  private var cache: Path = _
  private val example = Paths.get("..", "examples", "sessions").toAbsolutePath.normalize

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-sessions")
    cache = dir.resolve("cache")
    Files.copy(example.resolve("purchase.scr"), dir.resolve("purchase.scr"))
  }

  private def abs(args: String*): AbscResult = absc(AbsBackend, args: _*)
  private def ex(name: String): String = example.resolve(name).toString
  private def file(name: String, text: String): String = {
    val f = dir.resolve(name)
    Files.writeString(f, text, UTF_8)
    f.toString
  }

  private val exampleConf: String = Files.readString(example.resolve("purchase.conf"), UTF_8)

  /** The example's configuration, in the test directory (its protocol file copied there), with `edit` applied. */
  private def conf(name: String, edit: String => String = identity): String =
    file(name, edit(exampleConf.replace("\"target/purchase-sessions.jsonl\"",
      "\"" + dir.resolve(s"$name.jsonl").toString.replace("\\", "/") + "\"")))

  /** The pipeline's `result` lines (one expected). */
  private def resultLine(json: List[String]): List[String] = json.filter(_.startsWith("{\"type\":\"result\""))
  private def exitStatus(line: String): Int = "\"exit-status\":(\\d+)".r.findFirstMatchIn(line).map(_.group(1).toInt).getOrElse(-1)

  @Test def theFixedPurchasePasses(): Unit = {
    val c = conf("fixed.conf")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", c, ex("Purchase.abs"))
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("alice is quoted 42 for a book\n", r.programOut)
    assertTrue(r.err.contains("cogs sessions: 1 session, 0 violations, 0 roles not finished"), r.err)
    assertTrue(r.err.contains("session Purchase#1 (Purchase): complete"), r.err)
    assertTrue(r.err.contains("sessions verdict: every session complete (exit status 0)"), r.err)
    val json = Files.readString(dir.resolve("fixed.conf.jsonl"), UTF_8)
    assertTrue(json.contains("{\"type\":\"sessions-result\",\"sessions\":1,\"violations\":0,\"unfinished-roles\":0,\"exit-status\":0}"), json)
    assertEquals(List(0), resultLine(json.linesIterator.toList).map(exitStatus), json)
    assertTrue(r.err.contains("verdict: no violation (exit status 0)"), r.err)
  }

  @Test def theBuggyPurchaseIsCaught(): Unit = {
    val c = conf("buggy.conf")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", c, ex("PurchaseBuggy.abs"))
    assertEquals(Exit.Monitor, r.status, r.err)
    // The request is refused at the buyer (policy reject): its future fails, no quote is printed.
    assertEquals("", r.programOut)
    // An asynchronous call's violation names its ABS position (issue 28).
    assertTrue(r.err.contains("protocol violation in session Purchase#1: role B in state 1 sent S!request(String) (at " +
      ex("PurchaseBuggy.abs") + ":50:25); expected A?authenticate(String)"), r.err)
    assertTrue(r.err.contains("B (BuyerImpl created at PurchaseBuggy.abs:"), r.err)
    assertTrue(r.err.contains("not finished, stopped in state 2 waiting for S!buy(String) or S!quit() or S!request(String)"), r.err)
    assertTrue(r.err.contains("sessions verdict: 1 violation(s), 2 role(s) not finished (exit status 3)"), r.err)
    val json = Files.readString(dir.resolve("buggy.conf.jsonl"), UTF_8).linesIterator.toList
    assertTrue(json.exists(l => l.startsWith("{\"type\":\"session-violation\"") && l.contains("\"role\":\"B\"") &&
      l.contains("\"received\":\"S!request(String)\"")), json.mkString("\n"))
    assertEquals("{\"type\":\"sessions-result\",\"sessions\":1,\"violations\":1,\"unfinished-roles\":2,\"exit-status\":3}", json.last)
    // The pipeline's own `result` line (no property is configured, so no property violation) gives
    // the run's status too, not 0: a tool reading it alone must not take the run for a pass.
    val result = resultLine(json)
    assertEquals(List(3), result.map(exitStatus), json.mkString("\n"))
    assertTrue(result.head.contains("\"violations\":0"), result.head)
    assertTrue(json.indexOf(result.head) < json.indexWhere(_.startsWith("{\"type\":\"sessions-result\"")), json.mkString("\n"))
    assertTrue(r.err.contains("verdict: no property violation, but the run fails for a reason reported outside the monitors (exit status 3)"), r.err)
    assertFalse(r.err.contains("(exit status 0)"), r.err)

    // Under policy log, the same bug is reported but the request goes through.
    val logged = conf("logged.conf", _.replace("policy = reject", "policy = log"))
    val l = abs("run", "--cache-dir", cache.toString, "--monitor", logged, ex("PurchaseBuggy.abs"))
    assertEquals(Exit.Monitor, l.status, l.err)
    assertEquals("alice is quoted 42 for a book\n", l.programOut)
    assertTrue(l.err.contains("role B in state 1 sent S!request(String) (at " + ex("PurchaseBuggy.abs") + ":50:25)"), l.err)

    // Without the monitor the buggy model runs unchecked.
    val plain = abs("run", "--cache-dir", cache.toString, ex("PurchaseBuggy.abs"))
    assertEquals(Exit.Ok, plain.status, plain.err)
    assertFalse(plain.err.contains("cogs sessions"), plain.err)
  }

  @Test def onlyMappedCallsAndBoundClassesAreInstrumented(): Unit = {
    val out = dir.resolve("gen")
    val c = conf("gen.conf")
    val r = abs("compile", "--monitor", c, "-d", out.toString, ex("Purchase.abs"))
    assertEquals(Exit.Ok, r.status, r.err)
    val model = Files.readString(out.resolve("Purchase.scala"), UTF_8)
    // login (B to S, S to A), authenticate (A to S and B), request (B to S): five call sites
    assertEquals(5, "AbsSessions.send\\(".r.findAllIn(model).size, model)
    // the main block's calls (meet, start) are not messages; the three objects join a session
    assertEquals(3, "AbsSessions.created\\(".r.findAllIn(model).size, model)
    assertFalse("AbsSessions.send\\([^\n]*\\.meet\\(".r.findFirstIn(model).isDefined, model)
    val main = Files.readString(out.resolve("absmodel_main/Main.scala"), UTF_8)
    // The protocol's text is embedded: the compiled program needs no .scr file.
    assertTrue(main.contains("global protocol Purchase"), main)
  }

  @Test def objectsJoinSessionsAsTheyAreCreated(): Unit = {
    // Two buyers, sellers and authenticators: two sessions; a third buyer has no partners, so its
    // session never starts and the report says which roles had no object.
    val model = Files.readString(example.resolve("Purchase.abs"), UTF_8).replace(
      "  await a!meet(s, b);\n  b!start();\n}",
      "  await a!meet(s, b);\n  b!start();\n" +
      "  Authenticator a2 = new AuthImpl();\n  Seller s2 = new SellerImpl(a2);\n  Buyer b2 = new BuyerImpl(s2);\n" +
      "  await a2!meet(s2, b2);\n  b2!start();\n  Buyer b3 = new BuyerImpl(s);\n}")
    val f = file("Two.abs", model)
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", conf("two.conf"), f)
    assertEquals(Exit.Monitor, r.status, r.err)
    assertEquals("alice is quoted 42 for a book\nalice is quoted 42 for a book\n", r.programOut)
    assertTrue(r.err.contains("cogs sessions: 3 sessions, 0 violations, 2 roles not finished"), r.err)
    assertTrue(r.err.contains("session Purchase#1 (Purchase): complete"), r.err)
    assertTrue(r.err.contains("session Purchase#2 (Purchase): complete"), r.err)
    assertTrue(r.err.contains("session Purchase#3 (Purchase): never started: no object plays S, A"), r.err)
  }

  @Test def aCallToTheRoleOfAnotherSessionIsAViolation(): Unit = {
    // The second buyer logs in at the first session's seller.
    val model = Files.readString(example.resolve("Purchase.abs"), UTF_8).replace(
      "  await a!meet(s, b);\n  b!start();\n}",
      "  await a!meet(s, b);\n  b!start();\n" +
      "  Authenticator a2 = new AuthImpl();\n  Seller s2 = new SellerImpl(a2);\n  Buyer b2 = new BuyerImpl(s);\n" +
      "  await a2!meet(s2, b2);\n  b2!start();\n}")
    val f = file("Cross.abs", model)
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", conf("cross.conf"), f)
    assertEquals(Exit.Monitor, r.status, r.err)
    assertTrue(r.err.contains("protocol violation in session Purchase#2: role B in state 0 sent S!login(String) (the callee SellerImpl created at Cross.abs:"), r.err)
    assertTrue(r.err.contains("plays S in session Purchase#1, not in this one"), r.err)
    assertTrue(r.err.contains(s", at $f:47:12)"), r.err) // the asynchronous call's ABS position
  }

  @Test def configurationErrorsAreLocated(): Unit = {
    def check(name: String, edit: String => String, expected: String*): Unit = {
      val c = conf(name, edit)
      val r = abs("compile", "--monitor", c, "-d", dir.resolve(s"out-$name").toString, ex("Purchase.abs"))
      assertEquals(Exit.Compile, r.status, s"$name: ${r.err}")
      expected.foreach(e => assertTrue(r.err.contains(e.replace("CONF", c)), s"$name: expected '${e.replace("CONF", c)}' in\n${r.err}"))
      assertFalse(r.err.contains("\tat "), s"$name: a stack trace\n${r.err}")
    }
    check("protocol.conf", _.replace("protocol = Purchase", "protocol = Purchse"),
      "CONF:7: error: sessions[0].protocol: ", "has no protocol 'Purchse' (it has: Purchase)")
    check("role.conf", _.replace("A = AuthImpl", "A = AuthImpl, C = BuyerImpl"),
      "CONF:9: error: sessions[0].roles.C: protocol Purchase has no role 'C' (its roles: B, S, A)")
    check("unbound.conf", _.replace(", A = AuthImpl", ""), "CONF:9: error: sessions[0].roles: role 'A' of Purchase is not bound to a class")
    check("class.conf", _.replace("S = SellerImpl", "S = Seler"),
      "CONF:9:1: error: sessions: role S of Purchase is bound to class 'Seler', which the model does not have")
    check("method.conf", _.replace("request = request", "request = reqest"),
      "CONF:15:1: error: sessions: message request goes to role S (class SellerImpl), which has no method 'reqest'")
    check("label.conf", _.replace("buy = buy", "by = buy"), "CONF:17: error: sessions[0].messages.\"by\": protocol Purchase has no message 'by'")
    check("ambiguous.conf", _.replace("\"login from B to S\" = login", "login = login"),
      "CONF:11: error: sessions[0].messages.\"login\": label 'login' is used by several messages of Purchase")
    check("policy.conf", _.replace("policy = reject", "policy = rejct"), "CONF:8: error: sessions[0].policy: unknown violation policy 'rejct'")
    check("reply.conf", _.replace("quote = { reply-to = request }", "quote = { reply-to = \"login from S to A\" }"),
      "CONF:16: error: sessions[0].messages.\"quote\".reply-to: the reply quote(Int) from S to B must go back from the receiver of the request (login(String) from S to A)")
    check("file.conf", _.replace("\"purchase.scr\"", "\"nope.scr\""), "CONF:6: error: sessions[0].file: cannot read")
    val broken = file("broken.scr", "module m;\nglobal protocol P(role A, role B) {\n  hello() from A to C;\n}\n")
    check("broken.conf", _.replace("\"purchase.scr\"", "\"broken.scr\""),
      s"$broken:3:21: error: role 'C' is not declared", "CONF:6: error: sessions[0].file: the protocol file has errors")
  }

  // ------------------------------------------------------------------ the main block plays a role

  private val countScr =
    """module counting;
      |type <java> "cogs.absc.lib.AbsInt" from "cogs" as Int;
      |global protocol Count(role C, role K) {
      |  rec Loop {
      |    choice at C {
      |      add(Int) from C to K;
      |      continue Loop;
      |    } or {
      |      total() from C to K;
      |      sum(Int) from K to C;
      |    }
      |  }
      |}
      |""".stripMargin

  private def countConf(name: String, messages: String = "add = add, total = total, sum = { reply-to = total }"): String = {
    file("count.scr", countScr)
    file(name,
      s"""cogs.monitor {
         |  observe.classes = []
         |  sessions = [{
         |    file = "count.scr"
         |    protocol = Count
         |    roles { C = main, K = Counter }
         |    messages { $messages }
         |  }]
         |}
         |""".stripMargin)
  }

  private def countModel(name: String, mainBlock: String): String = file(name,
    s"""module Counting;
       |interface K { Unit add(Int n); Int total(); }
       |class Counter implements K {
       |  Int s = 0;
       |  Unit add(Int n) { s = s + n; }
       |  Int total() { return s; }
       |}
       |{
       |$mainBlock
       |}
       |""".stripMargin)

  @Test def theMainBlockPlaysARole(): Unit = {
    val m = countModel("CountOk.abs", "  K k = new Counter();\n  k!add(1);\n  k!add(2);\n  Int t = await k!total();\n  println(\"total \" + toString(t));")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", countConf("count-ok.conf"), m)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("total 3\n", r.programOut)
    assertTrue(r.err.contains("session Count#1 (Count): complete"), r.err)
    assertTrue(r.err.contains("C (main): finished"), r.err)
    // The main block's calls are the messages; it is named by the runtime's object for it.
    val out = dir.resolve("count-gen")
    assertEquals(Exit.Ok, abs("compile", "--monitor", countConf("count-gen.conf"), "-d", out.toString, m).status)
    val main = Files.readString(out.resolve("Counting.scala"), UTF_8)
    assertEquals(3, "AbsSessions.send\\(Cogs.self".r.findAllIn(main).size, main)
  }

  @Test def theMainBlockBreakingTheProtocolIsCaught(): Unit = {
    // After the total, the protocol is over: a further add is refused at the main block.
    val late = countModel("CountLate.abs",
      "  K k = new Counter();\n  k!add(1);\n  Int t = await k!total();\n  Fut<Unit> f = k!add(2);\n  f.get;\n  println(\"unreachable\");")
    val r = abs("run", "--cache-dir", cache.toString, "--monitor", countConf("count-late.conf"), late)
    // The refused call's future fails with the violation (policy reject), so the main block's get does.
    assertEquals(Exit.Monitor, r.status, r.err)
    assertEquals("", r.programOut)
    assertTrue(r.err.contains("protocol violation in session Count#1: role C in state"), r.err)
    assertTrue(r.err.contains("sent K!add(Int)"), r.err)
    // A main block that stops halfway leaves its role unfinished, and the report says where.
    val half = countModel("CountHalf.abs", "  K k = new Counter();\n  k!add(1);")
    val h = abs("run", "--cache-dir", cache.toString, "--monitor", countConf("count-half.conf"), half)
    assertEquals(Exit.Monitor, h.status, h.err)
    assertTrue(h.err.contains("C (main): not finished, stopped in state"), h.err)
    assertTrue(h.err.contains("waiting for K!add(Int) or K!total()"), h.err)
  }

  @Test def aMessageToTheMainBlockMustBeAReply(): Unit = {
    val m = countModel("CountConf.abs", "  K k = new Counter();")
    val c = countConf("count-bad.conf", "add = add, total = total, sum = total")
    val r = abs("compile", "--monitor", c, "-d", dir.resolve("count-bad").toString, m)
    assertEquals(Exit.Compile, r.status, r.err)
    assertTrue(r.err.contains(s"$c:7: error: sessions[0].messages: message sum(Int) from K to C goes to role C, which the main block plays;"), r.err)
    assertFalse(r.err.contains("\tat "), r.err)
  }
}
