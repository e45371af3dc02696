package cogs.absc.driver

import cogs.absc.driver.DriverTestSupport._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * Issue 28, item 1: nothing fails silently at the end of an ABS run. Each test runs a model through
 * `absc run` whose failure or stuck process used to leave no word (exit 0, empty stderr), and
 * checks what the end-of-run report says, that the exit status stays 0 unless `--strict` (then 4),
 * and that `--no-end-report` leaves it out. Also: a deadlock names the failure it may come from
 * first, objects are named by class and creation site, and a blocking `get` by its line.
 */
class EndReportTest {

  private def run(name: String, text: String, options: String*): AbscResult = {
    val dir = tempDir("absc-end")
    val f = absFile(dir, name, text)
    absc(AbsBackend, (List("run", "--no-cache") ++ options :+ f): _*)
  }

  private val Failing =
    """module OneWay;
      |interface I { Unit m(Int x); }
      |class C implements I {
      |  Unit m(Int x) { assert x > 0; }
      |}
      |{
      |  I o = new C();
      |  o!m(0);
      |  println("done");
      |}
      |""".stripMargin

  @Test def aOneWayCallThatFailsIsReportedAndTheStatusStaysZero(): Unit = {
    val r = run("oneway", Failing)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("done\n", r.programOut)
    assertTrue(r.err.contains("absc: 1 process failed and nobody read the failure:\n" +
      "  C.m (object created at oneway.abs:7:9) failed: uncaught exception AssertionFailException: "), r.err)
    assertTrue(r.err.contains("oneway.abs:4:19 (its future was not kept)"), r.err)
    assertTrue(r.err.contains("--strict makes it 4, --no-end-report leaves this report out"), r.err)
    assertFalse(r.err.contains("\tat "), r.err)
  }

  @Test def strictMakesItStatusFourAndTheFlagSilencesIt(): Unit = {
    val strict = run("oneway", Failing, "--strict")
    assertEquals(4, strict.status, strict.err)
    assertTrue(strict.err.contains("C.m (object created at oneway.abs:7:9) failed"), strict.err)
    val quiet = run("oneway", Failing, "--no-end-report")
    assertEquals(Exit.Ok, quiet.status, quiet.err)
    assertEquals("", quiet.err)
    assertEquals("done\n", quiet.programOut)
    val both = run("oneway", Failing, "--no-end-report", "--strict")
    assertEquals(4, both.status, "--strict still decides the status when the report is left out")
  }

  @Test def absTestTakesStrictAndNoEndReport(): Unit = {
    val dir = tempDir("absc-end-test")
    val f = absFile(dir, "onewaytest", Failing.replace("println(\"done\");", "Bool testresult = True;"))
    def test(options: String*) = absc(AbsBackend, (List("test", "--no-cache") ++ options :+ f): _*)
    val plain = test()
    assertEquals(Exit.Ok, plain.status, plain.err)
    assertEquals(s"PASS $f\n1 passed, 0 failed\n", plain.out)
    assertEquals("", plain.err, "a passing test's end report is not shown without -v")
    val strict = test("--strict")
    assertEquals(Exit.Failure, strict.status, strict.err)
    assertEquals(s"FAIL $f: --strict: 1 process failed unobserved\n0 passed, 1 failed\n", strict.out)
    assertTrue(strict.err.contains("C.m (object created at onewaytest.abs:7:9) failed"), strict.err)
    val verbose = test("-v", "--no-end-report")
    assertEquals(Exit.Ok, verbose.status, verbose.err)
    assertFalse(verbose.err.contains("nobody read the failure"), verbose.err)
    val verboseReport = test("-v")
    assertTrue(verboseReport.err.contains("nobody read the failure"), verboseReport.err)
  }

  @Test def aFutureNobodyReadIsReportedOneThatWasReadIsNot(): Unit = {
    val r = run("kept",
      """module Kept;
        |exception Refused(Int);
        |interface I { Unit m(Int x); }
        |class C implements I {
        |  Unit m(Int x) { throw Refused(x); }
        |}
        |{
        |  I o = new C();
        |  I p = new C();
        |  Fut<Unit> unread = o!m(1);
        |  await unread?;
        |  Fut<Unit> read = p!m(2);
        |  try { read.get; } catch { Refused(n) => println("caught " + toString(n)); }
        |}
        |""".stripMargin)
    assertEquals(Exit.Ok, r.status, r.err)
    assertEquals("caught 2\n", r.programOut)
    assertTrue(r.err.contains("absc: 1 process failed and nobody read the failure:\n" +
      "  C.m (object created at kept.abs:8:9) failed: uncaught exception Refused(1) (thrown at "), r.err)
    assertTrue(r.err.contains("kept.abs:5:19)\n"), r.err)
    assertFalse(r.err.contains("kept.abs:9:9"), s"the failure that was read is not reported:\n${r.err}")
  }

  @Test def processesStillWaitingAtTheEndAreNamedWithWhatTheyWaitFor(): Unit = {
    val r = run("waiting",
      """module Waiting;
        |interface Door { Unit pass(); }
        |class DoorImpl implements Door {
        |  Bool open = False;
        |  Unit pass() { await open; }
        |}
        |{
        |  Door d = new DoorImpl();
        |  d!pass();
        |  d!pass();
        |}
        |""".stripMargin)
    assertEquals(Exit.Ok, r.status, r.err)
    assertTrue(r.err.contains("absc: the program ended with 2 processes still waiting:\n"), r.err)
    val line = "COG of DoorImpl created at waiting.abs:8:12: DoorImpl.pass (object created at waiting.abs:8:12) awaits condition 'waiting.abs:5:23'"
    assertEquals(2, r.err.split("\n").count(_.trim == line), r.err)
    assertEquals(4, run("waiting2", "module W2;\ninterface D { Unit p(); }\nclass E implements D { Bool b = False; Unit p() { await b; } }\n{ D d = new E(); d!p(); }\n", "--strict").status)
  }

  @Test def aDeadlockNamesTheFailureItMayComeFromFirst(): Unit = {
    // A bounded buffer of two places whose one consumer fails at its third item: the main block
    // blocks in a `put` for good. The failure used to be missing from the report.
    val r = run("buffer",
      """module Buffer;
        |interface Buf { Unit put(Int i); Int take(); }
        |class BufImpl(Int size) implements Buf {
        |  List<Int> items = Nil;
        |  Unit put(Int i) { await length(items) < size; items = appendright(items, i); }
        |  Int take() { await items != Nil; Int h = head(items); items = tail(items); return h; }
        |}
        |interface Consumer { Unit consume(); }
        |class ConsumerImpl(Buf b) implements Consumer {
        |  Unit consume() {
        |    Int n = 0;
        |    while (True) {
        |      Int x = await b!take();
        |      n = n + 1;
        |      assert n < 3;
        |    }
        |  }
        |}
        |{
        |  Buf b = new BufImpl(2);
        |  Consumer c = new ConsumerImpl(b);
        |  c!consume();
        |  Int i = 0;
        |  while (i < 10) { b.put(i); i = i + 1; }
        |}
        |""".stripMargin)
    assertEquals(Exit.Failure, r.status, r.err)
    val failed = r.err.indexOf("ConsumerImpl.consume (object created at buffer.abs:21:16) failed: uncaught exception AssertionFailException: ")
    val waiting = r.err.indexOf("BufImpl.put (object created at buffer.abs:20:11) awaits condition 'buffer.abs:5:27'")
    assertTrue(r.err.startsWith("absc: deadlock: "), r.err)
    assertTrue(failed > 0 && waiting > failed, s"the failure comes first:\n${r.err}")
    assertTrue(r.err.contains("buffer.abs:15:7"), s"the assert's position:\n${r.err}")
    // Reported once: the end-of-run report does not repeat what the deadlock report said.
    assertEquals(1, "ConsumerImpl.consume".r.findAllMatchIn(r.err).size, r.err)
  }

  @Test def aBlockingGetNamesItsLine(): Unit = {
    val r = run("get",
      """module Get;
        |interface I { Unit m(); }
        |class C implements I { Bool b = False; Unit m() { await b; } }
        |{
        |  I o = new C();
        |  Fut<Unit> f = o!m();
        |  f.get;
        |}
        |""".stripMargin)
    assertEquals(Exit.Failure, r.status, r.err)
    assertTrue(r.err.contains("COG of main: main.main blocks its COG in get at get.abs:7:5, waiting for the future of " +
      "C.m (object created at get.abs:5:9)"), r.err)
  }
}
